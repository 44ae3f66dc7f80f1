"""Claims, totals and the result in the record against the computed score (AFN4xx).

The record is redundant on purpose: players write what they claimed and their
running totals.  Each disagreement with the replay becomes one diagnostic at the
claim (or total, or ``[Result]`` tag) naming the deal, the item, the claimed and
the computed values and the reason; when the claim would be right under another
profile, or with one option changed, the message says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import lru_cache
from typing import TYPE_CHECKING

from ..cards import Card, Seat
from ..diagnostics import Diagnostic, Severity
from ..reading.records import ClaimItem, Deal, Game, Span, Tag, diagnostic_at
from ..reading.table import side_of, side_table
from .deal.table import Table, table_seats
from .profiles import (
    PROFILES,
    LowOwner,
    Options,
    option_choices,
    parse_option_value,
    seated,
)
from .scoring import Point

if TYPE_CHECKING:
    from .state import DealResult, GameReplay

# The options that can change who scores an item (tried when a claim disagrees).
RELEVANT_OPTIONS: Mapping[ClaimItem, tuple[str, ...]] = {
    ClaimItem.KICK: ("turnup_points", "jack_on_run", "keep_turnup_points_on_redeal"),
    ClaimItem.GIFT: ("gift_at_target_minus_one", "gift_recipients"),
    ClaimItem.HIGH: (),
    ClaimItem.LOW: ("low_owner",),
    ClaimItem.JACK: ("hang_jack",),
    ClaimItem.HANG_JACK: ("hang_jack",),
    ClaimItem.GAME: ("game_tie", "game_value"),
    ClaimItem.PENALTY: ("revoke_penalty", "penalty_timing", "wrong_score_penalty", "misdeal",
                        "follow_rule", "undertrump_exception"),
}
_DEFAULT_POINTS = {ClaimItem.HANG_JACK: 3}
CLAIM_NAMES: Mapping[ClaimItem, str] = {
    ClaimItem.KICK: "Kick (turn-up)",
    ClaimItem.GIFT: "Gift",
    ClaimItem.HIGH: "High",
    ClaimItem.LOW: "Low",
    ClaimItem.JACK: "Jack",
    ClaimItem.HANG_JACK: "Hang Jack",
    ClaimItem.GAME: "Game",
    ClaimItem.PENALTY: "Penalty",
}

ItemTally = dict[ClaimItem, dict[str, int]]
_CLAIM_ITEMS = tuple(ClaimItem)  # in the order disputes are reported
_Entries = dict[tuple[ClaimItem, str], int]  # how many points of each item a side scored


@lru_cache(maxsize=64)
def rules_name(options: Options) -> str:
    """``hoffmann1909``, or the nearest profile with its changes: ``foster with target=10``.

    Kept by options: every replay page names its rules, and working the name out
    compares the options with every profile's (0.08 ms, 1% of an event site's page)."""
    best_name, best_changes = "", dict[str, str]()
    for name, profile in PROFILES.items():
        changes = options.changes_from(seated(replace(profile.options,
                                                      players=options.players)))
        changes.pop("players", None)
        if not best_name or len(changes) < len(best_changes):
            best_name, best_changes = name, changes
    if not best_changes:
        return best_name
    return best_name + " with " + ", ".join(f"{k}={v}" for k, v in best_changes.items())


def find_disputes(result: GameReplay) -> list[Diagnostic]:
    """Every claimed item, running total and result that disagrees with the replay."""
    game = result.game
    result_tag = _tag(game, "Result")
    disputed = [deal for deal in game.deals if deal.claim is not None or deal.total is not None]
    if result_tag is None and not disputed:
        return []  # nothing claimed: the seats are not even worked out (most tiny games)
    found: list[Diagnostic] = []
    # The referee's seats (every step's state has them), also when no steps were kept.
    seats = table_seats(game, result.options) if result.deals else game.seats
    replays = _Alternatives(game)
    try:
        for position, (deal, computed) in enumerate(zip(game.deals, result.deals,
                                                        strict=False)):
            if deal.claim is not None:
                found.extend(_claim_disputes(result, position, deal, computed, seats, replays))
            if deal.total is not None:
                found.extend(_total_disputes(result, position, deal, computed, seats))
    finally:
        replays.release()
    if result_tag is not None:
        found.extend(_result_disputes(result, seats))
    return found


class _Alternatives:
    """The game replayed under other rules, to tell under which a wrong claim is right.

    Each alternative rule set gets one table per game, not one per disputed claim (a
    game of many disputed deals would otherwise cost deals x deals replays), and it is
    fed only as far as a claim asks: a deal's score depends on the deals before it,
    never on those after, so a claim in deal 2 needs deals 1 and 2 replayed, not the
    whole game (issue 27: a claim broken while typing in a long game, in the editor)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._tables: dict[Options, Table] = {}
        self._fed: dict[Options, int] = {}  # how many of the game's deals each table has had

    def deal_at(self, options: Options, position: int) -> DealResult | None:
        """The ``position``-th deal's result under ``options`` (as the whole game
        replayed under them has it), or None where that replay has fewer deals."""
        table = self._tables.get(options)
        if table is None:
            table = self._tables[options] = Table(self.game, options, keep_steps=False)
        deals = self.game.deals
        fed = self._fed.get(options, 0)
        while len(table.deals) <= position and fed < len(deals):
            table.feed_deal(deals[fed])
            fed += 1
        self._fed[options] = fed
        return table.deals[position] if position < len(table.deals) else None

    def release(self) -> None:
        """Let go of every table's open deal (see :meth:`Table.release`)."""
        for table in self._tables.values():
            table.release()


