"""The replay of a game as JSON-ready data: what the page's script draws, step by step.

Every value comes from :func:`allfours_notation.referee.replay.replay`: the table after each
step, the points of the deal with their reasons, the running score.  The script makes no
rule decision of its own.  Keys are short because a long game has hundreds of steps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...cards import Card, Seat
from ...checking.analysis.report import LABEL, DealAnalysis
from ...checking.analysis.single_dummy import SingleDummyDeal
from ...diagnostics import Diagnostic
from ...reading.records import Game
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
    rows = Rows()
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
        "steps": steps_data(replayed.steps, at_step, rows) if changes is None
        else changes_data(changes, at_step, rows),
        "rows": rows.rows,
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


def steps_data(steps: Sequence[Step], at_step: dict[int, list[Diagnostic]],
               rows: Rows) -> list[list[Any]]:
    """Each step as ``[kind, deal, trick, text, parts]``, and its diagnostics sixth where
    it has any; ``parts``: only the parts of the table that changed since the step before
    (all of them at the first step; of the hands, the seats whose hand changed), as
    :func:`state_data` writes them.  The page's script carries the rest forward
    (:func:`full_states` does the same here).  A step changes one or two parts of the
    table, so this is a fifth of the data and of the time to make it (issue 38)."""
    out = []
    previous: TableState | None = None
    for index, step in enumerate(steps):
        shown: list[Any] = [step.kind._value_, step.deal, step.trick, step.text,
                            state_data(step.state, rows, previous)]
        found, placed = step.diagnostics, at_step.get(index)
        if found or placed:
            shown.append([diagnostic_data(d) for d in (*found, *(placed or ()))])
        out.append(shown)
        previous = step.state
    return out


def changes_data(steps: Sequence[StepChange], at_step: dict[int, list[Diagnostic]],
                 rows: Rows) -> list[list[Any]]:
    """:func:`steps_data` of the steps as the referee gave their changes
    (:func:`~allfours_notation.referee.replay.replay_changes`): the same list, each
    changed part written as :func:`state_data` writes it, with nothing compared here."""
    out = []
    points: tuple[Any, ...] = ()
    items: tuple[Any, ...] = ()
    for index, step in enumerate(steps):
        changed = step.changed
        if "deal_points" in changed:
            points = changed["deal_points"]
        if "items" in changed:
            items = changed["items"]
        shown: list[Any] = [step.kind._value_, step.deal, step.trick, step.text,
                            changed_data(changed, points, items, rows) if changed else {}]
        found, placed = step.diagnostics, at_step.get(index)
        if found or placed:
            shown.append([diagnostic_data(d) for d in (*found, *(placed or ()))])
        out.append(shown)
    return out


def changed_data(changed: dict[str, Any], points: tuple[Point, ...],
                 items: tuple[ItemStatus, ...], rows: Rows) -> dict[str, Any]:
    """The parts ``changed`` (see :class:`~allfours_notation.referee.changes.StepChange`)
    as :func:`state_data` writes them, in its order; ``points`` and ``items``: the
    deal's points and items at this step (what is not counted yet is written when
    either changed)."""
    out: dict[str, Any] = {}
    get = changed.get
    code = _CODES.__getitem__
    if "dealer" in changed:
        out["dealer"] = changed["dealer"].letter
    if "elder" in changed:
        out["elder"] = changed["elder"].letter
    if (hands := get("hands")) is not None:
        out["hands"] = {seat.letter: " ".join(map(code, held)) for seat, held in hands.items()}
    if (unknown := get("unknown")) is not None:
        out["unknown"] = {seat.letter: count for seat, count in unknown if count}
    if (turnups := get("turnups")) is not None:
        out["turnups"] = " ".join(map(code, turnups))
    if "trump" in changed:
        trump = changed["trump"]
        out["trump"] = trump.letter if trump else None
    if "trick_number" in changed:
        out["tn"] = changed["trick_number"]
    if (trick := get("trick")) is not None:
        out["trick"] = " ".join(map(_PLAYED.__getitem__, trick))
    if "to_move" in changed:
        mover = changed["to_move"]
        out["to"] = mover.letter if mover is not None else None
    if (legal := get("legal")) is not None:
        out["legal"] = " ".join(sorted(map(code, legal)))
    if (won := get("won")) is not None:
        out["won"] = won
    if (pips := get("pips")) is not None:
        out["pips"] = pips
    if "last_trick_winner" in changed:
        last = changed["last_trick_winner"]
        out["last"] = last.letter if last is not None else None
    if "deal_points" in changed:
        out["points"] = rows.points(points)
    if "deal_points" in changed or "items" in changed:
        out["later"] = rows.later(points, items)
    if (scores := get("scores")) is not None:
        out["scores"] = scores
    if "winner" in changed:
        out["winner"] = changed["winner"]
    return out


def full_states(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each step of :func:`replay_data`'s ``data`` as the page's script reads it
    (``replay.js``): a dict of ``k``, ``d``, ``t``, ``x``, ``dg`` and, as ``s``, the whole
    table, each part as the step gives it, else as the step before had it (the hands
    seat by seat); the cards as lists of codes, a trick as ``[seat, card]`` pairs, the
    points and what is not counted yet as their rows."""
    rows = data["rows"]
    out: list[dict[str, Any]] = []
    for kind, deal, trick, text, parts, *found in data["steps"]:
        state = dict(parts)
        if "hands" in state:
            state["hands"] = {seat: _cards(held) for seat, held in state["hands"].items()}
        for name in ("turnups", "legal"):
            if name in state:
                state[name] = _cards(state[name])
        if "trick" in state:
            state["trick"] = [[played[0], played[1:]] for played in _cards(state["trick"])]
        for name in ("points", "later"):
            if name in state:
                state[name] = [rows[index] for index in state[name]]
        if out:
            before = out[-1]["s"]
            state = {**before, **state, "hands": {**before["hands"], **state.get("hands", {})}}
        out.append({"k": kind, "d": deal, "t": trick, "x": text, "s": state,
                    "dg": found[0] if found else []})
    return out


