"""A saved record checks clean at every moment (issue 37): for generated games recorded
through the recording core, in card mode and in results mode, under every profile, the
file after each accepted entry has no error when checked by the one door
(:func:`allfours_notation.checking.check`): a game still being played is in progress
(notes), not wrong."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from allfours_notation.checking import check
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Call, CallKind, Game, Tag, TurnUp
from allfours_notation.recording.script import lines_of_game, results_lines_of_game
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from allfours_notation.referee import replay
from allfours_notation.referee.profiles import PROFILES
from allfours_notation.referee.state import GameReplay
from tests.recording.helpers import generated

# card mode; results mode by items alone; results mode with the turn-ups and the calls
# typed too (s b t r, the run's turn-up), the kicks and the gift then entered by the
# recorder from the referee's count
MODES = ("cards", "results", "results+calls")
_SHORT = {CallKind.STANDS: "s", CallKind.BEGS: "b", CallKind.GIVES: "t", CallKind.RUNS: "r"}


def _errors(text: str) -> list[str]:
    """The errors 'allfours check' reports for ``text``, as 'CODE message'."""
    result = parse(text)
    found = [d for d in result.diagnostics if d.game is None and d.is_error]
    for game in result.games:
        found.extend(d for d in check(game).diagnostics if d.is_error)
    return [f"{d.code} {d.message}" for d in found]


def _lines(game: Game, mode: str) -> tuple[tuple[Tag, ...], list[str]]:
    if mode == "cards":
        return game.tags, lines_of_game(game)
    tags = (*game.tags, Tag(name="Entry", value="results"))
    if mode == "results":
        return tags, results_lines_of_game(game, replay(game))
    return tags, _lines_with_calls(game, replay(game))


def _lines_with_calls(game: Game, replayed: GameReplay) -> list[str]:
    """:func:`results_lines_of_game` with each deal's turn-ups and calls typed first
    (``turn 4s``, ``b``, ``r``, ``jd``), and without the kicks and the gift they give."""
    by_items = iter(results_lines_of_game(game, replayed))
    lines: list[str] = [next(by_items)]  # the first dealer
    for deal in game.deals:
        turned = 0
        gave = any(call.kind is CallKind.GIVES for call in deal.calls)
        for event in deal.opening:
            if isinstance(event, TurnUp):
                lines.append(("turn " if not turned else "") + str(event.card).lower())
                turned += 1
            elif isinstance(event, Call):
                lines.append(_SHORT[event.kind])
        for line in by_items:
            if line.startswith("k ") or (line.startswith("t ") and gave):
                continue  # entered by the recorder from the turn-up, the gift
            lines.append(line)
            if line == "y" or line.startswith(("redeal", "abandoned")) or \
                    line.endswith("concedes"):
                break
    return lines


def record_every_prefix(game: Game, mode: str, folder: Path) -> int:
    """Record ``game`` line by line into a file; after each accepted entry, check the
    file: no error.  The number of prefixes checked."""
    tags, lines = _lines(game, mode)
    path = folder / f"{mode}.afn"
    checked = 0
    with RecordFile(path) as record:
        session = Session(tags, record=record)
        session.save()
        for line in lines:
            outcome = session.type(line)
            if outcome.confirm:
                outcome = session.confirm()
            assert outcome.accepted, f"{line!r} refused: {outcome.message}"
            errors = _errors(path.read_text(encoding="utf-8"))
            assert errors == [], (mode, line, errors)
            checked += 1
    assert session.over
    return checked


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("profile", list(PROFILES))
# One game per profile and mode in the default suite (the "dev" profile's 12 examples,
# divided by 12); the "ci" and "nightly" profiles of tests/conftest.py try more.
@settings(max_examples=max(1, (settings.default.max_examples
                               if settings.default is not None else 12) // 12))
@given(players=st.sampled_from((2, 3, 4)), seed=st.integers(0, 10_000))
def test_every_saved_prefix_checks_without_an_error(profile: str, mode: str, players: int,
                                                    seed: int) -> None:
    game = generated(profile, players, seed, target=4, beg=0.6, gift=0.4)
    with tempfile.TemporaryDirectory() as folder:
        checked = record_every_prefix(game, mode, Path(folder))
    assert checked >= len(game.deals)