# --- claims -----------------------------------------------------------------------------------


def tally_points(points: Iterable[Point]) -> ItemTally:
    return _tally_points(points, None)


def _tally_points(points: Iterable[Point], entries: _Entries | None) -> ItemTally:
    """:func:`tally_points`; with ``entries``, counting each item and side as well."""
    tally: ItemTally = {}
    for point in points:
        per_side = tally.get(point.item)
        if per_side is None:
            per_side = tally[point.item] = {}
        per_side[point.side] = per_side.get(point.side, 0) + point.points
        if entries is not None:
            key = (point.item, point.side)
            entries[key] = entries.get(key, 0) + 1
    for item, per_side in list(tally.items()):  # an item that came to nothing is no item
        if 0 in per_side.values():
            tally[item] = {side: value for side, value in per_side.items() if value != 0}
            if not tally[item]:
                del tally[item]
    return tally


def tally_claim(deal: Deal, seats: tuple[Seat, ...], computed: ItemTally,
                options: Options, points: Iterable[Point] = ()) -> ItemTally:
    """The claim as points per item and side.

    An item written without its points means the rules' value: when a side
    claims an item as many times as it was computed (two turned Jacks), each
    takes the computed value; otherwise each counts the item's usual value.
    """
    return _tally_claim(deal, seats, computed, options, points, None)


def _tally_claim(deal: Deal, seats: tuple[Seat, ...], computed: ItemTally, options: Options,
                 points: Iterable[Point], entries: _Entries | None) -> ItemTally:
    """:func:`tally_claim`, given how many times each item was computed (``entries``)
    when that is known already."""
    tally: ItemTally = {}
    if deal.claim is None:
        return tally
    side_by_seat = side_table(seats)
    unnumbered: dict[tuple[ClaimItem, str], int] = {}
    for award in deal.claim.awards:
        side = side_by_seat[award.seat]
        per_side = tally.get(award.item)
        if per_side is None:
            per_side = tally[award.item] = {}
        if award.points is None:
            key = (award.item, side)
            unnumbered[key] = unnumbered.get(key, 0) + 1
            per_side.setdefault(side, 0)
        else:
            per_side[side] = per_side.get(side, 0) + award.points
    if not unnumbered:
        return tally
    if entries is None:  # how many times each item was computed
        entries = {}
        _tally_points(points, entries)
    for (item, side), count in unnumbered.items():
        computed_value = computed.get(item, {}).get(side)
        if computed_value is not None and count == max(1, entries.get((item, side), 1)):
            tally[item][side] += computed_value
        else:
            unit = options.game_value if item is ClaimItem.GAME else _DEFAULT_POINTS.get(item, 1)
            tally[item][side] += unit * count
    return tally


