"""The recorder's view of the referee: the one incremental table of :mod:`..referee.deal`.

Every entry is judged by the same referee as ``allfours check``: the engine's
:class:`~allfours_notation.referee.deal.Table` takes the game one event at a time,
and the structure checks look at the deal being recorded.  A deal is replayed from
a snapshot taken at its start (a hand as dealt may be entered after the turn-up,
and belongs before it), so an entry costs one deal's events, not the game's, and
mostly only its own: the table an earlier judgement left is copied and fed the
events the entry adds.  An entry is judged by the table's answer to its event (what
:meth:`Table.apply` says).
Nothing here knows a rule of All Fours; it only sorts what the referee said into
"refuse", "confirm first" and "not finished yet".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable, Iterator
from dataclasses import replace

from ..cards import Card
from ..checking.causes import SLIP_CODES
from ..diagnostics import Diagnostic, Severity
from ..frozen import frozen
from ..reading.records import Deal, Game, Total, Trick
from ..referee.deal import DealOver, Event, Expect, Phase, Table
from ..referee.play import hand_key
from ..referee.profiles import Options
from ..referee.replay import GameReplay, deal_events
from ..referee.state import TableState
from ..referee.structure import check_structure

__all__ = ["CONFIRM_CODES", "RESULTS_CODES", "Answer", "Judge", "Judgement", "Verdict", "findings",
           "is_unfinished", "new_findings", "open_events", "verdict", "worse_than_unfinished"]

# Not refused: the record says what happened at the table.  Asked about first.
CONFIRM_CODES = frozenset({"AFN306", "AFN307"})  # a revoke, an undertrump

# Refused when an item of a deal's results makes them: what results alone show cannot be
# (an item twice, one the rules do not know, points it cannot have, a side that cannot take
# it: AFN404-407).  The referee says so of a results line; the recorder refuses the item
# that makes the line say it, and writes nothing.  (A claim stays the players' word: its
# disputes are recorded, not refused.)
RESULTS_CODES = frozenset({"AFN404", "AFN405", "AFN406", "AFN407"})

# What a game still being played is bound to show, and nothing worse: these codes
# (no 'end', a trick not full, tricks missing, no turn-up, a beg not answered yet) and
# whatever the referee itself marks so (``Outcome.unfinished``, ``GameReplay.unfinished``:
# a run with no turn-up after it, the pack exhausted, a [Result "*"] the computed score
# disagrees with).
_UNFINISHED_CODES = frozenset({"AFN104", "AFN204", "AFN304", "AFN314", "AFN316"})


def is_unfinished(diagnostic: Diagnostic, marked: Collection[Diagnostic] = ()) -> bool:
    """Whether ``diagnostic`` only says the game (its last deal) is not finished yet:
    by its code, or because the referee marked it so (``marked``: the diagnostics it
    found, before they were numbered and linked)."""
    if diagnostic.code in _UNFINISHED_CODES:
        return True
    if not marked:
        return False
    return (diagnostic if diagnostic.id is None else diagnostic.linked(None, None)) in marked


def worse_than_unfinished(diagnostics: Iterable[Diagnostic],
                          marked: Collection[Diagnostic] = ()) -> list[Diagnostic]:
    """The errors of a game still being played that say more than "not finished yet"
    (disputes are not errors; the players' claims, totals and results lines, AFN4xx, are
    set aside too: the recorder writes them again from the entries).  A named slip (AFN221…) reads
    other findings as one mistake; in a game still being played those findings are
    judged themselves (a trick not finished yet reads as "a card missing")."""
    return [d for d in diagnostics if d.is_error and not d.code.startswith("AFN4")
            and not is_unfinished(d, marked) and d.code not in SLIP_CODES]


@frozen
class Answer:
    """The table's answer to one event of the deal being recorded (from
    :meth:`Table.apply`): the event, its diagnostics, and which of them only say the deal
    is not finished yet."""

    event: Event
    diagnostics: tuple[Diagnostic, ...]
    unfinished: tuple[Diagnostic, ...] = ()


@frozen
class Judgement:
    """What the referee says about the game recorded so far.

    ``open`` is the table after the last entry; ``closed`` the same with the last
    deal scored when it is over (``open`` itself otherwise).  ``answers`` are the
    table's answers to the last deal's events, one by one; ``closing`` its answer to
    closing that deal now (a revoke the hands as dealt prove is named when the deal is
    scored, and the recorder must know at once).
    """

    game: Game
    options: Options
    open: Table
    closed: Table
    finished: bool  # the last deal is over (played out, ended, or the game decided)
    structure: tuple[Diagnostic, ...]  # the structure checks of the last deal
    answers: tuple[Answer, ...]
    closing: Answer
    probe: Table  # the table with the last deal closed, finished or not

    @property
    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """The last deal's structure findings, then the referee's."""
        return (*self.structure, *self.open.diagnostics)

    @property
    def probed(self) -> tuple[Diagnostic, ...]:
        """The same with the last deal closed (see ``closing``)."""
        return (*self.structure, *self.probe.diagnostics)

    @property
    def unfinished(self) -> tuple[Diagnostic, ...]:
        """The findings the referee marked as only saying the game is not finished yet."""
        return tuple(d for answer in (*self.answers, self.closing) for d in answer.unfinished)

    @property
    def table(self) -> TableState | None:
        """The table now, with the game's running score."""
        state = self.open.state
        if state is None:
            return None
        scores = tuple((side, self.closed.scores[side]) for side in self.closed.sides)
        return replace(state, scores=scores, winner=self.closed.winner)

    @property
    def expects(self) -> Expect:
        return (self.closed if self.finished else self.open).expects()

    @property
    def exhausted(self) -> bool:
        return self.open.expects().exhausted

    @property
    def offered(self) -> tuple[Card, ...]:
        legal = self.open.legal_cards()
        return tuple(sorted(legal, key=hand_key)) if legal else ()

    @property
    def replayed(self) -> GameReplay:
        """The closed deals' results, the scores and the winner, as a replay gives them."""
        return self._replay(self.closed)

    @property
    def so_far(self) -> GameReplay:
        """The same with the deal being played scored as if it ended now (for a
        screen that shows its points as they come)."""
        return self._replay(self.probe)

    def _replay(self, table: Table) -> GameReplay:
        return GameReplay(game=self.game, options=self.options, steps=(),
                          deals=tuple(table.deals), diagnostics=self.diagnostics,
                          scores=tuple((side, table.scores[side]) for side in table.sides),
                          winner=table.winner, decided=table.decided)


