"""The solver's search in compiled code, when the optional accelerator is installed.

``pip install ./accel`` (from the repository root; it needs a C compiler) installs the
distribution ``allfours-notation-accel``, whose module ``allfours_accel._search`` is the
search of :mod:`.solver` written in C.  Nothing else needs it: without it (or with
``AFN_NO_ACCEL=1`` in the environment) :func:`solver_for` gives the pure-Python
:class:`~.solver.Solver`, which stays the reference; a differential test holds the two
to identical values (``tests/analysis/test_accelerated.py``).

No rule of All Fours is in the C code.  :class:`AcceleratedSolver` is the Python solver
(its positions, its items, its public questions) with the search handed to the engine,
which asks Python, once per distinct question, which cards may be played
(:func:`~allfours_notation.referee.play.legal_cards`), who wins a trick
(:func:`~allfours_notation.referee.play.trick_winner`) and what Game is worth for a
split of the pips (the scorer, through :meth:`.Solver.game_value`), and keeps the
answers; what the Jack and Low are worth to each seat comes in as numbers from
:mod:`.items`.
"""

from __future__ import annotations

import importlib
import os
import time
from types import ModuleType
from typing import TYPE_CHECKING

from ...cards import Card, Rank
from ...referee.play import compares_trump_ranks, legal_cards, trick_winner
from .solver import Layout, Solver, SolveTimeout

if TYPE_CHECKING:
    from allfours_accel._search import Engine

__all__ = ["DISABLE_VARIABLE", "ENGINE_INTERFACE", "AcceleratedSolver", "accelerator",
           "solver_for"]

# Set to 1 to use the pure-Python search even where the accelerator is installed.
DISABLE_VARIABLE = "AFN_NO_ACCEL"

# The engine's interface this module speaks (the engine's arguments and answers): a build
# of another (an accelerator built from an older checkout) is not used, so that it cannot
# fail on arguments it does not know; ``pip install ./accel`` again brings it up to date.
ENGINE_INTERFACE = 6


def accelerator() -> ModuleType | None:
    """The compiled engine's module, or ``None`` when it is not installed, is a build of
    another interface (:data:`ENGINE_INTERFACE`), or is turned off by ``AFN_NO_ACCEL=1``."""
    if os.environ.get(DISABLE_VARIABLE, "") not in ("", "0"):
        return None
    try:
        module = importlib.import_module("allfours_accel._search")
    except ImportError:
        return None
    return module if getattr(module, "INTERFACE", None) == ENGINE_INTERFACE else None


def solver_for(layout: Layout, perspective: str | None = None) -> Solver:
    """The fastest exact solver at hand: the accelerated one where it is installed,
    else the pure-Python one (the same values either way)."""
    module = accelerator()
    if module is None:
        return Solver(layout, perspective)
    return AcceleratedSolver(layout, perspective, engine_module=module)