def _claim_disputes(result: GameReplay, position: int, deal: Deal, computed: DealResult,
                    seats: tuple[Seat, ...], replays: _Alternatives) -> list[Diagnostic]:
    """One AFN401 per item the claim disagrees on (a dispute, recorded: no error of the
    record), Jack against Hang Jack as one; items claimed that were counted after the
    game was decided are one note (AFN408), as a table writes them routinely."""
    options = result.options
    entries: _Entries = {}
    scored = _tally_points(computed.points, entries)
    claimed = _tally_claim(deal, seats, scored, options, computed.points, entries)
    if claimed == scored:  # nearly every claim: nothing to say item by item
        return []
    late = tally_points((*computed.points, *computed.unscored)) if computed.unscored else {}
    differing = [item for item in _CLAIM_ITEMS if scored.get(item, {}) != claimed.get(item, {})]
    after = [item for item in differing
             if result.decided and item in late and claimed.get(item, {}) == late[item]]
    found = []
    if after:
        items = ", ".join(f"{CLAIM_NAMES[item]} {_sides_text(claimed[item], {})}"
                          for item in after)
        found.append(_diag(result.game, computed.claim_span, "AFN408",
                           f"deal {deal.number}: claimed after the game was decided "
                           f"({result.decided}), not scored: {items}", deal.number,
                           severity=Severity.INFO))
    disputed = [item for item in differing if item not in after]
    for item in _merged_jacks(disputed, scored, claimed):
        mine, theirs = scored.get(item, {}), claimed.get(item, {})
        if item is _JACK_FOR_HANG_JACK:
            message = _jack_message(result, position, deal, computed, (scored, claimed),
                                    replays)
        else:
            message = _claim_message(result, position, deal, computed, item, theirs, mine,
                                     replays)
        found.append(_diag(result.game, computed.claim_span, "AFN401", message, deal.number,
                           severity=Severity.DISPUTE))
    return found


# Stands for "Jack claimed, Hang Jack computed" (or the other way round) in the list of
# disputed items: one disagreement about one card, reported once.
_JACK_FOR_HANG_JACK = ClaimItem.HANG_JACK


def _merged_jacks(disputed: list[ClaimItem], scored: ItemTally,
                  claimed: ItemTally) -> list[ClaimItem]:
    """The disputed items, with Jack and Hang Jack as one item when one of them is
    claimed where the other is computed (the Jack of trumps is one card: a table that
    wrote Jack for a Hang Jack disputes how it scored, not two items)."""
    if ClaimItem.JACK not in disputed or ClaimItem.HANG_JACK not in disputed:
        return disputed
    jack_claimed_only = ClaimItem.JACK in claimed and ClaimItem.JACK not in scored and \
        ClaimItem.HANG_JACK in scored and ClaimItem.HANG_JACK not in claimed
    hang_claimed_only = ClaimItem.HANG_JACK in claimed and ClaimItem.HANG_JACK not in scored \
        and ClaimItem.JACK in scored and ClaimItem.JACK not in claimed
    if not (jack_claimed_only or hang_claimed_only):
        return disputed
    return [item for item in disputed if item is not ClaimItem.JACK]


def _jack_message(result: GameReplay, position: int, deal: Deal, computed: DealResult,
                  tallies: tuple[ItemTally, ItemTally], replays: _Alternatives) -> str:
    """Jack claimed where Hang Jack was computed (or the reverse), in one sentence."""
    scored, claimed = tallies
    claimed_item = ClaimItem.JACK if ClaimItem.JACK in claimed else ClaimItem.HANG_JACK
    scored_item = ClaimItem.HANG_JACK if claimed_item is ClaimItem.JACK else ClaimItem.JACK
    theirs, mine = claimed[claimed_item], scored[scored_item]
    text = (f"deal {deal.number}: {CLAIM_NAMES[claimed_item]} claimed by "
            f"{_sides_text(theirs, mine)}, computed {CLAIM_NAMES[scored_item]} to "
            f"{_sides_text(mine, theirs)}")
    why = _why(result, computed, scored_item)
    text += f": {why}" if why else ""
    if computed.by_results:
        return text + " (the other side disputes the recorded results)"
    # the option that decides it, not a whole profile that also changes a dozen others
    right = _right_under(result, position, claimed_item, theirs, replays, profiles=False)
    return text + (f" (the claim is right under {right})" if right else "")


