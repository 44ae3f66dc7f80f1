"""One game's tokens → its records: the record assembler.

:func:`.game_parser.game_parser` gives a game's coarse tokens (a hand, a run of plays,
a claim: one token each, see ``grammar/allfours.lark``); :class:`_GameAssembler` splits
them, attaches comments to the records they stand beside, groups plays into tricks and
keeps each deal's statements in the order written.  It reports only what reading finds
wrong (a syntax error through :mod:`.syntax_errors`, a game past a limit, a claim word
it cannot place); whether the statements are in table order, or one is given twice,
is the structure checks' to say (``referee.structure``), from what this keeps.
"""

from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Iterable, Iterator
from itertools import pairwise
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..cards import Seat, card
from ..diagnostics import Diagnostic, Severity
from ..limits import (
    LIMIT_CODE,
    MAX_CARDS_PER_DEAL,
    MAX_CARDS_PER_GAME,
    MAX_COMMENTS_PER_GAME,
    MAX_DEALS_PER_GAME,
    MAX_TAGS_PER_GAME,
)
from .bounds import LONG_STATEMENT, PastLimit, count_words
from .deal_extras import DealExtras
from .game_parser import game_parser
from .lalr import Token, TooManyComments
from .records import (
    Abandoned,
    Award,
    Claim,
    Comment,
    CommentStyle,
    Concede,
    Count,
    Deal,
    Discard,
    Ending,
    Game,
    Node,
    OpeningEvent,
    Pack,
    Penalty,
    PenaltyKind,
    Play,
    PlayDraft,
    Redeal,
    RedealReason,
    Results,
    Span,
    SpanDraft,
    Tag,
    TextLines,
    Total,
    Trick,
    make_call,
    make_claim,
    make_deal,
    make_game,
    make_hand,
    make_tag,
    make_total,
    make_trick,
    make_turnup,
    set_diagnostics,
    with_comments,
)
from .slicer import GameSlice, header_tags, line_columns, slice_games, tag_from_scan
from .statements import (
    _ANY_CARD_RE,
    _CLAIM_ITEMS,
    _CLAIMS,
    _DEAL_WORD_RE,
    _PLAY_WORDS,
    _SEATS,
    _TAG_RE,
    _WORDS,
    NumberTooLong,
    _call,
    _cards_of,
    _count_cards,
    _deal_header,
    _play_word,
    _remember,
    _scores,
    read_number,
    unescape_tag_value,
)
from .table import add_seats, clockwise, seats_named

if TYPE_CHECKING:
    from lark.exceptions import UnexpectedInput

# The export order of the mandatory tags; every other tag follows in written order.
ROSTER: tuple[str, ...] = ("Event", "Site", "Date", "Rules", "North", "East", "South", "West",
                           "Result")
_ROSTER_RANK = {name: rank for rank, name in enumerate(ROSTER)}


def sorted_tags(tags: Iterable[Tag]) -> tuple[Tag, ...]:
    """Roster tags first in roster order, every other tag after them as written."""
    return tuple(sorted(tags, key=lambda tag: _ROSTER_RANK.get(tag.name, len(ROSTER))))



# A statement of a deal as written: the deal's place in ``game.deals``, the statement's
# kind (the grammar's terminal: "HAND", "CALL", "PLAYS", "CLAIM" …), the text of its
# first token, and its span.  The records keep one claim, total, line of results and
# ending, and no statement's words; this keeps them for the structure checks (statement
# order, AFN206), and goes once they have run.
Statement = tuple[int, str, str, Span]

# A game read but not yet through its structure checks: the game (holding what reading
# it found), the seats the checks need (None: nothing is left to check), where it
# stands in its file, and every statement of its deals as written, in order (one list
# for the game, not one per deal: a file of tiny games has no statement at all).  See
# :func:`.parser.read_game_body`.
ReadGame = tuple[Game, tuple[Seat, ...] | None, GameSlice, list[Statement]]


# --- assembling one game ------------------------------------------------------------------------


