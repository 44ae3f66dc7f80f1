"""What the language server answers, computed from a :class:`DocumentAnalysis`.

Each function takes the analysis and a position in the document's own units
(0-based line, 0-based *character* column; :mod:`.server` converts the client's
UTF-16 columns) and returns lsprotocol values whose ranges are already in the
client's units.  Hover and completion read the game's replay (the table after
every event); symbols, folding and code actions read the records' spans.
"""

from __future__ import annotations

import re

from lsprotocol import types

from ..cards import CARD_PATTERN, Card, Seat, parse_card
from ..checking.causes import follow_text, roots_first
from ..checking.parsing import parse
from ..diagnostics import Diagnostic, Severity
from ..frozen import frozen
from ..reading import words as afn_words
from ..reading.parser import ParseResult
from ..reading.records import Award, Claim, ClaimItem, Deal, Game, Span
from ..reading.slicer import GameSlice
from ..reading.table import side_of
from ..referee.state import DealResult, GameReplay, Step, StepKind
from ..writing.formatter import VERSION_LINE, claim_text, format_checked
from .document import DocumentAnalysis, LineIndex, PlacedGame

SOURCE = "allfours"
_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    # a dispute is no error of the record: shown as something to look at
    Severity.DISPUTE: types.DiagnosticSeverity.Warning,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
_WORD = re.compile(r"[^\s{};]+")
_PLAY_WORD = re.compile(
    rf"^(?:({afn_words.SEAT_PATTERN}):)?({CARD_PATTERN})(?:{afn_words.GLYPH_PATTERN})?$")
_TRICK_WORD = re.compile(r"^([0-9]{1,9})\.")  # no longer: past the limit of digits
_ITEMS = {item.value: item for item in ClaimItem}
ITEM_NAMES = {
    ClaimItem.KICK: "Kick", ClaimItem.GIFT: "Gift", ClaimItem.HIGH: "High",
    ClaimItem.LOW: "Low", ClaimItem.JACK: "Jack", ClaimItem.HANG_JACK: "Hang Jack",
    ClaimItem.GAME: "Game", ClaimItem.PENALTY: "Penalty",
}


# --- ranges and diagnostics ---------------------------------------------------------------


def client_range(lines: LineIndex, line: int, column: int, end_line: int,
                 end_column: int) -> types.Range:
    """A range from 0-based document (line, character column) pairs."""
    start = lines.to_client(line, column)
    end = lines.to_client(end_line, end_column)
    return types.Range(types.Position(*start), types.Position(*end))


def span_range(lines: LineIndex, span: Span, shift: int) -> types.Range:
    """The client range of a game-relative ``span`` (``shift`` lines down)."""
    return client_range(lines, span.line - 1 + shift, span.column - 1,
                        span.end_line - 1 + shift, span.end_column - 1)


def offset_range(lines: LineIndex, start: int, end: int) -> types.Range:
    return client_range(lines, *lines.position(start), *lines.position(end))


def to_lsp(diagnostic: Diagnostic, lines: LineIndex) -> types.Diagnostic:
    """A diagnostic at the range ``check``'s caret underlines (one character when
    the finding has no end column), with the hint after the message."""
    line = (diagnostic.line or 1) - 1
    column = (diagnostic.column or 1) - 1
    end = diagnostic.end_column - 1 if diagnostic.end_column else column + 1
    message = diagnostic.message
    if diagnostic.hint:
        message += f"\nhint: {diagnostic.hint}"
    context = diagnostic.context()
    return types.Diagnostic(
        range=client_range(lines, line, column, line, max(end, column)),
        message=message,
        severity=_SEVERITY[diagnostic.severity],
        code=diagnostic.code,
        source=SOURCE + (f" [{context}]" if context else ""),
    )