def _claim_message(result: GameReplay, position: int, deal: Deal, computed: DealResult,
                   item: ClaimItem, claimed: dict[str, int], scored: dict[str, int],
                   replays: _Alternatives) -> str:
    label = CLAIM_NAMES[item]
    claimed_text = _sides_text(claimed, scored)
    scored_text = _sides_text(scored, claimed)
    if claimed and scored and set(claimed) == set(scored):
        head = f"deal {deal.number}: {label} claimed {claimed_text}, computed {scored_text}"
    elif claimed:
        head = f"deal {deal.number}: {label} claimed by {claimed_text}, computed " + \
            (scored_text if scored else "nobody")
    else:
        head = f"deal {deal.number}: {label} not claimed, computed {scored_text}"
    why = _why(result, computed, item)
    text = head + (f": {why}" if why else "")
    if computed.by_results:
        # A dispute over a results-only deal: the scorer's results against the other
        # side's claim.  No other rules would make the cards say otherwise.
        return text + " (the other side disputes the recorded results)"
    note = _rule_note(result, computed, item, claimed)
    if note:
        text += f"; {note}"
    if result.decided and any(p.item is item for p in computed.unscored):
        # Counted after the target was reached: no other rules make it right, the fix is
        # to claim only what was counted before (rule 25: High, Low, Jack, Game in order).
        text += "; claim only the items counted before the target was reached"
        targets = _right_targets(result, position, claimed, replays)[:2]
        if targets:
            text += f" (the claim is right under {' and '.join(targets)})"
        return text
    right = _right_under(result, position, item, claimed, replays)
    if right:
        text += f" (the claim is right under {right})"
    return text


def _sides_text(values: dict[str, int], other: dict[str, int]) -> str:
    parts = []
    for side, points in values.items():
        shown = side if other.get(side, points) == points and points == 1 else f"{side} {points}"
        parts.append(shown)
    return ", ".join(parts) if parts else "nobody"


def _why(result: GameReplay, computed: DealResult, item: ClaimItem) -> str:
    reasons = [p.reason for p in computed.points if p.item is item]
    if reasons:
        return "; ".join(dict.fromkeys(reasons))
    late = [p for p in computed.unscored if p.item is item]
    if late and result.decided:
        return f"not scored, the game was decided first ({result.decided})"
    if computed.by_results:
        return "the recorded results give it to nobody"
    if item in (ClaimItem.HIGH, ClaimItem.LOW):
        return "no trump was in play" if computed.trump is not None else "trumps are unknown"
    if item is ClaimItem.JACK:
        if computed.turnups and computed.turnups[-1].is_jack:
            return "the Jack of trumps was turned up: it scored as the turn-up"
        return "the Jack of trumps was not in play"
    if item is ClaimItem.GAME:
        return "the pips were equal (or no counting card was won) and a tie scores nobody"
    if item is ClaimItem.GIFT:
        return "no gift was given" if not any("gives" in c for c in computed.calls) else \
            "the gift was refused under these rules"
    if item is ClaimItem.KICK:
        return "no turn-up scores under these rules"
    if item is ClaimItem.PENALTY:
        return "no penalty is due"
    return ""


def _rule_note(result: GameReplay, computed: DealResult, item: ClaimItem,
               claimed: dict[str, int]) -> str:
    """An extra sentence when the difference is a known point of rule."""
    if item is not ClaimItem.LOW or result.options.low_owner is not LowOwner.ORIGINAL_HOLDER:
        return ""
    low = _low_card(computed)
    if low is None:
        return ""
    seats = tuple(seat for seat, _ in computed.held)
    holder = next((seat for seat, held in computed.held if low in held), None)
    for _, winner, plays in computed.tricks:
        if any(card == low for _, card in plays):
            side = side_of(winner, seats)
            if side in claimed and (holder is None or side_of(holder, seats) != side):
                # only where the capturer is not the holder's side: else there is no
                # point of rule, the holder and the capturer being the same
                return (f"under {rules_name(result.options)} Low goes to its original holder "
                        f"even though {side} captured it")
    return ""


