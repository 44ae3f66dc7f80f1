"""Records → canonical AFN text ("lax import, strict export").

Whatever the writer typed (lowercase, ``10h``, ``J♠``, no trick numbers, no seat
labels, statements crammed on one line), :func:`format_game` writes one
canonical, byte-stable form:

* tags in the parser's roster order, ``[Name "value"]`` with ``\\"`` and ``\\\\``;
* a blank line, then each deal (deals separated by one blank line): the header
  ``deal N dealer X``, then, indented two spaces, one statement per line: the
  opening (hands, turn-ups, calls, in written order), one trick per line with its
  number and a seat label on every card (``1. S:JS N:2D``), penalties, how the
  deal ended, the claim and the total;
* ``end`` closes every game (a missing ``end`` is supplied).

Comments stay beside the node they were written beside: a node's ``leading``
comments come just before it (each on a line of its own, except short brace
comments between two cards, which stay inline), its ``trailing`` ones after it
on the same line; a ``;`` comment always ends its line.  The layout is chosen so
that the parser attaches every comment to the same node again, which is what
makes ``parse(format_game(g))`` equal ``g`` (see :func:`canonical_records`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from ..checking.parsing import parse, parse_game_body
from ..diagnostics import Diagnostic
from ..frozen import frozen
from ..guard import BUG_TEXT, INTERNAL_ERROR
from ..reading.assembler import sorted_tags
from ..reading.parser import ParseResult, cyclic_gc_paused, read_games
from ..reading.records import (
    Abandoned,
    Award,
    Call,
    Claim,
    Comment,
    CommentStyle,
    Concede,
    Deal,
    Discard,
    Ending,
    Game,
    Hand,
    Node,
    OpeningEvent,
    Pack,
    Penalty,
    Play,
    Redeal,
    Results,
    Score,
    Total,
    Trick,
    TurnUp,
)
from ..referee.replay import fill_seats, seats_from_replay

if TYPE_CHECKING:
    from ..checking import CheckedGame
    from ..referee.state import GameReplay

VERSION_LINE = "% AFN 1"
INDENT = "  "
PACK_ROW = 13  # cards per line of a pack: four rows, one a suit's length



class FormatError(ValueError):
    """A record that cannot be written as AFN (a broken game has no deals to write)."""


def format_game(game: Game, *, as_recorded: bool = False) -> str:
    """One game in canonical AFN, ending with ``end`` and a newline.

    ``as_recorded`` keeps what the record leaves out out of the text: seat labels
    the writer did not give and trick numbers the writer did not write (how the
    generator writes lax input for tests and benchmarks).
    """
    if game.broken:
        raise FormatError(f"game {game.index} has syntax errors; it cannot be formatted")
    writer = _Writer(as_recorded=as_recorded)
    writer.game(game if as_recorded else with_seats(game))
    return writer.text()


def format_result(result: ParseResult) -> str:
    """A whole file: the version line, every game (one blank line apart), then
    the comments after the last game.

    A broken game (one a syntax error stopped) is copied as written, so that
    printing a file never loses text; callers that rewrite files refuse broken
    input before they get here.
    """
    games = [
        _verbatim(result.text, game) if game.broken else format_game(game) for game in result.games
    ]
    text = VERSION_LINE + "\n" + "\n".join(games)
    if result.trailing:
        writer = _Writer()
        writer.own_lines(result.trailing, "")
        text += "\n" + writer.text()
    return text


def with_seats(game: Game, replayed: GameReplay | None = None) -> Game:
    """The game with every play's seat filled in where the rules can tell it.

    The one place the formatter learns seats (from the rules replayer, which
    knows trumps and so who won each trick and leads the next).  Seats the writer
    gave are kept as written; a deal the rules cannot follow keeps its gaps.  A
    game whose every play has its seat is returned as it is, without replaying
    it: filling would keep every play as written, so the result is equal anyway.
    A replay of ``game`` already made (``replayed``) gives the seats where it lines
    up with the record (:func:`~..referee.replay.seats_from_replay`); the game is
    replayed again only where it does not.
    """
    if all(play.seat is not None for deal in game.deals for trick in deal.tricks
           for play in trick.plays):
        return game
    if replayed is not None and replayed.game is game:
        filled = seats_from_replay(replayed)
        if filled is not None:
            return filled
    return fill_seats(game)


def canonical_records(game: Game) -> Game:
    """What ``parse(format_game(game))`` must equal: the game with its seats filled
    and its ``end`` written (the formatter closes every game)."""
    return replace(with_seats(game), ended=True)


def escape_tag_value(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


# --- the safety check (black's: prove the output means the same before writing it) -------

# Diagnostics after which the records do not hold everything the text says: the
# formatter would move or drop what they point at.  (Errors about the cards
# themselves, such as a card dealt twice, leave the records whole.)
_LOSSY_CODES = {
    "AFN110": "a directive line other than '% AFN 1' would be dropped",
    "AFN112": "a clock time that is not a time of day would be dropped",
    "AFN206": "a statement out of place would be moved or dropped",
    "AFN213": "a claim word that belongs to no seat or item would be dropped",
}


@frozen
class Refusal:
    """Why a file must not be rewritten, and where."""

    reason: str
    diagnostic: Diagnostic | None = None

    def __str__(self) -> str:
        if self.diagnostic is None:
            return self.reason
        d = self.diagnostic
        return f"{d.where()}: {d.code} {d.message} ({self.reason})"


@frozen
class CheckedFormat:
    """Canonical text of a file, and every reason not to write it over the file."""

    text: str
    refusals: tuple[Refusal, ...]

    @property
    def safe(self) -> bool:
        return not self.refusals


# Diagnostics the canonical form repairs on purpose: their going away is the point of
# formatting, not a problem hidden.  Every other diagnostic must survive formatting.
REPAIRED_CODES = {
    "AFN104": "a missing 'end' is supplied",
    "AFN105": "the version line is written",
}
# Repaired only when the user asks for it (``fmt --renumber``).
RENUMBERED_CODES = {"AFN207": "tricks are renumbered 1, 2, 3 …"}


def format_checked(result: ParseResult, *, renumber: bool = False) -> CheckedFormat:
    """Format ``result`` and prove the text means the same: it reads back to the same
    records, tags and comments, and to the same diagnostics (parser and rules, by
    code, game, deal and trick) and the same computed scores.  Broken games,
    reading errors and lossy diagnostics are refusals.

    The formatter writes every trick's number as its place in the deal; a trick
    numbered otherwise (AFN207) is renumbered only when ``renumber`` is true,
    otherwise that is a refusal too: the written numbers stay until the user
    renumbers on purpose.

    Each game is refereed once on the old text, for its meaning and for the seats to
    fill in where a play has none (read off that replay; refereed again only where
    the replay does not line up with the record, see :func:`with_seats`).  The new
    text is read back in full where it differs from the old: see :func:`_read_back`
    for the games it need not parse or referee again, and why that proves as much.
    """
    with cyclic_gc_paused():  # records are acyclic; every game of both texts is alive
        return _format_checked(result, renumber=renumber)


def _format_checked(result: ParseResult, *, renumber: bool) -> CheckedFormat:
    refusals: list[Refusal] = []
    for diagnostic in result.diagnostics:
        if diagnostic.code in _LOSSY_CODES:
            refusals.append(Refusal(_LOSSY_CODES[diagnostic.code], diagnostic))
        elif diagnostic.code == INTERNAL_ERROR:
            refusals.append(Refusal(BUG_TEXT, diagnostic))
        elif diagnostic.is_error and diagnostic.code.startswith("AFN1"):
            refusals.append(Refusal("fix this first: the file cannot be read whole", diagnostic))
    for game in result.games:
        if game.broken and not any(
            r.diagnostic and r.diagnostic.game == game.index for r in refusals
        ):
            refusals.append(Refusal(f"game {game.index} has syntax errors"))
    repaired = [*REPAIRED_CODES, *(RENUMBERED_CODES if renumber else ())]
    readable = not any(game.broken for game in result.games)
    # One referee pass over the old text gives both its meaning and the seats to fill
    # in: a second pass for the seats was 12% of fmt's instructions on 1,000 deals
    # written without seat labels (issue 27).
    if readable:
        old_meanings, seated = _meaning_and_seats(result, repaired)
    else:  # nothing is read back: only the seats of the games that can be followed
        seated = tuple(game if game.broken else with_seats(game) for game in result.games)
    text = format_result(replace(result, games=seated))
    if readable:
        after, same = _read_back(result, text)
        refusals.extend(_differences(result, after, seated))
        if not refusals:
            refusals.extend(_hidden(old_meanings, after, same, repaired, renumber=renumber))
    return CheckedFormat(text, tuple(refusals))


def _read_back(before: ParseResult, text: str) -> tuple[ParseResult, tuple[bool, ...]]:
    """``parse(text)``, the formatted text, without parsing again the games whose
    text the formatter left as it was; and, per game, whether it was left so.

    What that proves: the new text is cut into games here, as ``parse`` cuts it.
    Where the new text holds the same number of games as the old, and a game's text
    is the old game's character for character (but for the white space before it,
    which the grammar skips), reading it gives the same records and the same
    parser diagnostics, only at other lines: reading a game is a function of its
    text and where it starts, and nothing else.  Checking it is a function of
    those records and diagnostics, so its meaning (diagnostics by code, deal and
    trick, and scores) is the old game's too: it is neither parsed nor refereed
    again, and the proof loses nothing.  A game whose text differs in any
    character, a formatter bug included, is parsed and checked from the new text
    as ``parse`` would.  (Equal records alone would not do: the parser's
    diagnostics come from the text, not the records.)
    """
    reader = read_games(text, filename=before.file)
    pieces = reader.slices
    if len(pieces) != len(before.games):
        return parse(text, filename=before.file), (False,) * len(pieces)
    games: list[Game] = []
    same: list[bool] = []
    for index, (piece, old) in enumerate(zip(pieces, before.games, strict=True), start=1):
        body = text[piece.start : piece.end]
        span = old.span
        kept = span is not None and body.lstrip() == before.text[span.start : span.end].lstrip()
        games.append(old if kept else
                     parse_game_body(body, piece, index=index, filename=before.file))
        same.append(kept)
    diagnostics = [*reader.diagnostics, *(d for g in games for d in g.diagnostics),
                   *reader.closing_diagnostics()]
    return ParseResult(games=tuple(games), diagnostics=tuple(diagnostics),
                       version=reader.version, trailing=reader.trailing, file=before.file,
                       text=reader.text), tuple(same)


_Meaning = tuple[Counter[tuple[str, int | None, int | None]], tuple[tuple[str, int], ...]]


def _file_meaning(result: ParseResult, skip: set[str]) -> _Meaning:
    """The file's own diagnostics (those at no game), by code."""
    return (Counter((d.code, None, None) for d in result.diagnostics
                    if d.game is None and d.code not in skip), ())


