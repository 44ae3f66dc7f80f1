"""Scoring a deal: turn-up points, the gift, High, Low, Jack, Game and penalties.

This is THE place where every point of All Fours is decided (docs/rules.md section 5)
and put in the counting order of rule 25.  The replayer (:mod:`.replay`) gathers
the facts of a deal — who was dealt which trump, who won which trick — and asks
this module for the points; it never scores anything itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from ..cards import Card, Rank, Seat, Suit
from ..frozen import draft_of, frozen
from ..reading.records import ClaimItem, PenaltyKind
from ..reading.table import next_seats, partner, side_of, side_table
from .profiles import (
    GameTie,
    GameWhenNoCounters,
    GiftAtTargetMinusOne,
    GiftRecipients,
    HangJack,
    JackOnRun,
    LowOwner,
    MisdealRule,
    Options,
    PenaltyTiming,
    RevokePenalty,
    TurnupPoints,
)

ITEM_LABELS: Mapping[ClaimItem, str] = {
    ClaimItem.KICK: "the turn-up",
    ClaimItem.GIFT: "the gift",
    ClaimItem.HIGH: "High",
    ClaimItem.LOW: "Low",
    ClaimItem.JACK: "Jack",
    ClaimItem.HANG_JACK: "Hang Jack",
    ClaimItem.GAME: "Game",
    ClaimItem.PENALTY: "a penalty",
}


@frozen
class Point:
    """One scored item: ``side`` scores ``points`` for ``item``, and why."""

    side: str
    seat: Seat | None
    item: ClaimItem
    points: int
    reason: str


def _point(side: str, seat: Seat | None, item: ClaimItem, points: int, reason: str) -> Point:
    """``Point(side, seat, item, points, reason)``, filled in here as its draft
    (:func:`..frozen.draft_of`; see :func:`.decided.item_of` for why): the play's points
    are made again for the items "if the deal ended now" at about sixty steps of a
    replay page (issue 38)."""
    made = _new(_PointDraft)
    made.side = side
    made.seat = seat
    made.item = item
    made.points = points
    made.reason = reason
    made.__class__ = Point
    return made  # type: ignore[no-any-return]


_new: Any = object.__new__
_PointDraft = draft_of(Point)
# The enum members the play's points read, read as globals: a member read through its
# enum is a Python call on CPython 3.11 (about 200 ns), and a replay page makes these
# points again at about sixty steps a game (issue 38).
_HIGH, _LOW, _JACK, _HANG_JACK, _GAME = (ClaimItem.HIGH, ClaimItem.LOW, ClaimItem.JACK,
                                         ClaimItem.HANG_JACK, ClaimItem.GAME)
_TRICK_WINNER, _HANG_THREE = LowOwner.TRICK_WINNER, HangJack.THREE


# --- at the turn-up and the beg ------------------------------------------------------------


def kick_value(card: Card, options: Options) -> int:
    """Points the dealer's side scores for turning ``card`` up (rules 7 and 26)."""
    return _KICK_VALUES[options.turnup_points].get(card.rank, 0)


# What each rank turned up is worth, per ``turnup_points`` (absent: nothing).
_KICK_VALUES: Mapping[TurnupPoints, Mapping[Rank, int]] = {
    TurnupPoints.NONE: {},
    TurnupPoints.JACK1: {Rank.JACK: 1},
    TurnupPoints.TRINIDAD: {Rank.ACE: 1, Rank.SIX: 2, Rank.JACK: 3},
    TurnupPoints.TOBAGO: {Rank.ACE: 1, Rank.TWO: 2, Rank.JACK: 3},
}


def turnup_points(
    card: Card,
    *,
    dealer: Seat,
    seats: Sequence[Seat],
    options: Options,
    from_run: bool,
    becomes_trump: bool,
    again: bool = False,
) -> list[Point]:
    """The turn-up point(s) for one turned card; rule 10 decides turn-ups of a run.

    ``again``: a Jack turned earlier in this deal scored already (the wording only)."""
    value = kick_value(card, options)
    if value == 0:
        return []
    if from_run and options.jack_on_run is JackOnRun.NEVER:
        return []
    if from_run and not becomes_trump and \
            options.jack_on_run in (JackOnRun.ONLY_IF_TRUMP, JackOnRun.FINAL_ONLY):
        return []
    side = side_of(dealer, tuple(seats))
    if options.turnup_points is TurnupPoints.JACK1:
        return [Point(side, dealer, ClaimItem.KICK, value,
                      _turned_jack(dealer, card, from_run, again))]
    return [Point(side, dealer, ClaimItem.KICK, value, _kicked(dealer, card, value))]