# Where a trick number stands: the PLAYS token's start offset in the file, the number's
# first and last index in the token.  Its own span is worked out only for a diagnostic.
_NumberPlace = tuple[int, int, int]
_N = TypeVar("_N", bound=Node)


class _RawDeal:
    """A deal's nodes as read, before plays are grouped into tricks and comments
    attached (the nodes carry none yet).  It also stands for the deal's header among
    the game's nodes (the comments around ``deal 3 dealer N`` are the deal's own), so
    no header record is made only to be thrown away."""

    __slots__ = ("claim", "count", "dealer", "ending", "number", "numbers", "opening",
                 "penalties", "plays", "results", "span", "time", "total")

    def __init__(self, number: int, dealer: Seat, span: Span) -> None:
        self.number = number
        self.dealer = dealer
        self.span = span
        self.opening: list[OpeningEvent] = []
        self.plays: list[Play] = []
        # (index in ``plays``, the number written, where) for each play a trick number
        # precedes
        self.numbers: list[tuple[int, int, _NumberPlace]] = []
        self.penalties: list[Penalty] = []
        self.claim: Claim | None = None
        self.total: Total | None = None
        self.ending: Ending | None = None
        self.results: Results | None = None
        self.count: Count | None = None
        self.time: str | None = None  # the clock time of the header, canonical


