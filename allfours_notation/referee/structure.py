"""Structural checks: what no deal of All Fours can contain, whatever the rules.

These need no rule profile: a card dealt twice, the turn-up also in a hand, a
hand of seven, a trick with the wrong number of cards, a seat not at the table,
tags missing from the roster, a deal's statements out of table order or one given
twice (from the statements as reading kept them).  Legality of play (following suit, revokes) and
scoring are the table's (:mod:`.deal`).  They are the first stage of checking a
game read (:func:`check_read_game`), run by the one door and by the public
``parse`` (:mod:`..checking.parsing`); reading itself reports only what it reads.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from heapq import merge
from itertools import groupby
from operator import itemgetter
from typing import cast

from ..cards import DEALT, RUN_BATCH, SEAT_TAG_NAMES, Card, Seat
from ..diagnostics import Diagnostic, Severity
from ..limits import LIMIT_CODE, MAX_FINDINGS_PER_GAME
from ..reading.assembler import ReadGame, Statement
from ..reading.parser import faulty_game
from ..reading.records import (
    Call,
    CallKind,
    Deal,
    Discard,
    Game,
    Hand,
    Pack,
    Span,
    TurnUp,
    diagnostic_at,
    set_diagnostics,
)
from ..reading.statements import _call
from ..reading.table import SEATS_FOR_PLAYERS, seats_of_game

MANDATORY_TAGS = ("Event", "Site", "Date", "Rules", "Result")


class _Reporter:
    """Collects a game's structure findings, at most :data:`MAX_FINDINGS_PER_GAME` of
    them: a deal whose every card is written twice makes one finding per card, and a
    few MB of such deals would otherwise hold millions (issue 16).  Those past the
    limit are counted, and :meth:`result` says how many in one more finding."""

    def __init__(self, game: Game, filename: str | None) -> None:
        self.game = game
        self.filename = filename
        self.found: list[Diagnostic] = []
        self.dropped = 0

    def result(self) -> list[Diagnostic]:
        if self.dropped:
            self.found.append(diagnostic_at(
                self.game, self.game.span, LIMIT_CODE,
                f"{self.dropped:,} more problems with this game's cards and tricks are not "
                f"listed (at most {MAX_FINDINGS_PER_GAME:,} are; see 'Limits' in NOTATION.md)",
                severity=Severity.WARNING, hint="fix the ones listed and check again"))
        return self.found

    def __call__(
        self,
        code: str,
        message: str,
        span: Span | None,
        *,
        deal: Deal | None = None,
        trick: int | None = None,
        severity: Severity = Severity.ERROR,
        hint: str | None = None,
    ) -> None:
        if len(self.found) >= MAX_FINDINGS_PER_GAME:
            self.dropped += 1
            return
        self.found.append(
            diagnostic_at(
                self.game,
                span,
                code,
                message,
                severity=severity,
                deal=deal.number if deal else None,
                trick=trick,
                hint=hint,
            )
        )


def check_read_game(read: ReadGame) -> Game:
    """A game from :func:`..reading.parser.read_game_body`, its structure checked and
    those findings added after what reading it found (a game reading gave up on has
    no seats: nothing is left to check).  A fault in the checks gives a broken game
    holding one AFN901 at its start, and the next game is still read."""
    game, seats, origin, statements = read
    if seats is None:
        return game
    try:
        order = check_order(game, statements) if statements else None
        found = check_structure(game, filename=game.source, seats=seats)
    except Exception as error:  # the other place a fault in reading a game is caught
        return faulty_game(error, origin, game.index, game.source)
    if order:
        set_diagnostics(game, (*_placed(game.diagnostics, order), *found))
    elif found:
        set_diagnostics(game, (*game.diagnostics, *found))
    return game


# --- statement order (AFN206) ----------------------------------------------------------------

# Statement order within a deal: opening < play < ending < results < count < claim < total
# (the table's phases, as a record writes them).  Penalties may be declared during or
# after play.  A concession is a call that ends the deal (stage 2).
_STAGE = {
    "HAND": 0,
    "TURN": 0,
    "TURN_WORD": 0,  # "turn { c } 4S": a turn-up a comment cut
    "CALL": 0,
    "DISCARD": 0,
    "PACK": 0,
    "PLAYS": 1,
    "PENALTY": 1,
    "REDEAL": 2,
    "ABANDONED": 2,
    "RESULTS": 3,
    "COUNT": 4,
    "CLAIM": 5,
    "TOTAL": 6,
}
_STAGE_NAMES = {
    0: "the opening",
    1: "the play",
    2: "the end of the deal",
    3: "the results",
    4: "the count for Game",
    5: "the claim",
    6: "the total",
}
# may follow the deal's ending
_AFTER_THE_END = frozenset({"CLAIM", "TOTAL", "RESULTS", "COUNT"})
_ONCE = {  # what a deal has one of, and what to say of the second
    "CLAIM": "a deal has one claim; merge the two",
    "RESULTS": "a deal has one line of results; merge the two",
    "COUNT": "a deal has one count for Game; merge the two",
    "TOTAL": "a deal has one total",
}
_ORDER_HINT = ("a deal is written in table order: hands, turn-up, stand or beg, tricks, "
               "penalties, claim, total")


def check_order(game: Game, statements: Sequence[Statement]) -> list[Diagnostic]:
    """AFN206 for each statement of a deal out of table order, after the deal has
    ended, or given twice (a claim, a total, a line of results, an ending: the record
    keeps the first), in the order written.  ``statements``: the game's, as reading
    kept them (a record built in code has none, and nothing to say here)."""
    found: list[Diagnostic] = []
    for place, written in groupby(statements, key=_DEAL_PLACE):
        _check_deal_order(game, game.deals[place].number, written, found)
    return found


_DEAL_PLACE = itemgetter(0)


def _check_deal_order(game: Game, number: int, written: Iterable[Statement],
                      found: list[Diagnostic]) -> None:
    stage = 0
    ended = False
    seen: set[str] = set()
    for _, kind, text, span in written:
        ending = kind == "REDEAL" or kind == "ABANDONED"
        if kind == "CALL":
            ending = _call(text)[1] is None  # "S concedes"
            token_stage = 2 if ending else 0
        else:
            token_stage = _STAGE[kind]
        if ended and kind not in _AFTER_THE_END:
            found.append(diagnostic_at(game, span, "AFN206",
                                       f"{_describe(kind, text)} after the deal has ended",
                                       deal=number))
        elif token_stage < stage and not (kind == "PENALTY" and stage <= 2):
            found.append(diagnostic_at(
                game, span, "AFN206",
                f"{_describe(kind, text)} belongs to {_STAGE_NAMES[token_stage]}, but comes "
                f"after {_STAGE_NAMES[stage]}", deal=number, hint=_ORDER_HINT))
        if token_stage > stage:
            stage = token_stage
        if kind in _ONCE:
            if kind in seen:
                found.append(diagnostic_at(game, span, "AFN206", _ONCE[kind], deal=number))
            seen.add(kind)
        elif ending:
            if ended:
                found.append(diagnostic_at(game, span, "AFN206", "a deal can end only once",
                                           deal=number))
            ended = True


def _describe(kind: str, text: str) -> str:
    """A statement named as written, for a message: ``'S stands'``, ``the hand of N``."""
    words = text.split()
    if kind == "PLAYS":
        return "play"
    if kind == "HAND":
        return f"the hand of {words[0].upper()}"
    if kind in ("CALL", "DISCARD"):
        return f"'{' '.join(words[:2])}'"
    return f"'{words[0].lower() if words else ''}'"


def _placed(read: tuple[Diagnostic, ...], order: list[Diagnostic]) -> list[Diagnostic]:
    """Reading's findings with the order findings where they have always stood: reading
    took a deal's statements one by one, so they come among its findings about the
    words of a claim (AFN213, which lead its list, in file order), by position, before
    its trick numbers (AFN207) and a missing 'end' (AFN104)."""
    head = 0
    while head < len(read) and read[head].code == "AFN213":
        head += 1
    return [*merge(order, read[:head], key=_position), *read[head:]]


def _position(diagnostic: Diagnostic) -> tuple[int, int]:
    return diagnostic.line or 0, diagnostic.column or 0


def check_structure(game: Game, *, filename: str | None = None,
                    seats: tuple[Seat, ...] | None = None) -> list[Diagnostic]:
    """Every structural problem of ``game``, in file order.

    ``seats`` are the game's seats (``seats_of_game(game)``) when the caller has them
    already: the parser works them out to group plays into tricks."""
    if not game.tags and not game.deals:  # only "end": nothing but the missing tags to say
        return [missing_tags(game)]
    report = _Reporter(game, filename)
    if seats is None:
        seats = seats_of_game(game)
    if _starts_mid_game(game):
        first = game.deals[0]
        report(
            "AFN214",
            f"this tag starts a new game, whose first deal is deal {first.number}: a tag "
            "block always begins a game, so the deals below are not part of the game above",
            game.tags[0].span,
            severity=Severity.WARNING,
            hint="put tags at the top of the game they belong to, or write this one as a "
            "comment { … }",
        )
        _check_deals(game, seats, report, first_numbered=False)
        return report.result()
    _check_tags(game, seats, report)
    _check_deals(game, seats, report, first_numbered=True)
    return report.result()


def _starts_mid_game(game: Game) -> bool:
    """A tag written inside a game: a new game without its roster, whose deals carry on
    from a deal numbered above 1."""
    if not game.tags or not game.deals or game.deals[0].number <= 1:
        return False
    names = {tag.name for tag in game.tags}
    return "Event" not in names and not any(seat.tag_name in names for seat in Seat)


def _check_deals(game: Game, seats: tuple[Seat, ...], report: _Reporter, *,
                 first_numbered: bool) -> None:
    previous: Deal | None = None
    seat_set = frozenset(seats)
    for deal in game.deals:
        _check_deal(deal, seats, seat_set, report)
        if previous is not None and deal.number != previous.number + 1:
            report(
                "AFN210",
                f"deal {deal.number} follows deal {previous.number}",
                deal.span,
                deal=deal,
                severity=Severity.WARNING,
                hint="number deals 1, 2, 3 … in the order they were played",
            )
        previous = deal
    if first_numbered and game.deals and game.deals[0].number != 1:
        first = game.deals[0]
        report(
            "AFN210",
            f"the first deal is numbered {first.number}",
            first.span,
            deal=first,
            severity=Severity.WARNING,
        )


_MISSING_TAGS_HINT = ('a game starts with [Event "…"] [Site "…"] [Date "YYYY.MM.DD"] '
                      '[Rules "…"], a tag per player by seat, and [Result "…"]')
_NO_TAGS = "missing tags: " + ", ".join([*MANDATORY_TAGS, "the players (North, South …)"])


def missing_tags(game: Game) -> Diagnostic:
    """AFN108 for a game with no tags at all, at the game's start: every tag is missing
    and no seat is named, so the message is one text (a file of tiny games has
    nothing else to report per game).  What :func:`_check_tags` would report, made
    without the reporter."""
    return diagnostic_at(game, game.span, "AFN108", _NO_TAGS, severity=Severity.WARNING,
                         hint=_MISSING_TAGS_HINT)


def _check_tags(game: Game, seats: tuple[Seat, ...], report: _Reporter) -> None:
    if not game.tags:  # every tag is missing, no seat is named (a file of tiny games)
        report.found.append(missing_tags(game))  # the first finding: no limit to mind
        return
    seen: set[str] = set()
    for tag in game.tags:
        if tag.name in seen:
            report(
                "AFN109",
                f"tag {tag.name} is given twice; the first one counts",
                tag.span,
                severity=Severity.WARNING,
            )
        seen.add(tag.name)
    missing = [name for name in MANDATORY_TAGS if name not in seen]
    if seen.isdisjoint(SEAT_TAG_NAMES):
        missing.append("the players (North, South …)")
    if missing:
        report(
            "AFN108",
            "missing tags: " + ", ".join(missing),
            game.tags[0].span if game.tags else game.span,
            severity=Severity.WARNING,
            hint=_MISSING_TAGS_HINT,
        )
    named = tuple(seat for seat in seats if game.tag(seat.tag_name) is not None)
    if named and named not in SEATS_FOR_PLAYERS.values():
        report(
            "AFN211",
            "players sit at " + ", ".join(s.tag_name for s in named) + "; AFN seats two players "
            "North and South, three North, East and South, four all round",
            game.tags[0].span if game.tags else game.span,
        )


def _seat_positions(deal: Deal) -> Iterator[tuple[Seat, Span | None, str]]:
    yield deal.dealer, deal.span, "the dealer"
    for event in deal.opening:
        if isinstance(event, Hand):
            yield event.seat, event.span, "a hand"
        elif isinstance(event, Call):
            yield event.seat, event.span, f"'{event.kind.value}'"
    for trick in deal.tricks:
        for play in trick.plays:
            if play.seat is not None:
                yield play.seat, play.span, "a card played"
    for penalty in deal.penalties:
        yield penalty.offender, penalty.span, "a penalty"
    if deal.results is not None:
        for award in deal.results.awards:
            yield award.seat, deal.results.span, "the results"
    if deal.claim is not None:
        for award in deal.claim.awards:
            yield award.seat, deal.claim.span, "the claim"
    if deal.count is not None:
        for score in deal.count.scores:
            yield score.seat, deal.count.span, "the count for Game"
    if deal.total is not None:
        for score in deal.total.scores:
            yield score.seat, deal.total.span, "the total"


def _seats_named(deal: Deal) -> set[Seat]:
    """Every seat the deal names: a quick test before the slower walk that says where.
    Loops rather than generators: a generator made for each part of every deal cost
    more than the walk (issue 38)."""
    named: set[Seat | None] = {play.seat for trick in deal.tricks for play in trick.plays}
    named.discard(None)  # a play without its seat's label
    named.add(deal.dealer)
    for event in deal.opening:
        if not isinstance(event, (TurnUp, Pack)):
            named.add(event.seat)
    for penalty in deal.penalties:
        named.add(penalty.offender)
    for statement in (deal.claim, deal.results):
        if statement is not None:
            for award in statement.awards:
                named.add(award.seat)
    for scores in (deal.total, deal.count):
        if scores is not None:
            for score in scores.scores:
                named.add(score.seat)
    return cast(set[Seat], named)


def _check_deal(deal: Deal, seats: tuple[Seat, ...], seat_set: frozenset[Seat],
                report: _Reporter) -> None:
    if not deal.opening and not deal.tricks and not deal.penalties and \
            deal.claim is None and deal.total is None and deal.results is None and \
            deal.count is None:
        # Only a header (and perhaps an ending): the dealer is all it names, and it
        # has no cards, tricks or total to check.
        if deal.dealer not in seat_set:
            _report_misplaced(deal, seats, seat_set, report)
        return
    # Nearly every deal names only seats at the table; only when one does not is
    # each seat named walked with a description of where it stands.
    if not _seats_named(deal) <= seat_set:
        _report_misplaced(deal, seats, seat_set, report)
    _check_cards(deal, report)
    _check_tricks(deal, len(seats), report)
    _check_total(deal, report)


def _report_misplaced(deal: Deal, seats: tuple[Seat, ...], seat_set: frozenset[Seat],
                      report: _Reporter) -> None:
    """AFN205 for each place in ``deal`` that names a seat not at the table."""
    for seat, span, what in _seat_positions(deal):
        if seat not in seat_set:
            report(
                "AFN205",
                f"{what} names {seat.tag_name}, who is not at this table "
                f"({', '.join(s.letter for s in seats)})",
                span,
                deal=deal,
            )


def _check_cards(deal: Deal, report: _Reporter) -> None:
    """Each card is dealt at most once; turn-ups are in nobody's hand or play."""
    dealt: dict[Card, Seat | None] = {}  # who was dealt each card; None: turned up
    turnups = {event.card: event for event in deal.opening if isinstance(event, TurnUp)}
    seen_turnup = False
    ran = False
    batch_seats: set[Seat] = set()
    first_play = deal.tricks[0].span.start if deal.tricks and deal.tricks[0].span else None
    for event in deal.opening:
        if isinstance(event, TurnUp):
            if event.card in dealt:
                report(
                    "AFN202",
                    f"{event.card} is turned up but was {_dealt_text(dealt[event.card])}",
                    event.span,
                    deal=deal,
                    hint="the turn-up is not part of any hand",
                )
            dealt.setdefault(event.card, None)
            seen_turnup = True  # a run goes on (turn after turn) until the next call
            batch_seats = set()
            continue
        if isinstance(event, Call):
            ran = event.kind is CallKind.RUNS
            continue
        if isinstance(event, (Discard, Pack)):
            continue  # checked by the referee, which knows what each seat held
        limit = RUN_BATCH if seen_turnup else DEALT
        after_play = (
            first_play is not None and event.span is not None and event.span.start > first_play
        )
        if seen_turnup and not ran and not after_play:  # after play: check_order says so
            report(
                "AFN206",
                f"the hand of {event.seat.letter} comes after the turn-up with no run",
                event.span,
                deal=deal,
                hint="write hands as dealt before 'turn'; cards from a run after 'runs'",
            )
        if event.seat in batch_seats:
            report(
                "AFN208",
                f"{event.seat.tag_name}'s cards are written twice here",
                event.span,
                deal=deal,
            )
        batch_seats.add(event.seat)
        if len(event.cards) > limit:
            what = "a hand as dealt" if not seen_turnup else "the cards of one run"
            report(
                "AFN203",
                f"{event.seat.tag_name} has {len(event.cards)} cards; {what} has {limit}",
                event.span,
                deal=deal,
            )
        for card in event.cards:
            if card is None:
                continue
            if card in turnups:
                report(
                    "AFN202",
                    f"{card} is in {event.seat.tag_name}'s hand but is also turned up",
                    event.span,
                    deal=deal,
                    hint="the turn-up is not part of any hand",
                )
                continue
            if card in dealt:
                owner = dealt[card]
                where = f"{card} is written twice in {event.seat.tag_name}'s hand" \
                    if owner is event.seat else \
                    f"{card} is dealt twice: to {event.seat.tag_name}, and {_dealt_text(owner)}"
                report("AFN201", where, event.span, deal=deal)
            dealt.setdefault(card, event.seat)
    played_cards = [play.card for trick in deal.tricks for play in trick.plays]
    if len(set(played_cards)) == len(played_cards) and turnups.keys().isdisjoint(played_cards):
        return  # the usual case, proved at once: no card played twice or turned up
    played: dict[Card, int] = {}
    for trick in deal.tricks:
        for play in trick.plays:
            if play.card in played:
                report(
                    "AFN201",
                    f"{play.card} is played twice (first in trick {played[play.card]})",
                    play.span,
                    deal=deal,
                    trick=trick.number,
                )
            elif play.card in turnups:
                report(
                    "AFN202",
                    f"{play.card} was turned up; a turn-up is in nobody's hand",
                    play.span,
                    deal=deal,
                    trick=trick.number,
                )
            played.setdefault(play.card, trick.number)


def _dealt_text(owner: Seat | None) -> str:
    """Where a card went, for a message: worded only when a problem is reported."""
    return "turned up" if owner is None else f"to {owner.tag_name}"


def _check_tricks(deal: Deal, players: int, report: _Reporter) -> None:
    unfinished = deal.ending is not None
    for trick in deal.tricks:
        if len(trick.plays) == players:
            continue
        if len(trick.plays) < players and trick is deal.tricks[-1] and unfinished:
            continue
        report(
            "AFN204",
            f"trick {trick.number} has {_cards(len(trick.plays))}; with {players} players "
            f"a trick has {players}",
            trick.span,
            deal=deal,
            trick=trick.number,
        )


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _check_total(deal: Deal, report: _Reporter) -> None:
    if deal.total is None:
        return
    seen: set[Seat] = set()
    for score in deal.total.scores:
        if score.seat in seen:
            report(
                "AFN212", f"the total lists {score.seat.tag_name} twice", deal.total.span, deal=deal
            )
        seen.add(score.seat)
