"""Par and a card-by-card check of played deals, with every hand seen.

For each deal the *par* (the value from the start of play with the best play by all),
the result actually made, and each card whose play lowered its side's value: by how
much, the card that kept it, and why in one sentence.  Two sides: the value is a side's
points minus the other's (a point that changes hands moves it by 2).  Three players: a
seat's guaranteed points with the other two against it.

These verdicts see every hand (double dummy).  A player who could not know a card is
not called careless for missing a line only the hidden cards allowed.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import field

from ...cards import Card, Seat
from ...frozen import frozen
from ...reading.records import ClaimItem
from ...reading.table import side_of
from ...referee.scoring import Point
from ...referee.state import GameReplay
from .accelerated import solver_for
from .deals import PlayedDeal, conceded_by, played_deals
from .items import side_points
from .solver import Layout, Solver, SolveTimeout

__all__ = [
    "CAVEAT",
    "LABEL",
    "CardVerdict",
    "DealAnalyser",
    "DealAnalysis",
    "analyse_deal",
    "analyse_game",
    "glyph_for",
]

LABEL = "all hands seen (double dummy)"
CAVEAT = ("every verdict sees all the hands (double dummy): a player who could not know a "
          "card is not called careless for missing a line only the hidden cards allowed")
DEFAULT_TIME_LIMIT = 5.0

# makes the solver of a layout for a perspective (``solver_for``; the benchmark passes
# others, e.g. the solver of an earlier revision, to time the whole check with each)
SolverMaker = Callable[[Layout, str | None], Solver]

_KICK_GIFT = (ClaimItem.KICK, ClaimItem.GIFT)
# the items of the play: what par and "actual" count (as the score sheet lists them)
_PLAY_ITEMS = (ClaimItem.HIGH, ClaimItem.LOW, ClaimItem.JACK, ClaimItem.HANG_JACK,
               ClaimItem.GAME)


@frozen
class CardVerdict:
    """One card of the play, judged with every hand seen."""

    index: int  # 0-based, in the order of play
    trick: int
    seat: Seat
    card: Card
    legal: bool
    before: int  # the value of the position before the card, for the card's side
    after: int  # and after it
    loss: int  # before - after (0 for a card that kept the value)
    points_lost: int  # the points that changed hands (the flags count these)
    better: Card | None  # a card that keeps ``before`` (when ``loss`` > 0)
    better_after: int | None  # the value after ``better`` (``before``)
    reason: str

    @property
    def glyph(self) -> str | None:
        return glyph_for(self.points_lost)


def glyph_for(points_lost: int) -> str | None:
    """``?`` for a loss of 1 point, ``??`` for 2 or more."""
    if points_lost >= 2:
        return "??"
    if points_lost == 1:
        return "?"
    return None


@frozen
class DealAnalysis:
    """One deal's analysis: the best play (par) against the play as recorded."""

    number: int
    solved: bool
    note: str  # why not solved or analysed, else ""
    sides: tuple[str, ...]
    two_sides: bool
    par: tuple[tuple[str, int], ...]  # per side: the best line's points of High, Low,
    #                                   Jack and Game (two sides), or each seat's
    #                                   guaranteed points of them (three players)
    par_value: int | None  # two sides: the first side's points minus the second's
    actual: tuple[tuple[str, int], ...]  # per side: High, Low, Jack and Game as the
    #                                      referee scored them (the score sheet's items)
    fixed: tuple[Point, ...]  # High, and Low where it goes to its holder
    recorded: tuple[Point, ...]  # kicks and gifts as the referee scored them
    cards: tuple[CardVerdict, ...]
    best_line: tuple[tuple[Seat, Card], ...]
    checked: bool  # every card was judged within the time limit
    seconds: float
    nodes: int
    label: str = field(default=LABEL)
    # the referee's points of the items ``actual`` sums, item by item (those after the
    # game was decided among them: the score sheet lists them as not scored)
    actual_items: tuple[Point, ...] = field(default=())

    @property
    def flagged(self) -> tuple[CardVerdict, ...]:
        return tuple(v for v in self.cards if v.loss > 0)


