"""The replay of a game as JSON-ready data: what the page's script draws, step by step.

Every value comes from :func:`allfours_notation.referee.replay.replay`: the table after each
step, the points of the deal with their reasons, the running score.  The script makes no
rule decision of its own.  Keys are short because a long game has hundreds of steps.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from ...cards import Card, Seat, Suit
from ...diagnostics import Diagnostic
from ...reading.records import Game
from ...reading.table import side_of
from ...referee.decided import ItemStatus, Status
from ...referee.disputes import rules_name
from ...referee.replay import GameReplay, Point, Step, StepChange, StepKind, TableState

if TYPE_CHECKING:  # the analysis is imported where a page shows one (allfours html --analyse):
    # the event site's replay pages and a plain page need none of its modules
    from ...checking.analysis.report import DealAnalysis
    from ...checking.analysis.single_dummy import SingleDummyDeal

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
    shown, parts = (steps_data(replayed.steps, at_step, rows) if changes is None
                    else changes_data(changes, at_step, rows))
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
        "steps": shown,
        "parts": parts,
        "rows": rows.rows,
        "scores": replayed.scores,
        "winner": replayed.winner,
        "decided": replayed.decided,
        "stops": list(TRICK_STOPS),
        "problems": [diagnostic_data(d) for d in diagnostics if d not in in_steps],
    }
    if analyses:
        from ...checking.analysis.report import LABEL

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


_UNSET = object()

# The parts of the table as the page names them, in the order of its ``parts``.
PART_NAMES = ("dealer", "elder", "hands", "unknown", "turnups", "trump", "tn", "trick", "to",
              "legal", "won", "pips", "last", "points", "later", "scores", "winner")


def steps_data(steps: Sequence[Step], at_step: dict[int, list[Diagnostic]],
               rows: Rows) -> tuple[dict[str, list[Any]], dict[str, Any]]:
    """The steps (:func:`step_columns`) and the page's ``parts``: by part of the table
    (:data:`PART_NAMES`), the steps that change it with its value there, ``[step, value,
    step, value, ...]`` (the hands seat by seat; a part of seats, suits or cards as one
    text, :meth:`Parts.written`), all of them at the first step (:class:`Parts`).  The
    page's script carries each part forward to the steps that do not change it
    (:func:`full_states` does the same here).  A step changes one or two parts of the
    table, so this is a fifth of the data and of the time to make it (issue 38)."""
    parts = Parts(rows, len(steps))
    previous: TableState | None = None
    for index, step in enumerate(steps):
        parts.add(index, state_changes(step.state, previous))
        previous = step.state
    return step_columns(steps, at_step), parts.written()


def changes_data(steps: Sequence[StepChange], at_step: dict[int, list[Diagnostic]],
                 rows: Rows) -> tuple[dict[str, list[Any]], dict[str, Any]]:
    """:func:`steps_data` of the steps as the referee gave their changes
    (:func:`~allfours_notation.referee.replay.replay_changes`): the same, with nothing
    compared here."""
    parts = Parts(rows, len(steps))
    add = parts.add
    for index, step in enumerate(steps):
        if step.changed:
            add(index, step.changed)
    return step_columns(steps, at_step), parts.written()


def step_columns(steps: Sequence[Step | StepChange],
                 at_step: dict[int, list[Diagnostic]]) -> dict[str, list[Any]]:
    """The steps by column: each step's ``kind`` and ``text``; the ``deal`` and the
    ``trick`` (its number, or None) as ``[step, value, ...]`` where they change, carried
    forward as the parts are; the diagnostics found at a step and the disputes placed
    there (``at_step``) as ``found``, ``[step, [diagnostic, ...], ...]``, not carried.
    A page has a few hundred steps: written as one list each, rather than a list per
    step, the deal and the trick once where they change (issue 38)."""
    deals: list[Any] = []
    tricks: list[Any] = []
    found: list[Any] = []
    deal: object = _UNSET  # the first step writes its own
    trick: object = _UNSET
    for index, step in enumerate(steps):
        if step.deal != deal:
            deal = step.deal
            deals += (index, deal)
        if step.trick != trick:
            trick = step.trick
            tricks += (index, trick)
        if step.diagnostics or index in at_step:
            found += (index, [diagnostic_data(d)
                              for d in (*step.diagnostics, *at_step.get(index, ()))])
    return {"kind": [step.kind._value_ for step in steps], "text": [step.text for step in steps],
            "deal": deals, "trick": tricks, "found": found}


def state_changes(state: TableState, previous: TableState | None = None) -> dict[str, Any]:
    """The parts of ``state`` that differ from ``previous`` (the step before's; all of
    them without it), as the referee's step changes give them
    (:class:`~allfours_notation.referee.changes.StepChange`: of the hands, a dict of the
    seats whose hand changed).  The parts are compared as the referee gave them (tuples
    of interned cards and seats, mostly the very same objects)."""
    out: dict[str, Any] = {}
    p = previous
    if p is None or len(state.hands) != len(p.hands):
        out["hands"] = dict(state.hands)
    elif state.hands != p.hands:  # a card played changes one hand: only that one
        out["hands"] = {seat: held
                        for (seat, held), before in zip(state.hands, p.hands, strict=True)
                        if (seat, held) != before}
    for name in _COMPARED:
        value = getattr(state, name)
        if p is None or value != getattr(p, name):
            out[name] = value
    return out


_COMPARED = ("dealer", "elder", "unknown", "turnups", "trump", "trick_number", "trick",
             "to_move", "legal", "won", "pips", "last_trick_winner", "deal_points", "items",
             "scores", "winner")


class Parts:
    """The page's ``parts`` being written: :data:`PART_NAMES` each with its steps and
    values, ``[step, value, step, value, ...]``.  Written by part rather than by step:
    a step's own object of the parts it changed cost as much to encode again as all its
    values (a container and a key for each), and the page reads them once anyway.  A
    part's cards are one text of codes (a trick's, each led by its seat's letter); a
    seat as its letter; the deal's points and what is not counted yet (``later``:
    decided, counted at the end, or that would score if it ended now) as indexes into
    the page's ``rows`` (:class:`Rows`), ``later`` written when either changed; the
    parts of seats, suits and cards each one text at the end (:meth:`written`)."""

    __slots__ = ("columns", "hands", "items", "points", "rows", "texts", "trick",
                 "trick_text", "writers")

    def __init__(self, rows: Rows, steps: int) -> None:
        self.rows = rows
        self.columns: dict[str, Any] = {name: [] for name in PART_NAMES}
        self.hands: dict[str, list[Any]] = {}
        self.columns["hands"] = self.hands
        self.points: Sequence[Point] = ()
        self.items: Sequence[ItemStatus] = ()
        # the trick last written and its text: a card played adds its own to the text
        self.trick: tuple[tuple[Seat, Card], ...] = ()
        self.trick_text = ""
        columns = self.columns
        by_side = _PAIRS.__getitem__
        # the referee's name of each part: the page's column and how a value is written,
        # the parts written as texts (TEXT_PARTS) at their steps' numbers as texts
        self.texts: dict[str, tuple[list[Any], Callable[[Any], str]]] = {
            "dealer": (columns["dealer"], _letter), "elder": (columns["elder"], _letter),
            "turnups": (columns["turnups"], _cards), "trump": (columns["trump"], _letter),
            "to_move": (columns["to"], _letter), "legal": (columns["legal"], _legal),
            "won": (columns["won"], by_side), "pips": (columns["pips"], by_side),
            "last_trick_winner": (columns["last"], _letter),
            "scores": (columns["scores"], by_side)}
        self.writers: dict[str, tuple[list[Any], Callable[[Any], Any] | None]] = {
            "unknown": (columns["unknown"], _unknown), "trick_number": (columns["tn"], None),
            "winner": (columns["winner"], None)}
        if len(_STEP_TEXTS) < steps:
            _STEP_TEXTS.extend(map(str, range(len(_STEP_TEXTS), steps)))

    def add(self, index: int, changed: Mapping[str, Any]) -> None:
        """The parts ``changed`` at step ``index``, as the referee's step changes name
        them (:class:`~allfours_notation.referee.changes.StepChange`)."""
        texts = self.texts
        at = _STEP_TEXTS[index]
        later = False
        for name, value in changed.items():
            found = texts.get(name)
            if found is not None:
                column, write = found
                column += (at, write(value))
            elif name == "trick":
                before = self.trick
                if before and value[:-1] == before:  # a card played to the trick
                    text = self.trick_text + " " + _PLAYED[value[-1]]
                else:
                    text = " ".join(map(_PLAYED.__getitem__, value))
                self.trick, self.trick_text = value, text
                self.columns["trick"] += (at, text)
            elif name == "hands":
                hands = self.hands
                for seat, held in value.items():
                    letter = seat.letter
                    if letter not in hands:
                        hands[letter] = []
                    hands[letter] += (at, " ".join(map(_CODE, held)))
            elif name == "deal_points":
                self.points = value
                self.columns["points"] += (index, self.rows.points(value))
                later = True
            elif name == "items":
                self.items = value
                later = True
            else:
                numbered, writing = self.writers[name]
                numbered += (index, value if writing is None else writing(value))
        if later:
            self.columns["later"] += (index, self.rows.later(self.points, self.items))

    def written(self) -> dict[str, Any]:
        """The columns as the page holds them: a part of texts (:data:`TEXT_PARTS`,
        the hands seat by seat) as one text, ``"step step ...|value|value..."``, its
        steps then a value for each (empty where there is no seat or suit, or no card);
        the rest as they are.  A page's thousand steps and texts, each a JSON value of
        its own, were half of its JSON's cost, and they are written here by ``join`` at
        C speed (issue 38)."""
        out = dict(self.columns)
        for name in TEXT_PARTS:
            out[name] = _text_column(out[name])
        out["hands"] = {seat: _text_column(held) for seat, held in self.hands.items()}
        return out


# The parts written as one text (:meth:`Parts.written`): seats, suits and cards, and the
# tricks, pips and points by side (:class:`_Pairs`).
TEXT_PARTS = ("dealer", "elder", "turnups", "trump", "trick", "to", "legal", "last", "won",
              "pips", "scores")


def _text_column(column: list[str]) -> str:
    """``[step, text, step, text, ...]``, the steps as texts, as ``"step step
    ...|text|text..."``."""
    if not column:
        return ""
    return " ".join(column[::2]) + "|" + "|".join(column[1::2])