def _turned_jack(dealer: Seat, card: Card, from_run: bool, again: bool) -> str:
    if not from_run:
        return f"{dealer.letter}, the dealer, turned up {card}: a turned Jack scores"
    if again:
        return f"{dealer.letter}, the dealer, turned up {card} in the run: a turned Jack " \
            "scores again"
    return f"{dealer.letter}, the dealer, turned up {card} in the run: a Jack turned in " \
        "a run scores"


def _kicked(dealer: Seat, card: Card, value: int) -> str:
    return f"{dealer.letter}'s side kicks {card}: {value}"


def gift_points(
    *,
    dealer: Seat,
    elder: Seat,
    seats: Sequence[Seat],
    options: Options,
    scores: Mapping[str, int],
) -> tuple[list[Point], str | None]:
    """The gift ("take one"), or the reason it is refused (rules 9, 12, 13)."""
    table = tuple(seats)
    if options.gift_recipients is GiftRecipients.EACH_OPPONENT and len(table) == 3:
        # counted one after the other in table order from the elder (it matters when
        # the first gift decides the game)
        after = next_seats(table, clockwise=options.clockwise)
        recipients = [elder, after[elder]]
    else:
        recipients = [elder]
    points = [Point(side_of(seat, table), seat, ClaimItem.GIFT, 1, _gave(elder, dealer))
              for seat in recipients]
    if options.gift_at_target_minus_one is GiftAtTargetMinusOne.FORBIDDEN:
        for point in points:
            if scores.get(point.side, 0) + 1 >= options.target:
                return [], (
                    f"{point.side} stands at {options.target - 1}: the gift would put "
                    f"{point.side} out, so the dealer must run the cards"
                )
    return points, None


def _gave(elder: Seat, dealer: Seat) -> str:
    return f"{elder.letter} begged and {dealer.letter} gave one (take one)"


# --- after the play ---------------------------------------------------------------------------


# The offences the play shows (a revoke, an undertrump: rules 18 and 20), and those only
# declared at the table (a misdeal, a wrong score), which score even in a deal not played out.
PLAY_OFFENCES = frozenset({PenaltyKind.REVOKE, PenaltyKind.UNDERTRUMP})
TABLE_OFFENCES = frozenset({PenaltyKind.MISDEAL, PenaltyKind.WRONG_SCORE})


@frozen
class Offence:
    """A revoke or undertrump found in the play, or a penalty declared at the table."""

    seat: Seat
    kind: PenaltyKind  # a revoke or undertrump the play shows, or any penalty declared
    trick: int | None
    reason: str


@frozen
class DealFacts:
    """What the scorer needs to know about one played deal."""

    seats: tuple[Seat, ...]
    dealer: Seat
    elder: Seat
    trump: Suit | None
    turnup_trump_jack: bool  # the Jack of trumps is the turn-up (rule 23)
    holders: Mapping[Card, Seat]  # every card in play and who was dealt it
    tricks: Sequence[tuple[int, Seat, tuple[tuple[Seat, Card], ...]]]  # (number, winner, plays)
    offences: Sequence[Offence]
    # Pips toward Game won per side, when the caller counted them trick by trick
    # already (the referee does); else counted from ``tricks``.
    pips: Mapping[str, int] | None = None


_DEAL_FACTS_DRAFT = draft_of(DealFacts)


def deal_facts(*values: Any) -> DealFacts:
    """``DealFacts(*values)`` (every field, in order), filled in as its draft
    (:func:`.frozen.draft_of`) without the class's call: the referee makes one whenever
    it counts a deal's points, with offences at every step that asks (issue 38)."""
    facts: Any = object.__new__(_DEAL_FACTS_DRAFT)
    (facts.seats, facts.dealer, facts.elder, facts.trump, facts.turnup_trump_jack,
     facts.holders, facts.tricks, facts.offences, facts.pips) = values
    facts.__class__ = DealFacts
    return facts  # type: ignore[no-any-return]


