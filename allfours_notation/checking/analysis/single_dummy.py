"""Single-dummy verdicts: each card judged on what its player could know.

Double dummy (:mod:`.report`) sees every hand, so it calls a card a loss whenever some
line through the hidden cards would have saved a point.  Here, at each card decision,
the player's information set (:mod:`.information`) is sampled: ``samples`` worlds drawn
uniformly from the deals consistent with what the player saw, the same worlds for every
card the player could legally play, each world solved exactly by the double-dummy
:class:`~.solver.Solver` (perfect-information Monte Carlo, as bridge programs do).  Per
card: the mean value and its standard error.  A card is flagged only when its mean loss
against the best card is at least one point (counted as double dummy counts it) and more
than two standard errors of that loss (the losses are paired: the same worlds for each
card, so the error is that of the per-world differences).

The sampling is deterministic for a seed: each decision draws from its own generator,
seeded by the seed, a digest of the deal and the card's place in the play, so that the
verdicts do not depend on which worker or in which order the decisions were judged.

What single dummy assumes, and a player need not: that everyone plays the rest of the
deal as if all the hands were seen after this card (each world is solved double dummy).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import replace

from ...cards import Card, Seat
from ...frozen import frozen
from ...reading.records import Discard, Game
from ...reading.table import side_of
from ...referee.play import legal_cards
from .deals import PlayedDeal
from .information import Information, World, WorldSampler, information_at, world_layout
from .report import DealAnalysis, glyph_for
from .solver import Solver, SolveTimeout

__all__ = ["DEFAULT_SAMPLES", "DEFAULT_SEED", "CardEstimate", "DecisionVerdict",
           "SingleDummyDeal", "assemble", "choices", "decide", "discards_named", "judge",
           "label_for", "single_dummy_deal", "single_dummy_json", "single_dummy_lines",
           "to_judge"]

DEFAULT_SAMPLES = 100
DEFAULT_SEED = 1


def label_for(samples: int) -> str:
    """The label every single-dummy verdict carries."""
    return f"single dummy: {samples} samples, hidden hands unknown"


@frozen
class CardEstimate:
    """One legal card at a decision, over the sampled worlds."""

    card: Card
    mean: float  # the mean value after it, for the player's side (double dummy's units)
    error: float  # the standard error of ``mean``
    loss: float  # the mean points lost against the card of the best mean (0 for that card)
    loss_error: float  # the standard error of ``loss`` (of the per-world losses)
    flagged: bool


@frozen
class DecisionVerdict:
    """One card played, judged on its player's information."""

    index: int  # 0-based, in the order of play
    trick: int
    seat: Seat
    card: Card
    samples: int  # the worlds drawn (K)
    worlds: int  # of them, the distinct ones (each solved once)
    estimates: tuple[CardEstimate, ...]  # every legal card, best first
    best: Card
    loss: float  # the card played: its mean points lost against the best card
    loss_error: float
    flagged: bool
    glyph: str | None
    double_dummy: str | None  # double dummy's glyph for the same card (None: not flagged)
    label: str

    @property
    def changed(self) -> bool:
        """Whether single dummy and double dummy disagree on flagging this card."""
        return self.flagged != (self.double_dummy is not None)


@frozen
class SingleDummyDeal:
    """A deal's single-dummy verdicts: every decision with a choice of legal cards."""

    number: int
    samples: int
    seed: int
    decisions: tuple[DecisionVerdict, ...]
    note: str  # why not analysed, or what was left out, else ""
    seconds: float
    label: str
    compared: bool  # double dummy judged every card: its flags are beside these

    @property
    def flagged(self) -> tuple[DecisionVerdict, ...]:
        return tuple(d for d in self.decisions if d.flagged)

    @property
    def changed(self) -> tuple[DecisionVerdict, ...]:
        """The cards flagged by one of single and double dummy and not the other."""
        if not self.compared:
            return ()
        return tuple(d for d in self.decisions if d.changed)


