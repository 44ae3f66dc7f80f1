"""The site's replay pages made while the folder is read (from the one parse and the one
referee run that give each game's facts, issue 38) are the pages the site makes itself,
byte for byte, and the facts are the ones read without pages."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import pytest

from allfours_notation.events.eventfile import read_event_file
from allfours_notation.events.games import read_folder
from allfours_notation.events.report import build_report
from allfours_notation.events.site import site_pages
from allfours_notation.generate import Knobs, generate_game, profile_options, write_afn
from allfours_notation.reading.records import Tag

SAMPLES = Path(__file__).resolve().parents[2] / "samples" / "event"


def both_ways(folder: Path, games: Path) -> tuple[dict[str, str | None], dict[str, str | None],
                                                  int]:
    """The site made as before (pages made by the site) and with the reading's pages; and
    how many of the reading's pages the site used."""
    event = read_event_file(folder / "EVENT.toml").event
    assert event is not None
    plain = read_folder(games, event.given_rules)
    paged = read_folder(games, event.given_rules, pages=True)
    assert paged.games == plain.games  # the same facts, from the one referee run
    assert paged.unreadable == plain.unreadable
    assert plain.pages == ()
    before = site_pages(build_report(event, plain))
    after = site_pages(build_report(event, paged), premade=paged.pages)
    used = sum(1 for page in paged.pages if before.get(page.name) == page.html)
    return before, after, used


def test_two_tables_of_the_sample_clubs_site_are_the_same_with_the_readings_pages(
        tmp_path: Path) -> None:
    """The club sample's event with two of its twelve tables (the whole sample, 72
    games, is test_site_premade_slow.py's; the generated games below are the other
    representative)."""
    source = SAMPLES / "club"
    (tmp_path / "EVENT.toml").write_bytes((source / "EVENT.toml").read_bytes())
    (tmp_path / "games").mkdir()
    for path in sorted((source / "games").glob("*.afn"))[:2]:
        (tmp_path / "games" / path.name).write_bytes(path.read_bytes())
    before, after, used = both_ways(tmp_path, tmp_path / "games")
    assert after == before
    assert used == sum(1 for page in before if page.startswith("game-")) >= 12


def test_generated_games_sites_are_the_same_with_the_readings_pages(tmp_path: Path) -> None:
    rng = random.Random(38)
    options = profile_options("trinidad14")
    knobs = Knobs(comments=0.3, glyphs=0.3, hands=0.3)
    (tmp_path / "EVENT.toml").write_text(
        '[event]\nname = "Generated"\nrules = "trinidad14"\n\n[match]\nrule = "games"\n'
        'games = 6\n\n[[team]]\nname = "A"\nplayers = ["A1", "A2"]\n\n'
        '[[team]]\nname = "B"\nplayers = ["B1", "B2"]\n', encoding="utf-8")
    (tmp_path / "games").mkdir()
    made = []
    for index in range(1, 7):
        game = generate_game(rng, options, knobs, profile="trinidad14")
        tags = (Tag(name="Rules", value="trinidad14"), Tag(name="Table", value="1"),
                Tag(name="HomeTeam", value="A"), Tag(name="AwayTeam", value="B"),
                Tag(name="North", value="A1"), Tag(name="South", value="A2"),
                Tag(name="East", value="B1"), Tag(name="West", value="B2"),
                Tag(name="Result", value=game.tag("Result") or "*"))
        made.append(write_afn(replace(game, tags=tags, index=index), version_line=False))
    (tmp_path / "games" / "t1.afn").write_text("% AFN 1\n" + "\n".join(made), "utf-8")
    before, after, used = both_ways(tmp_path, tmp_path / "games")
    assert after == before
    assert used == 6
    # a page the site's folder holds already is not made again, and the facts stay
    event = read_event_file(tmp_path / "EVENT.toml").event
    assert event is not None
    plain = read_folder(tmp_path / "games", event.given_rules)
    first = sorted(name for name in before if name.startswith("game-"))[0]
    paged = read_folder(tmp_path / "games", event.given_rules, pages=True,
                        kept=frozenset({first}))
    assert paged.games == plain.games
    assert [page.name for page in paged.pages] == [
        name for name in (page.name for page in read_folder(
            tmp_path / "games", event.given_rules, pages=True).pages) if name != first]


def test_a_page_whose_text_the_site_reads_otherwise_is_made_by_the_site(tmp_path: Path
                                                                        ) -> None:
    """A file with a byte-order mark decodes without it, but the site reads it with it:
    the reading makes no page for it, and the site makes its own."""
    source = SAMPLES / "club"
    (tmp_path / "EVENT.toml").write_bytes((source / "EVENT.toml").read_bytes())
    (tmp_path / "games").mkdir()
    for path in sorted((source / "games").glob("*.afn"))[:2]:
        (tmp_path / "games" / path.name).write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    event = read_event_file(tmp_path / "EVENT.toml").event
    assert event is not None
    paged = read_folder(tmp_path / "games", event.given_rules, pages=True)
    assert paged.pages == ()
    before, after, _ = both_ways(tmp_path, tmp_path / "games")
    assert after == before
    assert any(name.startswith("game-") for name in after)


@pytest.mark.parametrize("path", sorted((SAMPLES.parent).glob("*.afn")), ids=lambda p: p.name)
def test_one_referee_run_finds_what_check_finds(path: Path) -> None:
    """``check_with_changes`` explains the stepping replay's findings as ``check`` explains
    its own: the same diagnostics (numbered and linked alike), scores and winner."""
    from allfours_notation.checking import check, check_with_changes
    from allfours_notation.checking.parsing import parse

    for game in parse(path.read_text(encoding="utf-8"), filename=path.name).games:
        alone = check(game, ("trinidad14", {}))
        together, changes = check_with_changes(game, ("trinidad14", {}))
        assert together.diagnostics == alone.diagnostics
        assert together.has_errors == alone.has_errors
        assert (together.replay is None) == (alone.replay is None)
        if alone.replay is not None and together.replay is not None:
            assert together.replay.scores == alone.replay.scores
            assert together.replay.winner == alone.replay.winner
            assert together.replay.deals == alone.replay.deals
            assert changes is not None


def test_a_file_changed_after_the_reading_gets_the_sites_own_pages(tmp_path: Path) -> None:
    """The reading's pages are taken whole where the file still holds the text they were
    made from (no scan of the file, no name made again); a file changed since gets the
    pages the site makes from its new text, never the reading's."""
    source = SAMPLES / "club"
    (tmp_path / "EVENT.toml").write_bytes((source / "EVENT.toml").read_bytes())
    (tmp_path / "games").mkdir()
    path = sorted((source / "games").glob("*.afn"))[0]
    copied = tmp_path / "games" / path.name
    copied.write_bytes(path.read_bytes())
    event = read_event_file(tmp_path / "EVENT.toml").event
    assert event is not None
    paged = read_folder(tmp_path / "games", event.given_rules, pages=True)
    assert paged.pages
    text = copied.read_text(encoding="utf-8")
    copied.write_text(text.replace("deal 1 ", "{ a note }\ndeal 1 ", 1), encoding="utf-8")
    fresh = site_pages(build_report(event, read_folder(tmp_path / "games", event.given_rules)))
    after = site_pages(build_report(event, paged), premade=paged.pages)
    made = {name for name in after if name.startswith("game-")}
    assert made == {name for name in fresh if name.startswith("game-")}
    assert paged.pages[0].name not in made  # the first game's text changed: a new name
    assert {page.name for page in paged.pages[1:]} <= made  # the others' are the same
