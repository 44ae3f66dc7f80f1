"""A deal recorded by its results alone (``scored N kick 3 W high low``): what the referee
can check from the items each side took, and the points it counts from them.

A club scorer chalks the results of a deal, not its cards.  Results alone cannot show
who held High, but they can show an item taken twice, an item these rules do not know,
a kick the recorded turn-up does not give, a gift nobody begged for, an item counted
after the game was won, and a total that does not add up (the last two the table
itself reports, as for a played deal).  This module says which items are possible and
puts them in the counting order of rule 25; :mod:`.deal` awards them.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, Rank, Seat, Suit
from ..diagnostics import Severity
from ..frozen import frozen
from ..reading.records import Award, ClaimItem, Count
from ..reading.table import side_of
from .play import max_runs
from .profiles import GiftRecipients, HangJack, Options, PenaltyTiming
from .scoring import ITEM_LABELS, Point, gift_points, kick_value, revoke_value

__all__ = ["PACK_PIPS", "Finding", "ResultsFacts", "count_pips", "item_value", "kick_values",
           "results_points", "tally_text"]


@frozen
class Finding:
    """A problem with the results: a referee diagnostic without its place."""

    code: str
    message: str
    severity: Severity = Severity.ERROR
    hint: str | None = None


@frozen
class ResultsFacts:
    """What the table knows of a results-only deal besides its results."""

    seats: tuple[Seat, ...]
    dealer: Seat
    elder: Seat
    turnups: tuple[Card, ...]  # as recorded (none: not written)
    kicked: tuple[Point, ...]  # turn-up points the table already counted from them
    calls_written: bool  # stands, begs, gives or runs written
    gave: bool  # a 'gives' call was written (the table counted the gift)
    scores: dict[str, int]  # before the deal's items from the results


def kick_values(options: Options) -> tuple[int, ...]:
    """The points a turn-up can score under ``options``, lowest first (none: no kicks)."""
    values = {kick_value(Card(Suit.SPADES, rank), options) for rank in Rank}
    return tuple(sorted(v for v in values if v > 0))


def item_value(item: ClaimItem, options: Options, *, jack_in_play: bool = False) -> int | None:
    """What one item is worth under ``options`` when the results do not say; ``None``
    for a kick whose worth depends on the card (Trinidad: 1, 2 or 3)."""
    if item is ClaimItem.KICK:
        values = kick_values(options)
        return values[0] if len(values) == 1 else None
    if item is ClaimItem.HANG_JACK:
        return 3
    if item is ClaimItem.GAME:
        return options.game_value
    if item is ClaimItem.PENALTY:
        return revoke_value(options, jack_in_play)
    return 1


def _within_the_pack(kicks: list[Award], options: Options,
                     findings: list[Finding]) -> list[Award]:
    """The kicks a pack can give: each worth is turned up by a card of a few ranks, four
    of each in the pack (Hoffmann's turned Jack: four Jacks, so five kicks of 1 cannot
    be); the kicks beyond what the pack holds are reported (AFN404) and not counted."""
    values = kick_values(options)
    kept: list[Award] = []
    counted: dict[int, int] = {}
    reported: set[int] = set()
    for award in kicks:
        worth = award.points if award.points is not None else \
            (values[0] if len(values) == 1 else None)
        if worth is None or worth not in values:
            kept.append(award)  # its worth is judged below
            continue
        ranks = [rank for rank in Rank if kick_value(Card(Suit.SPADES, rank), options) == worth]
        held = len(ranks) * len(Suit)
        counted[worth] = counted.get(worth, 0) + 1
        if counted[worth] <= held:
            kept.append(award)
        elif worth not in reported:
            reported.add(worth)
            written = sum(1 for a in kicks if (a.points if a.points is not None else
                                               (values[0] if len(values) == 1 else None))
                          == worth)
            names = " or ".join(f"{rank.name.lower()}s" for rank in ranks)
            findings.append(Finding("AFN404", f"{written} kicks of {worth} in one deal: the "
                                    f"pack holds {held} {names} to turn up"))
    return kept


def _recipients(facts: ResultsFacts, options: Options) -> int:
    if options.gift_recipients is GiftRecipients.EACH_OPPONENT and len(facts.seats) == 3:
        return 2
    return 1


def results_points(awards: Sequence[Award], facts: ResultsFacts,
                   options: Options) -> tuple[list[Point], list[Finding]]:
    """The points the results give, in counting order, and what is wrong with them.

    Kicks and the gift the table counted already from a recorded turn-up or call are
    only compared with the results; otherwise they are counted from the results, first.
    An impossible item is reported and not counted."""
    seats = facts.seats
    findings: list[Finding] = []
    dealer_side = side_of(facts.dealer, seats)
    elder_side = side_of(facts.elder, seats)
    by_item: dict[ClaimItem, list[Award]] = {}
    for award in awards:
        if award.seat not in seats:
            continue  # a seat not at the table: the structure checks report it (AFN205)
        by_item.setdefault(award.item, []).append(award)

    def label(award: Award) -> str:
        return f"{award.seat.letter} {award.item.value}" + \
            (f" {award.points}" if award.points is not None else "")

    def point(award: Award, value: int) -> Point:
        side = side_of(award.seat, seats)
        return Point(side, award.seat, award.item, value,
                     f"{side} took {ITEM_LABELS[award.item]} ({value}), as recorded")

    def valued(award: Award, value: int) -> Point | None:
        if award.points is not None and award.points != value:
            findings.append(Finding(
                "AFN406", f"'{label(award)}': {ITEM_LABELS[award.item]} is worth {value} under "
                "these rules", hint=f"write '{award.seat.letter} {award.item.value}' or give "
                f"its worth, {value}"))
            return None
        return point(award, value)

    before: list[Point] = []
    # -- kicks: the turn-ups decide them --
    kicks = by_item.pop(ClaimItem.KICK, [])
    values = kick_values(options)
    if kicks and not values:
        findings.append(Finding("AFN405", "these rules score nothing for the turn-up "
                                "(turnup_points=none): a kick cannot be taken",
                                hint="leave the kick out, or say the rules: [TurnupPoints \"…\"]"))
        kicks = []
    for award in list(kicks):
        if side_of(award.seat, seats) != dealer_side:
            findings.append(Finding("AFN407", f"'{label(award)}': the turn-up scores for the "
                                    f"dealer's side ({dealer_side}) only"))
            kicks.remove(award)
    if facts.turnups:
        expected = sorted(p.points for p in facts.kicked)
        given = sorted(a.points for a in kicks if a.points is not None)
        left = list(expected)
        matched = len(kicks) == len(expected)
        for value in given:
            if value in left:
                left.remove(value)
            else:
                matched = False
        if not matched:
            shown = " ".join(str(card) for card in facts.turnups)
            gives = " and ".join(str(v) for v in expected) if expected else "nothing"
            findings.append(Finding(
                "AFN406", f"the kicks written ({', '.join(label(a) for a in kicks) or 'none'}) "
                f"do not match the turn-up ({shown}), which scores {gives} under these rules",
                hint="the recorded turn-ups decide the kicks; the table counts them"))
    else:
        most = max_runs(len(seats)) + 1
        if len(kicks) > most:
            findings.append(Finding("AFN404", f"{len(kicks)} kicks in one deal: with "
                                    f"{len(seats)} players a deal has at most {most} turn-ups"))
            kicks = kicks[:most]
        kicks = _within_the_pack(kicks, options, findings)
        for award in kicks:
            if award.points is None:
                if len(values) == 1:
                    before.append(point(award, values[0]))
                else:
                    findings.append(Finding(
                        "AFN406", f"'{label(award)}': a kick is worth "
                        f"{', '.join(map(str, values))} by the card turned; say which",
                        hint=f"write '{award.seat.letter} kick 2', or the turn-up: 'turn 6D'"))
            elif award.points not in values:
                findings.append(Finding(
                    "AFN406", f"'{label(award)}': a turn-up scores "
                    f"{' or '.join(map(str, values))} under these rules"))
            else:
                before.append(point(award, award.points))
    # -- the gift: only after a beg, to the beggar's side --
    gifts = by_item.pop(ClaimItem.GIFT, [])
    for award in list(gifts):
        if side_of(award.seat, seats) == dealer_side or (
                _recipients(facts, options) == 1 and side_of(award.seat, seats) != elder_side):
            findings.append(Finding("AFN407", f"'{label(award)}': the gift goes to the elder "
                                    f"hand who begged ({facts.elder.letter})"))
            gifts.remove(award)
    if gifts and facts.calls_written and not facts.gave:
        findings.append(Finding("AFN407", "a gift is written, but the calls show no beg "
                                "answered by 'gives'", hint="write 'E begs' and 'N gives', or "
                                "leave the gift out"))
        gifts = []
    if facts.gave:
        if not gifts:
            findings.append(Finding("AFN407", "the dealer gave one, but the results do not "
                                    "list the gift", hint="add it: 'E gift'"))
        gifts = []  # counted by the table at the call
    if len(gifts) > _recipients(facts, options):
        findings.append(Finding("AFN404", "the gift is written more than once"))
        gifts = gifts[:_recipients(facts, options)]
    if gifts:
        allowed, refused = gift_points(dealer=facts.dealer, elder=facts.elder, seats=seats,
                                       options=options, scores=facts.scores)
        if refused is not None:
            findings.append(Finding("AFN310", f"the gift is forbidden under these rules: "
                                    f"{refused}; it is not scored"))
        elif allowed:
            before.extend(p for p in (valued(a, 1) for a in gifts) if p is not None)
    # -- High, Low, Jack (or Hang Jack), Game: once each --
    turned_jack = bool(facts.turnups) and facts.turnups[-1].rank is Rank.JACK
    items: list[Point] = []
    for item in (ClaimItem.HIGH, ClaimItem.LOW, ClaimItem.JACK, ClaimItem.HANG_JACK,
                 ClaimItem.GAME):
        taken = by_item.pop(item, [])
        if not taken:
            continue
        if item is ClaimItem.HANG_JACK and options.hang_jack is HangJack.OFF:
            findings.append(Finding("AFN405", "Hang Jack is not played under these rules "
                                    "(hang_jack=off)", hint="write 'jack' for the Jack, or say "
                                    "the rules: [HangJack \"3\"]"))
            continue
        if item in (ClaimItem.JACK, ClaimItem.HANG_JACK) and turned_jack:
            findings.append(Finding("AFN404", f"'{label(taken[0])}': the Jack of trumps was "
                                    f"turned up ({facts.turnups[-1]}); its point is the kick",
                                    hint="leave it out: the turn-up scored it"))
            continue
        if item is ClaimItem.HANG_JACK and any(p.item is ClaimItem.JACK for p in items):
            findings.append(Finding("AFN404", "Jack and Hang Jack in one deal: there is one "
                                    "Jack of trumps"))
            continue
        if len(taken) > 1:
            findings.append(Finding("AFN404", f"{ITEM_LABELS[item]} is written "
                                    f"{len(taken)} times: a deal has one"))
        found = valued(taken[0], item_value(item, options) or 1)
        if found is not None:
            items.append(found)
    # -- penalties: where the rules count them --
    jack_in_play = any(p.item in (ClaimItem.JACK, ClaimItem.HANG_JACK) for p in items)
    penalties = [point(a, a.points if a.points is not None
                       else revoke_value(options, jack_in_play))
                 for a in by_item.pop(ClaimItem.PENALTY, [])]
    if options.penalty_timing is PenaltyTiming.BEFORE_HIGH:
        items[:0] = penalties
    else:
        items.extend(penalties)
    return before + items, findings


# --- a count for Game ("count N 31 S 18") -----------------------------------------------------

PACK_PIPS = 80  # ten 10 a suit, ace 4, king 3, queen 2, jack 1: 20 a suit


def count_pips(count: Count, seats: tuple[Seat, ...]) -> tuple[dict[str, int], list[Finding]]:
    """The pips toward Game each side counted, as the record writes them (a side left out
    counted none), and what cannot be so (AFN411): a side counted twice, a count below
    nothing, more pips than the pack holds."""
    pips = {side_of(seat, seats): 0 for seat in seats}
    written: dict[str, str] = {}
    findings: list[Finding] = []
    for score in count.scores:
        if score.seat not in seats:
            continue  # a seat not at the table: the structure checks report it (AFN205)
        side, letter = side_of(score.seat, seats), score.seat.letter
        if side in written:
            findings.append(Finding("AFN411", f"the count gives {side} twice ({written[side]} "
                                    f"and {letter}): a side has one count",
                                    hint="write each side once: count N 31 E 18"))
        elif score.points < 0:
            findings.append(Finding("AFN411", f"'{letter} {score.points}': a count cannot be "
                                    "below nothing"))
        else:
            written[side] = letter
            pips[side] = score.points
    if sum(pips.values()) > PACK_PIPS:
        findings.append(Finding("AFN411", f"the count adds up to {sum(pips.values())} pips; "
                                f"the whole pack holds {PACK_PIPS}"))
    return pips, findings


def tally_text(pips: dict[str, int]) -> str:
    """``N 31, S 18``: a count as a message writes it."""
    return ", ".join(f"{side} {value}" for side, value in pips.items())