def _game_meaning(checked: CheckedGame, skip: set[str]) -> _Meaning:
    """A checked game's diagnostics (code, deal, trick; not the line, which formatting
    moves) and its computed scores."""
    found = Counter((d.code, d.deal, d.trick) for d in checked.diagnostics
                    if d.code not in skip)
    return found, checked.replay.scores if checked.replay is not None else ()


def _checked(games: Sequence[Game]) -> list[CheckedGame]:
    from ..checking import check_games

    return check_games(games, empty=True, first_id=None)  # the one door, run-wise


def _meaning_and_seats(result: ParseResult, repaired: Iterable[str]
                       ) -> tuple[list[_Meaning], tuple[Game, ...]]:
    """Per game of the old text its meaning (the file's own first), and the game with
    its seats filled (see :func:`with_seats`), from one check of each game: the seats
    are read off the check's replay where it lines up with the record
    (:func:`~..referee.replay.seats_from_replay`), and filled by the referee otherwise."""
    skip = set(repaired)
    meanings = [_file_meaning(result, skip)]
    seated: list[Game] = []
    for game, checked in zip(result.games, _checked(result.games), strict=True):
        meanings.append(_game_meaning(checked, skip))
        seated.append(with_seats(game, checked.replay))
    return meanings, tuple(seated)


