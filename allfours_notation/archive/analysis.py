"""One game refereed once, for every archive tool.

``allfours list --check``, ``find`` (content filters), ``stats`` and ``export
--sqlite/--csv`` all need the same thing from a game: the referee's scores,
points and calls, and the diagnostics ``allfours check`` would print for it.
:func:`analyse` asks the one door (:func:`..checking.check`) for them: one replay
without table snapshots, the probable slips named and every finding linked to its
root cause, as ``check`` prints them.
"""

from __future__ import annotations

from ..checking import check
from ..diagnostics import Diagnostic, Severity
from ..frozen import frozen
from ..reading.records import ClaimItem, Game
from ..referee.profiles import Options
from ..referee.scoring import ITEM_LABELS
from ..referee.state import GameReplay

_ITEM_BY_LABEL = {label: item for item, label in ITEM_LABELS.items()}


@frozen
class Analysed:
    """A game with its replay (``None`` when a syntax error stopped the parse) and
    every diagnostic ``allfours check`` reports for it, in the same order."""

    game: Game
    replay: GameReplay | None
    diagnostics: tuple[Diagnostic, ...]

    @property
    def errors(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.ERROR)

    @property
    def warnings(self) -> int:
        return sum(1 for d in self.diagnostics if d.severity is Severity.WARNING)

    @property
    def disputes(self) -> int:
        """Claims, totals and results that disagree with the computed score, recorded
        faithfully: the findings whose severity is ``dispute``."""
        return sum(1 for d in self.diagnostics if d.severity is Severity.DISPUTE)

    @property
    def options(self) -> Options | None:
        return self.replay.options if self.replay is not None else None

    @property
    def deciding_item(self) -> ClaimItem | None:
        """The item that took the winner to the target ("deal 7, at High" → High)."""
        decided = self.replay.decided if self.replay is not None else None
        if not decided or ", at " not in decided:
            return None
        return _ITEM_BY_LABEL.get(decided.rsplit(", at ", 1)[1])


def analyse(game: Game, *, profile: str | None = None,
            overrides: dict[str, str] | None = None) -> Analysed:
    """Referee ``game`` (under its own rules unless ``profile``/``overrides`` say
    otherwise) and gather its diagnostics the way ``allfours check`` does."""
    checked = check(game, (profile, overrides or {}))
    return Analysed(game, checked.replay, checked.diagnostics)
