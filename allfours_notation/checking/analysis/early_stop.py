"""The solver's early stop: the least and the most the items still open can be worth at
a trick boundary, from what each side is sure to take (:mod:`.bounds` proves each
credit), kept per position.  A part of :class:`~.solver.Solver` (its base), apart so that
the search stays readable; it reads the solver's deal and position."""

from __future__ import annotations

from collections.abc import Callable

from .bounds import card_bits, game_range, item_range, led_run, sure_cards, surrendered

__all__ = ["UNBOUNDED", "EarlyStop"]

# the search's infinity (no bound)
UNBOUNDED = 1 << 20
_INF = UNBOUNDED


class EarlyStop:
    """The early stop's bounds (:meth:`_bounds`), for :class:`~.solver.Solver`."""

    # what it reads of the solver's deal (set by Solver.__init__) ...
    use_forcing: bool
    weights: tuple[int, ...]
    trump_mask: int
    trumps_high_first: list[int]
    side_of_card: list[int]
    side_of_pos: list[int]
    maximises: list[bool]
    card_pips: list[int]
    total_pips: int
    jack: int
    low: int
    jack_value: list[int]
    low_value: list[int]
    suit_ranges: list[tuple[int, int]]
    suit_masks: list[tuple[int, int]]
    # ... of the position ...
    hands: list[int]
    leader: int
    pips: list[int]
    rest: int
    # ... its memory ...
    _open_items: dict[object, tuple[tuple[int, ...], int, int,
                                    tuple[tuple[int, ...], int, int] | None]]
    _forced: dict[tuple[int, int], tuple[int, int, int, tuple[int, ...], tuple[int, ...]]]
    _led: dict[object, tuple[tuple[tuple[int, ...], int, int], ...]]
    _sure_of: dict[int, tuple[tuple[int, ...], tuple[int, ...], int, int]]
    _pips_up: dict[int, list[int]]
    _game_range: dict[tuple[object, ...], tuple[int, int]]
    # ... and what it asks of the referee and the scorer through it
    _legal_of: Callable[[int, tuple[int, ...]], tuple[int, ...]]
    game_value: Callable[[tuple[int, ...]], int]

    def _bounds(self, remaining: int, alpha: int = -_INF, beta: int = _INF) -> tuple[int, int]:
        """The least and the most the items still open can be worth (from here on, at a
        trick boundary with ``remaining`` the cards still out), from what each side is
        sure to take (:mod:`.bounds`) and, with ``forcing``, what the side on lead can
        force by leading cards nobody can beat — those runs worked out only where they
        could take the bounds past the window ``alpha``..``beta`` (always without one)."""
        key = (remaining, self.leader) if self.use_forcing else remaining & self.trump_mask
        found = self._open_items.get(key)
        if found is None:
            found = self._open_items[key] = self._credit(remaining)
        sure, least, most, best = found
        low, high = self._game_bounds(sure)
        low += least
        high += most
        if best is None or low == high or high <= alpha or low >= beta:
            return low, high
        maximise = self.maximises[self.leader]
        if alpha > -_INF or beta < _INF:
            # a run gives the side at best every card the other sides are not sure of
            best_sure, best_least, best_most = best
            game_low, game_high = self._game_bounds(best_sure)
            if (game_low + best_least < beta) if maximise else (game_high + best_most > alpha):
                return low, high
        led = self._led.get(key)
        if led is None:
            led = self._led[key] = self._led_credit(remaining)
        for led_sure, led_least, led_most in led:
            game_low, game_high = self._game_bounds(led_sure)
            if maximise:
                low = max(low, game_low + led_least)
            else:
                high = min(high, game_high + led_most)
        return low, high

    def _game_bounds(self, sure: tuple[int, ...]) -> tuple[int, int]:
        """The least and the most Game can be worth with each side sure of ``sure`` more
        pips than it has."""
        pips = self.pips
        credited = sum(sure)
        if credited:
            pips = [p + s for p, s in zip(pips, sure, strict=True)]
        rest = self.rest - credited
        key = (pips[0], rest) if len(pips) == 2 else (*pips, rest)
        game = self._game_range.get(key)
        if game is None:
            game = self._game_range[key] = game_range(self.game_value, pips, rest,
                                                      self.total_pips)
        return game

    def _credit(self, remaining: int) -> tuple[tuple[int, ...], int, int,
                                               tuple[tuple[int, ...], int, int] | None]:
        """What each side is sure to take from the cards ``remaining``, whoever plays
        what: the pips per side and the least and the most the Jack and Low can be worth;
        and (``forcing``) the most a run of the side on lead could add: every card the
        other sides are not sure of (pips per side, items' range).  :mod:`.bounds` proves
        each."""
        trumps = remaining & self.trump_mask
        side_of_pos = self.side_of_pos
        items = ((self.jack, self.jack_value), (self.low, self.low_value))
        base = self._sure_of.get(trumps)
        if base is None:  # the sure trumps, their pips per side and the items' range
            masks = sure_cards(trumps, self.trumps_high_first, self.side_of_card,
                               len(self.weights))
            base = self._sure_of[trumps] = (
                masks, tuple(sum(self.card_pips[i] for i in card_bits(m)) for m in masks),
                *item_range(items, trumps, masks, side_of_pos))
        masks, own, least, most = base
        if not self.use_forcing:
            return own, least, most, None
        if any(masks):
            extra, won = surrendered(self.hands, side_of_pos, masks, self.card_pips,
                                     self._ascending)
            sure = tuple(p + e for p, e in zip(own, extra, strict=True))
            if won != masks:
                least, most = item_range(items, remaining, won, side_of_pos)
        else:
            extra, won, sure = (0,) * len(masks), masks, own
        side = side_of_pos[self.leader]
        if not self._may_run(remaining, trumps):
            return sure, least, most, None
        best_sure = list(sure)
        best_sure[side] = self.rest - sum(p for s, p in enumerate(sure) if s != side)
        theirs = 0
        for s, mask in enumerate(won):
            if s != side:
                theirs |= mask
        taken = list(won)
        taken[side] |= remaining & ~theirs
        best = (tuple(best_sure), *item_range(items, remaining, taken, side_of_pos))
        self._forced[remaining, self.leader] = (masks[side], extra[side], own[side], won, sure)
        return sure, least, most, best

    def _may_run(self, remaining: int, trumps: int) -> bool:
        """Whether the leader holds a card a run (:meth:`_runs`) may start with: the
        highest trump still out, or, when every trump still out is its side's, the
        highest card still out of a plain suit."""
        hand = self.hands[self.leader]
        if trumps and hand >> (trumps.bit_length() - 1) & 1:
            return True
        side = self.side_of_pos[self.leader]
        for pos, held in enumerate(self.hands):
            if held & trumps and self.side_of_pos[pos] != side:
                return False
        for mask, start in self.suit_masks:
            part = remaining >> start & mask
            if part and not self.trump_mask >> start & 1 and \
                    hand >> (start + part.bit_length() - 1) & 1:
                return True
        return False

    def _ascending(self, cards: int) -> list[int]:
        """The pips of ``cards`` (a bit each) in ascending order, kept per set."""
        found = self._pips_up.get(cards)
        if found is None:
            found = self._pips_up[cards] = sorted(self.card_pips[i] for i in card_bits(cards))
        return found

    def _led_credit(self, remaining: int) -> tuple[tuple[tuple[int, ...], int, int], ...]:
        """For the side on lead, each run of leads nobody can beat (:meth:`_runs`) with
        what it then makes sure of: the pips per side and the items' range."""
        found = self._forced.get((remaining, self.leader))
        if found is None:
            self._credit(remaining)
            found = self._forced[remaining, self.leader]
        sure_trumps, extra, own, won, sure = found
        leader = self.leader
        side = self.side_of_pos[leader]
        items = ((self.jack, self.jack_value), (self.low, self.low_value))
        led: list[tuple[tuple[int, ...], int, int]] = []
        for leads in self._runs(remaining, sure_trumps):
            pips, cards, _ = led_run(leader, leads, self.hands, self.side_of_pos, sure_trumps,
                                     self.card_pips, self.trump_mask, self._reply)
            taken = list(won)
            taken[side] |= cards
            if pips <= extra and taken[side] == won[side]:
                continue  # nothing more than what is sure anyway
            led_sure = list(sure)
            led_sure[side] = own + max(pips, extra)
            led.append((tuple(led_sure), *item_range(items, remaining, taken, self.side_of_pos)))
        return tuple(led)

    def _runs(self, remaining: int, sure: int) -> list[list[int]]:
        """The runs of leads the side on lead may make, each card sure to win its trick
        (:func:`.bounds.led_run`): while the other sides hold a trump, the leader's trumps
        above every other trump still out, highest first, and, if they draw every trump
        of the other sides whatever those play, then the plain cards below; once the
        other sides hold no trump, per suit the leader's cards above every other card of
        the suit still out (the plain cards), highest first.  Each lead is asked of the
        referee too (the run stops before one it does not allow)."""
        leader = self.leader
        hand = self.hands[leader]
        side = self.side_of_pos[leader]
        trumps = remaining & self.trump_mask
        theirs = 0  # the trumps the other sides hold
        for pos, held in enumerate(self.hands):
            if self.side_of_pos[pos] != side:
                theirs |= held & trumps
        plain = []
        for start, end in self.suit_ranges:
            if self.trump_mask >> start & 1:
                continue
            for i in range(end - 1, start - 1, -1):
                if remaining >> i & 1:
                    if not hand >> i & 1:
                        break
                    plain.append(i)
        if not theirs:
            run = self._lawful(plain)
            return [run] if run else []
        top = []
        for i in self.trumps_high_first:
            if trumps >> i & 1:
                if not hand >> i & 1:
                    break
                top.append(i)
        top = self._lawful(top)
        if not top:
            return []
        runs = [top]
        if plain:
            _, cards, made = led_run(leader, top, self.hands, self.side_of_pos, sure,
                                     self.card_pips, self.trump_mask, self._reply)
            if made == len(top) and not theirs & ~cards:  # their trumps drawn
                runs.append(self._lawful(top + plain))
        return runs

    def _lawful(self, run: list[int]) -> list[int]:
        """``run`` up to the first lead the referee does not allow the leader."""
        left = self.hands[self.leader]
        for k, i in enumerate(run):
            if i not in self._legal_of(left, ()):
                return run[:k]
            left ^= 1 << i
        return run

    def _reply(self, pos: int, hand: int, lead: int) -> int:
        """The cards (a bit each) ``hand`` may play to a trick led by card ``lead``, as
        the referee says."""
        return sum(1 << i for i in self._legal_of(hand, (lead,)))