def published(analysis: DocumentAnalysis, uri: str) -> list[types.Diagnostic]:
    """Every finding, grouped as ``allfours check`` groups them.

    ``check`` prints each root and folds the findings that follow from it into
    "and 6 errors that follow from it".  Here the root keeps its severity, says
    the same under its message and lists the consequences as related
    information; each consequence is published as a hint (shown faintly, left
    out of problem lists) whose related information points at its root.
    """
    lines = analysis.lines
    found = [to_lsp(d, lines) for d in analysis.file_diagnostics]
    for placed in analysis.games:
        for group in roots_first(placed.document_diagnostics()):
            root = to_lsp(group.root, lines)
            if not group.consequences:
                found.append(root)
                continue
            root.message += "\n" + follow_text(group)
            root.related_information = [
                types.DiagnosticRelatedInformation(
                    types.Location(uri, to_lsp(c, lines).range), f"{c.code} {c.message}"
                )
                for c in group.consequences
            ]
            found.append(root)
            for consequence in group.consequences:
                follower = to_lsp(consequence, lines)
                follower.severity = types.DiagnosticSeverity.Hint
                follower.related_information = [
                    types.DiagnosticRelatedInformation(
                        types.Location(uri, root.range),
                        f"follows from {group.root.code}: {group.root.message}",
                    )
                ]
                found.append(follower)
    return found


# --- where the cursor is --------------------------------------------------------------------


@frozen
class Spot:
    """The cursor's game, deal (if any) and word, in the game's own coordinates."""

    placed: PlacedGame
    line: int  # 0-based document line
    line_text: str
    word: str
    word_start: int  # character columns of the word on its line
    word_end: int
    deal_position: int | None  # index into game.deals

    @property
    def game(self) -> Game:
        return self.placed.game

    @property
    def deal(self) -> Deal | None:
        return None if self.deal_position is None else self.game.deals[self.deal_position]

    def first_word(self) -> str:
        words = self.line_text.split()
        return words[0].lower() if words else ""


def spot_at(analysis: DocumentAnalysis, line: int, column: int) -> Spot | None:
    placed = analysis.game_at(analysis.lines.offset(line, column))
    if placed is None:
        return None
    text = analysis.lines.line_text(line)
    word, start, end = "", column, column
    for match in _WORD.finditer(text):
        if match.start() <= column <= match.end():
            word, start, end = match.group(), match.start(), match.end()
            break
    relative = analysis.lines.offset(line, column) - placed.piece.start
    deal_position = None
    for position, deal in enumerate(placed.game.deals):
        if deal.span is not None and deal.span.start <= relative:
            deal_position = position
    return Spot(placed, line, text, word, start, end, deal_position)


def deal_result(spot: Spot) -> DealResult | None:
    replayed = spot.placed.analysis.replay()
    if not isinstance(replayed, GameReplay) or spot.deal_position is None:
        return None
    deal = spot.game.deals[spot.deal_position]
    for result in replayed.deals:
        if result.number == deal.number and result.dealer in (None, deal.dealer):
            return result
    return None


# --- hover ----------------------------------------------------------------------------------


def hover(analysis: DocumentAnalysis, line: int, column: int) -> types.Hover | None:
    spot = spot_at(analysis, line, column)
    if spot is None or not spot.word or spot.deal is None:
        return None
    result = deal_result(spot)
    if result is None:
        return None
    text = _hover_text(spot, result)
    if text is None:
        return None
    where = client_range(analysis.lines, line, spot.word_start, line, spot.word_end)
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=text), range=where
    )


def _hover_text(spot: Spot, result: DealResult) -> str | None:
    first = spot.first_word()
    word = spot.word.lower()
    if first in ("deal", "count"):  # the header, or the count for Game beside the points
        return deal_hover(spot, result)
    if first == "claim" and word in _ITEMS:
        return claim_item_hover(spot, result, _ITEMS[word])
    trick = _TRICK_WORD.match(spot.word)
    if trick and spot.word.endswith("."):
        return trick_hover(spot, result, int(trick.group(1)))
    play = _PLAY_WORD.match(spot.word)
    if play:
        found = parse_card(play.group(2))
        return card_hover(result, found) if found else None
    return None


