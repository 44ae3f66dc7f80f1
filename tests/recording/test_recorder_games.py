"""Whole games recorded through the app's record mode under Pilot: every profile, with
the numbers of players it allows, each game sent as the keys a scorer would press.

One app run per game, every key of the game queued at once (the entry line takes
each Enter in the order the keys came, as from a fast typist), and short games
(target 3) keep the cost down.  Between them the games have the hands known and unknown,
begs, gifts, runs, an exhausted pack, a revoke (confirmed with ``y``) and a
concession; each written file must check clean and hold the generator's records
(for the two variants that end in a revoke and a concession: the core session's,
fed the same lines).

The default suite types four of the twelve games (:data:`TYPED_BY_DEFAULT`: every
profile, every number of players, hands known and unknown and every feature above);
``test_recorder_games_slow.py`` types the other eight.  Every profile at every table is
still recorded entry by entry in the default suite, without the screen
(``test_session.py``).
"""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path

import pytest

from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Call, CallKind, Concede, Game, Redeal, RedealReason
from allfours_notation.referee.profiles import PROFILES
from allfours_notation.writing.formatter import canonical_records
from tests.recording.app_helpers import recorder, send_keys, shown
from tests.recording.helpers import file_problems, generated, start_file
from tests.recording.keystrokes import Typing, typing

# profile, players, seed, hands known, variant (a revoke, then a concession)
CASES = [
    ("hoffmann1909", 2, 3, True, True),
    ("hoffmann1909", 3, 8, False, False),
    ("hoffmann1909", 4, 5, True, False),
    ("english10", 2, 2, False, False),
    ("english10", 3, 8, True, False),
    ("english10", 4, 23, False, False),
    ("foster", 2, 12, True, False),
    ("foster", 3, 14, False, False),
    ("foster", 4, 5, True, False),
    ("trinidad14", 2, 21, False, False),
    ("trinidad14", 3, 13, True, False),
    ("trinidad14", 4, 71, True, True),
]
# Typed in the default suite (the first, fourth, eighth and last cases): between them
# every profile, two, three and four players, hands known and unknown, and every feature
# the issue names (test_the_typed_games_cover_every_profile_table_size_and_feature);
# the slow set types the rest.
TYPED_BY_DEFAULT = [CASES[0], CASES[5], CASES[7], CASES[11]]
TYPED_IN_THE_SLOW_SET = [c for c in CASES if c not in TYPED_BY_DEFAULT]
TARGET = 3
# one worker makes every case's game once (see case) for the coverage check and the runs
pytestmark = pytest.mark.xdist_group("recorder-games")


def case_game(profile: str, players: int, seed: int, known: bool) -> Game:
    return generated(profile, players, seed=seed, target=TARGET, hands=1.0 if known else 0.0,
                     beg=0.9, gift=0.4)


@functools.cache
def case(profile: str, players: int, seed: int, known: bool,
         variant: bool) -> tuple[Game, Typing]:
    """A case's game and its keys, made once per process: the coverage check below and
    the Pilot run of the case read the same (frozen) objects."""
    game = case_game(profile, players, seed, known)
    return game, typing(game, hands_known=known, variant=variant)


def features(game: Game, typed: Typing, known: bool) -> set[str]:
    calls = {event.kind for deal in game.deals for event in deal.opening
             if isinstance(event, Call)}
    found = {name for name, kind in (("begs", CallKind.BEGS), ("gifts", CallKind.GIVES),
                                     ("runs", CallKind.RUNS)) if kind in calls}
    if any(isinstance(d.ending, Redeal) and d.ending.reason is RedealReason.EXHAUSTED
           for d in game.deals):
        found.add("exhausted pack")
    if typed.revoked:
        found.add("revoke")
    if typed.conceded:
        found.add("concession")
    found.add("hands known" if known else "hands unknown")
    return found


def test_the_games_cover_every_profile_table_and_feature_the_issue_names() -> None:
    """Cheap: no app.  The cases must keep covering what the Pilot runs are for."""
    covered: set[str] = set()
    for profile, players, seed, known, variant in CASES:
        game, typed = case(profile, players, seed, known, variant)
        assert any(deal.tricks for deal in typed.expected.deals), (profile, players)
        covered |= features(game, typed, known)
    assert {(p, n) for p, n, *_ in CASES} == {(p, n) for p in PROFILES for n in (2, 3, 4)}
    assert covered >= {"begs", "gifts", "runs", "exhausted pack", "revoke", "concession",
                       "hands known", "hands unknown"}


def test_the_typed_games_cover_every_profile_table_size_and_feature() -> None:
    """Cheap: no app.  The games the default suite types through the screen keep
    covering every profile, every number of players and every feature; the slow set
    types the others."""
    covered: set[str] = set()
    for profile, players, seed, known, variant in TYPED_BY_DEFAULT:
        game, typed = case(profile, players, seed, known, variant)
        covered |= features(game, typed, known)
    assert {p for p, *_ in TYPED_BY_DEFAULT} == set(PROFILES)
    assert {n for _, n, *_ in TYPED_BY_DEFAULT} == {2, 3, 4}
    assert covered >= {"begs", "gifts", "runs", "exhausted pack", "revoke", "concession",
                       "hands known", "hands unknown"}
    assert sorted(TYPED_BY_DEFAULT + TYPED_IN_THE_SLOW_SET) == sorted(CASES)


def same(recorded: Game, expected: Game) -> bool:
    return canonical_records(recorded) == canonical_records(expected)


def case_id(profile: str, players: int, seed: int, known: bool, variant: bool) -> str:
    return f"{profile}-{players}p-{'known' if known else 'unknown'}{'-revoke' if variant else ''}"


@pytest.mark.parametrize(("profile", "players", "seed", "known", "variant"), TYPED_BY_DEFAULT,
                         ids=[case_id(*c) for c in TYPED_BY_DEFAULT])
def test_a_whole_game_typed_into_the_record_mode(tmp_path: Path, profile: str, players: int,
                                                 seed: int, known: bool,
                                                 variant: bool) -> None:
    type_the_game(tmp_path, profile, players, seed, known, variant)


def type_the_game(tmp_path: Path, profile: str, players: int, seed: int, known: bool,
                  variant: bool) -> None:
    """Type a case's game into the record mode and check the file it writes."""
    game, typed = case(profile, players, seed, known, variant)
    path = tmp_path / "game.afn"
    start_file(path, game.tags)

    async def scenario() -> None:
        async with recorder(path) as (screen, pilot):
            await send_keys(screen, typed.keys)
            await pilot.pause()
            assert screen.session is not None and screen.session.over, shown(screen,
                                                                               "#rec-status")
            assert "the game is over" in shown(screen, "#rec-expect")
            assert "To move" not in shown(screen, "#rec-table")  # nobody moves any more

    asyncio.run(scenario())
    games = parse(path.read_text(encoding="utf-8")).games
    assert len(games) == 1
    assert file_problems(path) == []
    assert same(games[0], typed.expected)
    if not variant:
        assert same(games[0], game)  # the generator's cards, calls, claims and totals
    else:
        assert isinstance(games[0].deals[-1].ending, Concede)
