"""Every message passed between the viewer's widgets and its app, in one place."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from allfours_notation import Diagnostic, GameHeader

from .model import Mark


@dataclass
class FileOpened(Message):
    """The loader read and decoded a file (posted from the loading thread)."""

    generation: int
    filename: str
    text: str


@dataclass
class HeadersFound(Message):
    """A batch of game headers; ``fraction`` of the text has been indexed."""

    generation: int
    headers: tuple[GameHeader, ...]
    fraction: float


@dataclass
class IndexFinished(Message):
    """The whole file has been indexed."""

    generation: int
    games: int
    seconds: float


@dataclass
class GamesChecked(Message):
    """Marks of games (by 0-based position) from the background check; ``finished`` on
    the last batch."""

    generation: int
    marks: dict[int, Mark]
    finished: bool = False


@dataclass
class LoadFailed(Message):
    """The file could not be read; ``reason`` is one sentence for people."""

    generation: int
    reason: str


@dataclass
class GameChosen(Message):
    """The person picked a game (0-based) and perhaps one of its deals (0-based)."""

    game: int
    deal: int | None = None


@dataclass
class StepChosen(Message):
    """The person picked a step of the current game."""

    step: int


@dataclass
class DiagnosticChosen(Message):
    """The person picked a diagnostic of the current game."""

    diagnostic: Diagnostic


@dataclass
class DiagnosticHighlighted(Message):
    """The cursor of the diagnostics list moved onto a diagnostic (shown in full, no jump)."""

    diagnostic: Diagnostic


@dataclass
class AnalysisReady(Message):
    """A deal has been solved (posted from the analysis worker)."""

    generation: int
    key: tuple[int, int]  # (game position, deal position)
    analysis: object  # allfours_notation.checking.analysis.DealAnalysis


@dataclass
class AdviceReady(Message):
    """A call has been advised (posted from the advice worker)."""

    generation: int
    key: tuple[int, int]  # (game position, step)
    lines: list[str]