def _meaning(result: ParseResult, repaired: Iterable[str],
             known: Sequence[_Meaning | None]) -> list[_Meaning]:
    """Per game: its meaning (the file's own first); a game whose meaning is ``known``
    (not None) is not checked again."""
    skip = set(repaired)
    asked = [game for game, meaning in zip(result.games, known, strict=True) if meaning is None]
    checked = iter(_checked(asked))
    meanings = [_file_meaning(result, skip)]
    for meaning in known:
        meanings.append(meaning if meaning is not None else _game_meaning(next(checked), skip))
    return meanings


def _hidden(old_meanings: Sequence[_Meaning], after: ParseResult, same: Sequence[bool],
            repaired: Iterable[str], *, renumber: bool) -> list[Refusal]:
    """Diagnostics the formatted text would lose or gain, and scores it would change
    (a game whose text ``same`` says is unchanged means what it meant)."""
    found: list[Refusal] = []
    new_meanings = _meaning(after, repaired, [
        old if kept else None for old, kept in zip(old_meanings[1:], same, strict=True)])
    for number, (old, new) in enumerate(zip(old_meanings, new_meanings, strict=False)):
        where = f"game {number}" if number else "the file"
        lost, gained = old[0] - new[0], new[0] - old[0]
        for code, deal, trick in sorted(lost, key=str):
            hint = ("; run 'allfours fmt --renumber' to renumber the tricks on purpose"
                    if code in RENUMBERED_CODES else "")
            found.append(Refusal(f"formatting would hide {code} in {where}"
                                 f"{_at(deal, trick)}{hint}"))
        for code, deal, trick in sorted(gained, key=str):
            found.append(Refusal(f"formatting would add {code} in {where}{_at(deal, trick)}"))
        if old[1] != new[1]:
            found.append(Refusal(f"formatting would change the computed score of {where}: "
                                 f"{_scores(old[1])} before, {_scores(new[1])} after"))
    return found


