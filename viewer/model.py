"""What the viewer shows, without Textual: the file's games, their replays, and moves
between steps.

A :class:`Library` holds the text of one file and the header of every game found so far.
A game is parsed the first time it is shown and replayed once; its steps are kept, so
jumping to any step is a lookup.  The navigation functions below only choose a step index
from the kinds and numbers the replayer gave each step: no rule of the game is applied here.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from allfours_notation import Diagnostic, Game, GameHeader, Seat, Severity, parse_indexed
from allfours_notation.cards import Card, parse_card
from allfours_notation.checking import check
from allfours_notation.checking.causes import roots_first
from allfours_notation.reading.records import Comment, Deal, Glyph, Node, Play
from allfours_notation.referee.replay import GameReplay, Step, StepKind

# Steps that ↑/↓ (previous/next trick) stop at: a deal's start, each trick's end, its end.
TRICK_STOPS = frozenset({StepKind.DEAL_START, StepKind.TRICK_END, StepKind.DEAL_END,
                         StepKind.GAME_END})


class Mark(Enum):
    """What the game list says about a game, each mark meaning one thing only."""

    UNCHECKED = "unchecked"  # the background check has not reached it yet
    CLEAN = "clean"  # read and replayed: no errors or warnings
    PROBLEMS = "problems"  # read, with disputes or rules problems (errors or warnings)
    UNREADABLE = "unreadable"  # cannot be read: syntax errors, nothing to replay


def mark_of(game: Game, diagnostics: Sequence[Diagnostic]) -> Mark:
    """The mark of a game from its records and every diagnostic found in it."""
    if game.broken:
        return Mark.UNREADABLE
    if any(d.severity in (Severity.ERROR, Severity.DISPUTE, Severity.WARNING) for d in diagnostics):
        return Mark.PROBLEMS
    return Mark.CLEAN


def check_mark(text: str, header: GameHeader, filename: str) -> Mark:
    """Parse and referee one game without keeping its steps: what the background check
    computes for every game of the file, so the list is marked without visiting games."""
    game = parse_indexed(text, header, filename=filename)
    if game.broken:
        return Mark.UNREADABLE
    return mark_of(game, check(game).diagnostics)


@dataclass(frozen=True, slots=True)
class Note:
    """Comments and the glyph written at one place in the record."""

    comments: tuple[Comment, ...]
    glyph: Glyph | None = None


# Offences proved by a hand the kibitzer does not see: a revoke, an undertrump (and a
# stand or a gift without the trump the rules require: the referee marks those,
# ``GameReplay.hand_proofs``).
HIDDEN_HAND_CODES = frozenset({"AFN306", "AFN307"})


# A card named in a sentence (``5S``, ``10S``, ``5♠``), and a run of them ("3S KC 4C").
_CARD = r"(?:10|[AKQJT2-9])[SHDC♠♥♦♣]"
CARD_RUN = re.compile(rf"(?<![A-Za-z0-9]){_CARD}(?: {_CARD})*(?![A-Za-z0-9])")


def mask_cards(text: str, seen: frozenset[Card], owners: dict[Card, Seat]) -> str:
    """``text`` with every card not in ``seen`` left unnamed: "S was dealt 5S" becomes
    "S was dealt a card S held", "but held 5S" "but held a card not yet shown", "holds 3S
    KC 4C" "holds 3 cards not yet shown" (the cards seen stay named)."""
    def hide(match: re.Match[str]) -> str:
        words = match.group().split(" ")
        cards = [parse_card(word) for word in words]
        hidden = [c for c in cards if c is not None and c not in seen]
        if not hidden:
            return match.group()
        holders = {owners.get(c) for c in hidden}
        holder = next(iter(holders)) if len(holders) == 1 else None
        count = "a card" if len(hidden) == 1 else f"{len(hidden)} cards"
        before = text[max(0, match.start() - 8):match.start()]
        if holder is None or before.endswith(("held ", "holds ", "holding ")):
            phrase = f"{count} not yet shown"
        else:
            phrase = f"{count} {holder.letter} held"
        kept = [word for word, c in zip(words, cards, strict=True) if c not in hidden]
        return " ".join([*kept, f"and {phrase}"]) if kept else phrase
    return CARD_RUN.sub(hide, text)


def model_cards_in(text: str) -> bool:
    """Whether ``text`` names a card at all (most lines do not: nothing to mask)."""
    return CARD_RUN.search(text) is not None


def hides_a_hand(diagnostic: Diagnostic, replayed: GameReplay | None = None) -> bool:
    """Whether ``diagnostic`` tells of a hand a kibitzer does not see."""
    if diagnostic.code in HIDDEN_HAND_CODES:
        return True
    proofs = replayed.hand_proofs if replayed is not None else ()
    return bool(proofs) and diagnostic.linked(None, None) in proofs


