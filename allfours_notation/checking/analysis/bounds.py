"""What the items still open can be worth: the bounds the solver's early stop reads.

Kept apart from the search (:mod:`.solver`) because they are plain arithmetic on the
scorer's answers, the referee's legal cards and the rule that a trick with a trump in it
goes to its highest trump (rule 19, whatever the follow rule), else to the highest card
of the suit led; the solver keeps each answer per question.

Three kinds of credit, each proved in its function's docstring:

* :func:`sure_items`: a trump every higher one of which still out is its own side's is
  that side's, whoever plays what;
* :func:`surrendered`: each trick with such a trump in it is that side's, so every other
  hand gives up a card to each of those tricks — at least its cheapest ones;
* :func:`led_run`: the side on lead may lead, one after the other, cards nobody can beat
  (its leader's trumps above every other trump still out; then, once the other sides hold
  no trump, its leader's top cards of each suit), and each other hand must reply with what
  the referee allows: a strategy, so a bound for the side on lead only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["card_bits", "game_range", "item_range", "led_run", "sure_cards", "sure_items",
           "surrendered"]


def sure_items(trumps: int, high_first: Sequence[int], side_of_card: Sequence[int],
               card_pips: Sequence[int], items: Sequence[tuple[int, Sequence[int]]],
               side_of_pos: Sequence[int], side_count: int,
               ) -> tuple[tuple[int, ...], int, int, int]:
    """With ``trumps`` the trumps not yet in a finished trick (a bit per card, the
    trump indices ``high_first``): the pips each side is sure to take, their sum, and the
    least and the most ``items`` still open (each a card and its value per capturing
    seat: the Jack, Low) can be worth.

    A trick with a trump in it is won by its highest trump (rule 19, whatever the follow
    rule), so a trump is sure to go to its holder's side when every higher trump still
    out (in a hand or on the table) is that side's: its pips, and the Jack or Low it is,
    are that side's whoever plays what."""
    masks = sure_cards(trumps, high_first, side_of_card, side_count)
    sure = tuple(sum(card_pips[i] for i in card_bits(mask)) for mask in masks)
    least, most = item_range(items, trumps, masks, side_of_pos)
    return sure, sum(sure), least, most


def sure_cards(trumps: int, high_first: Sequence[int], side_of_card: Sequence[int],
               side_count: int) -> tuple[int, ...]:
    """Per side, the trumps of ``trumps`` it is sure to take (:func:`sure_items`): those
    of the side holding the highest, down to the first held by another side."""
    masks = [0] * side_count
    above: set[int] = set()  # the sides holding a higher trump
    for i in high_first:
        if not trumps >> i & 1:
            continue
        side = side_of_card[i]
        if not above or above == {side}:
            masks[side] |= 1 << i
        above.add(side)
    return tuple(masks)


def item_range(items: Sequence[tuple[int, Sequence[int]]], out: int, won: Sequence[int],
               side_of_pos: Sequence[int]) -> tuple[int, int]:
    """The least and the most ``items`` (each a card and its value per capturing seat)
    still in ``out`` can be worth, a card in ``won[side]`` going to a seat of that side."""
    least = most = 0
    for card, values in items:
        if card < 0 or not out >> card & 1:
            continue
        side = next((s for s, mask in enumerate(won) if mask >> card & 1), -1)
        possible = [v for pos, v in enumerate(values) if side < 0 or side_of_pos[pos] == side]
        least += min(possible)
        most += max(possible)
    return least, most