def _cards(text: str) -> list[str]:
    return text.split(" ") if text else []


def state_data(state: TableState, rows: Rows, previous: TableState | None = None
               ) -> dict[str, Any]:
    """The table of ``state``; with ``previous`` (the step before's), only the parts
    that differ from it.  The parts are compared as the referee gave them (tuples of
    interned cards and seats, mostly the very same objects), before any is written.
    A part's cards are one text of codes (a trick's, each led by its seat's letter);
    the deal's points and what is not counted yet (``later``: decided, counted at the
    end, or that would score if it ended now) are indexes into ``rows``."""
    def letter(seat: Seat | None) -> str | None:
        return seat.letter if seat is not None else None

    def joined(cards: Iterable[Card]) -> str:
        return " ".join(map(_CODES.__getitem__, cards))

    out: dict[str, Any] = {}
    p = previous
    if p is None or state.dealer != p.dealer:
        out["dealer"] = state.dealer.letter
    if p is None or state.elder != p.elder:
        out["elder"] = state.elder.letter
    if p is None or len(state.hands) != len(p.hands):
        out["hands"] = {seat.letter: joined(held) for seat, held in state.hands}
    elif state.hands != p.hands:  # a card played changes one hand: only that one
        out["hands"] = {seat.letter: joined(held)
                        for (seat, held), before in zip(state.hands, p.hands, strict=True)
                        if (seat, held) != before}
    if p is None or state.unknown != p.unknown:
        out["unknown"] = {seat.letter: count for seat, count in state.unknown if count}
    if p is None or state.turnups != p.turnups:
        out["turnups"] = joined(state.turnups)
    if p is None or state.trump != p.trump:
        out["trump"] = state.trump.letter if state.trump else None
    if p is None or state.trick_number != p.trick_number:
        out["tn"] = state.trick_number
    if p is None or state.trick != p.trick:
        out["trick"] = " ".join(map(_PLAYED.__getitem__, state.trick))
    if p is None or state.to_move != p.to_move:
        out["to"] = letter(state.to_move)
    if p is None or state.legal != p.legal:
        out["legal"] = " ".join(sorted(map(_CODES.__getitem__, state.legal)))
    if p is None or state.won != p.won:
        out["won"] = state.won
    if p is None or state.pips != p.pips:
        out["pips"] = state.pips
    if p is None or state.last_trick_winner != p.last_trick_winner:
        out["last"] = letter(state.last_trick_winner)
    points_changed = p is None or state.deal_points != p.deal_points
    if points_changed:
        out["points"] = rows.points(state.deal_points)
    if points_changed or state.items != p.items:  # type: ignore[union-attr]
        out["later"] = rows.later(state.deal_points, state.items)
    if p is None or state.scores != p.scores:
        out["scores"] = state.scores
    if p is None or state.winner != p.winner:
        out["winner"] = state.winner
    return out