class DealAnalyser:
    """The solvers of one deal (one for two sides, one per seat for three players), their
    transposition tables kept across every position asked about."""

    def __init__(self, layout: Layout, make_solver: SolverMaker = solver_for) -> None:
        self.layout = layout
        table_sides = layout.sides
        self.two_sides = len(table_sides) == 2
        self.solvers: dict[str | None, Solver] = (
            {None: make_solver(layout, None)} if self.two_sides
            else {side: make_solver(layout, side) for side in table_sides})
        self.sides = table_sides
        self._values: dict[tuple[str | None, int], int] = {}

    def view(self, seat: Seat) -> tuple[Solver, int]:
        """The solver that judges ``seat``'s cards and the sign of its values."""
        side = side_of(seat, self.layout.seats)
        if self.two_sides:
            return self.solvers[None], 1 if side == self.sides[0] else -1
        return self.solvers[side], 1

    def value(self, seat: Seat, line: Sequence[tuple[Seat, Card]], length: int,
              deadline: float | None) -> int:
        """The value for ``seat``'s side after the first ``length`` cards of ``line``."""
        solver, sign = self.view(seat)
        key = (solver.perspective, length)
        found = self._values.get(key)
        if found is None:
            solver.set_position(line[:length])
            found = self._values[key] = solver.value(deadline)
        return sign * found

    def best(self, seat: Seat, line: Sequence[tuple[Seat, Card]],
             deadline: float | None) -> tuple[int, Card | None]:
        """For the seat to move after ``line``: the value for its side and a card keeping it."""
        solver, sign = self.view(seat)
        solver.set_position(line)
        value, card = solver.best(deadline)
        return sign * value, card

    def best_line(self, seat: Seat | None, line: Sequence[tuple[Seat, Card]],
                  deadline: float | None) -> tuple[tuple[Seat, Card], ...]:
        """The best play from the position after ``line`` to the end of the deal; with
        three players, as ``seat``'s side sees it (the others against it)."""
        if self.two_sides or seat is None:
            solver = self.solvers[None] if self.two_sides else next(iter(self.solvers.values()))
        else:
            solver = self.view(seat)[0]
        played = list(line)
        rest: list[tuple[Seat, Card]] = []
        while True:
            solver.set_position(played)
            mover = solver.to_move()
            if mover is None:
                return tuple(rest)
            _, card = solver.best(deadline)
            assert card is not None
            played.append((mover, card))
            rest.append((mover, card))

    def outcome(self, line: Sequence[tuple[Seat, Card]]) -> tuple[Point, ...]:
        """The points of the play-dependent items of a complete line, by the scorer."""
        solver = next(iter(self.solvers.values()))
        solver.set_position(line)
        return solver.line_points()

    def pips(self, line: Sequence[tuple[Seat, Card]]) -> tuple[tuple[str, int], ...]:
        solver = next(iter(self.solvers.values()))
        solver.set_position(line)
        return tuple(zip(self.sides, solver.pips, strict=True))

    @property
    def nodes(self) -> int:
        return sum(s.stats.nodes for s in self.solvers.values())


def analyse_game(replayed: GameReplay, *, deal: int | None = None,
                 time_limit: float | None = DEFAULT_TIME_LIMIT,
                 check_cards: bool = True) -> list[DealAnalysis]:
    """Every deal of ``replayed`` (or deal number ``deal``) analysed."""
    out = []
    for played in played_deals(replayed):
        if deal is not None and played.number != deal:
            continue
        out.append(analyse_deal(played, time_limit=time_limit, check_cards=check_cards))
    return out