def play_points(facts: DealFacts, options: Options, scores: Mapping[str, int]) -> list[Point]:
    """High, Low, Jack (or Hang Jack), Game and penalties, in counting order (rule 25)."""
    offences = facts.offences
    if not offences:  # nearly every deal: no penalty to place
        items = high_low_points(facts, options)
        items.extend(jack_points(facts, options, set()))
        items.extend(game_points(facts, options, set()))
        return items
    table = facts.seats
    offenders = {side_of(o.seat, table) for o in offences if o.kind in PLAY_OFFENCES}
    graded = options.revoke_penalty is RevokePenalty.FOSTER_GRADED
    barred = offenders if graded else set()
    # A declared wrong score is about the score written after the hand: it is counted
    # last whatever ``penalty_timing`` says (that option places revokes).
    timed = [o for o in offences if o.kind is not PenaltyKind.WRONG_SCORE]
    wrong = [o for o in offences if o.kind is PenaltyKind.WRONG_SCORE]
    items = []
    if options.penalty_timing is PenaltyTiming.BEFORE_HIGH:
        items.extend(penalty_points(facts, options, scores, timed))
    items.extend(high_low_points(facts, options))
    items.extend(jack_points(facts, options, barred))
    items.extend(game_points(facts, options, barred))
    if options.penalty_timing is PenaltyTiming.AFTER_GAME:
        items.extend(penalty_points(facts, options, running(scores, items), timed))
    items.extend(penalty_points(facts, options, running(scores, items), wrong))
    return items


def running(scores: Mapping[str, int], items: Iterable[Point]) -> dict[str, int]:
    """``scores`` after ``items``: what a penalty counted next finds on the sheet."""
    after = dict(scores)
    for point in items:
        after[point.side] = after.get(point.side, 0) + point.points
    return after


def captured_in(facts: DealFacts, card: Card) -> tuple[int, Seat] | None:
    """The trick that captured ``card`` (its number and winner), if it was played: the
    last of them should a broken record show the card in two tricks."""
    for number, winner, plays in reversed(facts.tricks):
        for _, played in plays:
            if played is card:
                return number, winner
    return None


def trumps_in_play(facts: DealFacts) -> list[Card]:
    if facts.trump is None:
        return []
    return sorted((c for c in facts.holders if c.suit is facts.trump), key=lambda c: c.rank)


def high_low_points(facts: DealFacts, options: Options, *,
                    extremes: tuple[Card | None, Card | None] | None = None,
                    captured: Mapping[Card, tuple[int, Seat]] | None = None) -> list[Point]:
    """Rules 21 and 22.  Low is decided here and nowhere else.

    ``extremes`` (the highest and the lowest trump of ``facts.holders``) and ``captured``
    (the trick that took each card of ``facts.tricks``, as :func:`captured_in` finds it)
    are given by a caller that keeps them as cards are seen: the items "if the deal ended
    now" make these points again at about twenty-five steps of a replay page, and
    looking for them among every card seen and every trick was half the making (issue
    38)."""
    trump = facts.trump
    if trump is None:
        return []
    if extremes is None:
        high: Card | None = None
        low: Card | None = None
        for c in facts.holders:  # the highest and the lowest trump in play
            if c.suit is trump:
                if high is None or c.rank > high.rank:
                    high = c
                if low is None or c.rank < low.rank:
                    low = c
    else:
        high, low = extremes
    if high is None or low is None:
        return []
    side_by_seat = side_table(facts.seats)
    only = high is low  # two trumps are two ranks
    high_holder = facts.holders[high]
    what = "the only trump in play" if only else "the highest trump in play"
    points = [_point(side_by_seat[high_holder], high_holder, _HIGH, 1,
                     _dealt(high_holder, high, what))]
    low_holder = facts.holders[low]
    what = "the only trump in play" if only else "the lowest trump in play"
    capture = None
    if options.low_owner is _TRICK_WINNER:
        capture = captured_in(facts, low) if captured is None else captured.get(low)
    if capture is not None:
        number, winner = capture
        points.append(_point(side_by_seat[winner], winner, _LOW, 1,
                             _won_low(winner, low, what, number)))
    else:
        points.append(_point(side_by_seat[low_holder], low_holder, _LOW, 1,
                             _dealt(low_holder, low, what)))
    return points


def _dealt(holder: Seat, card: Card, what: str) -> str:
    return f"{holder.letter} was dealt {card}, {what}"


def _won_low(winner: Seat, low: Card, what: str, number: int) -> str:
    return f"{winner.letter} won {low}, {what}, in trick {number}"


