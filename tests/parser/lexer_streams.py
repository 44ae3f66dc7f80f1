"""What the AFN grammar's two parsers make of a game's text, for the differential tests
and ``python -m bench.lexer_check``: the loop over the shipped table
(:mod:`allfours_notation.reading.game_parser`) and Lark's own.

A stream is every token a lexer callback saw (comments, claims, totals), with its type,
text, offsets, lines and columns, and how the parse ended: the parse itself (every
token the lexer gave the parser, with the same facts, as the reductions grouped them),
or the error.  Where Lark raises, the table's loop must hand the text over to Lark (it
is Lark's loop that reports the error): that is its ending, ``"handed to Lark"``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from lark import Lark
from lark.exceptions import UnexpectedInput

from allfours_notation.reading.game_parser import table
from allfours_notation.reading.lalr import Collector, direct_parse
from allfours_notation.reading.lark_parser import _Callbacks, grammar_text
from allfours_notation.reading.parser import read_games

TokenFacts = tuple[Any, ...]
HANDED_OVER = "handed to Lark"


def facts(token: Any) -> TokenFacts:
    return (token.type, token.value, token.start_pos, token.end_pos, token.line, token.column,
            token.end_line, token.end_column)


def shape(value: Any) -> Any:
    """A parse as plain data: each token's facts, lists as lists."""
    if isinstance(value, str):
        return facts(value)
    assert type(value) is list, type(value)
    return [shape(item) for item in value]


class _Recorder(Collector):
    """A comment collector that also writes down every token it is given."""

    def __init__(self, seen: Callable[[Any], None]) -> None:
        super().__init__()
        self.saw = seen

    def __call__(self, token: Any) -> Any:
        self.saw(token)
        return super().__call__(token)

    def open_statement(self, token: Any) -> Any:
        self.saw(token)
        return super().open_statement(token)


class _HandedOver(Exception):
    pass


class _Reader:
    seen: list[Any]

    def saw(self, token: Any) -> None:
        self.seen.append(("callback", *facts(token)))


class TableReader(_Reader):
    """The loop over the shipped table, as reading runs it, that records what it reads
    and, where it would hand the text to Lark's loop, says so instead."""

    def __init__(self) -> None:
        self.seen = []
        self.parse = direct_parse(table(), _Recorder(self.saw), fallback=self.handed_over)

    @staticmethod
    def handed_over(text: str) -> Any:
        raise _HandedOver

    def stream(self, body: str) -> list[Any]:
        """What the callbacks saw in ``body`` and how its parse ended."""
        self.seen = []
        try:
            ending: Any = ("parsed", shape(self.parse(body)))
        except _HandedOver:
            ending = HANDED_OVER
        return [*self.seen, ending]


class LarkReader(_Reader):
    """A Lark built as the error path builds its own, that records what it reads."""

    def __init__(self) -> None:
        self.seen = []
        callbacks = {name: self.saw_token for name in
                     ("BRACE_COMMENT", "LINE_COMMENT", "CLAIM", "TOTAL")}
        self.lark = Lark(grammar_text(), parser="lalr", lexer="contextual",
                         transformer=cast(Any, _Callbacks()), lexer_callbacks=callbacks,
                         cache=True, propagate_positions=False, maybe_placeholders=False)

    def saw_token(self, token: Any) -> Any:
        self.saw(token)
        return token

    def stream(self, body: str) -> list[Any]:
        """What the callbacks saw in ``body`` and how its parse ended."""
        self.seen = []
        try:
            ending: Any = ("parsed", shape(self.lark.parse(body)))
        except UnexpectedInput as error:
            token = getattr(error, "token", None)
            ending = (type(error).__name__, str(error), getattr(error, "pos_in_stream", None),
                      error.line, error.column, sorted(getattr(error, "expected", None) or ()),
                      sorted(getattr(error, "allowed", None) or ()),
                      facts(token) if isinstance(token, str) else None)
        return [*self.seen, ending]


def same(mine: list[Any], lark: list[Any]) -> bool:
    """Whether the table's loop read what Lark read: the same callbacks and the same
    parse; or, where Lark raised, a hand-over to Lark, the callbacks so far as Lark's
    (Lark's lexer, failing in one parser state, tries the text again with every
    terminal, which may call back once more before it raises)."""
    if lark[-1][0] == "parsed" or mine[-1] != HANDED_OVER:
        return mine == lark
    return len(lark) - len(mine) in (0, 1) and mine[:-1] == lark[:len(mine) - 1]


def game_bodies(text: str) -> list[str]:
    """The text of each game the slicer cuts ``text`` into, and the whole text."""
    reader = read_games(text)
    return [reader.text[piece.start:piece.end] for piece in reader.slices] + [reader.text]


def first_difference(mine: TableReader, lark: LarkReader, text: str) -> str | None:
    """Where the two readers part on ``text``, or None when they never do."""
    for body in game_bodies(text):
        ours, theirs = mine.stream(body), lark.stream(body)
        if not same(ours, theirs):
            at = next((i for i, (a, b) in enumerate(zip(ours, theirs, strict=False)) if a != b),
                      min(len(ours), len(theirs)))
            return (f"game text {body[:60]!r}…: item {at}: table "
                    f"{ours[at] if at < len(ours) else None} / Lark "
                    f"{theirs[at] if at < len(theirs) else None}")
    return None
