"""Building the game a session's entries stand for: its deals, from the entries typed.

An entry is one statement of AFN as it happens (:mod:`.entries`); the deals they make
are what the referee judges and what the session writes.  A finished deal gets the
claim and total the scorer computes (:func:`scored_deal`); a claim the players made is
kept, with what the rules give noted after it (:data:`COMPUTED_NOTE`).
"""

from __future__ import annotations

from dataclasses import replace

from ..cards import Seat
from ..reading.records import (
    Abandoned,
    Award,
    Call,
    CallKind,
    Claim,
    ClaimItem,
    Comment,
    CommentStyle,
    Concede,
    Deal,
    Discard,
    Game,
    Hand,
    OpeningEvent,
    Pack,
    Penalty,
    Play,
    Redeal,
    Results,
    Tag,
    Total,
    Trick,
    TurnUp,
)
from ..referee.profiles import Options
from ..referee.scoring import Point
from ..referee.sheet import claim_for, total_for
from ..referee.state import DealResult
from .entries import Agreed, DealStart, Entry, GameTied, Item, ResultsDone, Ruling

__all__ = ["AGREED_NOTE", "COMPUTED_NOTE", "RECORDED_NOTE", "TIE_NOTE", "Built", "build_game",
           "deal_entries", "last_deal_entries", "points_text", "scored_deal"]

# The comment the recorder puts after a claim the players made, saying what the
# rules give: both are kept, the dispute shows in 'allfours check'.
COMPUTED_NOTE = " computed: "
# Before a director's ruling on a deal recorded by its results: what the scorer had.
RECORDED_NOTE = " recorded: "
# After the items of a deal recorded by its results whose Game was tied (``g =``): a tie
# is written, so that it differs from a Game forgotten (AFN 1 has no item for it; where
# the rules give a tie to the elder hand, the elder's ``game`` is written too).
TIE_NOTE = " Game tied "
# After the total of a deal the other side agreed to (``y``): AFN 1 has no word for the
# agreement, and without it a game left right after a ``y`` would ask for it again when
# resumed.  (A later deal begun says it too: a file of an earlier version, without it,
# resumes the same.)
AGREED_NOTE = " agreed "


# A deal built from its entries (its DealStart first), kept to be used again while they
# are the same objects: see build_game.
Built = tuple[tuple[Entry, ...], Deal]


def build_game(tags: tuple[Tag, ...], entries: tuple[Entry, ...], index: int,
               built: list[Built] | None = None) -> Game:
    """The records ``entries`` stand for: deals with their tricks, no claims computed.

    ``built``: the deals of an earlier call with their entries, refilled with this
    call's.  A deal whose entries are the very same objects is that deal again, not a
    new copy: while a deal is typed the ones before it are not rebuilt, and being the
    same objects they are compared and scored by identity later, not field by field
    (the entries are frozen, and a deal is made from its entries and number alone)."""
    players = len(Game(tags=tags).seats) or 2
    groups = deal_entries(entries)
    deals: list[Deal] = []
    for number, group in enumerate(groups, start=1):
        old = built[number - 1] if built is not None and number <= len(built) else None
        if old is not None and len(old[0]) == len(group) and \
                all(was is now for was, now in zip(old[0], group, strict=True)):
            deals.append(old[1])
        else:
            start = group[0]
            assert isinstance(start, DealStart)
            deals.append(_deal(number, start, list(group[1:]), players))
    if built is not None:
        built[:] = list(zip(groups, deals, strict=True))
    return Game(tags=tags, deals=tuple(deals), ended=True, index=index)


def deal_entries(entries: tuple[Entry, ...]) -> list[tuple[Entry, ...]]:
    """The entries of each deal, its DealStart first (entries before the first one, of
    no deal, are left out)."""
    starts = [at for at, entry in enumerate(entries) if isinstance(entry, DealStart)]
    ends = [*starts[1:], len(entries)]
    return [entries[at:end] for at, end in zip(starts, ends, strict=False)]