@dataclass(frozen=True, slots=True)
class GameEntry:
    """One game as the viewer needs it: header, records, replay, notes, diagnostics."""

    header: GameHeader
    game: Game
    replay: GameReplay
    notes: dict[int, Note] = field(repr=False)
    diagnostics: tuple[Diagnostic, ...]
    # the step each diagnostic belongs to (None: no step), in the order of ``diagnostics``
    diagnostic_steps: tuple[int | None, ...] = field(default=(), repr=False)
    # what each seat has seen by each step, made a deal at a time when first asked
    seen: dict[tuple[Seat, int], frozenset[Card]] = field(default_factory=dict, repr=False,
                                                           compare=False)
    owners: dict[int, dict[Card, Seat]] = field(default_factory=dict, repr=False,
                                                compare=False)  # who held each card, per deal

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.replay.steps

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.diagnostics)

    @property
    def mark(self) -> Mark:
        return mark_of(self.game, self.diagnostics)

    def diagnostics_until(self, index: int) -> tuple[Diagnostic, ...]:
        """The diagnostics found at or before step ``index`` (and those of no step): what a
        kibitzer may see, since later ones are drawn from plays still to come.  A revoke or
        an undertrump is shown at its card only with hindsight (the offender's hidden hand
        proves it), so a kibitzer learns of it when the deal ends, as the table would."""
        return tuple(d for d, at in zip(self.diagnostics, self.diagnostic_steps, strict=True)
                     if at is None or self.known_at(d, at) <= index)

    def known_at(self, diagnostic: Diagnostic, step: int) -> int:
        """The step from which a kibitzer may know of ``diagnostic`` (found at ``step``)."""
        if not hides_a_hand(diagnostic, self.replay) or not self.replay.deals:
            return step
        return self.replay.deals[deal_of(self.replay, step)].last_step

    def seen_by(self, seat: Seat, index: int) -> frozenset[Card]:
        """The cards ``seat`` has seen by step ``index`` of its deal: its own hand, the
        turn-ups and every card played so far."""
        steps = self.replay.steps
        if not steps:
            return frozenset()
        index = clamp(steps, index)
        known = self.seen.get((seat, index))
        if known is not None:
            return known
        deal = self.replay.deals[deal_of(self.replay, index)] if self.replay.deals else None
        seen: set[Card] = set()
        first, last = 0, len(steps) - 1
        if deal is not None and deal.first_step <= index:
            first, last = deal.first_step, max(index, deal.last_step)
            seen.update(dict(deal.held).get(seat, ()))
        elif deal is not None:
            last = deal.first_step - 1
        for at in range(first, min(last, len(steps) - 1) + 1):
            state = steps[at].state
            seen.update(state.turnups)
            seen.update(c for _, c in state.trick)
            seen.update(state.hand(seat))
            self.seen[seat, at] = frozenset(seen)
        return self.seen.get((seat, index), frozenset(seen))

    def kibitz_view(self, seat: Seat, index: int) -> Callable[[str], str]:
        """What a kibitzer watching ``seat`` at step ``index`` reads of a sentence: no card
        named that the seat cannot see yet (a revoke's proof in a hidden hand, a High
        never played); each such card is "a card S held" until it is shown."""
        seen = self.seen_by(seat, index)
        owners: dict[Card, Seat] = {}
        if self.replay.deals and self.replay.steps:
            position = deal_of(self.replay, clamp(self.replay.steps, index))
            owners = self.owners.get(position, {})
            if position not in self.owners:
                for holder, held in self.replay.deals[position].held:
                    for c in held:
                        owners[c] = holder
                self.owners[position] = owners
        return lambda text: mask_cards(text, seen, owners)

    def kibitz_row(self, seat: Seat, index: int, row: int) -> str:
        """The text of step ``row`` in the step list as a kibitzer watching ``seat`` at
        step ``index`` reads it: worded with what the seat saw of that step's deal (by
        step ``index``, or by the deal's end for an earlier deal)."""
        steps = self.replay.steps
        text = steps[row].text
        if not model_cards_in(text):
            return text
        deals = self.replay.deals
        until = index
        if deals:
            deal = deals[deal_of(self.replay, row)]
            if deal.last_step < index:
                until = deal.last_step
        return self.kibitz_view(seat, until)(text)

    def kibitz_diagnostics(self, seat: Seat, index: int) -> tuple[Diagnostic, ...]:
        """:meth:`diagnostics_until` as the kibitzer watching ``seat`` reads them: each
        with what the seat saw of its deal by step ``index``."""
        shown = self.kibitz_view(seat, index)
        current = self.steps[clamp(self.steps, index)].deal if self.steps else None
        found = []
        for diagnostic in self.diagnostics_until(index):
            if not model_cards_in(diagnostic.message) and not (
                    diagnostic.hint and model_cards_in(diagnostic.hint)):
                found.append(diagnostic)
                continue
            view = shown
            if diagnostic.deal is not None and diagnostic.deal != current:
                end = next((d.last_step for d in self.replay.deals
                            if d.number == diagnostic.deal and d.last_step < index), None)
                if end is not None:
                    view = self.kibitz_view(seat, end)
            found.append(_reworded(diagnostic, view))
        return tuple(found)

    def notes_at(self, step: Step) -> list[Note]:
        """The notes written inside the source text of ``step``."""
        span = step.span
        if span is None:
            return []
        return [note for start, note in self.notes.items() if span.start <= start < max(span.end,
                span.start + 1)]


