"""Results mode and the other side's confirmation (issue 25): a deal entered by its
results, one key per item and side; every deal confirmed, the deciding one too, or
disputed with a claim that is kept beside the computed result."""

from __future__ import annotations

import asyncio
import functools
from dataclasses import replace
from pathlib import Path

import pytest

from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Game, Tag
from allfours_notation.recording.entries import Phase
from allfours_notation.recording.opening import new_tags
from allfours_notation.recording.referee import is_unfinished
from allfours_notation.recording.script import results_keys, results_lines_of_game
from allfours_notation.recording.session import Session
from allfours_notation.referee import replay
from allfours_notation.referee.profiles import PROFILES, Options
from allfours_notation.referee.replay import check_game
from allfours_notation.referee.state import GameReplay
from tests.recording.app_helpers import recorder, send_keys, shown
from tests.recording.helpers import feed, file_problems, generated, start_file

CASES = [(profile, players) for profile in PROFILES for players in (2, 3, 4)]
# Typed key by key through the screen in the default suite: every profile and every
# number of players; the slow set types the other eight (test_results_mode_slow.py),
# and every case is entered line by line without the screen here.
TYPED_BY_DEFAULT = [("hoffmann1909", 2), ("english10", 3), ("foster", 4), ("trinidad14", 4)]
TYPED_IN_THE_SLOW_SET = [c for c in CASES if c not in TYPED_BY_DEFAULT]
FOUR = {"North": "Ann", "East": "Cal", "South": "Ben", "West": "Dee"}
TWO = {"North": "Ann", "South": "Ben"}


@functools.cache
def results_case(profile: str, players: int) -> tuple[Game, GameReplay]:
    """A case's generated game and its replay, made once per process: both tests of a
    case read the same (frozen) objects."""
    game = generated(profile, players, seed=5, target=7, beg=0.9, gift=0.4)
    return game, replay(game)


def in_results(game: Game) -> tuple[Tag, ...]:
    return (*game.tags, Tag(name="Entry", value="results"))


def totals(game: Game) -> dict[str, int]:
    return dict(replay(game).scores)


def keys_of(line: str, options: Options, players: int) -> list[str]:
    return results_keys(line, options, players)


@pytest.mark.parametrize(("profile", "players"), CASES)
def test_a_generated_game_typed_as_results_checks_clean_with_the_same_totals(
        profile: str, players: int) -> None:
    game, replayed = results_case(profile, players)
    session = Session(in_results(game))
    feed(session, results_lines_of_game(game, replayed))
    assert session.over
    written = parse(session.text()).games[0]
    assert all(deal.by_results for deal in written.deals)
    found = [d for d in (*written.diagnostics, *check_game(written)) if d.is_error]
    assert found == []
    assert totals(written) == dict(replayed.scores)
    assert written.tag("Result") == replayed.winner


def test_the_games_typed_by_default_cover_every_profile_and_table_size() -> None:
    assert {p for p, _ in TYPED_BY_DEFAULT} == set(PROFILES)
    assert {n for _, n in TYPED_BY_DEFAULT} == {2, 3, 4}
    assert sorted(TYPED_BY_DEFAULT + TYPED_IN_THE_SLOW_SET) == sorted(CASES)


@pytest.mark.parametrize(("profile", "players"), TYPED_BY_DEFAULT)
def test_the_same_games_typed_key_by_key_in_the_app(tmp_path: Path, profile: str,
                                                    players: int) -> None:
    type_the_results(tmp_path, profile, players)


def type_the_results(tmp_path: Path, profile: str, players: int) -> None:
    """Type a case's game by its results, key by key, and check the file it writes."""
    game, replayed = results_case(profile, players)
    options = PROFILES[profile].options
    keys = [key for line in results_lines_of_game(game, replayed)
            for key in keys_of(line, options, players)]
    path = tmp_path / "results.afn"
    start_file(path, in_results(game))

    async def scenario() -> None:
        async with recorder(path) as (screen, _pilot):
            await send_keys(screen, keys)
            assert screen.session is not None and screen.session.over, \
                shown(screen, "#rec-status")

    asyncio.run(scenario())
    assert file_problems(path) == []
    written = parse(path.read_text(encoding="utf-8")).games[0]
    assert totals(written) == dict(replayed.scores)


def deal_keys(keys: list[str]) -> int:
    return len(keys)


def test_a_four_handed_deal_takes_ten_keys_with_the_confirmation(tmp_path: Path) -> None:
    path = tmp_path / "four.afn"
    tags = (*new_tags(rules="trinidad14", players=FOUR, date="2026.12.02"),
            Tag(name="Entry", value="results"))
    start_file(path, tags)
    first = ["n", "enter"]
    deal = ["h", "w", "l", "w", "j", "n", "g", "n", "enter", "y"]  # four items, two sides

    async def scenario() -> None:
        async with recorder(path, players=4, rules="trinidad14") as (screen, _pilot):
            session = screen.session
            assert session is not None
            await send_keys(screen, [*first, *deal], until=lambda: len(session.entries) == 8)
            # deal 2 is next, by results, dealt by W: written with its first item, so
            # the file between deals ends in a whole deal and checks clean (issue 37)
            assert screen.phase(session) is Phase.RESULTS
            assert "W deals" in shown(screen, "#rec-expect")
            assert len(parse(path.read_text(encoding="utf-8")).games[0].deals) == 1
            assert file_problems(path) == []
            await send_keys(screen, deal[:4], until=lambda: len(session.entries) >= 10)
            assert "EW 2" in shown(screen, "#rec-expect")  # the deal's points as typed
            assert "High" in shown(screen, "#rec-table")

    asyncio.run(scenario())
    assert len(deal) <= 10
    written = parse(path.read_text(encoding="utf-8")).games[0]
    assert written.deals[0].results is not None
    assert [s.points for s in written.deals[0].total.scores] == [2, 2]  # type: ignore[union-attr]