def open_events(deal: Deal) -> Iterator[Event]:
    """The events of a deal still being recorded, in table order: the referee's own
    order (:func:`..rules.replay.deal_events`) without the total and the close (a deal
    being recorded is not over, and its total is the session's to write) and without
    the trick markers (a numbered trick waits for its next number to close; the cards
    typed one by one are grouped by the table as they come)."""
    for event in deal_events(deal):
        if not isinstance(event, (Trick, Total, DealOver)):
            yield event


def _same_event(one: Event, other: Event) -> bool:
    """Whether two events stand for the same thing in two builds of a deal (a header by
    its number and dealer: the rest of the deal are events of their own)."""
    if isinstance(one, Deal):
        return isinstance(other, Deal) and (one.number, one.dealer) == (other.number,
                                                                       other.dealer)
    return one == other


def findings(before: Judgement, after: Judgement) -> list[Diagnostic]:
    """What the referee said to the entry that made ``after`` of ``before``: its answer
    to the entry's event (and to the events after it, which a hand as dealt typed after
    the turn-up stands before) and to closing the deal now (a revoke the hands prove is
    named there, until its proof card is played), less what those answers said before;
    then what the structure checks add.  Only the answers the entry could change are
    compared, not the game's whole list."""
    same_deal = bool(before.game.deals) and len(before.game.deals) == len(after.game.deals)
    old = (*before.answers, before.closing) if same_deal else ()
    new = (*after.answers, after.closing)
    first = 0
    while first < min(len(old), len(new)) - 1 and \
            _same_event(old[first].event, new[first].event):
        first += 1
    fresh = new_findings((d for answer in old[first:] for d in answer.diagnostics),
                         (d for answer in new[first:] for d in answer.diagnostics))
    fresh.extend(new_findings(before.structure, after.structure))
    return fresh