def card_hover(result: DealResult, card: Card) -> str:
    """Who held the card, when it was played and who won its trick."""
    lines = [f"**{card}**" + (" (trump)" if card.suit is result.trump else "")]
    holder = next((seat for seat, held in result.held if card in held), None)
    lines.append(f"held by {holder.letter}" if holder else "holder not known")
    for number, winner, plays in result.tricks:
        for seat, played in plays:
            if played is card:
                lines.append(f"played by {seat.letter} in trick {number}")
                lines.append(f"trick {number} won by {winner.letter}")
                return "  \n".join(lines)
    if card in result.turnups:
        lines.append("turned up")
    else:
        lines.append("not played")
    return "  \n".join(lines)


def _deal_steps(spot: Spot, result: DealResult) -> tuple[Step, ...]:
    replayed = spot.placed.analysis.replay()
    assert isinstance(replayed, GameReplay)
    return replayed.steps[result.first_step : result.last_step + 1]


def trick_hover(spot: Spot, result: DealResult, number: int) -> str | None:
    """The state after the trick: who won it, tricks and pips per side."""
    for step in _deal_steps(spot, result):
        if step.kind is StepKind.TRICK_END and step.trick == number:
            state = step.state
            return "  \n".join(
                [
                    f"**trick {number}**: {step.text}",
                    "tricks won: " + _per_side(state.won),
                    "pips toward Game: " + _per_side(state.pips),
                ]
            )
    return None


def deal_hover(spot: Spot, result: DealResult) -> str:
    """The deal's points with the reason for each, and the running score."""
    dealer = result.dealer.letter if result.dealer else "?"
    head = f"**deal {result.number}**, dealer {dealer}"
    if result.trump is not None:
        head += f", trumps {result.trump.name.lower()}"
    if result.time is not None:
        head += f", began at {result.time}"
    lines = [head]
    if result.pips and any(pips for _, pips in result.pips):
        lines.append("count for Game: " + ", ".join(f"{side} {pips}"
                                                    for side, pips in result.pips))
    if result.ending:
        lines.append(f"ended: {result.ending}")
    if result.after_decision:
        lines.append("played after the game was decided: not scored")
    if result.open:
        lines.append("*still being played*: only what is decided is counted")
    for point in result.points:
        lines.append(
            f"- {point.side} {ITEM_NAMES[point.item]} {point.points}: {point.reason}"
        )
    for point in result.provisional:  # would score if the deal ended now: counted nowhere
        word = "decided, counted when the deal ends" if point in result.waiting else \
            "provisional, if the deal ended now"
        lines.append(
            f"- *{word}*: {point.side} {ITEM_NAMES[point.item]} ({point.points}): "
            f"{point.reason}"
        )
    if not result.points and not result.provisional:
        lines.append("no points")
    lines.append("score after the deal: " + _per_side(result.scores_after))
    return "  \n".join(lines[:1]) + "\n\n" + "\n".join(lines[1:])


def claim_item_hover(spot: Spot, result: DealResult, item: ClaimItem) -> str:
    """Computed against claimed, for the item under the cursor."""
    claimed_by = _claimant(spot)
    computed = [p for p in result.points if p.item is item and p.points]
    name = ITEM_NAMES[item]
    lines = [f"**{name}** claimed by {claimed_by or '?'}"]
    if not computed:
        lines.append(f"computed: nobody scores {name} in this deal")
    for point in computed:
        lines.append(f"computed: {point.side} {point.points} ({point.reason})")
    agreed = any(
        claimed_by is not None and point.side == side_of(Seat.from_letter(claimed_by),
                                                         spot.game.seats)
        for point in computed
    )
    lines.append("the claim agrees" if agreed else "**the claim disagrees**")
    return "  \n".join(lines)