def _low_card(computed: DealResult) -> Card | None:
    if computed.trump is None:
        return None
    trumps = [c for _, held in computed.held for c in held if c.suit is computed.trump]
    return min(trumps, key=lambda c: c.rank) if trumps else None


def _right_under(result: GameReplay, position: int, item: ClaimItem,
                 claimed: dict[str, int], replays: _Alternatives, *,
                 profiles: bool = True) -> str:
    """Another profile (unless ``profiles`` is false), or one option changed, under which
    the claim of ``item`` is right.

    ``replays`` keeps the game replayed under each alternative already tried."""
    current = result.options
    tries: list[tuple[str, Options]] = []
    for name, profile in PROFILES.items() if profiles else ():
        alternative = replace(profile.options, players=current.players)
        if alternative != current:
            tries.append((f"profile {name}", alternative))
    names = list(RELEVANT_OPTIONS.get(item, ()))
    for name in names:
        for text in option_choices(name):
            value = parse_option_value(name, text)
            if value is not None and value != getattr(current, name):
                alternative = replace(current, **{name: value})  # type: ignore[arg-type]
                tries.append((f"{name}={text}", alternative))
    found: list[str] = []
    for label, alternative in tries:
        deal = replays.deal_at(alternative, position)
        if deal is None:
            continue
        if deal.after_decision or deal.unscored:
            continue  # the game ended sooner under these rules: that proves nothing
        if tally_points(deal.points).get(item, {}) == claimed:
            found.append(label)
        if len(found) == 2:
            break
    if not found:
        # A lower target makes nearly any claim that leaves items out right (the game
        # ends before them): named only where no rule of the item explains the claim,
        # never beside one that does (a revoke point forgotten is no matter of target)
        found.extend(_right_targets(result, position, claimed, replays)[:2])
    return " and ".join(found)


def _right_targets(result: GameReplay, position: int, claimed: dict[str, int],
                   replays: _Alternatives) -> list[str]:
    """The targets (any whole number from 1 to 99) under which the whole claim of the deal
    is right, as ranges: ``target=9 to 11``, ``target=15 or more``.

    A deal's items depend on the target only where a running total meets it, so the
    targets fall into ranges between the totals the deal reaches (and those a gift or a
    ``game_lost`` penalty looks at); one replay per range tells the whole range.
    """
    from .start import starting_scores

    current = result.options
    computed = result.deals[position]
    seats = table_seats(result.game, current)
    if position:
        before = dict(result.deals[position - 1].scores_after)
    else:
        before = dict(starting_scores(result.game, seats, current)[0])
    floor = max(before.values(), default=0) + 1  # a lower target ends the game sooner
    running = dict(before)
    marks = {floor, floor + 1, 100}
    for value in before.values():
        marks.update((value + 1, value + 2))  # a gift at target - 1
    for point in (*computed.points, *computed.unscored):
        running[point.side] = running.get(point.side, 0) + point.points
        value = running[point.side]
        marks.update((value, value + 1))
        marks.update(value + claimed.get(side, 0) for side in claimed)  # game_lost
    bounds = sorted(m for m in marks if floor <= m <= 100)
    right: list[tuple[int, int]] = []
    for low, high in zip(bounds, (b - 1 for b in bounds[1:]), strict=False):
        if low <= current.target <= high:
            continue
        alternative = replace(current, target=low)
        other = replays.deal_at(alternative, position)
        if other is None or other.after_decision:
            continue  # the game ended before this deal under that target
        if not _claim_is_wrong(result.game.deals[position], other, seats, alternative):
            if right and right[-1][1] == low - 1:
                right[-1] = (right[-1][0], high)
            else:
                right.append((low, high))
    return [f"target={low}" if low == high else f"target={low} or more" if high >= 99
            else f"target={low} to {high}" for low, high in right]


# --- totals and the result --------------------------------------------------------------------


