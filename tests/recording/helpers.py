"""Shared by the recorder's tests: generated games, sessions fed line by line."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from allfours_notation.checking import check
from allfours_notation.checking.causes import SLIP_CODES
from allfours_notation.checking.parsing import parse
from allfours_notation.generate import Knobs, generate_games
from allfours_notation.reading.records import Game, Tag
from allfours_notation.recording.opening import new_tags
from allfours_notation.recording.referee import is_unfinished
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from allfours_notation.referee.profiles import PROFILES
from allfours_notation.writing.formatter import canonical_records

TWO_TAGS = new_tags(event="Test night", site="Arima", date="2026.11.30",
                    players={"North": "Ann", "South": "Ben"})

# A revoke at trick 2: S holds 9H (hearts led by N) but plays 5D.
REVOKE_LINES = ["n", "s js 9h 8h 7c 6d 5d", "n 9c 8c 7d 3h 2h 2d", "4s", "s",
                "js", "2d", "5d"]


def generated(profile: str, players: int, seed: int, *, target: int | None = None,
              **knobs: float) -> Game:
    """One generated game (no comments unless asked); a lower ``target`` keeps it short."""
    chosen = {"comments": 0.0, "glyphs": 0.0, **knobs}
    options = PROFILES[profile].options
    options = replace(options, players=players, target=target or options.target)
    return next(generate_games(seed=seed, n_games=1, profile=profile, options=options,
                               knobs=Knobs(**chosen)))  # type: ignore[arg-type]


def feed(session: Session, lines: Iterable[str]) -> None:
    """Type every line; a revoke or undertrump is confirmed; a refusal fails the test."""
    for line in lines:
        outcome = session.type(line)
        if outcome.confirm:
            outcome = session.confirm()
        assert outcome.accepted, f"{line!r} refused: {outcome.message}"


def same_records(recorded: Game, original: Game) -> bool:
    return canonical_records(recorded) == canonical_records(original)


def file_problems(path: Path) -> list[str]:
    """What 'allfours check' says about ``path`` that is worse than an unfinished game."""
    result = parse(path.read_text(encoding="utf-8"))
    problems = [f"{d.code} {d.message}" for d in result.diagnostics
                if d.game is None and d.is_error and not is_unfinished(d)]
    for game in result.games:
        assert not game.broken
        checked = check(game)  # the one door, as 'allfours check' does
        problems.extend(f"{d.code} {d.message}"
                        for d in checked.diagnostics if d.is_error and d.code not in SLIP_CODES
                        and not is_unfinished(d, checked.unfinished))
    return problems


def start_file(path: Path, tags: tuple[Tag, ...] = TWO_TAGS) -> None:
    """A file holding only the header of a new game, as the start form leaves it."""
    with RecordFile(path) as record:
        Session(tags, record=record).save()