def _reworded(diagnostic: Diagnostic, shown: Callable[[str], str]) -> Diagnostic:
    message, hint = shown(diagnostic.message), \
        shown(diagnostic.hint) if diagnostic.hint else diagnostic.hint
    if message == diagnostic.message and hint == diagnostic.hint:
        return diagnostic
    return diagnostic.located(message=message, hint=hint)


# Parsed and replayed games the viewer keeps (the most recently shown).  An entry holds
# a table snapshot per step, a few hundred KB for a long game: keeping every game ever
# shown would let a long session on a 100 MB file grow without end (issue 16).  Going
# back to a game dropped from here parses and replays it again, in milliseconds.
KEPT_ENTRIES = 32


class Library:
    """The games of one file: headers as the index grows, entries built on demand and
    only the :data:`KEPT_ENTRIES` most recently shown kept."""

    def __init__(self, filename: str, text: str) -> None:
        self.filename = filename
        self.text = text
        self.headers: list[GameHeader] = []
        self._entries: OrderedDict[int, GameEntry] = OrderedDict()
        self.marks: dict[int, Mark] = {}  # from the background check, by position
        self.complete = False

    def __len__(self) -> int:
        return len(self.headers)

    def add(self, headers: Sequence[GameHeader]) -> None:
        self.headers.extend(headers)

    def is_loaded(self, position: int) -> bool:
        """True when game ``position`` (0-based) is parsed and kept."""
        return position in self._entries

    @property
    def kept(self) -> int:
        """How many parsed games are held (at most :data:`KEPT_ENTRIES`)."""
        return len(self._entries)

    def entry(self, position: int) -> GameEntry:
        """Game ``position`` (0-based), parsed and replayed unless it is kept already."""
        cached = self._entries.get(position)
        if cached is None:
            cached = build_entry(self.text, self.headers[position], self.filename)
            self._entries[position] = cached
            while len(self._entries) > KEPT_ENTRIES:
                self._entries.popitem(last=False)
        else:
            self._entries.move_to_end(position)
        return cached


def build_entry(text: str, header: GameHeader, filename: str) -> GameEntry:
    """Game ``header`` parsed and checked by the one door (:func:`.checking.check`),
    with a table state per step: the same diagnostics, roots and hints as ``allfours
    check``, listed as it prints them (each root followed by what follows from it)."""
    game = parse_indexed(text, header, filename=filename)
    checked = check(game, steps=True, empty=True)
    result = checked.replay
    if result is None:  # a syntax error (or a fault): nothing was replayed
        from allfours_notation.referee.replay import replay

        result = replay(game)
    diagnostics = tuple(d for group in roots_first(checked.diagnostics)
                        for d in (group.root, *group.consequences))
    steps = tuple(step_of_diagnostic(result, d) for d in diagnostics)
    return GameEntry(header, game, result, collect_notes(game), diagnostics, steps)


def collect_notes(game: Game) -> dict[int, Note]:
    """Comments and glyphs of every record in ``game``, keyed by source offset."""
    notes: dict[int, Note] = {}

    def keep(node: Node | Deal) -> None:
        glyph = node.glyph if isinstance(node, Play) else None
        comments = node.leading + node.trailing
        if (comments or glyph) and node.span is not None:
            notes[node.span.start] = Note(comments, glyph)

    for deal in game.deals:
        keep(deal)
        for event in deal.opening:
            keep(event)
        for trick in deal.tricks:
            keep(trick)
            for play in trick.plays:
                keep(play)
        for other in (*deal.penalties, deal.claim, deal.total, deal.ending):
            if other is not None:
                keep(other)
    return notes


# --- moving between steps ---------------------------------------------------------------------


def clamp(steps: Sequence[Step], index: int) -> int:
    return max(0, min(len(steps) - 1, index))


