"""The compiled accelerator against the pure-Python solver, which stays the reference.

Skipped (with the reason) where the optional accelerator is not installed: it needs a C
compiler (``pip install ./accel``), and nothing else does.  ``test_accelerated_slow.py``
(marked ``slow``) builds it in a temporary folder with this machine's compiler and runs
this module against it, so that the comparison runs wherever a compiler is.

On every deal here the two give identical values from the first lead and from positions
along the play, and the same best card: small layouts under every profile, table size and
option variant of the solver's tests (the follow rules, the undertrump exception, Low to
the trick winner, Hang Jack, the Game rules, the direction), generated six-card deals of
two, three and four hands under every one of those variants, and nine-card deals.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from dataclasses import replace

import pytest

from allfours_notation.cards import Card, Seat
from allfours_notation.checking.analysis import Layout, Solver, SolveTimeout
from allfours_notation.checking.analysis.accelerated import (
    DISABLE_VARIABLE,
    AcceleratedSolver,
    accelerator,
    solver_for,
)
from allfours_notation.checking.analysis.deals import PlayedDeal
from allfours_notation.reading.table import SEATS_FOR_PLAYERS
from allfours_notation.referee import PROFILES
from allfours_notation.referee.profiles import FollowRule

from .brute import small_layouts
from .cases import VARIANTS, generated_deals, perspectives, small_cases

ENGINE = accelerator()
needs_engine = pytest.mark.skipif(
    ENGINE is None,
    reason="the optional compiled accelerator is not installed (pip install ./accel, which "
           "needs a C compiler; tests/analysis/test_accelerated_slow.py (slow) builds "
           "it and runs this module against it)")


def assert_same(layout: Layout, perspective: str | None, line: tuple[object, ...] = (),
                label: object = "") -> None:
    """The two solvers agree at the start and at each ``line`` length given (a tuple of
    play counts), on the value and on the best card."""
    fast = AcceleratedSolver(layout, perspective)
    plain = Solver(layout, perspective)
    assert fast.value() == plain.value(), (label, perspective, "value")
    assert fast.best() == plain.best(), (label, perspective, "best")


def assert_same_along(layout: Layout, perspective: str | None,
                      plays: list[tuple[object, ...]], label: object) -> int:
    """Along a line of play: the value and the best card at every position."""
    fast = AcceleratedSolver(layout, perspective)
    plain = Solver(layout, perspective)
    checked = 0
    for length in range(len(plays) + 1):
        fast.set_position(plays[:length])  # type: ignore[arg-type]
        plain.set_position(plays[:length])  # type: ignore[arg-type]
        assert fast.best() == plain.best(), (label, perspective, length)
        checked += 1
    return checked


@needs_engine
def test_small_deals_under_every_profile_and_variant_give_identical_values() -> None:
    rng = random.Random(5)
    checked = 0
    for label, layout in small_cases(61, 2):
        for perspective in perspectives(layout):
            plain = Solver(layout, perspective)
            line = []
            while (seat := plain.to_move()) is not None:  # a random line of legal play
                card = rng.choice(plain.legal_now())
                plain.play(seat, card)
                line.append((seat, card))
            checked += assert_same_along(layout, perspective, line, label)  # type: ignore[arg-type]
    assert checked > 1000


@needs_engine
@pytest.mark.parametrize("players", [2, 3, 4])
def test_six_card_deals_under_every_variant_give_identical_values(players: int) -> None:
    profile = "trinidad14" if players == 4 else "hoffmann1909"
    deals = generated_deals(70 + players, profile, players, 2)
    assert len(deals) == 2
    for deal in deals:
        assert deal.layout is not None
        for variant in VARIANTS:
            options = replace(deal.layout.options, **variant)  # type: ignore[arg-type]
            layout = replace(deal.layout, options=options)
            for perspective in perspectives(layout):
                assert_same(layout, perspective, label=(deal.number, variant))


@needs_engine
def test_positions_along_generated_six_card_deals_give_identical_values() -> None:
    checked = 0
    for profile, players in (("trinidad14", 4), ("foster", 3), ("english10", 2)):
        for deal in generated_deals(9, profile, players, 2):
            assert deal.layout is not None
            for perspective in perspectives(deal.layout):
                checked += assert_same_along(deal.layout, perspective,
                                             list(deal.line), (profile, deal.number))
    assert checked >= 100


def random_layouts(players: int, cards: int, count: int, seed: int = 3) -> list[Layout]:
    """Random deals of ``cards`` a hand (trinidad14 four-handed, else hoffmann1909)."""
    profile = PROFILES["trinidad14" if players == 4 else "hoffmann1909"]
    options = replace(profile.options, players=players)
    return list(small_layouts(random.Random(seed), options, SEATS_FOR_PLAYERS[players],
                              cards, count))


def nine_card_deals(players: int, count: int) -> list[PlayedDeal]:
    profile = "trinidad14" if players == 4 else "hoffmann1909"
    deals = generated_deals(23, profile, players, count, cards=9)
    assert len(deals) == count
    return deals


@needs_engine
def test_nine_card_two_handed_deals_give_identical_values() -> None:
    """(Three and four hands: ``test_accelerated_slow.py``, where the reference takes
    seconds a deal.)"""
    for deal in nine_card_deals(2, 3):
        assert deal.layout is not None
        for perspective in perspectives(deal.layout):
            assert_same(deal.layout, perspective, label=deal.number)


@needs_engine
def test_a_search_past_its_deadline_raises_solve_timeout() -> None:
    """The clock is read every 16,384 nodes (as the Python solver reads it every 1,024):
    a nine-card four-handed par takes more than that."""
    layout = random_layouts(4, 9, 1)[0]
    solver = AcceleratedSolver(layout)
    solver.clock = lambda: 1.0
    with pytest.raises(SolveTimeout):
        solver.value(0.0)
    assert solver.stats.nodes > 16_000
    solver.clock = lambda: 0.0
    first = solver.value(1.0)  # the tables kept from the stopped search are still sound
    assert first == AcceleratedSolver(layout).value()


@needs_engine
def test_an_error_in_a_question_to_the_referee_reaches_the_caller() -> None:
    deal = generated_deals(9, "trinidad14", 4, 1)[0]
    assert deal.layout is not None
    solver = AcceleratedSolver(deal.layout)
    arguments = solver._engine_arguments()

    def broken(pos: int, hand: int, trick: tuple[int, ...]) -> int:
        raise RuntimeError("no answer")

    assert ENGINE is not None
    engine = ENGINE.Engine(**{**arguments, "legal": broken})
    with pytest.raises(RuntimeError, match="no answer"):
        engine.solve(solver.hands, solver.trick, solver.leader, solver.pips)


def test_without_the_accelerator_the_pure_python_solver_is_used() -> None:
    """AFN_NO_ACCEL=1 (or the accelerator absent) gives the reference solver, silently."""
    deal = generated_deals(9, "trinidad14", 4, 1)[0]
    assert deal.layout is not None
    code = ("import sys\n"
            "from allfours_notation.checking.analysis.accelerated import accelerator\n"
            "print(accelerator() is None)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**os.environ, DISABLE_VARIABLE: "1"}, check=True).stdout
    assert out.strip() == "True"
    chosen = solver_for(deal.layout)
    assert isinstance(chosen, AcceleratedSolver) == (ENGINE is not None)
    assert chosen.value() == Solver(deal.layout).value()



@needs_engine
def test_one_engine_solving_the_same_cards_at_other_pips_margins_gives_identical_values(
        ) -> None:
    """The engine's table keeps, for the same cards still out and the same leader, the
    bounds found at other pips margins (a lower bound holds at a larger margin, an upper
    at a smaller, where Game never falls with more pips).  One accelerated solver (its
    table kept from position to position) solves positions after two tricks of random
    legal play, each also with the pips taken so far shared otherwise between the sides
    (the same cards still out, every margin from one side having them all to the other),
    each against the reference."""
    rng = random.Random(11)
    checked = 0
    for deal in generated_deals(31, "trinidad14", 4, 2):
        assert deal.layout is not None
        fast = AcceleratedSolver(deal.layout)
        plain = Solver(deal.layout)
        for _ in range(6):
            line: list[tuple[Seat, Card]] = []
            while len(line) < 8:
                seat = plain.to_move()
                assert seat is not None
                card = rng.choice(plain.legal_now())
                plain.play(seat, card)
                line.append((seat, card))
            fast.set_position(line)
            taken = sum(plain.pips)
            for first in rng.sample(range(taken + 1), min(taken + 1, 8)):
                for solver in (fast, plain):
                    solver.pips = [first, taken - first]
                assert fast.value() == plain.value(), (deal.number, line, first)
                checked += 1
            plain.set_position([])
    assert checked >= 40


def test_an_accelerator_built_for_another_interface_is_not_used(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An engine built from an older checkout (another ``INTERFACE``, or none) would fail
    on the arguments it is given: the pure-Python solver is used instead."""
    from types import ModuleType, SimpleNamespace

    from allfours_notation.checking.analysis import accelerated

    def built(interface: int | None) -> ModuleType:
        module = ModuleType("allfours_accel._search")
        if interface is not None:
            module.INTERFACE = interface  # type: ignore[attr-defined]
        return module

    monkeypatch.delenv(DISABLE_VARIABLE, raising=False)
    for interface, used in ((accelerated.ENGINE_INTERFACE, True),
                            (accelerated.ENGINE_INTERFACE - 1, False), (None, False)):
        stub = built(interface)
        monkeypatch.setattr(accelerated, "importlib",
                            SimpleNamespace(import_module=lambda name, m=stub: m))
        assert (accelerated.accelerator() is stub) == used, interface
    if ENGINE is not None:  # the engine built from this checkout speaks this interface
        assert ENGINE.INTERFACE == accelerated.ENGINE_INTERFACE