def discards_named(game: Game, number: int) -> tuple[Card, ...]:
    """The cards deal ``number`` of ``game`` records as discarded aloud after a run
    (``S discards 3C 4C 5C``): every player saw them go out of play.  A discard nobody saw
    (``??``) is not among them, not even for the player who made it: the record does not
    say which card it was."""
    for deal in game.deals:
        if deal.number == number:
            return tuple(c for event in deal.opening if isinstance(event, Discard)
                         for c in event.cards if c is not None)
    return ()


def _rng(seed: int, deal_key: str, index: int) -> random.Random:
    return random.Random(f"{seed}/{deal_key}/{index}")


def decide(information: Information, candidates: Sequence[Card], samples: int,
           rng: random.Random, time_limit: float | None = None
           ) -> tuple[list[tuple[Card, list[int]]], int]:
    """Each candidate card's value in each of ``samples`` sampled worlds (the same worlds
    for every card), and how many distinct worlds were solved (a world drawn twice is
    solved once).  Values are for the deciding seat's side, in double dummy's units.
    ``time_limit``: seconds for each world (:class:`SolveTimeout` past it)."""
    layout = information.layout
    seat = information.seat
    table_sides = layout.sides
    two_sides = len(table_sides) == 2
    own_side = side_of(seat, layout.seats)
    sign = 1 if (not two_sides or own_side == table_sides[0]) else -1
    sampler = WorldSampler(information)
    solved: dict[World, tuple[int, ...]] = {}
    per_card: list[list[int]] = [[] for _ in candidates]
    for _ in range(samples):
        world = sampler.sample(rng)
        values = solved.get(world)
        if values is None:
            deadline = None if time_limit is None else time.perf_counter() + time_limit
            solver = Solver(world_layout(information, world),
                            None if two_sides else own_side)
            found = []
            for c in candidates:
                solver.set_position((*information.prefix, (seat, c)))
                found.append(sign * solver.value(deadline))
            values = solved[world] = tuple(found)
        for k, value in enumerate(values):
            per_card[k].append(value)
    return list(zip(candidates, per_card, strict=True)), len(solved)


def _mean_error(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)


def _points(loss: int, two_sides: bool) -> int:
    """A loss in one world as double dummy counts points: with two sides the points that
    changed hands (half the value, rounded away from nothing), else the points lost."""
    if not two_sides or loss == 0:
        return loss
    return (loss + 1) // 2 if loss > 0 else -((1 - loss) // 2)


def estimates_of(values: Sequence[tuple[Card, Sequence[int]]],
                 two_sides: bool) -> tuple[CardEstimate, ...]:
    """Per card: mean ± standard error of its value, and its loss in points against the
    card of the best mean, with the standard error of the per-world losses (the worlds
    are the same for every card: paired); flagged when that loss is at least one point
    and more than two standard errors."""
    means = [_mean_error(v)[0] for _, v in values]
    best_index = max(range(len(values)), key=lambda k: (means[k], -k))
    best_values = values[best_index][1]
    out = []
    for c, v in values:
        mean, error = _mean_error(v)
        loss, loss_error = _mean_error([_points(b - x, two_sides)
                                        for b, x in zip(best_values, v, strict=True)])
        flagged = loss >= 1 and loss > 2 * loss_error
        out.append(CardEstimate(c, mean, error, loss, loss_error, flagged))
    out.sort(key=lambda e: (e.loss, -e.mean))
    return tuple(out)


def choices(played: PlayedDeal) -> list[int]:
    """The places in the play (0-based) of the cards played with another legal card
    beside them: the decisions single dummy judges (a forced card, or one that broke the
    rules, is not judged)."""
    layout = played.layout
    if layout is None:
        return []
    size = len(layout.seats)
    held = {seat: list(cards) for seat, cards in layout.hands}
    out = []
    for index, (seat, c) in enumerate(played.line):
        trick = played.line[index - index % size:index]
        allowed = legal_cards(held[seat], trick, layout.trump, layout.options)
        if c in allowed and len(allowed) > 1:
            out.append(index)
        if c in held[seat]:
            held[seat].remove(c)
    return out