def _at(deal: int | None, trick: int | None) -> str:
    return (f", deal {deal}" if deal is not None else "") + (
        f", trick {trick}" if trick is not None else "")


def _scores(scores: tuple[tuple[str, int], ...]) -> str:
    return " ".join(f"{side} {value}" for side, value in scores) or "none"


def _differences(before: ParseResult, after: ParseResult,
                 seated: Sequence[Game]) -> list[Refusal]:
    """What the formatted text would change (nothing, unless the formatter has a bug):
    each game must read back to ``canonical_records`` of the old one, which is the
    old game with its seats filled (``seated``, filled once) and its ``end`` written."""
    found: list[Refusal] = []
    if len(before.games) != len(after.games):
        found.append(
            Refusal(f"the formatted text holds {len(after.games)} games, not {len(before.games)}")
        )
    for old, filled, new in zip(before.games, seated, after.games, strict=False):
        if (filled if filled.ended else replace(filled, ended=True)) != new:
            found.append(
                Refusal(
                    f"formatting would change game {old.index}; this is a bug "
                    "in the formatter, please report it"
                )
            )
    if before.trailing != after.trailing:
        found.append(Refusal("formatting would change the comments after the last game"))
    return found


def _verbatim(text: str, game: Game) -> str:
    if game.span is None:  # pragma: no cover - the parser always sets it
        raise FormatError(f"game {game.index} is broken and its text is unknown")
    return text[game.span.start : game.span.end].strip() + "\n"


# --- the writer ---------------------------------------------------------------------------


