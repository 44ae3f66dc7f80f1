"""What the items still open can be worth: the bounds the solver's early stop reads.

Kept apart from the search (:mod:`.solver`) because they are plain arithmetic on the
scorer's answers and the rule that a trick with a trump in it goes to its highest trump;
the solver keeps each answer per question."""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["game_range", "sure_items"]


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
    sure = [0] * side_count
    above: set[int] = set()  # the sides holding a higher trump
    sure_side: dict[int, int] = {}
    for i in high_first:
        if not trumps >> i & 1:
            continue
        side = side_of_card[i]
        if not above or above == {side}:
            sure[side] += card_pips[i]
            sure_side[i] = side
        above.add(side)
    least = most = 0
    for card, values in items:
        if card < 0 or not trumps >> card & 1:
            continue
        side = sure_side.get(card, -1)
        possible = [v for pos, v in enumerate(values) if side < 0 or side_of_pos[pos] == side]
        least += min(possible)
        most += max(possible)
    return tuple(sure), sum(sure), least, most


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