def _deal(number: int, start: DealStart, entries: list[Entry], players: int) -> Deal:
    opening: list[OpeningEvent] = []
    dealt_late: list[Hand] = []
    tricks: list[list[Play]] = []
    penalties: list[Penalty] = []
    claim: Claim | None = None
    ending: Redeal | Abandoned | Concede | None = None
    items: list[Award] = []
    item_comments: list[Comment] = []
    done = False
    ruling: Ruling | None = None
    ran = False
    for entry in entries:
        if isinstance(entry, Item):
            items.append(entry.award)
            item_comments.extend((*entry.leading, *entry.trailing))
            continue
        if isinstance(entry, GameTied):
            if entry.award is not None:
                items.append(entry.award)
            item_comments.extend((*entry.leading, *entry.trailing,
                                  Comment(TIE_NOTE, CommentStyle.BRACE)))
            continue
        if isinstance(entry, ResultsDone):
            done = True
            continue
        if isinstance(entry, Ruling):
            ruling = entry
            continue
        if isinstance(entry, Agreed):
            continue
        if isinstance(entry, Hand):
            turned = any(isinstance(e, TurnUp) for e in opening)
            if turned and not ran:
                dealt_late.append(entry)  # a hand as dealt, entered after the turn-up
            else:
                opening.append(entry)
        elif isinstance(entry, (TurnUp, Call, Discard, Pack)):
            ran = ran or (isinstance(entry, Call) and entry.kind is CallKind.RUNS)
            opening.append(entry)
        elif isinstance(entry, Play):
            if not tricks or len(tricks[-1]) >= players:
                tricks.append([])
            tricks[-1].append(entry)
        elif isinstance(entry, Penalty):
            played = sum(map(len, tricks))  # written after the trick it was typed in
            penalties.append(replace(entry, after_plays=-(-played // players) * players))
        elif isinstance(entry, Claim):
            # grouped by seat, as the written claim reads back (a claim edited item by
            # item lists the seats in any order)
            claim = replace(entry, awards=_grouped(list(entry.awards)))
        elif isinstance(entry, (Redeal, Abandoned, Concede)):
            ending = entry
    total_played = sum(map(len, tricks))
    penalties = [replace(p, after_plays=min(p.after_plays or 0, total_played))
                 for p in penalties]
    if dealt_late:
        first_turn = next(i for i, e in enumerate(opening) if isinstance(e, TurnUp))
        opening[first_turn:first_turn] = dealt_late
    results: Results | None = None
    if items or done or (isinstance(ending, Redeal) and not opening and not tricks):
        results = Results(awards=_grouped(items), trailing=tuple(item_comments))
    if ruling is not None:
        recorded: tuple[Comment, ...] = ()
        if results is not None:  # the scorer's results, kept beside the ruling
            from ..writing.formatter import awards_text

            written = awards_text("", results.awards, Deal(number=number, dealer=start.dealer))
            recorded = (Comment(RECORDED_NOTE + written.strip() + " ", CommentStyle.BRACE),)
        results = Results(awards=_grouped(list(ruling.awards)), director=True,
                          leading=recorded, trailing=(*ruling.leading, *ruling.trailing))
    # a results deal the scorer finished: marked by a total, which the session writes
    total = Total(scores=()) if done and not tricks else None
    return Deal(number=number, dealer=start.dealer, time=start.time, opening=tuple(opening),
                tricks=tuple(Trick(number=i + 1, plays=tuple(plays))
                             for i, plays in enumerate(tricks)),
                penalties=tuple(penalties), claim=claim, ending=ending,
                leading=start.leading, trailing=start.trailing, results=results, total=total)


def _grouped(awards: list[Award]) -> tuple[Award, ...]:
    """Awards grouped by seat, seats in the order they first appear (as the parser keeps
    them, so that the written line reads back the same), items in counting order."""
    order = list(dict.fromkeys(award.seat for award in awards))
    rank = list(ClaimItem)
    return tuple(sorted(awards, key=lambda a: (order.index(a.seat), rank.index(a.item))))


def last_deal_entries(entries: tuple[Entry, ...]) -> tuple[Entry, ...] | None:
    """The entries of the last deal, after its DealStart (``None`` before any deal)."""
    for index in range(len(entries) - 1, -1, -1):
        if isinstance(entries[index], DealStart):
            return entries[index + 1:]
    return None


def points_text(points: tuple[Point, ...]) -> str:
    """``NS 2  EW 1`` for a deal's points so far (nothing yet: "no points yet")."""
    by_side: dict[str, int] = {}
    for point in points:
        by_side[point.side] = by_side.get(point.side, 0) + point.points
    return "  ".join(f"{side} {value}" for side, value in by_side.items()) or "no points yet"


def scored_deal(deal: Deal, result: DealResult, seats: tuple[Seat, ...], options: Options) -> Deal:
    """A finished deal with the claim and total the computed result gives; a claim the
    players made is kept, with what the rules give noted after it.  A deal recorded by
    its results gets no computed claim (its results say it)."""
    computed = claim_for(result.points, seats, options)
    claim = deal.claim
    total = total_for(result.scores_after, seats)
    if claim is None and deal.results is not None:
        return replace(deal, total=total)
    if claim is None:
        claim = computed
    elif computed is None or claim.awards != computed.awards:
        from ..writing.formatter import claim_text

        said = claim_text(computed, deal) if computed is not None else "nothing"
        note = Comment(COMPUTED_NOTE + said.removeprefix("claim ") + " ", CommentStyle.BRACE)
        claim = replace(claim, trailing=(note,))
    return replace(deal, claim=claim, total=total)


# The recorder's own entries, not events of the table: who deals, the other side's word,
# a deal's results, a director's ruling.  Each is taken where the recorder is between
# deals, at a deal's end or entering a deal by its results; while a deal is played the