def _per_side(points: Sequence[Point], sides: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    return tuple(zip(sides, side_points(points, sides), strict=True))


def played_items(played: PlayedDeal) -> tuple[Point, ...]:
    """The referee's points of the items of the play (High, Low, Jack or Hang Jack, Game),
    item by item as the score sheet lists them: never counted again here."""
    result = played.result
    return tuple(p for p in (*result.points, *result.unscored) if p.item in _PLAY_ITEMS)


def analyse_deal(played: PlayedDeal, *, time_limit: float | None = DEFAULT_TIME_LIMIT,
                 check_cards: bool = True, make_solver: SolverMaker = solver_for,
                 clock: Callable[[], float] = time.perf_counter) -> DealAnalysis:
    """Par, the actual result and (``check_cards``) every card judged, within
    ``time_limit`` seconds for the whole deal (``None``: no limit) read on ``clock`` (the
    wall clock; the benchmark reads the CPU clock)."""
    result = played.result
    recorded = tuple(p for p in (*result.points, *result.unscored) if p.item in _KICK_GIFT)
    layout = played.layout
    start = clock()
    if layout is None:
        return DealAnalysis(played.number, False, played.why_not or "", (), True, (), None,
                            (), (), recorded, (), (), False, 0.0, 0)
    analyser = DealAnalyser(layout, make_solver)
    for solver in analyser.solvers.values():
        solver.clock = clock
    table_sides = analyser.sides
    deadline = None if time_limit is None else start + time_limit
    fixed = analyser.solvers[next(iter(analyser.solvers))].items.fixed
    fixed_by_side = dict(_per_side(fixed, table_sides))
    line = played.line
    actual_items = played_items(played)
    actual = _per_side(actual_items, table_sides)
    conceded = conceded_by(result)
    elder = layout.elder
    try:
        if analyser.two_sides:
            value = analyser.value(elder, line, 0, deadline)
            first, second = table_sides
            par_value = (value if side_of(elder, layout.seats) == first else -value) + \
                fixed_by_side[first] - fixed_by_side[second]
            best_line = analyser.best_line(None, (), deadline)
            par = _per_side((*analyser.outcome(best_line), *fixed), table_sides)
        else:
            par_value = None
            guaranteed = []
            for side in table_sides:
                solver = analyser.solvers[side]
                solver.set_position(())
                guaranteed.append((side, solver.value(deadline) + fixed_by_side[side]))
            par = tuple(guaranteed)
            best_line = analyser.best_line(elder, (), deadline)
    except SolveTimeout:
        return DealAnalysis(played.number, False, f"not solved in {_seconds(time_limit)}",
                            table_sides, analyser.two_sides, (), None, actual, fixed, recorded,
                            (), (), False, clock() - start, analyser.nodes,
                            actual_items=actual_items)
    verdicts: list[CardVerdict] = []
    checked = False
    if check_cards:
        try:
            verdicts = _check_cards(analyser, played, deadline)
            checked = True
        except SolveTimeout:
            checked = False
    notes = []
    if conceded is not None:
        notes.append(f"{conceded} after {len(line)} cards: judged up to the concession; "
                     "actual is what the referee scored")
    late = [p for p in result.unscored if p.item in _PLAY_ITEMS]
    if late:
        notes.append("after the game was decided, not scored (counted in actual): "
                     + ", ".join(f"{p.item.value} to {p.side}" for p in late))
    if check_cards and not checked:
        notes.append(f"the card-by-card check was not finished in {_seconds(time_limit)}")
    return DealAnalysis(played.number, True, "; ".join(notes), table_sides, analyser.two_sides,
                        par, par_value, actual, fixed, recorded, tuple(verdicts), best_line,
                        checked, clock() - start, analyser.nodes,
                        actual_items=actual_items)


def _seconds(limit: float | None) -> str:
    return f"{limit:g} s" if limit is not None else "the time allowed"


def _check_cards(analyser: DealAnalyser, played: PlayedDeal,
                 deadline: float | None) -> list[CardVerdict]:
    line = played.line
    tricks = [number for number, _, plays in played.result.tricks for _ in plays]
    out = []
    for k, (seat, c) in enumerate(line):
        solver, _ = analyser.view(seat)
        solver.set_position(line[:k])
        legal = c in solver.legal_now()
        before = analyser.value(seat, line, k, deadline)
        after = analyser.value(seat, line, k + 1, deadline)
        loss = before - after if legal else 0
        better: Card | None = None
        better_after: int | None = None
        reason = ""
        points_lost = 0
        if not legal:
            reason = f"{seat.letter}:{c} broke the rules of play: not judged"
        elif loss > 0:
            value, better = analyser.best(seat, line[:k], deadline)
            assert better is not None and value == before
            better_after = value
            points_lost = loss if not analyser.two_sides else (loss + 1) // 2
            reason = _reason(analyser, seat, c, better, line[:k], deadline)
        out.append(CardVerdict(k, tricks[k] if k < len(tricks) else 0, seat, c, legal, before,
                               after, loss, points_lost, better, better_after, reason))
    return out


def _tie(analyser: DealAnalyser, pips: tuple[tuple[str, int], ...], game: Point | None) -> str:
    """When Game along a line went by a tie of pips (or no counting card won), which
    rule gave it, by its option: ``equal pips, Game to S by game_tie=elder``."""
    values = [value for _, value in pips]
    most = max(values)
    if sum(1 for value in values if value == most) < 2:
        return ""
    options = analyser.layout.options
    rule = f"game_tie={options.describe('game_tie')}"
    if most == 0:
        rule = f"game_when_no_counters={options.describe('game_when_no_counters')}" + \
            (f", {rule}" if options.describe("game_when_no_counters") == "as_game_tie" else "")
    tied = "no counting card won" if most == 0 else "equal pips"
    to = f"Game to {game.side}" if game is not None else "nobody scores Game"
    return f"{tied}, {to} by {rule}"


def _item_key(point: Point) -> str:
    if point.item in (ClaimItem.JACK, ClaimItem.HANG_JACK):
        return "jack"
    return str(point.item.value)


def _reason(analyser: DealAnalyser, seat: Seat, played: Card, better: Card,
            prefix: Sequence[tuple[Seat, Card]], deadline: float | None) -> str:
    """One sentence: what ``played`` lost against ``better``, along the best lines."""
    layout = analyser.layout
    own = side_of(seat, layout.seats)
    with_better = (*prefix, (seat, better))
    with_played = (*prefix, (seat, played))
    line_b = (*with_better, *analyser.best_line(seat, with_better, deadline))
    line_p = (*with_played, *analyser.best_line(seat, with_played, deadline))
    got_b = {_item_key(p): p for p in analyser.outcome(line_b)}
    got_p = {_item_key(p): p for p in analyser.outcome(line_p)}

    def worth(point: Point | None) -> int:
        if point is None:
            return 0
        if point.side == own:
            return point.points
        return -point.points if analyser.two_sides else 0

    lost = [key for key in ("jack", "low", "game")
            if worth(got_b.get(key)) > worth(got_p.get(key))]
    me = f"{seat.letter}:{played}"
    keeper = f"{seat.letter}:{better}"
    jack_p, jack_b = got_p.get("jack"), got_b.get("jack")
    hanged = jack_p is not None and jack_p.item is ClaimItem.HANG_JACK and jack_p.side != own
    if lost == ["jack"] and hanged and jack_b is not None and jack_b.side == own:
        return f"{me} let the Jack be hanged: {keeper} keeps it"
    names = {"jack": "the Jack (hanged)" if hanged else "the Jack", "low": "Low", "game": "Game"}
    if not lost:  # the best lines differ in no item's owner (cannot be, by the values)
        return f"{me} lowered its side's value: {keeper} keeps it"
    items = " and ".join(names[key] for key in lost)
    if "game" in lost:
        pips_b = analyser.pips(line_b)
        pips = " v ".join(f"{side} {value}" for side, value in pips_b)
        tie_b = _tie(analyser, pips_b, got_b.get("game"))
        pips_p = analyser.pips(line_p)
        tie_p = _tie(analyser, pips_p, got_p.get("game"))
        also = ""
        if tie_p:
            also = "; " + " v ".join(f"{side} {value}" for side, value in pips_p) + \
                f" with {me}: {tie_p}"
        return f"{me} lost {items} ({pips} with {keeper}{': ' + tie_b if tie_b else ''}{also})"
    return f"{me} lost {items} ({keeper} keeps {'it' if len(lost) == 1 else 'them'})"