def _bounds_agree(layout: Layout, perspective: str | None, rng: random.Random) -> int:
    """Along a random line: at each trick boundary the engine's early-stop bounds are the
    Python solver's (``EarlyStop._bounds``), with the forcing credit and without it."""
    fast = AcceleratedSolver(layout, perspective)
    plain = AcceleratedSolver(layout, perspective, forcing=False)
    checked = 0
    while fast.to_move() is not None:
        if not fast.trick and fast.remaining.bit_count() > len(layout.seats):
            for solver in (fast, plain):
                expected = solver._bounds(solver.remaining)
                found = solver.engine.bounds(solver.hands, solver.leader, solver.pips)
                assert found == expected, (layout, perspective, solver.line,
                                           solver.use_forcing)
            checked += 1
        seat = fast.to_move()
        assert seat is not None
        card = rng.choice(fast.legal_now())
        fast.play(seat, card)
        plain.play(seat, card)
    return checked


@needs_engine
def test_the_engines_bounds_are_the_python_solvers() -> None:
    """The early stop's bounds (the sure trumps, what they force, the side on lead's runs
    of winning leads) the same in C as in Python at every trick boundary of random lines:
    small layouts under every option set, and six- and nine-card deals of four hands."""
    rng = random.Random(41)
    checked = 0
    for _, layout in small_cases(43, 1, per_hand={2: 5, 3: 4, 4: 3}):
        for perspective in perspectives(layout):
            checked += _bounds_agree(layout, perspective, rng)
    for cards in (6, 9):
        for deal in generated_deals(13, "trinidad14", 4, 3, cards=cards):
            assert deal.layout is not None
            for _ in range(3):
                checked += _bounds_agree(deal.layout, None, rng)
    assert checked >= 500