def _claimant(spot: Spot) -> str | None:
    """The seat written before the item under the cursor in its claim line."""
    seat = None
    for match in _WORD.finditer(spot.line_text):
        if match.start() >= spot.word_start:
            break
        if match.group().upper() in ("N", "E", "S", "W"):
            seat = match.group().upper()
    return seat


def _per_side(values: tuple[tuple[str, int], ...]) -> str:
    return ", ".join(f"{side} {value}" for side, value in values) or "none"


# --- symbols and folding --------------------------------------------------------------------


def symbols(analysis: DocumentAnalysis) -> list[types.DocumentSymbol]:
    """Games → deals → tricks, for the editor's outline."""
    lines = analysis.lines
    found = []
    for placed in analysis.games:
        start, end = content_bounds(analysis.text, placed.piece)
        game_range = offset_range(lines, start, end)
        game = placed.game
        name = game.tag("Event") or f"game {placed.index}"
        deals = [
            _deal_symbol(placed, position, lines, game_range)
            for position in range(len(game.deals))
        ]
        found.append(
            types.DocumentSymbol(
                name=name, kind=types.SymbolKind.Module, range=game_range,
                selection_range=types.Range(game_range.start, game_range.start),
                detail=" ".join(filter(None, (game.tag("Date"), game.tag("Rules")))),
                children=[d for d in deals if d is not None],
            )
        )
    return found


def _deal_symbol(placed: PlacedGame, position: int, lines: LineIndex,
                 game_range: types.Range) -> types.DocumentSymbol | None:
    deal = placed.game.deals[position]
    if deal.span is None:
        return None
    shift = placed.line_shift
    head = span_range(lines, deal.span, shift)
    last = _deal_last_line(placed, position, lines, game_range)
    whole = types.Range(head.start, types.Position(last, len(lines.line_text(last))))
    whole = types.Range(whole.start, _min_position(whole.end, game_range.end))
    tricks = [
        types.DocumentSymbol(
            name=f"trick {trick.number}", kind=types.SymbolKind.Event,
            range=span_range(lines, trick.span, shift),
            selection_range=span_range(lines, trick.span, shift),
            detail=" ".join(str(p.card) for p in trick.plays),
        )
        for trick in deal.tricks
        if trick.span is not None
    ]
    return types.DocumentSymbol(
        name=f"deal {deal.number}", kind=types.SymbolKind.Namespace, range=whole,
        selection_range=head, children=tricks,
        detail=f"dealer {deal.dealer.letter}" + (f" at {deal.time}" if deal.time else ""),
    )


def _min_position(a: types.Position, b: types.Position) -> types.Position:
    return a if (a.line, a.character) <= (b.line, b.character) else b


def _deal_last_line(placed: PlacedGame, position: int, lines: LineIndex,
                    game_range: types.Range) -> int:
    """The deal's last line with text: before the next deal, or the game's end."""
    deals = placed.game.deals
    next_span = deals[position + 1].span if position + 1 < len(deals) else None
    limit = next_span.line - 2 + placed.line_shift if next_span else game_range.end.line
    while limit > 0 and not lines.line_text(limit).strip():
        limit -= 1
    return limit


def folding(analysis: DocumentAnalysis) -> list[types.FoldingRange]:
    """One fold per game and one per deal."""
    found = []
    for symbol in symbols(analysis):
        found.append(_fold(symbol.range))
        found.extend(_fold(child.range) for child in symbol.children or ())
    return [fold for fold in found if fold.end_line > fold.start_line]


def _fold(where: types.Range) -> types.FoldingRange:
    return types.FoldingRange(start_line=where.start.line, end_line=where.end.line,
                              kind=types.FoldingRangeKind.Region)


