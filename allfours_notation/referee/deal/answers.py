"""The referee's vocabulary of events and answers: the two markers a client sends
beside the records (:class:`DealOver`, :class:`GameOver`), what the table expects
next (:class:`Expect`) and its answer to one event (:class:`Outcome`).
"""

from __future__ import annotations

from enum import Enum

from ...cards import Card, Seat
from ...diagnostics import Diagnostic
from ...frozen import frozen
from ...reading.records import (
    Abandoned,
    Call,
    Claim,
    Concede,
    Count,
    Deal,
    Discard,
    Hand,
    Pack,
    Penalty,
    Play,
    Redeal,
    Results,
    Span,
    Total,
    Trick,
    TurnUp,
)
from ..state import Step, TableState


@frozen
class DealStart:
    """A deal begins: its number and its dealer (the line ``deal N dealer S``).

    A client may send a whole :class:`Deal` record instead (the recorder does): the
    table takes only its header from it, as :meth:`of` does."""

    number: int
    dealer: Seat
    span: Span | None = None
    time: str | None = None  # the clock time the deal began ("at 20:41"), if written

    @classmethod
    def of(cls, deal: Deal) -> DealStart:
        """The start of the recorded ``deal``."""
        return cls(number=deal.number, dealer=deal.dealer, span=deal.span, time=deal.time)


@frozen
class DealOver:
    """The deal is over: score it (if not yet) and close it.  The next deal's header
    closes a deal as well; a recorder sends this to see the scores at once."""

    span: Span | None = None


@frozen
class GameOver:
    """No more deals: close the last deal and end the game."""

    span: Span | None = None


Event = (DealStart | Deal | Hand | TurnUp | Call | Discard | Pack | Trick | Play | Penalty | Redeal
         | Abandoned | Concede | Claim | Results | Count | Total | DealOver | GameOver)


class Phase(Enum):
    """Where a game stands at the table: the referee's one vocabulary of phases.

    An open deal moves through the opening phases (``TURN_UP`` → ``CALL`` →
    ``ANSWER`` → ``RUN`` → ``SETTLED``) to ``PLAY``; :class:`Expect` carries the
    phase that is due next, where ``SETTLED`` shows as ``PLAY`` (the next event is
    the lead) and the deal's end as ``CLAIM``, ``DEAL_END``, ``DEAL`` or ``GAME_OVER``.
    """

    DEAL = "deal"  # a deal header; ``seat`` is the dealer due
    TURN_UP = "turn-up"  # the dealer turns up (hands as dealt may come first)
    CALL = "call"  # the elder hand stands or begs
    ANSWER = "answer"  # the dealer gives or runs
    RUN = "run"  # the run's cards, then the dealer's next turn-up
    SETTLED = "settled"  # the trumps are settled, no card is played yet (Expect: PLAY)
    PLAY = "play"  # ``seat`` plays a card
    CLAIM = "claim"  # every trick is played: penalties, ending, claim, total
    DEAL_END = "deal end"  # nothing more is due in this deal (an ending, or the next deal)
    GAME_OVER = "game over"  # the game is decided


@frozen
class Expect:
    """The next event due and who is to act, as data: ``kind`` is the phase; ``note``
    says why in words when it is not obvious (for people: no client reads it).

    ``legal``: the cards ``seat`` may play (None: nobody is to play, or the hand is not
    fully known); ``may_beg_again``: before the first card after a run, the elder may
    beg again instead of leading (``begs_per_deal=unlimited``); ``exhausted``: the run
    used up the pack, the deal can only be redealt; ``decided``: the game is decided.

    What the rules allow the one to act, for a client that chooses among the moves (the
    generator, an editor completing a call): ``must_beg``: the elder, whose hand is fully
    known, holds no trump and may not stand (``stand_requires_trump``); at ``ANSWER``,
    ``may_give``: every rule allows a gift, ``gift_lacks_trump``: only the dealer's lack
    of a trump forbids it (``give_requires_trump``), ``may_run``: the pack holds another
    run; before the first lead, ``discard``: the rules call for discards to six now
    (``hand_after_run``; after no run that is none).
    """

    kind: Phase
    seat: Seat | None = None
    note: str = ""
    legal: frozenset[Card] | None = None
    may_beg_again: bool = False
    exhausted: bool = False
    decided: bool = False
    must_beg: bool = False
    may_give: bool = False
    gift_lacks_trump: bool = False
    may_run: bool = False
    discard: bool = False

    @property
    def phase(self) -> Phase:
        return self.kind


@frozen
class Outcome:
    """The answer to one event: the table after it, its diagnostics and its steps, what
    the table expects next, and which of the diagnostics only say that the deal is not
    finished yet (a run with no turn-up after it, the pack exhausted: what a deal still
    being played is bound to show)."""

    state: TableState | None
    diagnostics: tuple[Diagnostic, ...]
    steps: tuple[Step, ...] = ()
    expects: Expect | None = None
    unfinished: tuple[Diagnostic, ...] = ()