# A step's number as text, by the number: made once, not for each part it changes
# (``str`` of a number cost as much as the rest of a part's text).
_STEP_TEXTS: list[str] = []


def _letter(seat: Seat | Suit | None) -> str:
    return seat.letter if seat is not None else ""


def _unknown(unknown: Iterable[tuple[Seat, int]]) -> dict[str, int]:
    return {seat.letter: count for seat, count in unknown if count}


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(map(_CODE, cards))


def _legal(legal: Iterable[Card]) -> str:
    return " ".join(sorted(map(_CODE, legal)))


def full_states(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Each step of :func:`replay_data`'s ``data`` as the page's script reads it
    (``replay.js``): a dict of ``k``, ``d``, ``t``, ``x``, ``dg`` and, as ``s``, the whole
    table, each part as the step changes it, else as the step before had it (the hands
    seat by seat); the cards as lists of codes, a trick as ``[seat, card]`` pairs, the
    points and what is not counted yet as their rows."""
    rows = data["rows"]
    shown = data["steps"]
    steps: list[dict[str, Any]] = [{"k": kind, "x": text, "s": {}, "dg": []}
                                   for kind, text in zip(shown["kind"], shown["text"],
                                                         strict=True)]
    for name, key in (("deal", "d"), ("trick", "t")):
        column = shown[name]
        for (at, value), until in zip(pairwise_of(column), [*column[2::2], len(steps)],
                                      strict=True):
            for step in steps[at:until]:
                step[key] = value
    for at, found in pairwise_of(shown["found"]):
        steps[at]["dg"] = found
    for name, column in data["parts"].items():
        if name == "hands":
            for seat, held in column.items():
                for at, value in pairwise_of(held):
                    steps[at]["s"].setdefault("hands", {})[seat] = _codes_of(value)
            continue
        for at, value in pairwise_of(column):
            if name in _LETTER_PARTS:
                value = value or None
            elif name in ("turnups", "legal"):
                value = _codes_of(value)
            elif name == "trick":
                value = [[played[0], played[1:]] for played in _codes_of(value)]
            elif name in ("won", "pips", "scores"):
                words = _codes_of(value)
                value = [[side, int(count)] for side, count in zip(words[::2], words[1::2],
                                                                   strict=True)]
            elif name in ("points", "later"):
                value = [rows[index] for index in value]
            steps[at]["s"][name] = value
    for before, step in pairwise(steps):
        changed = step["s"]
        step["s"] = {**before["s"], **changed,
                     "hands": {**before["s"]["hands"], **changed.get("hands", {})}}
    return steps


_LETTER_PARTS = ("dealer", "elder", "trump", "to", "last")


def pairwise_of(column: list[Any] | str) -> list[tuple[Any, Any]]:
    """``[step, value, step, value, ...]``, or a text part's ``"step step ...|value|
    value..."`` (:meth:`Parts.written`), as (step, value) pairs."""
    if isinstance(column, str):
        if not column:
            return []
        at, *values = column.split("|")
        return list(zip(map(int, at.split(" ")), values, strict=True))
    return list(zip(column[::2], column[1::2], strict=True))


def _codes_of(text: str) -> list[str]:
    return text.split(" ") if text else []


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


class _Pairs(dict[tuple[tuple[str, int], ...], str]):
    """The tricks, pips or points by side as the page writes them, ``"NS 1 EW 0"``, by
    the referee's pairs (the same few come again and again)."""

    def __missing__(self, pairs: tuple[tuple[str, int], ...]) -> str:
        found = self[pairs] = " ".join(f"{side} {count}" for side, count in pairs)
        return found


_CODES = _Codes()
_CODE = _CODES.__getitem__
_PLAYED = _Played()
_PAIRS = _Pairs()


def later_items(state: TableState) -> list[list[Any]]:
    """The deal's items not counted yet at ``state``, as the page's rows (:class:`Rows`)."""
    rows = Rows()
    return [rows.rows[index] for index in rows.later(state.deal_points, state.items)]


def diagnostic_data(diagnostic: Diagnostic) -> dict[str, Any]:
    return {"code": diagnostic.code, "severity": diagnostic.severity.value,
            "where": diagnostic.context(), "line": diagnostic.line,
            "message": diagnostic.message}