def jack_points(facts: DealFacts, options: Options, barred: set[str]) -> list[Point]:
    """Rule 23: the Jack of trumps to the winner of its trick; Hang Jack in Trinidad."""
    if facts.trump is None or facts.turnup_trump_jack:
        return []
    jack = _JACK_OF[facts.trump]
    holder = facts.holders.get(jack)
    if holder is None:
        return []
    capture = captured_in(facts, jack)
    if capture is None:
        return []
    table = facts.seats
    number, winner = capture
    side = side_of(winner, table)
    if side in barred:
        return []
    same_side = side == side_of(holder, table)
    if options.hang_jack is _HANG_THREE and not same_side:
        return [_point(side, winner, _HANG_JACK, 3,
                       _hanged(winner, holder, jack, number))]
    return [_point(side, winner, _JACK, 1, _won_jack(winner, jack, number))]


def _hanged(winner: Seat, holder: Seat, jack: Card, number: int) -> str:
    return f"{winner.letter} captured {holder.letter}'s {jack} in trick {number}: Hang Jack"


def _won_jack(winner: Seat, jack: Card, number: int) -> str:
    return f"{winner.letter} won {jack} in trick {number}"


_JACK_OF = {suit: Card(suit, Rank.JACK) for suit in Suit}


def pips_by_side(facts: DealFacts) -> dict[str, int]:
    if facts.pips is not None:
        return dict(facts.pips)
    table = facts.seats
    pips = {side_of(seat, table): 0 for seat in table}
    for _, winner, plays in facts.tricks:
        side = side_of(winner, table)
        pips[side] = pips.get(side, 0) + sum(card.pips for _, card in plays)
    return pips


def game_points(facts: DealFacts, options: Options, barred: set[str]) -> list[Point]:
    """Rule 24: more pips in won tricks; a tie per ``game_tie``, no counting card per
    ``game_when_no_counters``."""
    table = facts.seats
    pips = facts.pips if facts.pips is not None else pips_by_side(facts)
    best = max(pips.values()) if pips else 0  # max's keyword costs twice the call
    leaders = []
    for side, value in pips.items():
        if value == best:
            leaders.append(side)
    tally = tuple(pips.items())
    if best > 0 and len(leaders) == 1:
        side = leaders[0]
        return [] if side in barred else [_most_pips(side, tally, options.game_value)]
    else:
        tie = _tie_rule(options, no_counters=best == 0)
        if tie is GameTie.NOBODY:
            return []
        seat = facts.elder
        if tie is GameTie.ELDEST_OF_TIED:
            seat = _first_from(facts.elder, table, leaders, options)
            who = "the elder hand" if seat is facts.elder else "the first tied player " \
                "from the elder hand"
        else:
            who = "the elder hand"
        side = side_of(seat, table)
        why = _game_by_rule(best, tally, who, seat)
    if side in barred:
        return []
    return [_point(side, seat, _GAME, options.game_value, why)]


def tied_game(elder: Seat, seats: Sequence[Seat], options: Options) -> Point | None:
    """Rule 24 for a deal recorded by its results whose scorer says the pips tied (every
    side the same, some counting card won): Game as ``game_tie`` gives it, or ``None``
    when a tie scores nothing.  Of all the sides tied, the first from the elder hand is
    the elder's own."""
    if options.game_tie is GameTie.NOBODY:
        return None
    side = side_of(elder, tuple(seats))
    return Point(side, elder, ClaimItem.GAME, options.game_value,
                 f"the pips are equal: the elder hand {elder.letter} scores Game")