def to_judge(played: PlayedDeal, double_dummy: DealAnalysis | None) -> list[int]:
    """The decisions of ``played`` to judge: none when double dummy could not solve the
    deal in its time (each sampled world is as hard as the deal, K times over)."""
    if double_dummy is not None and not double_dummy.solved:
        return []
    return choices(played)


def judge(played: PlayedDeal, index: int, *, samples: int = DEFAULT_SAMPLES,
          seed: int = DEFAULT_SEED, deal_key: str = "", time_limit: float | None = None,
          also_seen: Sequence[Card] = ()) -> DecisionVerdict | None:
    """The card at ``index`` of ``played`` judged single dummy (its double-dummy flag is
    filled in by :func:`assemble`); ``None`` when a world was not solved in
    ``time_limit`` seconds.  Seeded by ``seed``, ``deal_key`` and ``index`` alone, so a
    decision judged in any worker, in any order, gives the same verdict."""
    layout = played.layout
    assert layout is not None
    seat, c = played.line[index]
    information = information_at(layout, played.line, index, played.result.turnups,
                                 also_seen)
    before = {x for s, x in information.prefix if s == seat}
    candidates = _legal_now(information, [x for x in information.own if x not in before])
    try:
        values, worlds = decide(information, candidates, samples,
                                _rng(seed, deal_key, index), time_limit)
    except SolveTimeout:
        return None
    two_sides = len(layout.sides) == 2
    estimates = estimates_of(values, two_sides)
    mine = next(e for e in estimates if e.card == c)
    tricks = [number for number, _, plays in played.result.tricks for _ in plays]
    return DecisionVerdict(
        index, tricks[index] if index < len(tricks) else 0, seat, c, samples, worlds,
        estimates, estimates[0].card, mine.loss, mine.loss_error, mine.flagged,
        glyph_for(math.floor(mine.loss)) if mine.flagged else None, None,
        label_for(samples))


def assemble(played: PlayedDeal, double_dummy: DealAnalysis | None,
             verdicts: Sequence[DecisionVerdict | None], *, samples: int, seed: int,
             seconds: float, time_limit: float | None) -> SingleDummyDeal:
    """A deal's verdicts (``None`` for a decision not judged in time) put together, each
    with double dummy's flag for the same card beside it."""
    label = label_for(samples)
    if played.layout is None:
        return SingleDummyDeal(played.number, samples, seed, (), played.why_not or "",
                               seconds, label, False)
    compared = double_dummy is not None and double_dummy.checked
    dd_glyph: dict[int, str | None] = {}
    if double_dummy is not None:
        dd_glyph = {v.index: v.glyph for v in double_dummy.cards}
    decisions = tuple(replace(v, double_dummy=dd_glyph.get(v.index))
                      for v in verdicts if v is not None)
    notes = []
    timed_out = sum(1 for v in verdicts if v is None)
    if timed_out:
        limit = f"{time_limit:g} s" if time_limit is not None else "the time allowed"
        notes.append(f"{timed_out} decision{'s' if timed_out != 1 else ''} left out: a "
                     f"world not solved in {limit}")
    if double_dummy is not None and not double_dummy.solved:
        notes.append("not sampled: double dummy did not solve the deal in its time")
    elif not compared:
        notes.append("double dummy did not judge every card: its flags are not compared")
    return SingleDummyDeal(played.number, samples, seed, decisions, "; ".join(notes),
                           seconds, label, compared)


def single_dummy_deal(played: PlayedDeal, double_dummy: DealAnalysis | None, *,
                      samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
                      deal_key: str = "", time_limit: float | None = None,
                      also_seen: Sequence[Card] = ()) -> SingleDummyDeal:
    """Every card decision of ``played`` (a card played with another legal card beside
    it) judged single dummy, in this process.  ``double_dummy``: the deal's double-dummy
    analysis, whose flag is shown beside each verdict.  ``deal_key`` (the deal's digest)
    seeds each decision with ``seed``.  ``time_limit``: seconds for each world's solve (a
    decision with a world not solved in time is left out, and the note says so)."""
    start = time.perf_counter()
    verdicts = [judge(played, index, samples=samples, seed=seed, deal_key=deal_key,
                      time_limit=time_limit, also_seen=also_seen)
                for index in to_judge(played, double_dummy)]
    return assemble(played, double_dummy, verdicts, samples=samples, seed=seed,
                    seconds=time.perf_counter() - start, time_limit=time_limit)


