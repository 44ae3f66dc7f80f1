"""Properties of the card-by-card check on generated deals: the values add up, the best
line makes the par, a flagged card's better card is worth exactly the loss more, and the
par bounds what a side that never lost a point made."""

from __future__ import annotations

import pytest

from allfours_notation.checking.analysis import Solver
from allfours_notation.checking.analysis.deals import PlayedDeal
from allfours_notation.checking.analysis.items import side_points
from allfours_notation.checking.analysis.report import DealAnalysis, analyse_deal
from allfours_notation.reading.table import side_of

from .cases import generated_deals

# The tests ask for the first deals of the same seed again (hoffmann1909's first 3, 10
# and 12): each deal is analysed once per process, on the one worker that runs them all.
pytestmark = pytest.mark.xdist_group("analysis-report")
_ANALYSED: dict[tuple[str, int], list[tuple[PlayedDeal, DealAnalysis]]] = {}


def _analysed(profile: str, players: int, count: int) -> list[tuple[PlayedDeal, DealAnalysis]]:
    """The first ``count`` generated deals of a table (seed 4), each analysed."""
    done = _ANALYSED.setdefault((profile, players), [])
    if len(done) < count:
        for deal in generated_deals(4, profile, players, count)[len(done):]:
            analysis = analyse_deal(deal, time_limit=None)
            assert analysis.solved and analysis.checked
            done.append((deal, analysis))
    return done[:count]


def _two_side_value(points: tuple[tuple[str, int], ...]) -> int:
    return points[0][1] - points[1][1]


def test_two_sides_the_losses_add_up_from_par_to_the_result() -> None:
    """Every card moves the value by its own side's loss: the actual result is the par
    less the first side's losses plus the second side's."""
    for profile, players in (("hoffmann1909", 2), ("english10", 2), ("trinidad14", 4)):
        for deal, analysis in _analysed(profile, players, 10 if players == 2 else 4):
            assert deal.layout is not None
            first = analysis.sides[0]
            lost = {side: sum(v.loss for v in analysis.cards
                              if side_of(v.seat, deal.layout.seats) == side)
                    for side in analysis.sides}
            assert analysis.par_value is not None
            assert _two_side_value(analysis.actual) == \
                analysis.par_value - lost[first] + lost[analysis.sides[1]]
            for side in analysis.sides:  # a side that never lost a point made at least par
                if lost[side] == 0:
                    sign = 1 if side == first else -1
                    assert sign * _two_side_value(analysis.actual) >= sign * analysis.par_value


def test_the_best_line_makes_the_par() -> None:
    for profile, players in (("hoffmann1909", 2), ("trinidad14", 4)):
        for _, analysis in _analysed(profile, players, 3 if players == 2 else 1):
            assert analysis.par_value == _two_side_value(analysis.par)
            assert len(analysis.best_line) == len(analysis.cards)


def test_a_flagged_card_has_a_better_card_worth_exactly_the_loss_more() -> None:
    """Checked with a fresh solver, position by position."""
    seen = 0
    for profile, players in (("hoffmann1909", 2), ("foster", 3), ("trinidad14", 4)):
        for deal, analysis in _analysed(profile, players, 12 if players == 2 else 4):
            assert deal.layout is not None
            for verdict in analysis.flagged:
                seen += 1
                side = side_of(verdict.seat, deal.layout.seats)
                solver = Solver(deal.layout, None if players != 3 else side)
                sign = -1 if players != 3 and side != analysis.sides[0] else 1
                prefix = deal.line[:verdict.index]
                assert verdict.better is not None and verdict.better_after is not None
                solver.set_position((*prefix, (verdict.seat, verdict.better)))
                kept = sign * solver.value()
                solver.set_position(deal.line[:verdict.index + 1])
                played = sign * solver.value()
                assert kept == verdict.better_after == verdict.before
                assert kept - played == verdict.loss > 0
                assert verdict.glyph == ("?" if verdict.points_lost == 1 else "??")
                assert verdict.reason.startswith(f"{verdict.seat.letter}:{verdict.card} ")
    assert seen > 5


def test_three_players_no_seat_is_guaranteed_more_than_it_makes_along_the_actual_line_if_it_lost_nothing() -> None:  # noqa: E501
    for deal, analysis in _analysed("foster", 3, 4):
        assert deal.layout is not None
        made = dict(analysis.actual)
        for side, guaranteed in analysis.par:
            if not any(v.loss for v in analysis.cards if v.seat.letter == side):
                assert made[side] >= guaranteed
        totals = side_points(analysis.fixed, analysis.sides)
        assert len(totals) == 3


def test_the_time_taken_is_read_on_the_clock_given() -> None:
    """The benchmark times the check on the CPU clock: the seconds reported are the
    clock's (here one that moves 100 at each reading), not the wall clock's."""
    deal = generated_deals(4, "hoffmann1909", 4, 1)[0]
    ticks = iter(range(0, 10**6, 100))
    analysis = analyse_deal(deal, time_limit=None, clock=lambda: float(next(ticks)))
    assert analysis.solved and analysis.seconds >= 100 and analysis.seconds % 100 == 0


def test_the_check_is_made_with_the_solvers_given() -> None:
    made: list[str | None] = []

    def counted(layout: object, perspective: str | None) -> Solver:
        made.append(perspective)
        return Solver(layout, perspective)  # type: ignore[arg-type]

    deal = generated_deals(4, "hoffmann1909", 3, 1)[0]
    assert analyse_deal(deal, time_limit=None, make_solver=counted).checked
    assert len(made) == 3 and len(set(made)) == 3  # one per seat, three players