def _total_disputes(result: GameReplay, position: int, deal: Deal, computed: DealResult,
                    seats: tuple[Seat, ...]) -> list[Diagnostic]:
    assert deal.total is not None
    written: dict[str, int] = {}
    clash = False
    side_by_seat = side_table(seats)
    for score in deal.total.scores:
        side = side_by_seat[score.seat]
        if side in written and written[side] != score.points:
            clash = True
        written.setdefault(side, score.points)
    actual = dict(computed.scores_after)
    wrong = clash
    for side, value in written.items():
        if actual.get(side) != value:
            wrong = True
            break
    if not wrong:
        return []
    written_text = " ".join(f"{s.seat.letter} {s.points}" for s in deal.total.scores)
    actual_text = " ".join(f"{side} {value}" for side, value in actual.items())
    message = f"deal {deal.number}: total {written_text}, computed {actual_text}"
    if clash:
        message += "; partners' scores differ, but a side has one score"
    elif deal.claim is not None and _claim_is_wrong(deal, computed, seats, result.options):
        message += "; the difference comes from the disputed claim of this deal"
    elif position > 0 and _previous_total_wrong(result, position, seats):
        message += "; it carries the error of an earlier total"
    return [_diag(result.game, deal.total.span, "AFN402", message, deal.number)]


def _claim_is_wrong(deal: Deal, computed: DealResult, seats: tuple[Seat, ...],
                    options: Options) -> bool:
    scored = tally_points(computed.points)
    return tally_claim(deal, seats, scored, options, computed.points) != scored


def _previous_total_wrong(result: GameReplay, position: int, seats: tuple[Seat, ...]) -> bool:
    for earlier in range(position - 1, -1, -1):
        deal = result.game.deals[earlier]
        if deal.total is None:
            continue
        actual = dict(result.deals[earlier].scores_after)
        return any(actual.get(side_of(s.seat, seats)) != s.points for s in deal.total.scores)
    return False


def read_result(value: str, seats: tuple[Seat, ...]) -> tuple[bool, str | None]:
    """``[Result]`` → (readable, winning side or None for unfinished ``*``)."""
    text = value.strip().upper().replace("-", "").replace("–", "")
    if text in ("*", "", "NONE", "UNFINISHED", "ABANDONED"):
        return True, None
    letters = {seat.letter for seat in seats}
    if text in ("NS", "EW") and len(seats) == 4:
        return True, text
    if len(text) == 1 and text in letters:
        return True, side_of(Seat.from_letter(text), seats)
    return False, None


def _result_disputes(result: GameReplay, seats: tuple[Seat, ...]) -> list[Diagnostic]:
    game = result.game
    tag = _tag(game, "Result")
    if tag is None or not seats or not game.deals:
        return []
    readable, side = read_result(tag.value, seats)
    scores = " ".join(f"{s} {v}" for s, v in result.scores)
    if not readable:
        return [_diag(game, tag.span, "AFN403", f"cannot read [Result \"{tag.value}\"]: write the "
                      "winning seat (or side NS/EW with four players), or * when unfinished",
                      None, severity=Severity.WARNING)]
    if side == result.winner:
        return []
    if side is None:
        message = f"[Result \"{tag.value}\"] says unfinished, but {result.winner} won " \
            f"({result.decided}; {scores})"
    elif result.winner is None:
        message = f"[Result \"{tag.value}\"] names {side}, but no side reached " \
            f"{result.options.target} ({scores})"
    else:
        message = f"[Result \"{tag.value}\"] names {side}, but {result.winner} won " \
            f"({result.decided}; {scores})"
    return [_diag(game, tag.span, "AFN403", message, None)]


def _tag(game: Game, name: str) -> Tag | None:
    for tag in game.tags:
        if tag.name == name:
            return tag
    return None


def _diag(game: Game, span: Span | None, code: str, message: str, deal: int | None, *,
          severity: Severity = Severity.ERROR) -> Diagnostic:
    return diagnostic_at(game, span, code, message, severity=severity, deal=deal)


__all__ = ["find_disputes", "read_result", "rules_name", "tally_claim", "tally_points"]

