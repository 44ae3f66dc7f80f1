"""The advisor: stand or beg for the elder hand, give or run for the dealer.

From what the player can know — the hand, the turn-up, the score, the seat and the
rules — each option the rules allow is valued over ``samples`` sampled deals: the cards
the player cannot see are dealt uniformly at random (the other hands and the stock's
order, every sampled deal used for every option), each deal is played out at a
referee's table that sees every card (kicks, the gift, running the pack, a bunch and its
redeal, a side going out: all the referee's answers, see :mod:`.advisor_play`), and its
play is valued by the double-dummy :class:`~.solver.Solver`.  Per option: each side's
expected points in the deal and each side's probability of winning the game from this
score, each with its standard error and the number of deals it rests on.  When the deal
does not decide the game, the later deals are a model (:mod:`.advisor_race`).

The dealer's answer to the elder's beg is not read off the sampled deal: in each
sampled deal it is the dealer's own advice (this same evaluation, from the dealer's
seat, with the dealer's hand, the turn-up and the score, and ``dealer_samples`` deals of
its own in which the elder's hand is unknown), so it depends on nothing the dealer
cannot see.  Deterministic for a seed (a play not solved within ``time_limit`` seconds
of CPU time is left out and counted, which a loaded machine could change).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from ...cards import DEALT, FULL_PACK, Card, Seat
from ...frozen import frozen
from ...reading.records import Call, CallKind
from ...reading.table import side_of, sides
from ...referee.deal import Table
from ...referee.profiles import Options
from ...referee.start import starting_scores
from .advisor_play import (
    DealOutcome,
    World,
    answers_allowed,
    deal_order,
    header_game,
    play_world,
    table_at_turnup,
)
from .advisor_race import LATER_DEALS, LaterDeals, Race, later_deals

__all__ = ["ADVISOR_CAVEAT", "Advice", "AdviceError", "Estimate", "OptionAdvice", "Position",
           "advise", "dealer_answer", "position"]

ADVISOR_CAVEAT = ("hidden hands unknown: sampled uniformly, each sampled deal played "
                  "double dummy; later deals modelled")
DEFAULT_SAMPLES = 100
DEFAULT_DEALER_SAMPLES = 8
DEFAULT_TIME_LIMIT = 2.0


class AdviceError(ValueError):
    """A position the advisor cannot take, with a stable code (AFN701-AFN709,
    ``docs/analysis.md``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@frozen
class Position:
    """What the advised player knows: the table and rules, who deals, the player's own
    seat (the elder hand or the dealer) and hand, the first turn-up, and each side's
    score before this deal (the turn-up's points are the referee's to add)."""

    options: Options
    seats: tuple[Seat, ...]
    dealer: Seat
    seat: Seat
    hand: tuple[Card, ...]
    turnup: Card
    scores: tuple[tuple[str, int], ...]

    @property
    def elder(self) -> Seat:
        return deal_order(self.options, self.seats, self.dealer)[0]

    @property
    def role(self) -> str:
        """``elder`` (stand or beg) or ``dealer`` (give or run, after a beg)."""
        return "dealer" if self.seat is self.dealer else "elder"

    @property
    def side(self) -> str:
        return _side(self.seats, self.seat)


def _side(seats: tuple[Seat, ...], seat: Seat) -> str:
    return side_of(seat, seats)


def position(options: Options, seats: tuple[Seat, ...], dealer: Seat, seat: Seat,
             hand: Sequence[Card], turnup: Card,
             scores: Mapping[str, int] | None = None) -> Position:
    """A checked :class:`Position`; :class:`AdviceError` says what is wrong with it."""
    if dealer not in seats:
        raise AdviceError("AFN704", f"{dealer.letter} is not a seat at this table "
                          f"({' '.join(s.letter for s in seats)})")
    if seat not in seats:
        raise AdviceError("AFN704", f"{seat.letter} is not a seat at this table "
                          f"({' '.join(s.letter for s in seats)})")
    elder = deal_order(options, seats, dealer)[0]
    if seat not in (elder, dealer):
        raise AdviceError("AFN704", f"{seat.letter} neither begs nor answers a beg: the elder "
                          f"hand is {elder.letter}, the dealer {dealer.letter}")
    if len(hand) != DEALT:
        raise AdviceError("AFN701", f"a hand as dealt has {DEALT} cards; {len(hand)} given")
    seen: set[Card] = set()
    for c in hand:
        if c in seen:
            raise AdviceError("AFN702", f"{c} is in the hand twice")
        seen.add(c)
    if turnup in seen:
        raise AdviceError("AFN703", f"the turn-up {turnup} is also in the hand")
    table_sides = sides(seats)
    given = dict(scores or {})
    for name in given:
        if name not in table_sides:
            raise AdviceError("AFN705", f"{name!r} is not a side at this table "
                              f"({', '.join(table_sides)})")
    # whether such a score can start a deal is the referee's to say (a [Score] tag)
    start, problems = starting_scores(header_game(seats, tuple(given.items())), seats, options)
    if problems:
        raise AdviceError("AFN705", f"no deal starts from this score (the referee, reading it "
                          f"as a tag: {problems[0].code} {problems[0].message})")
    return Position(options, seats, dealer, seat, tuple(hand), turnup,
                    tuple((side, start.get(side, 0)) for side in table_sides))


@frozen
class Estimate:
    """A mean over sampled deals, its standard error and how many deals it rests on."""

    mean: float
    se: float
    samples: int


def _estimate(values: Sequence[float]) -> Estimate:
    n = len(values)
    if n == 0:
        return Estimate(math.nan, math.nan, 0)
    mean = sum(values) / n
    if n < 2:
        return Estimate(mean, math.nan if n == 1 else 0.0, n)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Estimate(mean, math.sqrt(variance / n), n)


@frozen
class OptionAdvice:
    """One option's value: per side (in the table's side order) the expected points of
    this deal and the probability of winning the game; ``unsolved``: sampled deals left
    out (their play not solved in time); ``answers``: for a beg, how often the modelled
    dealer gave and ran (``(call, count)``)."""

    option: str
    points: tuple[tuple[str, Estimate], ...]
    win: tuple[tuple[str, Estimate], ...]
    unsolved: int
    answers: tuple[tuple[str, int], ...] = ()
    decided: int = 0  # sampled deals in which this deal decided the game
    certain: bool = False  # the calls alone decided the game in every sampled deal


@frozen
class Advice:
    """The advisor's answer: each option, the best of them for the advised side (the
    highest probability of winning; on a tie, a sampled result before one the calls make
    certain if it is a loss, after it if a win, then the most expected points over the
    opponents),
    or ``decided``: the turn-up alone decides the game (nothing to choose)."""

    position: Position
    options: tuple[OptionAdvice, ...]
    best: str | None
    decided: str | None
    samples: int
    seed: int
    dealer_samples: int
    later: int
    later_left_out: int
    seconds: float

    def option(self, name: str) -> OptionAdvice:
        for found in self.options:
            if found.option == name:
                return found
        raise KeyError(name)


@dataclass(slots=True)
class _Settings:
    samples: int
    seed: int
    dealer_samples: int
    later: int
    time_limit: float | None
    clock: Callable[[], float]
    dealer_memo: dict[tuple[Position, int], CallKind] = field(default_factory=dict)


def advise(pos: Position, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
           dealer_samples: int = DEFAULT_DEALER_SAMPLES, later: int = LATER_DEALS,
           time_limit: float | None = DEFAULT_TIME_LIMIT,
           clock: Callable[[], float] = time.process_time) -> Advice:
    """Value every option of ``pos`` over ``samples`` sampled deals (see the module)."""
    if samples < 1:
        raise AdviceError("AFN706", f"--samples: give at least 1 ({samples} given)")
    if dealer_samples < 1:
        raise AdviceError("AFN706", f"--dealer-samples: give at least 1 ({dealer_samples} given)")
    if later < 1:
        raise AdviceError("AFN706", f"--later: give at least 1 ({later} given)")
    if time_limit is not None and not time_limit > 0:  # NaN too
        raise AdviceError("AFN706", f"--time-limit: give a number of seconds above 0 "
                          f"({time_limit} given)")
    settings = _Settings(samples, seed, dealer_samples, later, time_limit, clock)
    return _advise(pos, settings)


def _advise(pos: Position, settings: _Settings) -> Advice:
    started = settings.clock()
    rng = random.Random(f"allfours advise {settings.seed}")
    worlds = [_sample(pos, rng) for _ in range(settings.samples)]
    first = table_at_turnup(pos.options, pos.seats, pos.dealer, pos.scores, worlds[0],
                            pos.turnup)
    if first.expects().decided:
        return Advice(pos, (), None, first.winner, settings.samples, settings.seed,
                      settings.dealer_samples, settings.later, 0, settings.clock() - started)
    pool = later_deals(pos.options, pos.seats, settings.later, clock=settings.clock,
                       time_limit=settings.time_limit)
    choices = _choices(pos, first)
    race = Race(sides(pos.seats), first.target, pool)
    policy = _policy(pos, settings)
    found = []
    for call in choices:
        outcomes = [play_world(pos.options, pos.seats, pos.dealer, pos.scores, world,
                               pos.turnup, call, policy, advised=pos.seat,
                               time_limit=settings.time_limit, clock=settings.clock)
                    for world in worlds]
        found.append(_value(call, outcomes, pos, race))
    best = _best(found, pos)
    return Advice(pos, tuple(found), best, None, settings.samples, settings.seed,
                  settings.dealer_samples, settings.later, pool.left_out,
                  settings.clock() - started)


def _sample(pos: Position, rng: random.Random) -> World:
    """One uniform deal of the cards the player has not seen: the other hands, then
    the stock in order."""
    known = {*pos.hand, pos.turnup}
    unseen = [c for c in FULL_PACK if c not in known]
    rng.shuffle(unseen)
    hands = []
    for seat in pos.seats:
        if seat is pos.seat:
            hands.append((seat, pos.hand))
        else:
            hands.append((seat, tuple(unseen[:DEALT])))
            del unseen[:DEALT]
    return World(tuple(hands), tuple(unseen))


def _choices(pos: Position, table: Table) -> tuple[CallKind, ...]:
    """The options the rules allow the advised player here, asked of the table."""
    if pos.role == "dealer":
        trial = table.snapshot()
        trial.feed(_call(pos.elder, CallKind.BEGS))
        return answers_allowed(trial)
    choices = []
    if not table.expects().must_beg:
        choices.append(CallKind.STANDS)
    trial = table.snapshot()
    trial.feed(_call(pos.elder, CallKind.BEGS))
    answer = trial.expects()
    if answer.may_give or answer.may_run:  # a beg the dealer could not answer is not made
        choices.append(CallKind.BEGS)
    return tuple(choices) or (CallKind.STANDS,)


def _call(seat: Seat, kind: CallKind) -> Call:
    return Call(seat=seat, kind=kind)


def _policy(pos: Position, settings: _Settings) -> Callable[[Table], CallKind]:
    """The dealer's answer to a beg in a sampled deal: read from the table only the
    dealer's own hand (and the turn-up and score the elder knows too), then advise the
    dealer on that."""

    def answer(table: Table) -> CallKind:
        allowed = answers_allowed(table)
        if len(allowed) == 1:
            return allowed[0]
        state = table.state
        assert state is not None
        dealer_hand = dict(state.hands)[pos.dealer]
        dealer_pos = Position(pos.options, pos.seats, pos.dealer, pos.dealer, dealer_hand,
                              pos.turnup, pos.scores)
        return dealer_answer(dealer_pos, seed=settings.seed, samples=settings.dealer_samples,
                             later=settings.later, time_limit=settings.time_limit,
                             clock=settings.clock, memo=settings.dealer_memo)

    return answer


def dealer_answer(pos: Position, *, seed: int, samples: int, later: int = LATER_DEALS,
                  time_limit: float | None = DEFAULT_TIME_LIMIT,
                  clock: Callable[[], float] = time.process_time,
                  memo: dict[tuple[Position, int], CallKind] | None = None) -> CallKind:
    """The dealer's answer to a beg as the advisor models it: the best option of the
    dealer's own advice (``pos`` is the dealer's: the dealer's hand, nothing else of the
    deal), over ``samples`` deals of the dealer's own sampling."""
    key = (pos, seed)
    if memo is not None and key in memo:
        return memo[key]
    if _gift_loses_outright(pos, seed, clock):
        # the gift puts the elder out whatever the cards: nothing a run brings is worse
        chosen = CallKind.RUNS
    else:
        inner = _Settings(samples, seed, 1, later, time_limit, clock)
        advice = _advise(pos, inner)
        chosen = CallKind.GIVES if advice.best in (None, CallKind.GIVES.value) else CallKind.RUNS
    if memo is not None:
        memo[key] = chosen
    return chosen


def _gift_loses_outright(pos: Position, seed: int, clock: Callable[[], float]) -> bool:
    """Whether, at the dealer's seat, the rules allow both answers and a gift ends the game
    against the dealer at once (asked of the table in one sampled deal: a gift's effect
    depends on the score and the rules, not on any card the dealer cannot see)."""
    world = _sample(pos, random.Random(f"allfours advise {seed}"))
    table = table_at_turnup(pos.options, pos.seats, pos.dealer, pos.scores, world, pos.turnup)
    if table.expects().decided:
        return False
    table.feed(_call(pos.elder, CallKind.BEGS))
    if answers_allowed(table) != (CallKind.GIVES, CallKind.RUNS):
        return False
    outcome = play_world(pos.options, pos.seats, pos.dealer, pos.scores, world, pos.turnup,
                         CallKind.GIVES, _no_policy, advised=pos.seat, time_limit=None,
                         clock=clock)
    return outcome.at_call and outcome.winner is not None and outcome.winner != pos.side


def _no_policy(_table: Table) -> CallKind:
    raise AssertionError("the dealer's own answer is given")  # pragma: no cover


def _value(call: CallKind, outcomes: Sequence[DealOutcome], pos: Position,
           race: Race) -> OptionAdvice:
    table_sides = sides(pos.seats)
    solved = [o for o in outcomes if o.solved]
    points: dict[str, list[float]] = {side: [] for side in table_sides}
    wins: dict[str, list[float]] = {side: [] for side in table_sides}
    answers: dict[str, int] = {}
    decided = 0
    for outcome in solved:
        made = dict.fromkeys(table_sides, 0)
        for side, scored in outcome.events:
            made[side] += scored
        if outcome.winner is not None:
            decided += 1
            chances = tuple(1.0 if side == outcome.winner else 0.0 for side in table_sides)
        else:
            chances = race.chances(outcome.scores_after)
        for k, side in enumerate(table_sides):
            points[side].append(made[side])
            wins[side].append(chances[k])
        if call is CallKind.BEGS and outcome.answer is not None:
            word = outcome.answer.value
            answers[word] = answers.get(word, 0) + 1
    return OptionAdvice(call.value, tuple((s, _estimate(points[s])) for s in table_sides),
                        tuple((s, _estimate(wins[s])) for s in table_sides),
                        len(outcomes) - len(solved), tuple(sorted(answers.items())), decided,
                        bool(outcomes) and all(o.at_call for o in outcomes))


def _best(found: Sequence[OptionAdvice], pos: Position) -> str | None:
    side = pos.side

    def merit(option: OptionAdvice) -> tuple[float, float, float]:
        win = dict(option.win)[side].mean
        points = dict(option.points)
        own = points[side].mean
        others = max((e.mean for s, e in points.items() if s != side), default=0.0)
        if math.isnan(win):  # no deal solved: worse than any chance, better than none
            return (1e-9, 0.0, -math.inf)
        # on equal chances: a result the calls alone make certain (a gift that puts a
        # side out) is better than a sampled one when it is a win, worse when a loss (the
        # few deals sampled may not have shown the other's chances); then the margin
        certain = option.certain and option.unsolved == 0
        tie = (1.0 if certain else 0.0) if win >= 0.5 else (0.0 if certain else 1.0)
        return (round(win, 9), tie, own - others)

    if not found:
        return None
    return max(found, key=merit).option


def pool_of(pos: Position, later: int = LATER_DEALS,
            clock: Callable[[], float] = time.process_time,
            time_limit: float | None = DEFAULT_TIME_LIMIT) -> LaterDeals:
    """The later deals' pool the advice of ``pos`` uses (for the docs and tests)."""
    return later_deals(pos.options, pos.seats, later, clock=clock, time_limit=time_limit)
