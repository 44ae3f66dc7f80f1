"""The replay of a game as JSON-ready data: what the page's script draws, step by step.

Every value comes from :func:`allfours_notation.referee.replay.replay`: the table after each
step, the points of the deal with their reasons, the running score.  The script makes no
rule decision of its own.  Keys are short because a long game has hundreds of steps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from typing import Any

from ...cards import Card, Seat
from ...checking.analysis.report import LABEL, DealAnalysis
from ...checking.analysis.single_dummy import SingleDummyDeal
from ...diagnostics import Diagnostic
from ...reading.records import ClaimItem, Game
from ...reading.table import side_of
from ...referee.decided import ItemStatus, Status
from ...referee.disputes import rules_name
from ...referee.replay import GameReplay, Point, Step, StepChange, StepKind, TableState

# Steps that ↑/↓ (previous/next trick) stop at, as in the terminal viewer.
TRICK_STOPS = ("deal_start", "trick_end", "deal_end", "game_end")
DISPUTE_PREFIX = "AFN4"  # claims, totals and the result that disagree with the count


def replay_data(replayed: GameReplay, diagnostics: tuple[Diagnostic, ...] = (),
                analyses: Sequence[DealAnalysis] = (), *,
                changes: Sequence[StepChange] | None = None,
                single_dummy: Sequence[SingleDummyDeal] = (),
                advice: Mapping[int, Sequence[str]] | None = None) -> dict[str, Any]:
    """Everything the page shows of ``replayed``; ``diagnostics`` are those found outside
    the steps (the parser's, the rule profile's, the disputes).  A dispute of a deal's
    claim or total is shown at the end of that deal, where the page shows the points
    the referee counts, and a dispute of the game's result at the end of the game; the
    rest are listed under the table.  ``analyses`` (``allfours html --analyse``): per
    deal the par and the flagged cards, all hands seen.  ``changes``: the steps as the
    referee's :func:`~allfours_notation.referee.replay.replay_changes` gives them, each
    as what it changed, for a ``replayed`` made without steps: the same data, made
    without whole states (a site's replay pages, issue 38).  ``single_dummy`` (``html
    --analyse --single-dummy``): per deal the cards single or double dummy flags, each
    with both flags.  ``advice`` (``allfours html --advice``): by step, what the
    advisor would have said at that call, in lines."""
    game = replayed.game
    seats = game.seats
    steps: Sequence[Step | StepChange] = replayed.steps if changes is None else changes
    at_step = dispute_steps(replayed, diagnostics, len(steps))
    in_steps = {d for step in steps for d in step.diagnostics}
    in_steps.update(d for placed in at_step.values() for d in placed)
    data = {
        "title": title(game),
        "game": game.index,
        "rules": rules_name(replayed.options),
        "target": replayed.options.target,
        "seats": [seat.letter for seat in seats],
        "names": {seat.letter: game.tag(seat.tag_name) or seat.name.capitalize()
                  for seat in seats},
        "sides": {seat.letter: side_of(seat, seats) for seat in seats},
        "deals": [
            {"n": deal.number, "first": deal.first_step, "last": deal.last_step,
             "scores": deal.scores_after, "entry": "results" if deal.by_results else "cards"}
            for deal in replayed.deals
        ],
        "steps": steps_data(replayed.steps, at_step) if changes is None
        else changes_data(changes, at_step),
        "scores": replayed.scores,
        "winner": replayed.winner,
        "decided": replayed.decided,
        "stops": list(TRICK_STOPS),
        "problems": [diagnostic_data(d) for d in diagnostics if d not in in_steps],
    }
    if analyses:
        data["analysis"] = {"label": LABEL,
                            "deals": analysis_data(replayed, analyses, steps, single_dummy)}
    if advice:
        data["advice"] = {str(step): list(lines) for step, lines in advice.items()}
    return data


def analysis_data(replayed: GameReplay, analyses: Sequence[DealAnalysis],
                  steps: Sequence[Step | StepChange] | None = None,
                  single_dummy: Sequence[SingleDummyDeal] = ()
                  ) -> dict[str, dict[str, Any]]:
    """Per deal number: the par, the result made, and each flagged card with the step
    that plays it (the page marks it there); with ``single_dummy``, the cards flagged by
    single or double dummy, both flags side by side."""
    by_number = {a.number: a for a in analyses}
    sampled = {s.number: s for s in single_dummy}
    if steps is None:
        steps = replayed.steps
    out: dict[str, dict[str, Any]] = {}
    for deal in replayed.deals:
        analysis = by_number.get(deal.number)
        if analysis is None:
            continue
        plays = [step.index for step in steps[deal.first_step:deal.last_step + 1]
                 if step.kind is StepKind.PLAY]
        entry: dict[str, Any] = {
            "solved": analysis.solved,
            "note": analysis.note,
            "par": [[side, points] for side, points in analysis.par],
            "actual": [[side, points] for side, points in analysis.actual],
            "flags": [{"step": plays[v.index] if v.index < len(plays) else None,
                       "glyph": v.glyph, "text": f"{v.trick}. {v.reason}"}
                      for v in analysis.flagged],
        }
        single = sampled.get(deal.number)
        if single is not None:
            entry["single_dummy"] = _single_dummy_entry(single, plays)
        out[str(deal.number)] = entry
    return out


def _single_dummy_entry(single: SingleDummyDeal, plays: Sequence[int]) -> dict[str, Any]:
    """One deal's single-dummy verdicts for the page: each card either flags, with the
    step that plays it, both flags and one line of text."""
    flags = []
    for d in single.decisions:
        if not d.flagged and d.double_dummy is None:
            continue
        verdict = (f"loses {d.loss:.2f} ± {d.loss_error:.2f} points against "
                   f"{d.seat.letter}:{d.best}" if d.loss > 0
                   else "kept its value on what could be known")
        flags.append({"step": plays[d.index] if d.index < len(plays) else None,
                      "glyph": d.glyph, "double_dummy": d.double_dummy,
                      "text": f"{d.trick}. {d.seat.letter}:{d.card}{d.glyph or ''} "
                              f"{verdict}"
                              f" · double dummy {d.double_dummy or 'none'}"})
    return {"label": single.label, "note": single.note, "flags": flags,
            "changed": len(single.changed)}


def title(game: Game) -> str:
    """``Event · North v South`` (the players by seat), or what is known of it."""
    players = " v ".join(name for seat in game.seats if (name := game.tag(seat.tag_name)))
    bits = [game.tag("Event") or f"Game {game.index}", players, game.tag("Date") or ""]
    return " · ".join(bit for bit in bits if bit)


def dispute_steps(replayed: GameReplay, diagnostics: tuple[Diagnostic, ...],
                  count: int | None = None) -> dict[int, list[Diagnostic]]:
    """The step each dispute is shown at: its deal's last (the deal's end, where its
    claim and total are compared with the count), the game's last for the result.
    ``count``: how many steps there are (default: ``replayed``'s)."""
    last_of = {deal.number: deal.last_step for deal in replayed.deals}  # a redeal: the last
    placed: dict[int, list[Diagnostic]] = {}
    if count is None:
        count = len(replayed.steps)
    if not count:
        return placed
    for diagnostic in diagnostics:
        if not diagnostic.code.startswith(DISPUTE_PREFIX):
            continue
        if diagnostic.deal is None:
            step = count - 1
        elif diagnostic.deal in last_of:
            step = last_of[diagnostic.deal]
        else:
            continue
        placed.setdefault(step, []).append(diagnostic)
    return placed


def steps_data(steps: Sequence[Step],
               at_step: dict[int, list[Diagnostic]]) -> list[dict[str, Any]]:
    """Each step with, as ``s``, only the parts of the table that changed since the step
    before (all of them at the first step; of the hands, the seats whose hand changed);
    the page's script carries the rest forward
    (:func:`full_states` does the same here).  A step changes one or two parts of the
    table, so this is a fifth of the data and of the time to make it (issue 38)."""
    out = []
    previous: TableState | None = None
    for index, step in enumerate(steps):
        out.append({
            "k": step.kind.value,
            "d": step.deal,
            "t": step.trick,
            "x": step.text,
            "s": state_data(step.state, previous),
            "dg": [diagnostic_data(d) for d in (*step.diagnostics, *at_step.get(index, ()))],
        })
        previous = step.state
    return out


def changes_data(steps: Sequence[StepChange],
                 at_step: dict[int, list[Diagnostic]]) -> list[dict[str, Any]]:
    """:func:`steps_data` of the steps as the referee gave their changes
    (:func:`~allfours_notation.referee.replay.replay_changes`): the same list, each
    changed part written as :func:`state_data` writes it, with nothing compared here."""
    out = []
    points: tuple[Any, ...] = ()
    items: tuple[Any, ...] = ()
    kinds = _VALUES
    for index, step in enumerate(steps):
        changed = step.changed
        if "deal_points" in changed:
            points = changed["deal_points"]
        if "items" in changed:
            items = changed["items"]
        found, placed = step.diagnostics, at_step.get(index)
        out.append({
            "k": kinds[step.kind],
            "d": step.deal,
            "t": step.trick,
            "x": step.text,
            "s": changed_data(changed, points, items) if changed else {},
            "dg": [diagnostic_data(d) for d in (*found, *(placed or ()))]
            if found or placed else [],
        })
    return out


def changed_data(changed: dict[str, Any], points: tuple[Point, ...],
                 items: tuple[ItemStatus, ...]) -> dict[str, Any]:
    """The parts ``changed`` (see :class:`~allfours_notation.referee.changes.StepChange`)
    as :func:`state_data` writes them, in its order; ``points`` and ``items``: the
    deal's points and items at this step, written together when either changed."""
    out: dict[str, Any] = {}
    get = changed.get
    if "dealer" in changed:
        out["dealer"] = changed["dealer"].letter
    if "elder" in changed:
        out["elder"] = changed["elder"].letter
    if (hands := get("hands")) is not None:
        out["hands"] = {seat.letter: codes(held) for seat, held in hands.items()}
    if (unknown := get("unknown")) is not None:
        out["unknown"] = {seat.letter: count for seat, count in unknown if count}
    if (turnups := get("turnups")) is not None:
        out["turnups"] = codes(turnups)
    if "trump" in changed:
        trump = changed["trump"]
        out["trump"] = trump.letter if trump else None
    if "trick_number" in changed:
        out["tn"] = changed["trick_number"]
    if (trick := get("trick")) is not None:
        table = _CODES
        out["trick"] = [[seat.letter, table[c]] for seat, c in trick]
    if "to_move" in changed:
        mover = changed["to_move"]
        out["to"] = mover.letter if mover is not None else None
    if (legal := get("legal")) is not None:
        out["legal"] = sorted(codes(legal))
    if (won := get("won")) is not None:
        out["won"] = won
    if (pips := get("pips")) is not None:
        out["pips"] = pips
    if "last_trick_winner" in changed:
        last = changed["last_trick_winner"]
        out["last"] = last.letter if last is not None else None
    if "deal_points" in changed or "items" in changed:
        values = _VALUES
        out["points"] = [[point.side, values[point.item], point.points, point.reason]
                         for point in points]
        out["later"] = later_of(points, items)
    if (scores := get("scores")) is not None:
        out["scores"] = scores
    if "winner" in changed:
        out["winner"] = changed["winner"]
    return out


def full_states(steps: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The whole table at each step of :func:`steps_data`, as the page's script reads it:
    each part as the step gives it, else as the step before had it; the hands seat by
    seat."""
    states: list[dict[str, Any]] = []
    for step in steps:
        if not states:
            states.append(dict(step["s"]))
            continue
        state = {**states[-1], **step["s"]}
        if "hands" in step["s"]:
            state["hands"] = {**states[-1]["hands"], **step["s"]["hands"]}
        states.append(state)
    return states


def state_data(state: TableState, previous: TableState | None = None) -> dict[str, Any]:
    """The table of ``state``; with ``previous`` (the step before's), only the parts
    that differ from it.  The parts are compared as the referee gave them (tuples of
    interned cards and seats, mostly the very same objects), before any is written."""
    def letter(seat: Seat | None) -> str | None:
        return seat.letter if seat is not None else None

    out: dict[str, Any] = {}
    p = previous
    if p is None or state.dealer != p.dealer:
        out["dealer"] = state.dealer.letter
    if p is None or state.elder != p.elder:
        out["elder"] = state.elder.letter
    if p is None or len(state.hands) != len(p.hands):
        out["hands"] = {seat.letter: codes(held) for seat, held in state.hands}
    elif state.hands != p.hands:  # a card played changes one hand: only that one
        out["hands"] = {seat.letter: codes(held)
                        for (seat, held), before in zip(state.hands, p.hands, strict=True)
                        if (seat, held) != before}
    if p is None or state.unknown != p.unknown:
        out["unknown"] = {seat.letter: count for seat, count in state.unknown if count}
    if p is None or state.turnups != p.turnups:
        out["turnups"] = codes(state.turnups)
    if p is None or state.trump != p.trump:
        out["trump"] = state.trump.letter if state.trump else None
    if p is None or state.trick_number != p.trick_number:
        out["tn"] = state.trick_number
    if p is None or state.trick != p.trick:
        out["trick"] = [[seat.letter, code(c)] for seat, c in state.trick]
    if p is None or state.to_move != p.to_move:
        out["to"] = letter(state.to_move)
    if p is None or state.legal != p.legal:
        out["legal"] = sorted(codes(state.legal))
    if p is None or state.won != p.won:
        out["won"] = state.won
    if p is None or state.pips != p.pips:
        out["pips"] = state.pips
    if p is None or state.last_trick_winner != p.last_trick_winner:
        out["last"] = letter(state.last_trick_winner)
    if p is None or state.deal_points != p.deal_points or state.items != p.items:
        out["points"] = [[point.side, point.item.value, point.points, point.reason]
                         for point in state.deal_points]
        # the deal being played: what is decided but counted at its end ("d") and what
        # would score if it ended now ("p"), counted nowhere yet
        out["later"] = later_items(state)
    if p is None or state.scores != p.scores:
        out["scores"] = state.scores
    if p is None or state.winner != p.winner:
        out["winner"] = state.winner
    return out


class _Codes(dict[Card, str]):
    """A card's code by card (cards are interned): a long game shows each hand at every
    step, so its codes are written a hundred thousand times and made once; read as
    ``_CODES[card]``, without a call."""

    def __missing__(self, card: Card) -> str:
        found = self[card] = str(card)
        return found


_CODES = _Codes()
# the JSON of a step's kind and of an item: an enum's value read through its class's
# descriptor costs a call, and a page reads a few hundred
_VALUES: dict[Enum, str] = {member: member.value for kind in (StepKind, ClaimItem)
                            for member in kind}


def code(card: Card) -> str:
    return _CODES[card]


def codes(cards: Iterable[Card]) -> list[str]:
    table = _CODES
    return [table[card] for card in cards]


def later_items(state: TableState) -> list[list[Any]]:
    return later_of(state.deal_points, state.items)


def later_of(points: Sequence[Point], items: Sequence[ItemStatus]) -> list[list[Any]]:
    """The deal's items not counted yet: decided ("d") or that would score if the deal
    ended now ("p")."""
    counted = {(p.item, p.side, p.reason) for p in points}
    values = _VALUES
    return [[item.side, values[item.item], item.points,
             "d" if item.status is Status.DECIDED else "p", item.reason]
            for item in items
            if item.side and item.points and (item.item, item.side, item.reason) not in counted]


def diagnostic_data(diagnostic: Diagnostic) -> dict[str, Any]:
    return {"code": diagnostic.code, "severity": diagnostic.severity.value,
            "where": diagnostic.context(), "line": diagnostic.line,
            "message": diagnostic.message}