class _GameAssembler(DealExtras):
    """Parses one game slice and turns its tokens into a :class:`Game`; the limits it
    holds a game to are :class:`.bounds.GameBounds`'s."""

    def __init__(self, body: str, piece: GameSlice, *, index: int, filename: str | None) -> None:
        """``body`` is the game's text; ``piece`` says where it starts in its file."""
        self.piece = piece
        self.index = index
        self.filename = filename
        self.body = body
        self.line_base = piece.line - 1
        self.col_base = piece.column - 1
        self.offset_base = piece.start
        self.diagnostics: list[Diagnostic] = []
        self.statements: list[Statement] = []  # every deal's, in the order written
        # Every node made from the text, in the order made: where comments are
        # attached (when the game has any) and where the game's last line is found.
        self.nodes: list[Node | _RawDeal] = []
        # The comments of each node that has any, by the node's id().
        self.comments_of: dict[int, tuple[list[Comment], list[Comment]]] = {}
        self.current_deal: int | None = None
        self.items = 0  # awards and scores read so far, held to MAX_ITEMS_PER_GAME
        # Spans keep offsets only; lines and columns come from here when first asked for.
        self.lines = TextLines(body, piece.start, piece.line, piece.column)

    # -- positions --

    def span_of(self, token: Token) -> Span:
        base = self.offset_base
        return Span.at(self.lines, token.start_pos + base, token.end_pos + base)

    def diag(
        self,
        code: str,
        message: str,
        span: Span | None,
        *,
        severity: Severity = Severity.ERROR,
        hint: str | None = None,
        trick: int | None = None,
    ) -> None:
        self.diagnostics.append(
            Diagnostic(
                code,
                severity,
                message,
                file=self.filename,
                line=span.line if span else self.piece.line,
                column=span.column if span else self.piece.column,
                end_column=(span.end_column if span and span.end_line == span.line else None),
                game=self.index,
                deal=self.current_deal,
                trick=trick,
                hint=hint,
            )
        )

    def finished(self, node: _N) -> _N:
        """``node`` with the comments attached to it."""
        found = self.comments_of.get(id(node))
        if found is None:
            return node
        leading, trailing = found
        return with_comments(node, tuple(leading), tuple(trailing))

    def all_finished(self, nodes: list[_N]) -> tuple[_N, ...]:
        comments_of = self.comments_of
        if not comments_of or comments_of.keys().isdisjoint(map(id, nodes)):
            return tuple(nodes)  # the usual case: nothing to attach (checked in C)
        return tuple(self.finished(node) for node in nodes)

    # -- reading --

    def read(self) -> ReadGame:
        """The game read, its structure not yet checked (see :func:`.parser.read_game_body`)."""
        if self.over_limit():
            return self.broken_game(), None, self.piece, []
        parse_text, collector = game_parser()
        collector.comments = []
        collector.opened = None
        try:
            raw = parse_text(self.body)
        except TooManyComments:
            collector.comments = []
            self.report_limit(f"this game has more than {MAX_COMMENTS_PER_GAME:,} comments", 0)
            return self.broken_game(), None, self.piece, []
        except RecursionError:  # pragma: no cover - LALR does not recurse; belt and braces
            self.diag("AFN101", "the game is too deeply nested to read", None)
            return self.broken_game(), None, self.piece, []
        except Exception as error:
            # Lark's error, from its own loop (only a game that does not parse imports
            # Lark: issue 27)
            from lark.exceptions import UnexpectedInput

            if not isinstance(error, UnexpectedInput):
                raise
            self.syntax_error(error, collector.opened)
            return self.broken_game(), None, self.piece, []
        found = collector.comments
        comments = [self.comment_of(token) for token in found] if found else []
        try:
            return self.read_tree(cast(list[Any], raw), comments)
        except NumberTooLong as error:
            self.report_long_number(error)
            return self.broken_game(), None, self.piece, []
        except PastLimit as past:
            self.report_past(past.problem, past.offset, past.width)
            return self.broken_game(), None, self.piece, []

    def over_limit(self) -> bool:
        """Report (AFN120) a game past one of the documented limits, which is then not
        read: more tags or deals than a game may hold, or a deal with more cards.

        Only a large game is looked at closely: the slicer has counted its tags and
        deals already, and the cards are counted only in a deal's text long enough
        to hold too many."""
        piece, problem, offset = self.piece, "", 0
        size = len(self.body)
        if not (piece.too_many_tags or piece.deals > MAX_DEALS_PER_GAME or
                size > 2 * MAX_CARDS_PER_DEAL or size > 2 * MAX_CARDS_PER_GAME):
            return False  # a small game passes no limit (nearly every game)
        if piece.too_many_tags:
            problem = f"this game has more than {MAX_TAGS_PER_GAME:,} tags"
        elif piece.deals > MAX_DEALS_PER_GAME:
            problem = f"this game has {piece.deals:,} deals, more than {MAX_DEALS_PER_GAME:,}"
        elif size > 2 * MAX_CARDS_PER_GAME and \
                (cards := _count_cards(self.body, MAX_CARDS_PER_GAME + 1)) > MAX_CARDS_PER_GAME:
            problem = f"this game has more than {MAX_CARDS_PER_GAME:,} cards"
        elif size > 2 * MAX_CARDS_PER_DEAL:
            starts = [deal.start() for deal in _DEAL_WORD_RE.finditer(self.body)]
            # each deal runs to the next one's start; no deal word at all: nothing to count
            for start, end in pairwise([*starts, len(self.body)]):
                if end - start <= 2 * MAX_CARDS_PER_DEAL:
                    continue
                cards = len(_ANY_CARD_RE.findall(self.body, start, end))
                if cards > MAX_CARDS_PER_DEAL:
                    problem = f"this deal has {cards:,} cards, more than {MAX_CARDS_PER_DEAL:,}"
                    offset = start
                    break
        if not problem:
            return False
        self.report_limit(problem, offset)
        return True

    def report_limit(self, problem: str, offset: int) -> None:
        """AFN120 for a game that is not read: at the deal word at ``offset`` in it
        (underlined), or at the game's start (``offset`` 0)."""
        line = self.body.count("\n", 0, offset) + 1
        column = offset - self.body.rfind("\n", 0, offset)
        absolute_column = column + (self.col_base if line == 1 else 0)
        self.diag(
            LIMIT_CODE,
            f"{problem}; the game is not read (see 'Limits' in NOTATION.md)",
            Span(line + self.line_base, absolute_column, line + self.line_base,
                 absolute_column + (4 if offset else 1), offset + self.offset_base,
                 offset + self.offset_base),
            hint="split the record into smaller games; no real game comes near this",
        )

    def comment_of(self, token: Token) -> tuple[Comment, Span]:
        span = self.span_of(token)
        value = str(token)
        if value.startswith("{"):
            # Line breaks inside a comment are kept as LF, whatever the file used.
            return Comment(value[1:-1].replace("\r\n", "\n"), CommentStyle.BRACE, span), span
        return Comment(value[1:].rstrip("\r"), CommentStyle.LINE, span), span

    def read_tree(self, children: list[Any], comments: list[tuple[Comment, Span]]) -> ReadGame:
        """The game made of the grammar's tree, its structure not yet checked."""
        tag_nodes: list[Tag] = []
        raw_deals: list[_RawDeal] = []
        ended = False
        for child in children:
            if type(child) is not list:  # a token (Lark's, where Lark's loop read the game)
                if child.type == "TAGS":
                    self.add_tags(tag_nodes, child)
                else:  # END
                    ended = True
            else:
                raw_deals.append(self.raw_deal(child, len(raw_deals)))
        game_trailing = self.attach_comments(comments) if comments else ()
        tags = sorted_tags(self.all_finished(tag_nodes)) if tag_nodes else ()
        seats = self.seats_for(tags, raw_deals)
        players = len(seats)
        deals = tuple([self.build_deal(raw, players) for raw in raw_deals])
        piece = self.piece
        span = Span(piece.line, piece.column, 0, 0, piece.start, piece.end)
        # Made once, its diagnostics set when known (the structure checks read the
        # game, not its diagnostics): see set_diagnostics.
        game = make_game(tags, deals, ended, game_trailing, self.index, self.filename, (), span)
        if not ended:
            self.diag(
                "AFN104",
                "this game has no 'end'",
                self.last_span(),
                severity=Severity.WARNING,
                hint="close every game with the word 'end'",
            )
        self.current_deal = None
        set_diagnostics(game, tuple(self.diagnostics))
        return game, seats, piece, self.statements

    def last_span(self) -> Span | None:
        if not self.nodes:
            return None
        end_line = cast(Span, self.nodes[-1].span).end_line
        return Span(end_line, 1, end_line, 1, 0, 0)

    def seats_for(self, tags: tuple[Tag, ...], raw_deals: list[_RawDeal]) -> tuple[Seat, ...]:
        """The seats at the table: named by the player tags, or else those the deals use
        (:func:`.table.add_seats`, the rule :func:`.table.seats_of_game` reads too).
        Written out rather than shared with ``seats_of_game`` through a callback: that
        cost 0.6 µs a call, a few calls a game, an estimated 2% of ``check`` on a file
        of tiny games (issue 22)."""
        named = seats_named(tags) if tags else None
        if named:  # as seats_of_game reads the tags
            return clockwise(named)
        used: set[Seat] = set()
        for raw in raw_deals:
            used.add(raw.dealer)
            add_seats(used, raw.opening)
            add_seats(used, raw.plays)
        return clockwise(used)

    # -- comments --

    def attach_comments(self, comments: list[tuple[Comment, Span]]) -> tuple[Comment, ...]:
        """Give each comment to the node it stands beside; return the game's own.

        A comment inside a statement (between two cards of a hand, two words of a
        claim) leads that statement: the formatter writes it on a line of its own
        before the statement, where it reads back the same whatever its style (a
        line comment could not trail a statement followed by more comments).  A
        comment on the same line as the end of a node, with no node after it on that
        line, trails that node; any other comment leads the next node.  Comments
        after the last node belong to the game.
        """
        if not comments:
            return ()
        nodes = self.nodes
        starts = [node.span.start for node in nodes]  # type: ignore[union-attr]
        if not all(map(operator.le, starts, starts[1:])):  # nodes are made in text order
            order = sorted(range(len(nodes)), key=starts.__getitem__)
            nodes = [nodes[place] for place in order]
            starts = [starts[place] for place in order]
        game_trailing: list[Comment] = []
        # Whether two places are on one line: no line feed between them in the game's
        # text (no line index is built for it).
        body, base = self.body, self.offset_base
        for comment, span in comments:
            start, end = span.start, span.end
            after = bisect.bisect_left(starts, end)
            previous = nodes[after - 1] if after > 0 else None
            following = nodes[after] if after < len(nodes) else None
            if previous is not None:
                previous_end = cast(Span, previous.span).end
                if start < previous_end:  # inside it
                    self.comments_here(previous)[0].append(comment)
                    continue
                same_line = body.find("\n", previous_end - base, start - base) < 0
                next_on_line = following is not None and \
                    body.find("\n", end - base, starts[after] - base) < 0
                if same_line and not next_on_line:
                    self.comments_here(previous)[1].append(comment)
                    continue
            if following is not None:
                self.comments_here(following)[0].append(comment)
            else:
                game_trailing.append(comment)
        return tuple(game_trailing)

    def comments_here(self, node: Node | _RawDeal) -> tuple[list[Comment], list[Comment]]:
        """The leading and trailing comments of ``node``, to be added to."""
        return self.comments_of.setdefault(id(node), ([], []))

    # -- tokens → nodes --

    def add_tags(self, tags: list[Tag], token: Token) -> None:
        """Split a block of tags (one token, so that Lark reads a header in one step)."""
        lines, base = self.lines, token.start_pos + self.offset_base
        block = [make_tag(match.group(1), unescape_tag_value(match.group(2)),
                          Span.at(lines, base + match.start(), base + match.end()))
                 for match in _TAG_RE.finditer(token.value)]
        tags.extend(block)
        self.nodes.extend(block)

    def raw_deal(self, children: list[Any], place: int) -> _RawDeal:
        """One deal's statements → its nodes, each statement kept as written (a deal's
        second claim, total, line of results or ending too, which its record has no
        room for: the structure checks say so).

        The hot loop of reading: a statement is a token (or, cut by comments, a list
        of them), sent on by its type; the texts that recur are read once
        (``_deal_header``, ``_call``, the claim and total memos)."""
        header: Token = children[0]
        try:
            deal_number, dealer, clock = _deal_header(header.value)
        except NumberTooLong as error:
            error.after = header.start_pos
            raise
        self.current_deal = deal_number
        lines, base, at = self.lines, self.offset_base, Span.at
        raw = _RawDeal(deal_number, dealer, at(lines, header.start_pos + base,
                                               header.end_pos + base))
        if clock is not None:
            raw.time = self.clock(clock, header)
        nodes = self.nodes
        nodes.append(raw)
        written = self.statements.append
        for child in children[1:]:
            if type(child) is list:  # a statement a comment cut: its tokens
                parts: list[Token] = child
                token = parts[0]
                end = parts[-1].end_pos
            else:
                token = child
                parts = [token]
                end = token.end_pos
            kind = token.type
            value = token.value
            span = at(lines, token.start_pos + base, end + base)
            written((place, kind, value, span))
            if kind == "PLAYS":
                self.add_plays(raw, value, span.start)
                continue
            node: Node
            if kind == "HAND":
                node = make_hand(_SEATS[value[0]], _cards_of(parts, 1), span)
                raw.opening.append(node)
            elif kind == "CALL":
                seat, call_kind = _call(value)
                if call_kind is None:
                    node = Concede(seat=seat, span=span)
                    self.set_ending(raw, node)
                else:
                    node = make_call(seat, call_kind, span)
                    raw.opening.append(node)
            elif kind == "TURN" or kind == "TURN_WORD":
                node = make_turnup(card(parts[-1].value.split()[-1]), span)
                raw.opening.append(node)
            elif kind == "CLAIM":
                if len(value) > LONG_STATEMENT or len(parts) > 1:
                    count_words(parts, "claim")
                if raw.claim is not None:  # the record keeps the first
                    continue
                node = raw.claim = self.claim(parts, span)
                self.count_items(len(node.awards), token)
            elif kind == "RESULTS":
                if len(value) > LONG_STATEMENT or len(parts) > 1:
                    count_words(parts, "line of results")
                if raw.results is not None:
                    continue
                director = value[:8].lower() == "director"
                node = raw.results = Results(
                    awards=self.claim_awards(parts, span, skip=2 if director else 1),
                    director=director, span=span)
                self.count_items(len(node.awards), token)
            elif kind == "TOTAL":
                if len(value) > LONG_STATEMENT or len(parts) > 1:
                    count_words(parts, "total")
                if raw.total is not None:
                    continue
                try:
                    node = raw.total = make_total(_scores(parts), span)
                except NumberTooLong as error:
                    error.after = token.start_pos
                    raise
                self.count_items(len(node.scores), token)
            else:
                node = self.other_statement(raw, kind, parts, span)
            nodes.append(node)
        return raw

    def other_statement(self, raw: _RawDeal, kind: str, parts: list[Token], span: Span) -> Node:
        """The statements most deals do without: a discard, a pack, a Game count, a
        penalty, a redeal, an abandoned deal."""
        value = parts[0].value
        if kind == "COUNT":
            count = self.game_count(parts, span)
            raw.count = raw.count or count  # the record keeps the first
            return count
        if kind == "DISCARD":
            skip = value.lower().index("discards") + len("discards")
            discard = Discard(seat=_SEATS[value[0]], cards=_cards_of(parts, skip), span=span)
            raw.opening.append(discard)
            return discard
        if kind == "PACK":
            pack = Pack(cards=_cards_of(parts, len("pack")), span=span)
            raw.opening.append(pack)
            return pack
        if kind == "PENALTY":
            _, seat_text, what = value.split()
            penalty = Penalty(offender=_SEATS[seat_text], kind=PenaltyKind(what.lower()),
                              after_plays=len(raw.plays), span=span)
            raw.penalties.append(penalty)
            return penalty
        ending: Ending
        if kind == "REDEAL":
            ending = Redeal(reason=RedealReason(value.split()[-1].lower()), span=span)
        else:  # ABANDONED
            ending = Abandoned(span=span)
        self.set_ending(raw, ending)
        return ending

    @staticmethod
    def set_ending(raw: _RawDeal, ending: Ending) -> None:
        """The deal's ending: the first one written (the record keeps one)."""
        if raw.ending is None:
            raw.ending = ending

    def add_plays(self, raw: _RawDeal, text: str, base: int) -> None:
        """Split a run of plays (``text``, at file offset ``base``) and make a record per
        card, and nothing else (a span keeps offsets; its line and column are worked
        out only if something asks).

        The PLAYS terminal is plays and trick numbers ("12.") with whitespace between
        them, so its words are those, each found from where the last one ended; a
        play's text ("S:JS", "n:10h!?") is read once and remembered (a few hundred
        of them recur throughout a file)."""
        plays = raw.plays
        first = len(plays)
        lines, memo, append = self.lines, _PLAY_WORDS, plays.append
        find = text.find
        end = 0
        offset = self.offset_base
        # Each play and its span are filled in here as drafts, as make_play and Span.at
        # do (records.draft_of): the two calls a card cost 3% of reading (issue 38).
        new, span_draft, play_draft = object.__new__, SpanDraft, PlayDraft
        span: Any
        made: Any
        for word in text.split():
            start = find(word, end)
            end = start + len(word)
            play = memo.get(word)
            if play is None:
                if word[-1] == ".":  # a trick number before the next play
                    raw.numbers.append((len(plays), read_number(word[:-1], base + start - offset),
                                        (base, start, end)))
                    continue
                play, number_length = _play_word(word)
                if number_length:  # "12.S:JS": a trick number written against its play
                    raw.numbers.append((len(plays), read_number(word[:number_length - 1],
                                                           base + start - offset),
                                        (base, start, start + number_length)))
                    start += number_length
            span = new(span_draft)
            span.start = base + start
            span.end = base + end
            span._where = lines
            span.__class__ = Span
            made = new(play_draft)
            made.card, made.seat, made.glyph = play
            made.span = span
            made.leading = made.trailing = ()
            made.__class__ = Play
            append(made)
        self.nodes.extend(plays[first:])

    def claim(self, parts: list[Token], span: Span) -> Claim:
        """A claim's awards: read once per distinct text (a claim with a problem, or cut
        by a comment, is read every time, so that each diagnostic is given)."""
        text = parts[0].value
        if len(parts) == 1:
            awards = _CLAIMS.get(text)
            if awards is not None:
                return make_claim(awards, span)
        found = len(self.diagnostics)
        awards = self.claim_awards(parts, span)
        if len(parts) == 1 and len(self.diagnostics) == found:
            _remember(_CLAIMS, text, awards)
        return make_claim(awards, span)

    def claim_awards(self, parts: list[Token], span: Span, *,
                     skip: int = 1) -> tuple[Award, ...]:
        awards: list[Award] = []
        seat: Seat | None = None
        for token_start, word_match in self.claim_words(parts, span, skip):
            word = word_match.group()
            lower = word.lower()
            if lower in _CLAIM_ITEMS:
                if seat is None:
                    self.diag(
                        "AFN213",
                        f"claim item '{word}' has no seat before it",
                        Span.at(self.lines, token_start + word_match.start(),
                                token_start + word_match.end()),
                        hint="write the seat first: claim S high low",
                    )
                    continue
                awards.append(Award(seat, _CLAIM_ITEMS[lower]))
            elif word.isdigit():
                if not awards or awards[-1].points is not None:
                    self.diag(
                        "AFN213",
                        f"the number {word} follows no claim item",
                        Span.at(self.lines, token_start + word_match.start(),
                                token_start + word_match.end()),
                        hint="a number gives the points of the item before it: N kick 3",
                    )
                    continue
                last = awards[-1]
                awards[-1] = Award(last.seat, last.item, read_number(
                    word, token_start - self.offset_base + word_match.start()))
            else:
                seat = _SEATS[word]
        # A claim is a set of awards: keep them grouped by seat, seats in the order they
        # first appear (stable within a seat), which is the order the formatter writes.
        first_seen = {award.seat: place for place, award in reversed(list(enumerate(awards)))}
        awards.sort(key=lambda award: first_seen[award.seat])
        return tuple(awards)

    def claim_words(self, parts: list[Token], span: Span,
                    skip: int = 1) -> Iterator[tuple[int, re.Match[str]]]:
        """Each word of a claim after 'claim' (the first ``skip`` words), with the file
        offset of the token it stands in (for the span of a word named in a diagnostic)."""
        for number, token in enumerate(parts):
            token_start = span.start if number == 0 else \
                token.start_pos + self.offset_base
            words = _WORDS.finditer(token.value)
            if number == 0:
                for _ in range(skip):
                    next(words)  # the word 'claim' ('scored', 'director scored')
            for word_match in words:
                yield token_start, word_match

    # -- nodes → deal --

    def build_deal(self, raw: _RawDeal, players: int) -> Deal:
        self.current_deal = raw.number
        leading: tuple[Comment, ...] = ()
        trailing: tuple[Comment, ...] = ()
        claim, total, ending, results, count = raw.claim, raw.total, raw.ending, raw.results, \
            raw.count
        if self.comments_of:
            found = self.comments_of.get(id(raw))
            if found is not None:
                leading, trailing = tuple(found[0]), tuple(found[1])
            finished = self.finished
            claim = finished(claim) if claim else None
            total = finished(total) if total else None
            ending = finished(ending) if ending else None
            results = finished(results) if results else None
            count = finished(count) if count else None
        return make_deal(raw.number, raw.dealer, self.all_finished(raw.opening),
                         self.group_tricks(raw, max(players, 1)) if raw.plays else (),
                         self.all_finished(raw.penalties) if raw.penalties else (),
                         claim, total, ending, leading, trailing, raw.span, results, count,
                         raw.time)

    def group_tricks(self, raw: _RawDeal, players: int) -> tuple[Trick, ...]:
        """Plays → tricks.  A trick number starts a trick that runs to the next number,
        as the writer grouped it; unnumbered plays make a trick every ``players`` cards."""
        plays = raw.plays
        numbers = raw.numbers
        # Where each trick begins: plays before the first number (all of them, when none
        # is written) are cut every ``players`` cards; then each number begins one.
        begins = list(range(0, numbers[0][0] if numbers else len(plays), players))
        unnumbered = len(begins)
        begins.extend([begin for begin, _, _ in numbers])
        ends = begins[1:]
        ends.append(len(plays))
        lines, at, trick_of = self.lines, Span.at, make_trick
        finish = None if not self.comments_of else self.all_finished
        tricks: list[Trick] = []
        for number, (begin, end) in enumerate(zip(begins, ends, strict=True), start=1):
            cards = tuple(plays[begin:end]) if finish is None else finish(plays[begin:end])
            tricks.append(trick_of(number, cards, number > unnumbered,
                                   at(lines, cards[0].span.start,  # type: ignore[union-attr]
                                      cards[-1].span.end)))  # type: ignore[union-attr]
        for number, (_, written, (base, first, last)) in enumerate(numbers, unnumbered + 1):
            if written != number:
                self.diag(
                    "AFN207",
                    f"trick numbered {written} is trick {number} of this deal",
                    at(lines, base + first, base + last),
                    severity=Severity.WARNING,
                    trick=number,
                )
        return tuple(tricks)


    # -- errors --

    def syntax_error(self, error: UnexpectedInput, opened: Token | None) -> None:
        """AFN101 and its kin for Lark's ``error``; ``opened`` is the last claim or total
        the lexer read (see :func:`.syntax_errors.explain`)."""
        from lark import Token as LarkToken
        from lark.exceptions import UnexpectedEOF, UnexpectedToken

        from .syntax_errors import deal_number_before, explain

        position = getattr(error, "pos_in_stream", None)
        if isinstance(error, UnexpectedToken) and isinstance(error.token, LarkToken):
            position = error.token.start_pos
        if isinstance(error, UnexpectedEOF) or position is None or position >= len(self.body):
            position = len(self.body.rstrip())
        explanation = explain(error, self.body, position, opened)
        offset = explanation.offset
        line = self.body.count("\n", 0, offset) + 1
        column = offset - self.body.rfind("\n", 0, offset)
        absolute_column = column + (self.col_base if line == 1 else 0)
        self.diagnostics.append(
            Diagnostic(
                explanation.code,
                Severity.ERROR,
                explanation.message,
                file=self.filename,
                line=line + self.line_base,
                column=absolute_column,
                end_column=absolute_column + explanation.length,
                game=self.index,
                deal=deal_number_before(self.body, offset),
                hint=explanation.hint,
            )
        )

    def broken_game(self) -> Game:
        # The tags as the slicer reads them (a game that does not parse is not read
        # further); a text without a '[' has none, and is not scanned again for them.
        scanned = slice_games(self.body).games if "[" in self.body else ()
        found = header_tags(self.body, scanned[0], MAX_TAGS_PER_GAME) if scanned else []
        positions = line_columns(self.body, [tag.offset for tag in found])
        tags = tuple(
            tag_from_scan(tag, position, self.line_base, self.col_base, self.offset_base)
            for tag, position in zip(found, positions, strict=True)
        )
        tags = sorted_tags(tags)
        return Game(
            tags=tags,
            ended=self.piece.has_end,
            index=self.index,
            source=self.filename,
            diagnostics=tuple(self.diagnostics),
            broken=True,
            span=Span(self.piece.line, self.piece.column, 0, 0, self.piece.start, self.piece.end),
        )