def card_bits(mask: int) -> list[int]:
    """The cards (indices) of a set of cards (a bit each)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def surrendered(hands: Sequence[int], side_of_pos: Sequence[int], sure: Sequence[int],
                card_pips: Sequence[int],
                ascending: Callable[[int], Sequence[int]] | None = None,
                ) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """At a trick boundary (every hand the same size), with ``sure[side]`` the trumps
    :func:`sure_cards` gives each side: per side, the pips beyond those trumps' own it is
    sure to take whoever plays what, and the cards sure to be its (the sure trumps, and
    every card of a hand that must give them all up).

    Proof.  Every trick with a trump of ``sure[S]`` in it is won by side S (it goes to its
    highest trump, and every trump above one of ``sure[S]`` still out is S's).  A seat p
    of S holding k of those trumps plays them to k different tricks, so S wins at least k
    tricks, k the most any seat of S holds.  Every other seat q plays one card of its own
    to each of those k tricks, k different cards: at least the k cheapest of its hand
    (for a seat of S, counting a sure trump of S as nothing, its pips being counted
    already; for a seat of another side, leaving out the other sides' sure trumps, which
    no trick S wins can hold).  A hand with no more than k such cards gives them all up.
    No follow rule is read: a hand plays its cards to some tricks, whichever.
    ``ascending(cards)``: their pips in ascending order (the caller may keep them)."""
    if ascending is None:
        def ascending(cards: int) -> Sequence[int]:
            return sorted(card_pips[i] for i in card_bits(cards))
    side_count = len(sure)
    every_sure = 0
    for mask in sure:
        every_sure |= mask
    extra = [0] * side_count
    won = list(sure)
    for side, mask in enumerate(sure):
        if not mask:
            continue
        k = max((hand & mask).bit_count() for pos, hand in enumerate(hands)
                if side_of_pos[pos] == side)
        for pos, hand in enumerate(hands):
            if side_of_pos[pos] == side:  # its sure trumps count nothing
                free = (hand & mask).bit_count()
                given = hand
                extra[side] += sum(ascending(hand & ~mask)[:max(0, k - free)])
            else:
                given = hand & ~every_sure
                extra[side] += sum(ascending(given)[:k])
            if given.bit_count() <= k:
                won[side] |= given
    return tuple(extra), tuple(won)


def led_run(leader: int, leads: Sequence[int], hands: Sequence[int],
            side_of_pos: Sequence[int], sure: int, card_pips: Sequence[int], trumps: int,
            legal: Callable[[int, int, int], int]) -> tuple[int, int, int]:
    """The side on lead's credit for leading ``leads`` in turn, each sure to win its trick
    if no other seat of the side takes it (the caller's part: a trump above every other
    trump still out; or, once no hand of another side holds a trump, a card above every
    other card of its suit still out): the pips the run's tricks are sure to hold beyond
    the side's sure trumps ``sure``, the cards they are sure to hold, and how many leads
    of the run are made (the run stops before a lead a partner could only take with a
    trump).  ``legal(pos, hand, lead)``: the referee's legal cards of ``hand`` to a trick
    led by card ``lead``; ``trumps``: the trumps as a set of cards.

    Proof.  While the leader leads a card nobody of another side can beat and its
    partners do not beat it, it wins the trick and leads again: the run is a strategy of
    its side, and what every reply of the other sides to it gives up is a lower bound of
    what the side makes (the search maximises over strategies).  In a trick led by a card
    c with no trump above c in it (a trump lead: every other trump still out is lower; a
    plain lead: no hand of another side holds a trump, and the partners play none), the
    highest trump on the table is c or none whatever the others play: the follow rules
    read of a trick only the suit led and its highest trump (the ground the solver's
    ``_legal_of`` stands on), so each seat's choices are ``legal(pos, hand, c)``, whatever
    came before it in the trick.  A partner plays, of those (no trump to a plain lead), the
    card with the most pips (its side's choice; the lowest card of equal ones); an
    opponent's least total over every sequence of its legal replies is found by trying
    them all, except where the referee lets it play any card: then its cheapest cards for
    the rounds left bound it.  The leader's own plain cards count their pips; the side's
    sure trumps count nothing (counted already)."""
    side = side_of_pos[leader]
    rounds = len(leads)

    def value(i: int) -> int:
        return 0 if sure >> i & 1 else card_pips[i]

    partners = [pos for pos in range(len(hands)) if pos != leader and side_of_pos[pos] == side]
    paths: dict[int, list[int]] = {}
    for pos in partners:  # each partner's own path, and where it stops the run
        hand = hands[pos]
        path: list[int] = []
        for r in range(rounds):
            if not hand:
                break
            allowed = legal(pos, hand, leads[r])
            if not trumps >> leads[r] & 1:
                allowed &= ~trumps
            if not allowed:
                rounds = r
                break
            pick = max(card_bits(allowed), key=lambda i: (value(i), -i))
            path.append(pick)
            hand ^= 1 << pick
        paths[pos] = path
    total = sum(value(i) for i in leads[:rounds])
    given_up = 0
    for pos in partners:
        for i in paths[pos][:rounds]:
            total += value(i)
            given_up |= 1 << i
    for i in leads[:rounds]:
        given_up |= 1 << i
    for pos, hand in enumerate(hands):
        if side_of_pos[pos] == side:
            continue
        memo: dict[int, tuple[int, int]] = {}

        def least(hand: int, r: int, pos: int = pos,
                  memo: dict[int, tuple[int, int]] = memo) -> tuple[int, int]:
            if r == rounds or not hand:
                return 0, 0
            found = memo.get(hand)
            if found is not None:
                return found
            allowed = legal(pos, hand, leads[r])
            if allowed == hand:
                left = rounds - r
                values = sorted(card_pips[i] for i in card_bits(hand))
                found = sum(values[:left]), hand if left >= len(values) else 0
            else:
                best = 1 << 30
                every = -1
                for i in card_bits(allowed):
                    pips, cards = least(hand ^ 1 << i, r + 1)
                    best = min(best, card_pips[i] + pips)
                    every &= cards | 1 << i
                found = best, every
            memo[hand] = found
            return found

        pips, cards = least(hand, 0)
        total += pips
        given_up |= cards
    return total, given_up, rounds


def game_range(game_value: Callable[[tuple[int, ...]], int], pips: Sequence[int],
               rest: int, total: int) -> tuple[int, int]:
    """The least and the most Game can be worth with ``pips`` per side taken and ``rest``
    more still to take (``total`` in the deal)."""
    if len(pips) == 2:
        values = [game_value((a, total - a)) for a in range(pips[0], pips[0] + rest + 1)]
    elif rest > 24:  # too many ways to share: what Game can be worth at all
        values = [0, *(game_value(tuple(total if k == j else 0 for k in range(len(pips))))
                       for j in range(len(pips)))]
    else:
        a, b, c = pips
        values = [game_value((a + x, b + y, c + rest - x - y))
                  for x in range(rest + 1) for y in range(rest + 1 - x)]
    return min(values), max(values)