def content_bounds(text: str, piece: GameSlice) -> tuple[int, int]:
    """The game's text without the white space around it and the directive lines
    ('% AFN 1') at its top, which belong to the file, not to the game."""
    start, end = piece.start, piece.end
    while start < end:
        while start < end and text[start].isspace():
            start += 1
        if start < end and text[start] == "%":
            newline = text.find("\n", start, end)
            start = end if newline < 0 else newline + 1
            continue
        break
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# --- formatting -----------------------------------------------------------------------------


@frozen
class Formatted:
    """New text for a stretch of the document, or why there is none."""

    edits: tuple[types.TextEdit, ...]
    refusals: tuple[str, ...]


def format_document(analysis: DocumentAnalysis) -> Formatted:
    """``allfours fmt`` on the whole buffer, under its safety rule."""
    if analysis.refused is not None:
        return Formatted((), (analysis.refused,))
    checked = format_checked(parse(analysis.text))
    if not checked.safe:
        return Formatted((), tuple(str(r) for r in checked.refusals))
    if checked.text == analysis.text:
        return Formatted((), ())
    whole = offset_range(analysis.lines, 0, len(analysis.text))
    return Formatted((types.TextEdit(range=whole, new_text=checked.text),), ())


def format_games(analysis: DocumentAnalysis, first_line: int, last_line: int) -> Formatted:
    """Format each game the line range touches, each under the safety rule."""
    edits: list[types.TextEdit] = []
    refusals: list[str] = []
    start = analysis.lines.offset(first_line, 0)
    end = analysis.lines.offset(last_line, len(analysis.lines.line_text(last_line)))
    for placed in analysis.games:
        if placed.piece.end < start or placed.piece.start > end:
            continue
        edit, refusal = format_one(analysis, placed)
        if edit is not None:
            edits.append(edit)
        refusals.extend(refusal)
    return Formatted(tuple(edits), tuple(refusals))


def format_one(analysis: DocumentAnalysis,
               placed: PlacedGame) -> tuple[types.TextEdit | None, list[str]]:
    game = placed.game
    body = placed.analysis.body
    result = ParseResult(games=(game,), diagnostics=game.diagnostics, text=body)
    checked = format_checked(result)
    name = f"game {placed.index}"
    if not checked.safe:
        return None, [f"{name}: {refusal.reason}" for refusal in checked.refusals]
    new = checked.text.removeprefix(VERSION_LINE + "\n").rstrip("\n")
    start, end = content_bounds(analysis.text, placed.piece)
    if analysis.text[start:end] == new:
        return None, []
    return types.TextEdit(range=offset_range(analysis.lines, start, end), new_text=new), []


# --- code actions ---------------------------------------------------------------------------


def code_actions(analysis: DocumentAnalysis, uri: str, first_line: int,
                 last_line: int) -> list[types.CodeAction]:
    """A quick fix for every finding in the lines that says what the text should be."""
    actions = []
    for diagnostic in analysis.diagnostics():
        line = (diagnostic.line or 1) - 1
        if not first_line <= line <= last_line:
            continue
        fix = quick_fix(analysis, diagnostic)
        if fix is None:
            continue
        title, edit = fix
        actions.append(
            types.CodeAction(
                title=title, kind=types.CodeActionKind.QuickFix,
                diagnostics=[to_lsp(diagnostic, analysis.lines)],
                edit=types.WorkspaceEdit(changes={uri: [edit]}),
            )
        )
    return actions


def quick_fix(analysis: DocumentAnalysis,
              diagnostic: Diagnostic) -> tuple[str, types.TextEdit] | None:
    lines = analysis.lines
    if diagnostic.code == "AFN105":
        start = types.Position(0, 0)
        return ("Add the version line '% AFN 1'",
                types.TextEdit(range=types.Range(start, start), new_text=VERSION_LINE + "\n"))
    if diagnostic.fix is not None:
        title = "Delete this card" if diagnostic.fix == "" else f"Write {diagnostic.fix}"
        return title, types.TextEdit(range=to_lsp(diagnostic, lines).range,
                                     new_text=diagnostic.fix)
    if diagnostic.code == "AFN224":
        return _swap_fix(analysis, diagnostic)
    placed = _game_of(analysis, diagnostic)
    if placed is None:
        return None
    if diagnostic.code == "AFN104":
        _, end = content_bounds(analysis.text, placed.piece)
        at = offset_range(lines, end, end)
        return "Close the game with 'end'", types.TextEdit(range=at, new_text="\nend")
    if diagnostic.code in ("AFN401", "AFN402"):
        return _score_fix(placed, diagnostic, lines)
    return None


