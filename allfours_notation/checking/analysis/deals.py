"""The deals of a replayed game as the solver needs them: the hands at the start of play
(recorded, or complete from the play) and the line actually played.

A conceded deal is analysed up to the concession (the par from the first lead, each
card of the tricks finished before it judged); a deal recorded by its results alone
(``scored …``) has no play to judge and says what was scored."""

from __future__ import annotations

from ...cards import Card, Rank, Seat
from ...frozen import frozen
from ...referee.profiles import Options
from ...referee.state import DealResult, GameReplay
from .solver import Layout

__all__ = ["PlayedDeal", "conceded_by", "played_deals"]


@frozen
class PlayedDeal:
    """One deal of a game: its layout (``None`` with the reason it cannot be analysed)
    and the cards played, in order."""

    number: int
    result: DealResult
    layout: Layout | None
    line: tuple[tuple[Seat, Card], ...]
    why_not: str | None


def played_deals(replayed: GameReplay) -> list[PlayedDeal]:
    """Every deal of ``replayed`` with what the solver needs, or why it cannot have it."""
    options = replayed.options
    seats = _seats(replayed)
    return [_played(result, options, seats) for result in replayed.deals]


def _seats(replayed: GameReplay) -> tuple[Seat, ...]:
    for result in replayed.deals:
        if result.held:
            return tuple(seat for seat, _ in result.held)
    return ()


def _played(result: DealResult, options: Options, seats: tuple[Seat, ...]) -> PlayedDeal:
    line = tuple(play for _, _, plays in result.tricks for play in plays)

    def refused(why: str) -> PlayedDeal:
        return PlayedDeal(result.number, result, None, line, why)

    if result.by_results and not result.tricks:
        return refused(_by_results(result))
    if result.trump is None or result.dealer is None or result.elder is None:
        return refused("no trump was made: nothing was played")
    conceded = conceded_by(result)
    if not result.tricks and conceded is None:
        return refused(_unplayed(result.ending))
    if not result.complete and conceded is None:
        return refused(f"the deal was not played out ({result.ending or 'tricks missing'})")
    held = dict(result.held)
    if set(held) != set(seats) or len({len(cards) for cards in held.values()}) != 1 or \
            not any(held.values()):
        return refused("the hands are not all known")
    if any(len(plays) != len(seats) for _, _, plays in result.tricks):
        return refused("a trick is short or has too many cards")
    played = [c for _, c in line]
    if len(set(played)) != len(played) or \
            any(c not in held.get(seat, ()) for seat, c in line):
        return refused("a card was played twice, or by a seat that did not hold it")
    if conceded is None and len(played) != sum(len(cards) for cards in held.values()):
        return refused("the play does not use every card held")
    jack = Card(result.trump, Rank.JACK)
    turnup_jack = bool(result.turnups) and result.turnups[-1] is jack
    layout = Layout(options, seats, result.dealer, result.elder, result.trump, turnup_jack,
                    tuple((seat, held[seat]) for seat in seats))
    return PlayedDeal(result.number, result, layout, line, None)


# why a deal ended before its first card, in words, from the record's ending
_REDEALT = {"redeal exhausted": "the pack ran out while running the cards and the deal was "
                                "redealt: no card was played",
            "redeal misdeal": "a misdeal: the deal was redealt before any card was played",
            "abandoned": "the deal was abandoned before any card was played"}


def _unplayed(ending: str | None) -> str:
    """Why a deal with no trick was not analysed: its recorded ending where there is one
    (a redeal says so), else that no card was played."""
    if ending is None:
        return "no card was played"
    return _REDEALT.get(ending, f"no card was played (the record ends it: {ending})")


def conceded_by(result: DealResult) -> str | None:
    """The deal's ending when a side conceded it ("S concedes"), else ``None``."""
    ending = result.ending
    if not result.complete and ending is not None and ending.endswith(" concedes"):
        return ending
    return None


def _by_results(result: DealResult) -> str:
    """What a deal recorded by its results scored, in the order the referee counted it."""
    items = [f"{p.item.value} {p.points} to {p.side}" if p.points != 1
             else f"{p.item.value} to {p.side}" for p in (*result.points, *result.unscored)]
    scored = f" ({', '.join(items)})" if items else ""
    return f"recorded by its results{scored}, not card by card: no play to judge"