def _tally(pips: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{side} {value}" for side, value in pips)


@lru_cache(maxsize=4096)
def _most_pips(side: str, tally: tuple[tuple[str, int], ...], value: int) -> Point:
    """Game to ``side``, which won the most pips: the same point again for the same tally
    (the very record; records are immutable).  A replay page makes Game's point again
    at nearly every trick's end, and the same tallies come again deal after deal and
    game after game (issue 38)."""
    return _point(side, _SEAT_OF_SIDE.get(side), _GAME, value,
                  f"{side} won the most pips toward Game ({_tally(tally)})")


def _game_by_rule(best: int, pips: tuple[tuple[str, int], ...], who: str, seat: Seat) -> str:
    why = "no counting card was won" if best == 0 else f"the pips are equal ({_tally(pips)})"
    return f"{why}: {who} {seat.letter} scores Game"


# The seat a one-seat side is (with four players a side is two seats: none).
_SEAT_OF_SIDE: Mapping[str, Seat] = {seat.letter: seat for seat in Seat}


def _tie_rule(options: Options, *, no_counters: bool) -> GameTie:
    """``game_tie``, or ``game_when_no_counters`` when nobody won a counting card."""
    rule = options.game_when_no_counters
    if not no_counters or rule is GameWhenNoCounters.AS_GAME_TIE:
        return options.game_tie
    return GameTie.ELDER if rule is GameWhenNoCounters.ELDER else GameTie.NOBODY


def _first_from(elder: Seat, table: tuple[Seat, ...], leaders: Sequence[str],
                options: Options) -> Seat:
    """Of the seats whose side is in ``leaders``, the first in play order from the elder."""
    after = next_seats(table, clockwise=options.clockwise)
    seat = elder
    for _ in table:
        if side_of(seat, table) in leaders:
            return seat
        seat = after[seat]
    return elder


def penalty_points(facts: DealFacts, options: Options, scores: Mapping[str, int],
                   offences: Sequence[Offence] | None = None) -> list[Point]:
    """Rules 27-29: what each offence (default: all of the deal's) costs, scored to the
    adversaries.

    ``scores`` are those at the moment the penalties are counted: ``game_lost`` gives
    each adversary exactly what it then needs, so no total passes the target.
    """
    table = facts.seats
    jack_in_play = facts.trump is not None and Card(facts.trump, Rank.JACK) in facts.holders
    points: list[Point] = []
    running_scores = dict(scores)
    for offence in facts.offences if offences is None else offences:
        if offence.kind is PenaltyKind.OTHER:
            continue
        if offence.kind is PenaltyKind.MISDEAL:
            if options.misdeal is not MisdealRule.OPPONENT_PLUS_1_AND_PASS:
                continue
            value = 1
        elif offence.kind is PenaltyKind.WRONG_SCORE:
            value = options.wrong_score_penalty
        else:
            value = revoke_value(options, jack_in_play)
        for side, seat in adversaries(offence.seat, table):
            amount = value
            if offence.kind in PLAY_OFFENCES and \
                    options.revoke_penalty is RevokePenalty.GAME_LOST:
                amount = max(1, options.target - running_scores.get(side, 0))
            running_scores[side] = running_scores.get(side, 0) + amount
            if amount <= 0:
                continue  # revoke_penalty=none, wrong_score_penalty=0: nothing to count
            points.append(Point(side, seat, ClaimItem.PENALTY, amount,
                                f"{offence.reason}: {side} scores {amount}"))
    return points


def revoke_value(options: Options, jack_in_play: bool) -> int:
    if options.revoke_penalty is RevokePenalty.FOSTER_GRADED:
        return 2 if jack_in_play else 1
    if options.revoke_penalty is RevokePenalty.OPPONENT_PLUS_14:
        return 14
    if options.revoke_penalty is RevokePenalty.NONE:
        return 0
    return 1


def adversaries(offender: Seat, seats: Sequence[Seat]) -> list[tuple[str, Seat]]:
    """Each opposing side of ``offender`` (one per side), in seat order."""
    table = tuple(seats)
    own = side_of(offender, table)
    mate = partner(offender, table)
    found: dict[str, Seat] = {}
    for seat in table:
        side = side_of(seat, table)
        if side != own and seat is not mate:
            found.setdefault(side, seat)
    return list(found.items())


# --- the race to the target -------------------------------------------------------------------


def count_in_order(
    points: Iterable[Point],
    scores: dict[str, int],
    options: Options,
    *,
    capped: set[str] | frozenset[str] = frozenset(),
) -> tuple[list[Point], Point | None]:
    """Add ``points`` to ``scores`` one by one (rule 25) until a side reaches the target.

    Returns the points actually scored and the one that decided the game (the
    later items of the deal are not scored).  Sides in ``capped`` cannot go out
    this deal (Foster's revoker): their score stops at target - 1, and an item
    the cap cuts is listed at what it added (0: "not scored: the revoker's side
    cannot go out this deal"), so that a deal's points always add up to the
    change in the totals.
    """
    scored: list[Point] = []
    for point in points:
        before = scores.get(point.side, 0)
        after = before + point.points
        if point.side in capped and after >= options.target:
            after = max(before, options.target - 1)
            point = cut_point(point, after - before)
        scores[point.side] = after
        scored.append(point)
        if after >= options.target:
            return scored, point
    return scored, None


CAP_CUT = "not scored: the revoker's side cannot go out this deal"


def cut_point(point: Point, kept: int) -> Point:
    """``point`` as Foster's cap leaves it: ``kept`` of its points (rule 27)."""
    if kept == point.points:
        return point
    if kept <= 0:
        return Point(point.side, point.seat, point.item, 0, f"{CAP_CUT} ({point.reason})")
    return Point(point.side, point.seat, point.item, kept,
                 f"{point.reason}; cut to {kept}: the revoker's side cannot go out this deal")
