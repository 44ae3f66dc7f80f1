"""``allfours event check``'s findings about the games (AFN650-AFN663): each fires, at the
game's file and line, and no game is dropped; and the match rules count what they say."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from allfours_notation.events.assemble import Assembled, assemble
from allfours_notation.events.eventfile import Event, read_event_text
from allfours_notation.events.games import read_folder, read_one
from allfours_notation.generate import Knobs, generate_game, profile_options, write_afn
from allfours_notation.reading.records import Game, Tag
from tests.events.make_samples import tagged

EVENT = """\
[event]
name = "Small night"
rules = "trinidad14"

[event.forfeits]
renege = true

[match]
rule = "{rule}"
target = {target}
games = {games}

[[team]]
name = "Red"
division = "A"
players = ["Ann", "Ben", "Cora", "Dev"]
pairs = [["Ann", "Ben"], ["Cora", "Dev"]]
substitutes = ["Sub"]

[[team]]
name = "Blue"
division = "A"
players = ["Eli", "Fay", "Gus", "Hal"]

[[round]]
name = "1"
match = [{{ home = "Red", away = "Blue", tables = 2 }}]
"""
PAIRS = {("Red", 1): ("Ann", "Ben"), ("Red", 2): ("Cora", "Dev"),
         ("Blue", 1): ("Eli", "Fay"), ("Blue", 2): ("Gus", "Hal")}
KNOBS = Knobs(hands=0.0, comments=0.0, glyphs=0.0)


def event_of(rule: str = "games", target: int = 3, games: int = 2) -> Event:
    found = read_event_text(EVENT.format(rule=rule, target=target, games=games))
    assert found.diagnostics == () and found.event is not None
    return found.event


def games(seed: int, count: int, table: int, knobs: Knobs = KNOBS,
          changes: dict[str, str] | None = None) -> list[Game]:
    """``count`` games of table ``table`` of Red v Blue, round 1, with tags changed."""
    return [with_tags(game, **(changes or {})) for game in _generated(seed, count, table, knobs)]


@functools.cache
def _generated(seed: int, count: int, table: int, knobs: Knobs) -> tuple[Game, ...]:
    """The games of :func:`games` before their tags are changed, generated once per
    process: the event tests of eight modules ask for the same few seeds again and again
    (a game is an immutable value, so one made is as good as one made again)."""
    rng = random.Random(seed)
    return tuple(tagged(generate_game(rng, profile_options("trinidad14"), knobs,
                                      profile="trinidad14", index=index),
                        event="Small night", date="2026.11.21", round_name="1", table=table,
                        home="Red", away="Blue", home_pair=PAIRS[("Red", table)],
                        away_pair=PAIRS[("Blue", table)], home_ns=table == 1)
                 for index in range(1, count + 1))


def with_tags(game: Game, **changes: str) -> Game:
    tags = [replace(t, value=changes[t.name]) if t.name in changes else t for t in game.tags
            if changes.get(t.name) != ""]
    tags += [Tag(name=n, value=v) for n, v in changes.items()
             if v and n not in {t.name for t in game.tags}]
    return replace(game, tags=tuple(tags))


def write(folder: Path, name: str, made: list[Game], edit: Callable[[str], str] = str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    text = "% AFN 1\n" + "\n".join(write_afn(g, version_line=False) for g in made)
    (folder / name).write_text(edit(text), encoding="utf-8")


def run(event: Event, folder: Path) -> Assembled:
    return assemble(event, read_folder(folder, event.given_rules))


def codes(assembled: Assembled) -> list[tuple[str, str | None, int | None]]:
    return [(d.code, d.file and Path(d.file).name, d.game) for d in assembled.diagnostics]


def test_a_clean_match_has_no_findings(tmp_path: Path) -> None:
    write(tmp_path, "t1.afn", games(1, 2, 1))
    write(tmp_path, "t2.afn", games(2, 2, 2))
    found = run(event_of(), tmp_path)
    assert found.diagnostics == () and found.unplaced == ()
    (match,) = found.matches
    assert [len(t.games) for t in match.tables] == [2, 2] and match.finished
    assert match.home_points + match.away_points == 4


@pytest.mark.parametrize(("changes", "code"), [
    ({"Table": ""}, "AFN650"),
    ({"HomeTeam": ""}, "AFN650"),
    ({"AwayTeam": "Green"}, "AFN651"),
    ({"Round": "7"}, "AFN652"),
    ({"Match": "the final"}, None),  # a [Match] tag the schedule does not name is kept
    ({"Table": "three"}, "AFN653"),
    ({"Table": "3"}, "AFN653"),
    ({"North": "Zed"}, "AFN654"),
    ({"North": "Cora", "South": "Dev"}, "AFN654"),  # both pairs of Red
    ({"West": ""}, "AFN654"),
])
def test_a_game_out_of_place_is_reported_and_kept(tmp_path: Path, changes: dict[str, str],
                                                  code: str | None) -> None:
    write(tmp_path, "t1.afn", games(1, 2, 1))
    write(tmp_path, "t2.afn", [*games(2, 1, 2), *games(3, 1, 2, changes=changes)])
    found = run(event_of(), tmp_path)
    if code is None:
        assert found.diagnostics == ()
        return
    assert codes(found)[0] == (code, "t2.afn", 2)
    assert found.diagnostics[0].line is not None and found.diagnostics[0].hint
    if code != "AFN654" or "West" not in changes:
        assert [g.where for g in found.unplaced] == [f"{tmp_path / 't2.afn'}:2"]


def test_a_round_not_scheduled_for_these_teams_is_afn652(tmp_path: Path) -> None:
    text = EVENT.format(rule="games", target=3, games=2) + (
        '\n[[round]]\nname = "2"\nmatch = [{ home = "Blue", away = "Red" }]\n')
    event = read_event_text(text).event
    assert event is not None
    write(tmp_path, "t1.afn", games(1, 1, 1, changes={"Round": "2"}))
    assert [c for c, _, _ in codes(run(event, tmp_path))][:1] == ["AFN652"]


def test_an_unlisted_pair_is_a_warning_and_a_substitute_may_sit(tmp_path: Path) -> None:
    write(tmp_path, "t1.afn", games(1, 2, 1, changes={"North": "Ann", "South": "Cora"}))
    write(tmp_path, "t2.afn", games(2, 2, 2, changes={"East": "Sub"}))  # Sub & Dev for Red
    found = run(event_of(), tmp_path)
    assert [(c, n) for c, n, _ in codes(found)] == [("AFN654", "t1.afn")] * 2
    assert all(d.severity.value == "warning" for d in found.diagnostics)
    assert found.unplaced == () and found.matches[0].finished


def test_two_files_for_one_table_name_both_files(tmp_path: Path) -> None:
    write(tmp_path, "a.afn", games(1, 2, 1))
    write(tmp_path, "b.afn", games(5, 2, 1))
    write(tmp_path, "t2.afn", games(2, 2, 2))
    found = run(event_of(), tmp_path)
    assert [c for c, _, _ in codes(found)] == ["AFN655"]
    message = found.diagnostics[0].message
    assert "a.afn" in message and "b.afn" in message
    table = found.matches[0].tables[0]
    assert len(table.games) == 4 and [g.counts for g in table.games] == [
        True, True, False, False]


def test_tables_that_have_not_reported_are_named(tmp_path: Path) -> None:
    write(tmp_path, "t2.afn", games(2, 2, 2))
    found = run(event_of(), tmp_path)
    assert [(d.code, d.file, d.line) for d in found.diagnostics] == [
        ("AFN656", "EVENT.toml", 27)]
    assert "table 1 has not reported" in found.diagnostics[0].message
    assert found.matches[0].missing == (1,) and not found.matches[0].finished
    empty = run(event_of(), tmp_path / "nothing")
    assert "no table has reported" in empty.diagnostics[0].message


def test_a_game_the_referee_fails_does_not_count(tmp_path: Path) -> None:
    def misdeal(text: str) -> str:  # the first game's second deal cannot be read
        return text.replace("deal 2 dealer", "deal 2 dealt", 1)

    write(tmp_path, "t1.afn", games(11, 2, 1), misdeal)
    write(tmp_path, "t2.afn", games(2, 2, 2))
    found = run(event_of(), tmp_path)
    assert ("AFN657", "t1.afn", 1) in codes(found)
    counted = found.matches[0].tables[0].games[0]
    assert not counted.counts and (counted.why_not or "").startswith("fails the referee")


def test_an_unfinished_game_does_not_count(tmp_path: Path) -> None:
    made = games(1, 2, 1)
    made[1] = with_tags(replace(made[1], deals=made[1].deals[:1]), Result="*")
    write(tmp_path, "t1.afn", made)
    write(tmp_path, "t2.afn", games(2, 2, 2))
    found = run(event_of(), tmp_path)
    assert [c for c, _, _ in codes(found)] == ["AFN658"]
    assert found.matches[0].tables[0].games[1].why_not == "unfinished"


def test_a_renege_forfeits_the_game_where_the_event_says_so(tmp_path: Path) -> None:
    def declare(text: str) -> str:  # a revoke declared by North in the first deal
        lines = text.split("\n")
        second = next(i for i, line in enumerate(lines) if line.startswith("deal 2"))
        lines.insert(second - 1, "  penalty N revoke")
        return "\n".join(lines)

    quiet = Knobs(hands=0.0, comments=0.0, glyphs=0.0, claims=0.0, totals=0.0)
    write(tmp_path, "t1.afn", games(1, 1, 1, knobs=quiet), declare)
    write(tmp_path, "t2.afn", games(2, 1, 2))
    found = run(event_of(games=1), tmp_path)
    assert [(d.code, d.severity.value) for d in found.diagnostics] == [("AFN659", "info")]
    game = found.matches[0].tables[0].games[0]
    assert game.forfeit == "renege by NS in deal 1" and game.winner_side == "EW"
    assert (game.home_points, game.away_points) == (0, 1)  # Red sat N/S at table 1


def test_the_games_rule_counts_a_tables_games_and_reports_more(tmp_path: Path) -> None:
    write(tmp_path, "t1.afn", games(1, 3, 1))
    write(tmp_path, "t2.afn", games(2, 2, 2))
    found = run(event_of(games=2), tmp_path)
    assert [c for c, _, _ in codes(found)] == ["AFN660"]
    assert found.matches[0].tables[0].games[2].why_not == "beyond 2 games"


def test_the_event_rules_referee_every_game_and_another_rules_tag_is_afn661(
        tmp_path: Path) -> None:
    write(tmp_path, "t1.afn", games(1, 2, 1, changes={"Rules": "hoffmann1909"}))
    write(tmp_path, "t2.afn", games(2, 2, 2))
    found = run(event_of(), tmp_path)
    assert [c for c, _, _ in codes(found)] == ["AFN661", "AFN661"]
    assert found.matches[0].finished  # refereed under trinidad14 all the same


def test_best_of_stops_a_table_at_its_majority(tmp_path: Path) -> None:
    write(tmp_path, "t1.afn", games(1, 5, 1))
    write(tmp_path, "t2.afn", games(2, 5, 2))
    found = run(event_of(rule="best_of", target=3), tmp_path)
    for table in found.matches[0].tables:
        counted = [g for g in table.games if g.counts]
        wins = [sum(1 for g in counted if g.winner_home is side) for side in (True, False)]
        assert max(wins) == 2 and len(counted) == sum(wins)
        assert all(g.why_not == "best of 3 already decided" for g in table.games
                   if not g.counts)
    assert found.matches[0].finished


def test_an_unreadable_file_is_afn662() -> None:
    found = read_one(("no/such/file.afn", "file.afn", ("trinidad14", {})))
    assert not isinstance(found, list) and found.code == "AFN662"


def test_a_table_seated_otherwise_than_the_schedule_says(tmp_path: Path) -> None:
    text = EVENT.format(rule="games", target=3, games=2).replace(
        "tables = 2 }", 'tables = 2, seating = [{ table = 1, home = ["Ann", "Ben"], '
        'away = ["Eli", "Fay"] }, { table = 2, home = ["Cora", "Dev"], '
        'away = ["Gus", "Hal"] }] }')
    event = read_event_text(text).event
    assert event is not None and event.rounds[0].matches[0].seated(2) is not None
    write(tmp_path, "t1.afn", games(1, 2, 1))
    write(tmp_path, "t2.afn", games(2, 2, 2))
    assert run(event, tmp_path).diagnostics == ()
    write(tmp_path, "t2.afn", games(2, 2, 2, changes={"North": "Eli", "South": "Fay"}))
    write(tmp_path, "t1.afn", games(1, 2, 1, changes={"North": "Sub"}))  # Sub for Ann
    found = run(event, tmp_path)
    assert [(d.code, d.severity.value, Path(d.file or "").name) for d in found.diagnostics] == [
        ("AFN654", "warning", "t1.afn")] * 2 + [("AFN654", "error", "t2.afn")] * 2
    assert "the schedule seats Gus and Hal there" in found.diagnostics[2].message