class _Writer:
    """Builds the text line by line; knows where comments may go."""

    def __init__(self, *, as_recorded: bool = False) -> None:
        self.lines: list[str] = []
        self.current: str | None = None  # the line being written, if any
        self.as_recorded = as_recorded

    def text(self) -> str:
        self.end_line()
        return "".join(line + "\n" for line in self.lines)

    # -- low level --

    def start_line(self, indent: str) -> None:
        self.end_line()
        self.current = indent

    def put(self, words: str) -> None:
        """Append to the current line, one space after what is there."""
        assert self.current is not None
        if self.current.strip():
            self.current += " "
        self.current += words

    def end_line(self) -> None:
        # A line with nothing on it is dropped (blank lines come from blank_line);
        # a line is never stripped: a ";" comment's trailing spaces are its text.
        if self.current is not None and self.current.strip():
            self.lines.append(self.current)
        self.current = None

    def blank_line(self) -> None:
        self.end_line()
        self.lines.append("")

    # -- comments --

    def leading(self, comments: tuple[Comment, ...], indent: str, *, inline: bool) -> None:
        """Comments before a node.  Inline (brace comments on one line, between two
        cards) they stay on the node's line; otherwise each gets a line of its own
        and the node starts a fresh line after them."""
        if inline:
            for comment in comments:
                self.put(str(comment))
            return
        for comment in comments:
            self.start_line(indent)
            self.put(str(comment))
        if comments:
            self.start_line(indent)

    def trailing(self, comments: Iterable[Comment]) -> bool:
        """Comments after a node on its line; true if the line must end here."""
        must_end = False
        for comment in comments:
            self.put(str(comment))
            must_end = True
        return must_end

    def own_lines(self, comments: Iterable[Comment], indent: str) -> None:
        """Each comment on a line of its own (the game's, or the file's, last ones)."""
        for comment in comments:
            self.start_line(indent)
            self.put(str(comment))
        self.end_line()

    def node(self, node: Node, words: str, indent: str) -> None:
        """A statement on a line of its own, with its comments."""
        self.start_line(indent)
        self.leading(node.leading, indent, inline=False)
        self.put(words)
        self.trailing(node.trailing)
        self.end_line()

    # -- records --

    def game(self, game: Game) -> None:
        tags = sorted_tags(game.tags)
        for tag in tags:
            self.node(tag, f'[{tag.name} "{escape_tag_value(tag.value)}"]', "")
        for number, deal in enumerate(game.deals):
            if number or tags:
                self.blank_line()
            self.deal(deal)
        self.own_lines(game.trailing, "")
        self.start_line("")
        self.put("end")
        self.end_line()

    def deal(self, deal: Deal) -> None:
        self.node(deal, deal_header_text(deal), "")
        for event in deal.opening:
            self.node(event, opening_text(event), INDENT)
        played = before = 0
        if deal.penalties and deal.tricks:
            self.penalties(deal, 0, 0)  # declared before the first card
        for position, trick in enumerate(deal.tricks, start=1):
            self.trick(trick)
            before, played = played, played + len(trick.plays)
            if deal.penalties and position < len(deal.tricks):
                self.penalties(deal, before + 1, played)
        if deal.penalties:  # after the last trick: the rest (declared there, or anywhere)
            self.penalties(deal, before + 1 if deal.tricks else 0, None)
        if deal.ending is not None:
            self.node(deal.ending, ending_text(deal.ending), INDENT)
        if deal.results is not None:
            self.node(deal.results, results_text(deal.results, deal), INDENT)
        if deal.count is not None:
            self.node(deal.count, "count " + scores_text(deal.count.scores), INDENT)
        if deal.claim is not None:
            self.node(deal.claim, claim_text(deal.claim, deal), INDENT)
        if deal.total is not None:
            self.node(deal.total, total_text(deal.total), INDENT)

    def penalties(self, deal: Deal, low: int, high: int | None) -> None:
        """The penalties declared after card ``low`` … ``high`` of the deal (None: every
        one left, those placed nowhere else): each where it was called, among the
        tricks (NOTATION.md §4.5), after the trick that holds its card."""
        for penalty in deal.penalties:
            at = penalty.after_plays
            if high is None:
                if at is None or at >= low:
                    self.node(penalty, penalty_text(penalty), INDENT)
            elif at is not None and low <= at <= high:
                self.node(penalty, penalty_text(penalty), INDENT)

    def trick(self, trick: Trick) -> None:
        """``1. S:JS N:2D`` on one line.  A short brace comment stands inline before
        its card; any other comment, or one after a card, ends the line and the
        trick goes on in the next, aligned under its first card."""
        number = f"{trick.number}."
        continuation = INDENT + " " * (len(number) + 1)
        if self.as_recorded and not trick.numbered:
            number, continuation = "", INDENT
        self.start_line(INDENT)
        for place, play in enumerate(trick.plays):
            inline = _fits_inline(play.leading)
            if place and not inline:
                self.end_line()  # else a comment would trail the card before
            if self.current is None:
                self.start_line(continuation)
            self.leading(play.leading, continuation if place else INDENT, inline=inline)
            first = place == 0 and number
            self.put(number + " " + play_text(play) if first else play_text(play))
            if self.trailing(play.trailing):
                self.end_line()
        self.end_line()