def _legal_now(information: Information, hand: Sequence[Card]) -> list[Card]:
    """The cards the deciding seat may play (the same in every world: its own hand and
    the trick on the table), asked of the referee."""
    layout = information.layout
    size = len(layout.seats)
    prefix = information.prefix
    trick = prefix[len(prefix) - len(prefix) % size:]
    allowed = legal_cards(hand, trick, layout.trump, layout.options)
    return sorted(allowed, key=lambda c: (c.suit.value, -c.rank))


# --- as data and as text --------------------------------------------------------------------


def _number(value: float) -> float | None:
    """A mean or an error for JSON: rounded, and ``None`` where it is not finite (one
    sample has no standard error)."""
    return round(value, 4) if math.isfinite(value) else None


def _flag(glyph: str | None) -> str:
    return glyph or "none"


def single_dummy_json(deal: SingleDummyDeal) -> dict[str, object]:
    """One deal's single-dummy verdicts as JSON data (``analyse --single-dummy --json``)."""
    decisions = []
    for d in deal.decisions:
        decisions.append({
            "index": d.index, "trick": d.trick, "seat": d.seat.letter, "card": str(d.card),
            "samples": d.samples, "worlds": d.worlds, "best": str(d.best),
            "loss": _number(d.loss), "loss_error": _number(d.loss_error),
            "flagged": d.flagged, "glyph": d.glyph, "double_dummy": d.double_dummy,
            "changed": d.changed, "label": d.label,
            "cards": [{"card": str(e.card), "mean": _number(e.mean), "error": _number(e.error),
                       "loss": _number(e.loss), "loss_error": _number(e.loss_error),
                       "flagged": e.flagged} for e in d.estimates]})
    return {"label": deal.label, "samples": deal.samples, "seed": deal.seed,
            "note": deal.note, "seconds": round(deal.seconds, 3), "decisions": decisions,
            "changed": [{"trick": d.trick, "seat": d.seat.letter, "card": str(d.card),
                         "single_dummy": d.glyph, "double_dummy": d.double_dummy}
                        for d in deal.changed]}


def _plus_minus(value: float, error: float) -> str:
    spread = f"{error:.2f}" if math.isfinite(error) else "?"
    return f"{value:.2f} ± {spread}"


def single_dummy_lines(deal: SingleDummyDeal) -> list[str]:
    """The text of one deal's single-dummy verdicts: each card flagged by single or by
    double dummy, the two flags side by side, then the flags that change."""
    lines = [f"    {deal.label} (seed {deal.seed}):"]
    shown = [d for d in deal.decisions if d.flagged or d.double_dummy is not None]
    for d in shown:
        me = f"{d.seat.letter}:{d.card}"
        glyph = d.glyph or ""
        if d.flagged:
            said = f"loses {_plus_minus(d.loss, d.loss_error)} points against " \
                   f"{d.seat.letter}:{d.best}"
        elif d.loss <= 0:
            said = "no card was better on what the player could know"
        else:
            said = f"not flagged: loses {_plus_minus(d.loss, d.loss_error)} points against " \
                   f"{d.seat.letter}:{d.best}"
        double = _flag(d.double_dummy) if deal.compared else "not judged"
        lines.append(f"    trick {d.trick}  {me} {glyph:<2}  {said} · double dummy "
                     f"{double} · {d.samples} samples, hidden hands unknown")
    changed = deal.changed
    if changed:
        lines.append("    flags that change: " + "; ".join(
            f"{d.seat.letter}:{d.card} (trick {d.trick}) double dummy {_flag(d.double_dummy)}"
            f" -> single dummy {_flag(d.glyph)}" for d in changed))
    elif deal.decisions and deal.compared:
        lines.append("    single and double dummy flag the same cards")
    elif not deal.decisions and not deal.note:
        lines.append("    no card decision to judge (no choice of legal cards)")
    if deal.note:
        lines.append(f"    {deal.note}")
    return lines