def _answer(table: Table, event: Event) -> Answer:
    """The table's answer to ``event``: what :meth:`Table.apply` says of it, without the
    table state and the expectation ``apply`` builds after every event, which a judgement
    never reads (they were half the cost of judging an entry)."""
    found, unfinished = len(table.found), len(table.unfinished)
    table.feed(event)
    return Answer(event, tuple(table.found[found:]), tuple(table.unfinished[unfinished:]))


# The replays of the last deal a judge keeps to go on from: the entry before, and one
# refused or asked about since (a few, a correction judges entries one after another).
_REPLAYS_KEPT = 4
# The tables before each deal kept by a judge: the newest few (the deal being recorded
# and the one before, which an undo goes back to) and one every few deals (a correction
# or a ruling on an earlier deal replays at most that many deals from the one before).
# Every one kept, a long game held a whole table a deal (about 2 kB each).
_BEFORE_NEWEST = 3
_BEFORE_EVERY = 8


@frozen
class _Replayed:
    """The last deal of a judgement: the table before the deal (the judge's own, compared
    by identity), the deal's events, the table's answers and the table after them (a
    judgement's ``open`` table: copied to go on, never fed again)."""

    before: Table
    events: tuple[Event, ...]
    answers: tuple[Answer, ...]
    table: Table

    def leads(self, events: tuple[Event, ...]) -> bool:
        """Whether these events begin ``events``: the same events, by value and by place
        in the text (a finding names the place of its event)."""
        return len(self.events) <= len(events) and all(
            old is new or (old == new and getattr(old, "span", None) ==
                           getattr(new, "span", None))
            for old, new in zip(self.events, events, strict=False))