class Rows:
    """The page's ``rows``: each of the deal's points (``[side, item, points, reason]``)
    and each item not counted yet (``[side, item, points, "d" or "p", reason]``) written
    once, the steps naming them by index.  A deal's points are shown again at every step
    its items change, and an item for several steps: written each time they were a third
    of a page (issue 38).  The referee gives the same record again while a point or an
    item stands, so each is looked at once, by identity (and kept, so its identity is not
    reused); two equal records share a row."""

    __slots__ = ("counted", "index", "items", "points_seen", "rows")

    def __init__(self) -> None:
        self.rows: list[list[Any]] = []
        self.index: dict[tuple[Any, ...], int] = {}
        # by id: the record (kept), its row and what it is counted as; an item not
        # shown (nobody's, or no points) has no row
        self.points_seen: dict[int, tuple[Point, int, tuple[Any, ...]]] = {}
        self.items: dict[int, tuple[ItemStatus, int | None, tuple[Any, ...]]] = {}
        self.counted: dict[int, tuple[Sequence[Point], frozenset[tuple[Any, ...]]]] = {}

    def _row(self, row: tuple[Any, ...]) -> int:
        found = self.index.get(row)
        if found is None:
            found = self.index[row] = len(self.rows)
            self.rows.append(list(row))
        return found

    def points(self, points: Sequence[Point]) -> list[int]:
        """The rows of the deal's points."""
        return [self._point(point)[1] for point in points]

    def _point(self, point: Point) -> tuple[Point, int, tuple[Any, ...]]:
        kept = self.points_seen.get(id(point))
        if kept is None:
            item = point.item._value_
            kept = self.points_seen[id(point)] = (
                point, self._row((point.side, item, point.points, point.reason)),
                (item, point.side, point.reason))
        return kept

    def later(self, points: Sequence[Point], items: Sequence[ItemStatus]) -> list[int]:
        """The rows of the deal's items not counted yet (not among ``points``): decided
        ("d") or that would score if the deal ended now ("p")."""
        counted = self.counted.get(id(points))
        if counted is None:
            counted = self.counted[id(points)] = (
                points, frozenset(self._point(point)[2] for point in points))
        out = []
        for item in items:
            kept = self.items.get(id(item))
            if kept is None:
                kept = self.items[id(item)] = self._item(item)
            row = kept[1]
            if row is not None and kept[2] not in counted[1]:
                out.append(row)
        return out

    def _item(self, item: ItemStatus) -> tuple[ItemStatus, int | None, tuple[Any, ...]]:
        if not (item.side and item.points):
            return item, None, ()
        name, reason = item.item._value_, item.reason
        status = "d" if item.status is Status.DECIDED else "p"
        return (item, self._row((item.side, name, item.points, status, reason)),
                (name, item.side, reason))


class _Codes(dict[Card, str]):
    """A card's code by card (cards are interned): a long game shows each hand at every
    step, so its codes are written a hundred thousand times and made once."""

    def __missing__(self, card: Card) -> str:
        found = self[card] = str(card)
        return found


class _Played(dict[tuple[Seat, Card], str]):
    """A card played in a trick as the page writes it: its seat's letter and its code."""

    def __missing__(self, played: tuple[Seat, Card]) -> str:
        found = self[played] = played[0].letter + _CODES[played[1]]
        return found


_CODES = _Codes()
_PLAYED = _Played()


def code(card: Card) -> str:
    return _CODES[card]


def codes(cards: Iterable[Card]) -> list[str]:
    return list(map(_CODES.__getitem__, cards))


def later_items(state: TableState) -> list[list[Any]]:
    return later_of(state.deal_points, state.items)


def later_of(points: Sequence[Point], items: Sequence[ItemStatus]) -> list[list[Any]]:
    """The deal's items not counted yet, as the page's rows (:class:`Rows`)."""
    rows = Rows()
    return [rows.rows[index] for index in rows.later(points, items)]


def diagnostic_data(diagnostic: Diagnostic) -> dict[str, Any]:
    return {"code": diagnostic.code, "severity": diagnostic.severity.value,
            "where": diagnostic.context(), "line": diagnostic.line,
            "message": diagnostic.message}
