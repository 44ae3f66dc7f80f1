"""A game as the keys a scorer presses, worked out with the core session beside it.

The recorder's Pilot tests send these keys in one go: cards typed (``js``) or
chosen by their place among the legal cards (a digit), the proposed dealer taken
with Enter alone, and every revoke or undertrump confirmed with ``y``.  (The
arrows are left to a test of their own: they act at once, ahead of an entry
still queued.)  A *variant* ends the game otherwise than the generator's: in its last
deal with cards played a player revokes and the next seat to play
concedes; the records to expect are then the core session's, fed the same lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from allfours_notation.reading.records import Game
from allfours_notation.recording.entries import Phase
from allfours_notation.recording.script import lines_of_game
from allfours_notation.recording.session import Session

KEY_NAMES = {" ": "space", ":": "colon"}  # the characters a line holds, by their key name


@dataclass(frozen=True, slots=True)
class Typing:
    """The keys to press, the lines they stand for, and the game they must record."""

    keys: tuple[str, ...]
    lines: tuple[str, ...]
    expected: Game
    revoked: bool = False
    conceded: bool = False


def typing(game: Game, *, hands_known: bool, variant: bool = False) -> Typing:
    """The keys that record ``game`` (its variant, if asked) in the recorder."""
    session = Session(game.tags)
    keys: list[str] = []
    typed: list[str] = []
    revoked = conceded = False
    plays = 0
    lines = lines_of_game(game)
    last_deal = max(number for number, deal in enumerate(game.deals, start=1) if deal.tricks)
    deal = 0
    for line in lines:
        expecting = session.expect()
        if _is_dealer(line) and expecting.phase is Phase.DEALER:
            deal += 1
        if variant and expecting.phase is Phase.PLAY and deal == last_deal and \
                expecting.actor is not None:
            if revoked:  # the next seat to play gives the game up
                line, conceded = f"{expecting.actor.letter.lower()} concedes", True
            else:
                revoke = _revoke_card(session, line)
                line, revoked = (revoke, True) if revoke is not None else (line, False)
        if expecting.phase is Phase.PLAY:
            plays += 1
        keys.extend(_keys_for(session, line, plays if hands_known else 0))
        typed.append(line)
        outcome = session.type(line)
        if outcome.confirm:
            keys.extend(["y", "enter"])
            outcome = session.confirm()
        assert outcome.accepted, f"{line!r}: {outcome.message}"
        if conceded:
            break
    return Typing(tuple(keys), tuple(typed), session.game(), revoked, conceded)


def _is_dealer(line: str) -> bool:
    return line in ("n", "e", "s", "w")


def _revoke_card(session: Session, line: str) -> str | None:
    """A card the player to move holds but may not play (a revoke), once a card is led;
    ``None`` when there is none."""
    judged = session.judgement()
    state = judged.table
    expecting = session.expect()
    if state is None or expecting.actor is None or not state.trick:
        return None
    for card in state.hand(expecting.actor):
        text = str(card).lower()
        if card not in expecting.offered and text != line:
            return text
    return None


def _keys_for(session: Session, line: str, style: int) -> list[str]:
    """The keys for ``line``: a card by its place among those offered every other play
    (when the hands are known), the proposed dealer by Enter alone, else typed."""
    expecting = session.expect()
    if expecting.phase is Phase.DEALER and expecting.default is not None and \
            line.upper() == expecting.default.letter:
        return ["enter"]
    offered = [str(card).lower() for card in expecting.offered]
    if style % 2 and expecting.phase is Phase.PLAY and line in offered:
        place = offered.index(line)
        if place < 9:
            return [str(place + 1), "enter"]
    return [KEY_NAMES.get(char, char) for char in line] + ["enter"]