class Judge:
    """Judges the games a session builds, keeping the table as it stood before the
    last deals (and every few deals before them), so that only the deal being recorded
    is replayed for an entry."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self._deals: list[Deal] = []  # the deals the snapshots were built from
        # _before[i]: the table before deal i, or None where it was let go (see
        # _BEFORE_NEWEST: made again from the nearest one kept before it)
        self._before: list[Table | None] = []
        self._replays: list[_Replayed] = []  # the last deal as the last judgements left it

    def judge(self, game: Game) -> Judgement:
        deals = game.deals
        if deals:
            before = self._table_before(game, len(deals) - 1)
            table, answers = self._replay(before, tuple(open_events(deals[-1])))
        else:
            table, answers = self._empty(game), ()
        structure = self._structure(game)
        finished = bool(deals) and self._over(deals[-1], table)
        closed = probe = table.snapshot()
        closing = _answer(probe, DealOver())
        if not finished:
            closed = table
        return Judgement(game, self.options, table, closed, finished, structure,
                         answers, closing, probe)

    def _replay(self, before: Table, events: tuple[Event, ...]) -> tuple[Table, tuple[Answer,
                                                                                  ...]]:
        """The table after ``events`` of the last deal, from ``before`` (the table before
        that deal), with its answer to each.  An entry typed adds an event or two to the
        deal a judgement just replayed: that judgement's table is copied and only the
        events after its own are fed (the table is the same machine, fed the same events,
        so it answers the same; the events the earlier replay shares are its answers)."""
        known = max((r for r in self._replays if r.before is before and r.leads(events)),
                    key=lambda r: len(r.events), default=None)
        if known is None:
            table, answers = before.snapshot(), []
        else:
            table = known.table.snapshot()
            answers = [Answer(event, answer.diagnostics, answer.unfinished)
                       for event, answer in zip(events, known.answers, strict=False)]
        answers.extend(_answer(table, event) for event in events[len(answers):])
        done = tuple(answers)
        self._replays = [*self._replays[-(_REPLAYS_KEPT - 1):],
                         _Replayed(before, events, done, table)]
        return table, done

    @staticmethod
    def _structure(game: Game) -> tuple[Diagnostic, ...]:
        """The structure checks of the last deal: checked after the deal before it (its
        numbering follows that deal's), that deal's own findings left out.  Checked
        alone, deal 2 was "the first deal", numbered 2: a false warning."""
        deals = game.deals
        if len(deals) < 2:
            return tuple(check_structure(game))
        last = deals[-1].number
        return tuple(d for d in check_structure(replace(game, deals=deals[-2:]))
                     if d.deal is None or d.deal == last)

    def _empty(self, game: Game) -> Table:
        return Table(replace(game, deals=()), self.options, keep_steps=False)

    @staticmethod
    def _over(deal: Deal, table: Table) -> bool:
        if deal.ending is not None or deal.claim is not None:
            return True
        if deal.results is not None and not deal.tricks:
            return deal.total is not None  # results mode: the scorer's Enter ends it
        expects = table.expects()
        if expects.kind is Phase.DEAL_END:
            return not expects.exhausted
        return expects.kind in (Phase.CLAIM, Phase.GAME_OVER)

    def _table_before(self, game: Game, position: int) -> Table:
        """The table before deal ``position`` (0-based): kept snapshots while the deals
        before it are unchanged, the rest replayed once."""
        deals = game.deals
        same = 0
        while same < min(len(self._deals), position) and self._deals[same] == deals[same]:
            same += 1
        del self._deals[same:]
        del self._before[same + 1:]
        if not self._before:
            self._before.append(self._empty(game))
        while len(self._before) <= position:
            index = len(self._before) - 1
            after = self._kept_before(index).snapshot()
            after.feed_deal(replace(deals[index], total=None))
            self._deals.append(deals[index])
            self._before.append(after)
            older = len(self._before) - 1 - _BEFORE_NEWEST
            if older > 0 and older % _BEFORE_EVERY:
                self._before[older] = None
        return self._kept_before(position)

    def _kept_before(self, position: int) -> Table:
        """The table before deal ``position``, made again from the nearest one kept
        before it (the deals between are those of ``_deals``, unchanged) if let go."""
        found = self._before[position]
        if found is not None:
            return found
        start = max(i for i in range(position) if self._before[i] is not None)
        table = self._before[start]
        assert table is not None
        table = table.snapshot()
        for index in range(start, position):
            table.feed_deal(replace(self._deals[index], total=None))
        self._before[position] = table
        return table


class Verdict:
    """How an entry stands: accepted, refused (with the reason) or to be confirmed."""

    ACCEPT = "accept"
    REFUSE = "refuse"
    CONFIRM = "confirm"


def _key(diagnostic: Diagnostic) -> tuple[str, str, int | None, int | None]:
    """What makes a finding the same one: an offence is the same whichever card is
    named as its proof (the first held, or the one played later)."""
    message = "" if diagnostic.code in CONFIRM_CODES else diagnostic.message
    return (diagnostic.code, message, diagnostic.deal, diagnostic.trick)


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


def verdict(fresh: Iterable[Diagnostic], unfinished: Collection[Diagnostic] = (), *,
            refused: Collection[str] = ()) -> tuple[str, Diagnostic | None]:
    """Refuse on the first new error that is more than "not finished yet" (``unfinished``:
    the referee's marks) and not about the players' word on the score (AFN4xx: claims,
    totals and results lines, which the recorder writes or keeps as said; but the codes
    in ``refused``, :data:`RESULTS_CODES` when an item is typed); a dispute is never an
    error (its severity is its own); ask on a revoke or undertrump; else accept (a new warning is
    shown, not refused)."""
    findings = list(fresh)
    for diagnostic in findings:
        if diagnostic.severity is Severity.ERROR and \
                not is_unfinished(diagnostic, unfinished) and \
                (not diagnostic.code.startswith("AFN4") or diagnostic.code in refused):
            return Verdict.REFUSE, diagnostic
    for diagnostic in findings:
        if diagnostic.code in CONFIRM_CODES:
            return Verdict.CONFIRM, diagnostic
    shown = next((d for d in findings if not is_unfinished(d, unfinished)), None)
    return Verdict.ACCEPT, shown
