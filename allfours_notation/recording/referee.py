"""The recorder's view of the referee: the game so far in, its diagnostics and table out.

Every entry is judged by the same referee as ``allfours check``: the structure
checks and the rules replay run over the game as recorded so far, and the
entry's effect is what changed.  Nothing here knows a rule of All Fours; it only
sorts what the referee said into "refuse", "confirm first" and "not finished yet".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..cards import Seat
from ..diagnostics import Diagnostic, Severity
from ..records import Game
from ..rules.profiles import Options
from ..rules.replay import GameReplay, Referee, replay_plain
from ..rules.state import StepKind, TableState
from ..structure import check_structure

__all__ = ["CONFIRM_CODES", "Judgement", "Verdict", "is_unfinished", "judge", "new_findings",
           "next_dealer", "verdict"]

# Not refused: the record says what happened at the table.  Asked about first.
CONFIRM_CODES = frozenset({"AFN306", "AFN307"})  # a revoke, an undertrump

# What a game still being played is bound to show, and nothing worse.
_UNFINISHED_CODES = frozenset({"AFN104", "AFN204", "AFN304", "AFN314", "AFN316"})
_UNFINISHED_WORDING = (
    ("AFN309", "the cards were run but no new turn-up"),
    ("AFN309", "the dealer must run again"),
    ("AFN311", "the pack is exhausted: the same dealer deals again"),
    # the referee scores a deal still being played as if it ended there
    ("AFN403", "says unfinished, but"),
)


_PAPER_STEPS = frozenset({StepKind.AWARD, StepKind.DEAL_END, StepKind.GAME_END})


def is_unfinished(diagnostic: Diagnostic) -> bool:
    """Whether ``diagnostic`` only says the game (its last deal) is not finished yet."""
    if diagnostic.code in _UNFINISHED_CODES:
        return True
    return any(diagnostic.code == code and words in diagnostic.message
               for code, words in _UNFINISHED_WORDING)


@dataclass(frozen=True, slots=True)
class Judgement:
    """What the referee says about the game recorded so far.

    ``replayed`` is the whole game without table snapshots (scores, points and
    diagnostics: cheap); ``current`` replays the last deal alone with its
    snapshots, for the table on the screen (its scores are not the game's).
    """

    game: Game
    replayed: GameReplay
    current: GameReplay | None
    diagnostics: tuple[Diagnostic, ...]  # structure, then rules

    @property
    def table(self) -> TableState | None:
        """The table at the last card, call or turn-up: who is to act, and what is legal
        (the scoring steps after it close the deal on paper, not at the table), with
        the game's running score."""
        if self.current is None:
            return None
        scores, winner = self.replayed.scores, self.replayed.winner
        for step in reversed(self.current.steps):
            state = step.state
            partial = step.kind is StepKind.TRICK_END and len(state.trick) < len(state.seats)
            if step.kind not in _PAPER_STEPS and not partial:  # a trick still being played
                return replace(state, scores=scores, winner=winner)
        return None


def judge(game: Game, options: Options) -> Judgement:
    """Run the structure checks and the referee over ``game``."""
    replayed = replay_plain(game, options, record_states=False)
    current = None
    if game.deals:
        current = replay_plain(replace(game, deals=game.deals[-1:]), options)
    found = (*check_structure(game), *replayed.diagnostics)
    return Judgement(game, replayed, current, found)


def next_dealer(game: Game, options: Options) -> Seat | None:
    """Who deals next under the rules (``None`` before the first deal)."""
    rotation = Referee(game, options, record_states=False)
    for deal in game.deals:
        rotation.add_deal(deal)
    return rotation.expected_dealer


class Verdict:
    """How an entry stands: accepted, refused (with the reason) or to be confirmed."""

    ACCEPT = "accept"
    REFUSE = "refuse"
    CONFIRM = "confirm"


def _key(diagnostic: Diagnostic) -> tuple[str, str, int | None, int | None]:
    return (diagnostic.code, diagnostic.message, diagnostic.deal, diagnostic.trick)


def new_findings(before: Iterable[Diagnostic], after: Iterable[Diagnostic]) -> list[Diagnostic]:
    """What ``after`` says that ``before`` did not (as a multiset, ignoring positions)."""
    seen = Counter(_key(d) for d in before)
    fresh = []
    for diagnostic in after:
        key = _key(diagnostic)
        if seen[key]:
            seen[key] -= 1
        else:
            fresh.append(diagnostic)
    return fresh


def verdict(fresh: Iterable[Diagnostic]) -> tuple[str, Diagnostic | None]:
    """Refuse on the first new error that is more than "not finished yet"; ask on a
    revoke or undertrump; else accept (a new warning is shown, not refused)."""
    findings = list(fresh)
    for diagnostic in findings:
        if diagnostic.severity is Severity.ERROR and not is_unfinished(diagnostic) and \
                not diagnostic.code.startswith("AFN4"):
            return Verdict.REFUSE, diagnostic
    for diagnostic in findings:
        if diagnostic.code in CONFIRM_CODES:
            return Verdict.CONFIRM, diagnostic
    shown = next((d for d in findings if not is_unfinished(d)), None)
    return Verdict.ACCEPT, shown
