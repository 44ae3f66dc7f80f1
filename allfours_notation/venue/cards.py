"""Card-by-card entry on the phone: what the page needs to show, and the mode switch.

A deal is entered card by card as ``allfours record`` enters it in its cards mode:
the dealer, the hands if they are known (``E 2s 3s 4s 5s 6s 7s``), the turn-up (a
card), the calls (``stand``, ``beg``, ``give``, ``run``), then each card played
(``js``), every line judged by :meth:`Session.type`.  The page shows a card grid and
sends those lines; what comes next, who acts, how many cards a hand has now and which
cards are legal are the session's :class:`Expectation`, sent to the page as they are:
the page highlights them and judges nothing (a card it sends that is not legal is
refused by the referee, with the reason).
"""

from __future__ import annotations

from typing import Any

from ..recording.entries import Expectation, Phase
from ..recording.outcome import Outcome
from ..recording.script import card_text
from ..recording.session import ENTRY_TAG, Session

__all__ = ["MODES", "card_view", "serving_mode", "switch_mode"]

# The lines that switch the mode (through the entry queue, as every entry): the
# recorder's Ctrl+T.  The core reads no line beginning with "mode".
MODES = {"mode cards": False, "mode results": True}

# The phases in which the page shows the card grid: what is entered there is a card
# (a hand's, the turn-up, a card played) or a call.
CARD_PHASES = frozenset({Phase.TURN, Phase.CALL, Phase.ANSWER, Phase.RUN_TURN,
                         Phase.EXHAUSTED, Phase.PLAY})


def card_view(session: Session, expecting: Expectation) -> dict[str, Any]:
    """What the page shows of the mode and of a deal entered card by card."""
    return {
        # how new deals are entered (the header's [Entry]); the deal in hand may differ
        "mode": "results" if session.results_mode else "cards",
        "cards_due": expecting.phase in CARD_PHASES,
        "actor": expecting.actor.letter if expecting.actor is not None else None,
        # the legal cards when the referee knows the hand; [] when it does not
        "offered": [card_text(card) for card in expecting.offered],
        # the cards a hand typed now must have (None: no hand may be typed now)
        "hand_size": expecting.hand_size,
        "may_beg": expecting.may_beg,
        "proposed_dealer": expecting.default.letter if expecting.default is not None
        else None,
    }


def switch_mode(session: Session, results: bool) -> Outcome:
    """Enter deals by their results or by their cards (the session's :meth:`set_mode`,
    written in the header): the deal in hand too if nothing of its mode is in it yet,
    which the expectation afterwards says."""
    session.set_mode(results)
    wanted = "by their results" if results else "card by card"
    following = session.expect().phase
    in_results = following is Phase.RESULTS
    if following in (CARD_PHASES | {Phase.RESULTS}) and in_results != results:
        return Outcome(True, f"the next deals are entered {wanted}; this deal stays as "
                       "it was begun (undo its entries to switch it too)")
    return Outcome(True, f"deals are entered {wanted}")


def serving_mode(session: Session) -> bool:
    """The mode a table is served in when it is opened, or its next game begun: the
    one its game's header says (a table that chose cards keeps them across a restart),
    else by their results, the phone's first pad, written in the header as the phone's
    switch writes it (True: the file was written).  A finished game is left as it was
    recorded (read in results, its last deal would be asked for its results again): its
    next game takes the mode."""
    if session.over or any(tag.name == ENTRY_TAG for tag in session.tags):
        return False
    session.set_mode(True)
    return True