def _fits_inline(comments: tuple[Comment, ...]) -> bool:
    """Whether comments can stand between two cards on one line and still lead the
    second: the parser gives a comment to the card after it only when that card
    starts on the line where the comment ends."""
    return all(c.style is CommentStyle.BRACE and "\n" not in c.text for c in comments)


# --- statements as text -------------------------------------------------------------------


def opening_text(event: OpeningEvent) -> str:
    if isinstance(event, Hand):
        cards = " ".join("??" if card is None else str(card) for card in event.cards)
        return f"{event.seat.letter} {cards}"
    if isinstance(event, TurnUp):
        return f"turn {event.card}"
    if isinstance(event, Discard):
        cards = " ".join("??" if card is None else str(card) for card in event.cards)
        return f"{event.seat.letter} discards {cards}"
    if isinstance(event, Pack):
        words = ["??" if card is None else str(card) for card in event.cards]
        rows = [" ".join(words[i:i + PACK_ROW]) for i in range(0, len(words), PACK_ROW)]
        return "pack " + ("\n" + INDENT + " " * 5).join(rows)
    assert isinstance(event, Call)
    return f"{event.seat.letter} {event.kind.value}"


def play_text(play: Play) -> str:
    seat = f"{play.seat.letter}:" if play.seat is not None else ""
    glyph = play.glyph.value if play.glyph is not None else ""
    return f"{seat}{play.card}{glyph}"


def penalty_text(penalty: Penalty) -> str:
    return f"penalty {penalty.offender.letter} {penalty.kind.value}"


def ending_text(ending: Ending) -> str:
    if isinstance(ending, Redeal):
        return f"redeal {ending.reason.value}"
    if isinstance(ending, Abandoned):
        return "abandoned"
    assert isinstance(ending, Concede)
    return f"{ending.seat.letter} concedes"


def claim_text(claim: Claim, deal: Deal) -> str:
    """``claim S high low jack game N kick 3``: awards grouped by seat, seats in the
    order they first appear.  A claim of nothing names the dealer alone."""
    return awards_text("claim", claim.awards, deal)


def results_text(results: Results, deal: Deal) -> str:
    """``scored N kick 3 W high low``: a results-only deal's items, written like a claim."""
    return awards_text("director scored" if results.director else "scored", results.awards,
                       deal)


def awards_text(word: str, awards_written: tuple[Award, ...], deal: Deal) -> str:
    if not awards_written:
        return f"{word} {deal.dealer.letter}"
    by_seat: dict[str, list[Award]] = {}
    for award in awards_written:
        by_seat.setdefault(award.seat.letter, []).append(award)
    words = [word]
    for seat, awards in by_seat.items():
        words.append(seat)
        for award in awards:
            words.append(award.item.value)
            if award.points is not None:
                words.append(str(award.points))
    return " ".join(words)


def total_text(total: Total) -> str:
    return "total " + scores_text(total.scores)


def scores_text(scores: Iterable[Score]) -> str:
    """``N 0 S 4``: the pairs of a total or a count for Game."""
    return " ".join(f"{score.seat.letter} {score.points}" for score in scores)


def deal_header_text(deal: Deal) -> str:
    """``deal 3 dealer N``, and the clock time where the record gives one (``at 20:41``)."""
    clock = f" at {deal.time}" if deal.time is not None else ""
    return f"deal {deal.number} dealer {deal.dealer.letter}{clock}"


__all__ = [
    "VERSION_LINE",
    "CheckedFormat",
    "FormatError",
    "Refusal",
    "canonical_records",
    "escape_tag_value",
    "format_checked",
    "format_game",
    "format_result",
    "sorted_tags",
    "with_seats",
]