def _swap_fix(analysis: DocumentAnalysis,
              diagnostic: Diagnostic) -> tuple[str, types.TextEdit] | None:
    """Two plays written in the wrong order, when the range holds just those two words
    (each kept as the writer spelled it; anything else between them is left to the hint)."""
    if diagnostic.line is None or diagnostic.column is None or diagnostic.end_column is None:
        return None
    line = diagnostic.line - 1
    start = analysis.lines.offset(line, diagnostic.column - 1)
    end = analysis.lines.offset(line, diagnostic.end_column - 1)
    words = analysis.text[start:end].split()
    if len(words) != 2:
        return None
    first, second = words
    gap = analysis.text[start + len(first):end - len(second)]
    return (f"Swap {first} and {second}",
            types.TextEdit(range=to_lsp(diagnostic, analysis.lines).range,
                           new_text=second + gap + first))


def _game_of(analysis: DocumentAnalysis, diagnostic: Diagnostic) -> PlacedGame | None:
    if diagnostic.game is None or not 0 < diagnostic.game <= len(analysis.games):
        return None
    return analysis.games[diagnostic.game - 1]


def _score_fix(placed: PlacedGame, diagnostic: Diagnostic,
               lines: LineIndex) -> tuple[str, types.TextEdit] | None:
    """The claim or the total written as the referee computed them."""
    replayed = placed.analysis.replay()
    if not isinstance(replayed, GameReplay):
        return None
    relative_line = (diagnostic.line or 0) - placed.line_shift
    for deal, result in zip(placed.game.deals, replayed.deals, strict=False):
        if diagnostic.code == "AFN401" and deal.claim and deal.claim.span \
                and deal.claim.span.line == relative_line:
            text = computed_claim(deal, result, placed.game.seats)
            edit = types.TextEdit(range=span_range(lines, deal.claim.span, placed.line_shift),
                                  new_text=text)
            return f"Write the computed claim: {text}", edit
        if diagnostic.code == "AFN402" and deal.total and deal.total.span \
                and deal.total.span.line == relative_line:
            text = computed_total(deal, result, placed.game.seats)
            edit = types.TextEdit(range=span_range(lines, deal.total.span, placed.line_shift),
                                  new_text=text)
            return f"Write the computed total: {text}", edit
    return None


def computed_claim(deal: Deal, result: DealResult, seats: tuple[Seat, ...]) -> str:
    awards = []
    for point in result.points:
        owner = point.seat or _seat_of(point.side, seats)
        if point.points and owner is not None:
            awards.append(Award(owner, point.item))
    return claim_text(Claim(awards=tuple(awards)), deal)


def computed_total(deal: Deal, result: DealResult, seats: tuple[Seat, ...]) -> str:
    """The running totals, one per side, written with the seats the writer used."""
    scores = dict(result.scores_after)
    written = [s.seat for s in deal.total.scores] if deal.total else []
    chosen: dict[str, Seat] = {}
    for seat in [*written, *seats]:
        chosen.setdefault(side_of(seat, seats), seat)
    words = ["total"]
    for side, value in scores.items():
        writer = chosen.get(side)
        if writer is not None:
            words += [writer.letter, str(value)]
    return " ".join(words)


def _seat_of(side: str, seats: tuple[Seat, ...]) -> Seat | None:
    return next((seat for seat in seats if side_of(seat, seats) == side), None)