class AcceleratedSolver(Solver):
    """:class:`~.solver.Solver` with :meth:`value` and :meth:`best` searched by the
    compiled engine; every other question (the position, legal cards, the points of a
    line) is the Python solver's own."""

    def __init__(self, layout: Layout, perspective: str | None = None, *,
                 engine_module: ModuleType | None = None, forcing: bool = True,
                 pip_search: bool = True, partition: bool = True,
                 grow_after: int | None = None) -> None:
        super().__init__(layout, perspective, forcing=forcing)
        self.pip_search = pip_search
        self.partition = partition
        self.grow_after = grow_after
        module = engine_module or accelerator()
        if module is None:
            raise ImportError("the accelerator (allfours-notation-accel) is not installed")
        self.engine: Engine = module.Engine(**self._engine_arguments())
        self._counted = (0, 0, 0)

    def _engine_arguments(self) -> dict[str, object]:
        """What the engine is told of the deal: numbers and the referee's questions."""
        cards = self.cards
        seats = self.seats
        pos_of = self.pos_of
        trump = self.layout.trump
        options = self.layout.options

        # Each card as a play (its holder, the card), and each seat's cards with their
        # bits, so that a question is turned into the referee's terms without a search.
        play_of = [(seats[self.owner[i]], c) for i, c in enumerate(cards)]
        own = [[(1 << i, c) for i, c in enumerate(cards) if self.owner[i] == pos]
               for pos in range(len(seats))]
        bit_of = {c: 1 << i for i, c in enumerate(cards)}

        def legal(pos: int, hand: int, trick: tuple[int, ...]) -> int:
            held = [c for bit, c in own[pos] if hand & bit]
            allowed = legal_cards(held, [play_of[i] for i in trick], trump, options)
            return sum(bit_of[c] for c in allowed)

        def winner(trick: tuple[int, ...]) -> int:
            return pos_of[trick_winner([play_of[i] for i in trick], trump)]

        suits: list[object] = []  # the suits in card order (the cards are by suit)
        for c in cards:
            if not suits or suits[-1] is not c.suit:
                suits.append(c.suit)
        counting = 0
        for i, c in enumerate(cards):
            if c.pips or i in (self.jack, self.low):
                counting |= 1 << i
        # The cards a rule of play may name, as the Python solver's table key assumes (its
        # rules compare ranks and name none but the Jack and Low): the Jack of trumps and
        # the lowest trump in play.  The engine keeps the referee's answers for hands and
        # tricks that differ only in the other cards' names (their suits and order kept).
        trumps = [i for i, c in enumerate(cards) if c.suit is trump]
        named = 1 << trumps[0] if trumps else 0
        for i in trumps:
            if cards[i].rank is Rank.JACK:
                named |= 1 << i
        return {
            "owner": list(self.owner), "pips": list(self.card_pips),
            "suit_of": [suits.index(c.suit) for c in cards], "counting": counting,
            "named": named,
            "jack": self.jack, "low": self.low, "jack_value": list(self.jack_value),
            "low_value": list(self.low_value), "next_pos": list(self.next_pos),
            "side_of": list(self.side_of_pos), "maximises": list(self.maximises),
            "nsides": len(self.items.sides),
            # the order cards are tried in (it changes the work, never a value), the
            # Python solver's: leads trumps, then cards with pips, then high cards; a card
            # that wins a trick plain before trump and most pips first; cheap cards first
            "lead_key": list(self.lead_key), "cheap_key": list(self.cheap_key),
            "win_key": list(self.win_key),
            # the trumps, highest first: a trick with one of them in it goes to the
            # highest (rule 19), for the early stop's bounds (bounds.sure_items); and the
            # follow rules read of a trick only the suit led and the highest trump in it,
            # so the engine keeps the legal cards per hand and those two (as _legal_of)
            "sure_order": list(self.trumps_high_first),
            "legal": legal, "winner": winner, "game": self.game_value,
            "timeout": SolveTimeout,
            # the early stop credits what the sure trumps and the side on lead's winning
            # leads force from the other hands (bounds.surrendered, bounds.led_run)
            "forcing": self.use_forcing,
            # once Game is the only item open, the first side's pips margin searched, its
            # table entries whatever the pips taken before (the value the same: a
            # differential test holds it to the search without it)
            "pip_search": self.pip_search,
            # there, partition entries: one for every position whose cards without pips
            # decided no trick of its proof (the value the same: a differential test holds
            # it to the search without them); the legal cards read suits alone, or also a
            # held trump's rank against the highest trump on the table, which the entries
            # then keep
            "partition": self.partition,
            "legal_ranks": compares_trump_ranks(options),
            # the table grows fourfold once a search passes this many nodes (None: the
            # engine's default, 2^24; 0: never), the memory a long search pays for
            **({} if self.grow_after is None else {"grow_after": self.grow_after}),
        }

    def _solve(self, deadline: float | None, best: bool) -> tuple[int, int]:
        start = time.perf_counter()
        try:
            # the engine takes the trick as (seat position, card) pairs; the solver keeps
            # its cards alone (each card's player is its holder)
            trick = [(self.owner[i], i) for i in self.trick]
            return self.engine.solve(self.hands, trick, self.leader, self.pips,
                                     self.clock, deadline, best)
        finally:
            nodes, hits, settled = self.engine.stats()
            before = self._counted
            self.stats.nodes += nodes - before[0]
            self.stats.table_hits += hits - before[1]
            self.stats.settled += settled - before[2]
            self._counted = (nodes, hits, settled)
            self.stats.seconds += time.perf_counter() - start

    def value(self, deadline: float | None = None) -> int:
        """The exact value of the current position (the items already decided included);
        ``deadline`` as :meth:`.Solver.value` reads it (on :attr:`clock`)."""
        value, _ = self._solve(deadline, best=False)
        return self.captured + value

    def best(self, deadline: float | None = None) -> tuple[int, Card | None]:
        """The value of the current position and a card that keeps it (``None`` at the
        end): the first such card in the solver's card order, as :meth:`.Solver.best`."""
        value, card = self._solve(deadline, best=True)
        return self.captured + value, self.cards[card] if card >= 0 else None