def test_the_deciding_deal_disputed_in_results_mode(tmp_path: Path) -> None:
    path = tmp_path / "disputed.afn"
    tags = (*new_tags(rules="hoffmann1909", players=TWO, date="2026.12.02",
                      score="N 5 S 4"), Tag(name="Entry", value="results"))
    start_file(path, tags)
    # S deals; N takes High and Low (7: the game), S Game (not scored); S disputes Low
    keys = ["s", "enter", "h", "n", "l", "n", "g", "s", "enter",
            "c", "h", "n", "l", "s", "g", "s", "enter"]

    async def scenario() -> None:
        async with recorder(path) as (screen, _pilot):
            session = screen.session
            assert session is not None
            await send_keys(screen, keys[:9], until=lambda: session.expect().phase
                            is Phase.CONFIRM)
            assert '[Result "*"]' in path.read_text(encoding="utf-8")  # not yet confirmed
            await send_keys(screen, keys[9:])
            assert "dispute" in shown(screen, "#rec-points-body")

    asyncio.run(scenario())
    text = path.read_text(encoding="utf-8")
    game = parse(text).games[0]
    assert game.tag("Result") == "N"  # the computed score decides
    assert game.deals[0].claim is not None  # the other side's claim, kept
    codes = [d.code for d in check_game(game)]
    assert "AFN401" in codes and "AFN403" not in codes


def test_the_deciding_deal_disputed_in_card_mode() -> None:
    tags = new_tags(players=TWO, date="2026.12.02", score="N 6 S 5")
    session = Session(tags)
    feed(session, ["s", "n js 9h 8h 7c 6d 5d", "s 9c 8c 7d 3h 2h 2d", "4s", "s", "js"])
    while session.expect().phase is Phase.PLAY:
        feed(session, [str(session.expect().offered[0]).lower()])
    assert session.expect().phase is Phase.CONFIRM
    assert session.game().tag("Result") == "*"
    feed(session, ["claim s high"])
    assert session.over
    game = parse(session.text()).games[0]
    assert game.tag("Result") == "N"
    assert game.deals[0].claim is not None and "computed:" in game.deals[0].claim.trailing[0].text
    assert "AFN401" in [d.code for d in check_game(game)]


def test_a_game_mixing_card_deals_and_results_deals() -> None:
    tags = new_tags(players=TWO, date="2026.12.02")
    session = Session(tags)
    feed(session, ["n", "s js 9h 8h 7c 6d 5d", "n 9c 8c 7d 3h 2h 2d", "4s", "s", "js", "2d",
                   "9h", "3h", "8h", "2h", "7c", "8c", "9c", "5d", "7d", "6d", "y", ""])
    session.results_mode = True  # Ctrl+T: this deal by its results
    assert session.expect().phase is Phase.RESULTS
    feed(session, ["h n", "l n", "j s", "g s", "", "y"])
    assert session.expect().phase is Phase.RESULTS  # the next deal began, by results
    session.results_mode = False
    assert session.expect().phase is Phase.TURN  # switched back before anything was typed
    game = parse(session.text()).games[0]
    assert [deal.by_results for deal in game.deals[:2]] == [False, True]
    assert [d for d in check_game(game) if d.is_error and not is_unfinished(d)] == []
    assert dict(replay(game).scores) == {"N": 2, "S": 6}


def test_a_results_deal_resumes_where_it_was(tmp_path: Path) -> None:
    from allfours_notation.recording.opening import Resume, inspect
    from allfours_notation.recording.storage import RecordFile

    path = tmp_path / "resume.afn"
    tags = (*new_tags(players=TWO, date="2026.12.02"), Tag(name="Entry", value="results"))
    with RecordFile(path) as record:
        session = Session(tags, record=record)
        feed(session, ["n", "h s", "l s", "j n", "g n", "", "y", "h n"])
    with RecordFile(path) as record:
        opened = inspect(path, record)
        assert isinstance(opened, Resume)
        again = opened.session
        assert again.expect().phase is Phase.RESULTS
        assert again.entries == session.entries
        feed(again, ["", "y"])
    game = parse(path.read_text(encoding="utf-8")).games[0]
    assert dict(replay(game).scores) == {"N": 3, "S": 2}


def test_a_directors_ruling_is_recorded_as_such() -> None:
    session = Session(replace_tags(new_tags(players=TWO, date="2026.12.02")))
    feed(session, ["n", "h s", "l s", "", "claim n high s low", "director n high s low"])
    game = parse(session.text()).games[0]
    deal = game.deals[0]
    assert deal.results is not None and deal.results.director
    assert "recorded: S high low" in deal.results.leading[0].text
    assert dict(replay(game).scores) == {"N": 1, "S": 1}


def replace_tags(tags: tuple[Tag, ...]) -> tuple[Tag, ...]:
    return (*tags, Tag(name="Entry", value="results"))


_ = replace