def deal_of(replay_: GameReplay, index: int) -> int:
    """Position (0-based) in ``replay_.deals`` of the deal holding step ``index``."""
    for position, deal in enumerate(replay_.deals):
        if deal.first_step <= index <= deal.last_step:
            return position
    for position, deal in reversed(list(enumerate(replay_.deals))):
        if deal.first_step <= index:
            return position
    return 0


def next_trick(steps: Sequence[Step], index: int) -> int:
    for later in range(index + 1, len(steps)):
        if steps[later].kind in TRICK_STOPS:
            return later
    return clamp(steps, len(steps) - 1)


def previous_trick(steps: Sequence[Step], index: int) -> int:
    for earlier in range(index - 1, -1, -1):
        if steps[earlier].kind in TRICK_STOPS:
            return earlier
    return 0


def next_deal(replay_: GameReplay, index: int) -> int:
    if not replay_.deals:
        return index
    position = deal_of(replay_, index)
    if position + 1 < len(replay_.deals):
        return replay_.deals[position + 1].first_step
    return index


def previous_deal(replay_: GameReplay, index: int) -> int:
    if not replay_.deals:
        return index
    position = deal_of(replay_, index)
    return replay_.deals[max(0, position - 1)].first_step


def deal_start(replay_: GameReplay, index: int) -> int:
    if not replay_.deals:
        return 0
    return replay_.deals[deal_of(replay_, index)].first_step


def deal_end(replay_: GameReplay, index: int) -> int:
    if not replay_.deals:
        return clamp(replay_.steps, len(replay_.steps) - 1)
    return replay_.deals[deal_of(replay_, index)].last_step


def find_deal(replay_: GameReplay, number: int, trick: int | None = None) -> int | None:
    """The first step of deal ``number`` or, given ``trick``, the step that completes that
    trick (its last step); ``None`` when there is no such deal or trick."""
    for deal in replay_.deals:
        if deal.number != number:
            continue
        if trick is None:
            return deal.first_step
        matches = [i for i in range(deal.first_step, deal.last_step + 1)
                   if replay_.steps[i].trick == trick]
        return matches[-1] if matches else None
    return None


def step_at_line(replay_: GameReplay, number: int, line: int) -> int | None:
    """The first step of deal ``number`` written on ``line`` (a claim's first item, a
    total's deal end), or ``None``."""
    for deal in replay_.deals:
        if deal.number == number:
            for index in range(deal.first_step, deal.last_step + 1):
                span = replay_.steps[index].span
                if span is not None and span.line == line:
                    return index
    return None


def step_of_diagnostic(replay_: GameReplay, diagnostic: Diagnostic) -> int | None:
    """The step a diagnostic belongs to: the step that raised it, else the step of its deal
    and trick, else the last step written at or before its line."""
    raised = diagnostic.linked(None, None)  # as the step holds it: not yet linked
    for step in replay_.steps:
        if raised in step.diagnostics:
            return step.index
    if diagnostic.deal is not None:
        if diagnostic.trick is None and diagnostic.line is not None:
            written = step_at_line(replay_, diagnostic.deal, diagnostic.line)
            if written is not None:  # a claim, a total: its own step, not the deal's first
                return written
        found = find_deal(replay_, diagnostic.deal, diagnostic.trick)
        if found is None and diagnostic.trick is not None:
            found = find_deal(replay_, diagnostic.deal)
        if found is not None:
            return found
    if diagnostic.line is not None:
        before = [s.index for s in replay_.steps
                  if s.span is not None and s.span.line <= diagnostic.line]
        if before:
            return before[-1]
    return None


def parse_goto(text: str) -> tuple[int, int | None] | None:
    """Read what a person types in the go-to dialog: ``3`` (deal 3), ``3.2``, ``3 2``,
    ``deal 3 trick 2`` or ``d3 t2``.  ``None`` when it is not one of these."""
    words = text.lower().replace(".", " ").replace("deal", " ").replace("trick", " ")
    words = words.replace("d", " ").replace("t", " ").replace(",", " ")
    numbers = words.split()
    if not 1 <= len(numbers) <= 2 or not all(n.isdigit() for n in numbers):
        return None
    deal = int(numbers[0])
    trick = int(numbers[1]) if len(numbers) == 2 else None
    return deal, trick


def kibitz_cycle(seats: Sequence[Seat], current: Seat | None) -> Seat | None:
    """All hands shown → each seat's own view in turn → all hands again."""
    order: list[Seat | None] = [None, *seats]
    position = order.index(current) if current in order else 0
    return order[(position + 1) % len(order)]


def cards_played_before(steps: Sequence[Step], first: int, index: int) -> int:
    """How many cards of the deal starting at step ``first`` have been played by step
    ``index`` (that step's card included): the position the analysis panel shows."""
    return sum(1 for step in steps[first:index + 1] if step.kind is StepKind.PLAY)