@needs_engine
@pytest.mark.parametrize("players", [2, 4])
def test_deals_of_more_than_48_cards_give_identical_values(players: int) -> None:
    """With more than 48 cards in play (the whole pack dealt: 26 a hand two-handed, 13
    four-handed; no profile's deal has so many) the engine's table entry keys on the
    cards alone and keeps the leader and pips in its second margin's place.  Positions at
    each trick boundary of the last cards of a random line of legal play, with every seat
    to lead and several splits of the pips taken, against the reference, the same engine
    kept throughout."""
    rng = random.Random(40 + players)
    left = 10 if players == 2 else 5
    for layout in random_layouts(players, 52 // players, 2, seed=players):
        for perspective in perspectives(layout):
            fast = AcceleratedSolver(layout, perspective)
            plain = Solver(layout, perspective)
            line: list[tuple[Seat, Card]] = []
            while (seat := plain.to_move()) is not None:
                card = rng.choice(plain.legal_now())
                plain.play(seat, card)
                line.append((seat, card))
            assert len(line) == 52
            values = set()
            for length in range(52 - left * players, 53, players):
                for leader in range(players):
                    for solver in (fast, plain):
                        solver.set_position(line[:length])
                    taken = sum(plain.pips)
                    for first in rng.sample(range(taken + 1), min(taken + 1, 4)):
                        for solver in (fast, plain):
                            solver.leader = leader
                            solver.pips = [first, taken - first]
                        value = fast.value()
                        assert value == plain.value(), (perspective, length, leader, first)
                        values.add(value)
            assert len(values) > 1  # the positions are not all of one value


@needs_engine
def test_the_pips_margin_search_gives_the_values_of_the_search_without_it() -> None:
    """Once Game is the only item open the engine searches the first side's pips margin
    (its table entries hold whatever the pips taken before, the enhanced cutoff turns
    them back into Game's value).  The same engines kept from position to position, each
    position along the recorded play of six- and nine-card four-handed deals (and with the
    pips taken shared otherwise between the sides) has the value and best card of the
    engine with that search switched off."""
    rng = random.Random(17)
    checked = 0
    for cards, count in ((6, 6), (9, 2)):
        for deal in generated_deals(17, "trinidad14", 4, count, cards=cards):
            assert deal.layout is not None
            margins = AcceleratedSolver(deal.layout)
            points = AcceleratedSolver(deal.layout, pip_search=False)
            for length in range(len(deal.line) + 1):
                for solver in (margins, points):
                    solver.set_position(list(deal.line[:length]))
                taken = sum(points.pips)
                first = rng.randint(0, taken)
                assert margins.best() == points.best(), (deal.number, length)
                for solver in (margins, points):
                    solver.pips = [first, taken - first]
                assert margins.value() == points.value(), (deal.number, length, first)
                checked += 1
    assert checked >= 200


def _random_line(layout: Layout, rng: random.Random) -> list[tuple[Seat, Card]]:
    """A line of legal play to the end, each card picked at random."""
    solver = Solver(layout)
    line: list[tuple[Seat, Card]] = []
    while (seat := solver.to_move()) is not None:
        card = rng.choice(solver.legal_now())
        solver.play(seat, card)
        line.append((seat, card))
    return line


def _margin(solver: AcceleratedSolver) -> int:
    """The engine's pips margin from the solver's position (the first side's)."""
    trick = [(solver.owner[i], i) for i in solver.trick]
    return solver.engine.margin(solver.hands, trick, solver.leader, solver.pips)


@needs_engine
@pytest.mark.parametrize(("follow_rule", "count"), [(FollowRule.NO_UNDERTRUMP, 100),
                                                   (FollowRule.FOLLOW_OR_TRUMP, 60),
                                                   (FollowRule.MUST_FOLLOW, 60)])
def test_partition_entries_give_the_margins_of_the_search_without_them(
        follow_rule: FollowRule, count: int) -> None:
    """In the pips-margin search an entry holds for every position whose cards without
    pips decided no trick of its proof (and, where the legal cards compare a held trump
    with the highest on the table, as under trinidad14's rule against under-trumping, kept
    that trump's rank).  The same engines kept from position to position, each position
    along random lines of play of six-card four-handed deals, inside tricks too,
    has the pips margin, the value and the best card of the engine with partition entries
    switched off.  The margin is the fine answer: a relevance too small changes margins
    here where Game's value, a coarser answer, mostly stays the same (with a trick's
    winner left out, 13 positions of the 100 deals' lines under trinidad14's rule; with
    the trump on the table that under-trumping is measured against left out, two)."""
    rng = random.Random(41)
    checked = 0
    for deal in generated_deals(41, "trinidad14", 4, count, cards=6):
        assert deal.layout is not None
        layout = replace(deal.layout,
                         options=replace(deal.layout.options, follow_rule=follow_rule))
        line = _random_line(layout, rng)
        partition = AcceleratedSolver(layout)
        exact = AcceleratedSolver(layout, partition=False)
        for length in range(len(line) + 1):
            for solver in (partition, exact):
                solver.set_position(list(line[:length]))
            assert _margin(partition) == _margin(exact), (deal.number, length)
            assert partition.best() == exact.best(), (deal.number, length)
            checked += 1
    assert checked >= 20 * count


def _margins_after(layout: Layout, first: list[int], second: list[int], leader: int,
                   pips: list[int], partition: bool) -> tuple[int, int]:
    """One engine's margin of ``second`` after it solved ``first``, and its nodes there."""
    engine = AcceleratedSolver(layout, partition=partition).engine
    engine.margin(first, [], leader, pips)
    before = engine.stats()[0]
    margin = engine.margin(second, [], leader, pips)
    return margin, engine.stats()[0] - before


@needs_engine
def test_two_spreads_of_the_cards_without_pips_share_a_partition_entry() -> None:
    """Built positions of a four-handed trinidad14 deal (diamonds trumps, no Jack in
    play), three tricks left, East to lead.  In the second North holds the five of spades
    where in the first it holds the two (West's three between them): the cards out differ
    in rank order, so the exact table keeps them apart, but no trick of the first one's
    proof turns on those spades, so its partition entry answers the second at once.  In
    the third West holds the seven of hearts for the two, and that changes a trick: the
    margin is another, and the entry of the first must not answer it."""
    deal = generated_deals(41, "trinidad14", 4, 1, cards=6)[0]
    assert deal.layout is not None
    bit = {str(c): 1 << i for i, c in enumerate(AcceleratedSolver(deal.layout).cards)}

    def hands(*held: str) -> list[int]:
        return [sum(bit[name] for name in cards.split()) for cards in held]

    first = hands("QD 2S 4S 9S", "JD 5H KH QS", "4C 4D JS KS", "5C 4H 7H 3S")
    second = hands("QD 4S 5S 9S", "JD 5H KH QS", "4C 4D JS KS", "5C 4H 7H 3S")
    alone = AcceleratedSolver(deal.layout, partition=False).engine.margin(second, [], 1, [12, 0])
    shared, nodes = _margins_after(deal.layout, first, second, 1, [12, 0], partition=True)
    exact, exact_nodes = _margins_after(deal.layout, first, second, 1, [12, 0],
                                        partition=False)
    assert shared == exact == alone
    assert nodes <= 3 < 20 < exact_nodes  # one node a null-window test: the entry's answer

    first = hands("QD 2S 4S 9S", "JD 5H KH QS", "4C 4D JS KS", "3S 2H 4H 3D")
    third = hands("QD 2S 4S 9S", "JD 5H KH QS", "4C 4D JS KS", "3S 7H 4H 3D")
    engine = AcceleratedSolver(deal.layout, partition=False).engine
    assert engine.margin(first, [], 1, [4, 0]) != engine.margin(third, [], 1, [4, 0])
    alone = AcceleratedSolver(deal.layout, partition=False).engine.margin(third, [], 1, [4, 0])
    assert _margins_after(deal.layout, first, third, 1, [4, 0], partition=True)[0] == alone


@needs_engine
@pytest.mark.parametrize("partition", [True, False])
def test_a_table_grown_mid_search_keeps_its_entries_and_the_values(partition: bool) -> None:
    """A search past ``grow_after`` nodes makes the table four times larger (a twelve-card
    search overloads the table it starts with) and keeps what the table knew: a position
    solved before the growth, solved again after it, is found in the table, and every
    answer is the one of an engine whose table never grows.  The growth here comes in the
    middle of the second position's search (the clock is read, and the growth tried,
    every 16,384 nodes).  With partition entries and without: the exact entries are put
    in again at their places, the partition entries' regions copied wherever they may
    have moved."""
    deal = nine_card_deals(4, 6)[5]
    assert deal.layout is not None
    first = list(deal.line[:4])
    rng = random.Random(5)
    played = {card for _, card in first}
    other = next(line[:4] for line in (_random_line(deal.layout, rng) for _ in range(50))
                 if {card for _, card in line[:4]} != played)

    def solved(grow_after: int) -> tuple[list[tuple[int, tuple[int, Card | None], int]],
                                         AcceleratedSolver]:
        solver = AcceleratedSolver(deal.layout, partition=partition,  # type: ignore[arg-type]
                                   grow_after=grow_after)
        answers = []
        for position in (first, other, first):
            before = solver.engine.stats()[0]
            solver.set_position(position)
            answers.append((solver.value(), solver.best(), solver.engine.stats()[0] - before))
        return answers, solver

    fixed, fixed_solver = solved(0)
    nodes_first = fixed[0][2]
    assert fixed[1][2] > 16_384  # the second search is long enough to grow in
    grown, grown_solver = solved(nodes_first + 1)
    assert grown_solver.engine.table_size() == 4 * fixed_solver.engine.table_size()
    assert [answer[:2] for answer in grown] == [answer[:2] for answer in fixed]
    # the first position's entry survived the growth: found again, not searched again
    assert grown[2][2] <= fixed[2][2] < nodes_first // 100
    with pytest.raises(ValueError, match="grow_after"):
        AcceleratedSolver(deal.layout, grow_after=-1)
