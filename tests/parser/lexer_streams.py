"""Token streams of the AFN grammar, read by Lark's own lexer loop and by the lean one
(:mod:`allfours_notation.reading.lexer`), for the differential test and
``python -m bench.lexer_check``.

A stream is every token the lexer gives the parser, with its type, text, offsets,
lines and columns, plus every token a lexer callback saw (comments, claims,
totals), and how the parse ended: the result's shape, or the error with its
position, the terminals expected and the token that did not fit.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, cast

from lark import Lark, Token
from lark.exceptions import UnexpectedInput

from allfours_notation.reading.lexer import install
from allfours_notation.reading.parser import _Callbacks, grammar_text, read_games

TokenFacts = tuple[Any, ...]


def facts(token: Token) -> TokenFacts:
    return (token.type, token.value, token.start_pos, token.end_pos, token.line, token.column,
            token.end_line, token.end_column)


class StreamReader:
    """One Lark built as the parser builds its own, that records what it reads."""

    def __init__(self, *, lean: bool) -> None:
        self.seen: list[TokenFacts] = []

        def saw(token: Token) -> Token:
            self.seen.append(("callback", *facts(token)))
            return token

        self.lark = Lark(grammar_text(), parser="lalr", lexer="contextual",
                         transformer=cast(Any, _Callbacks()),
                         lexer_callbacks={"BRACE_COMMENT": saw, "LINE_COMMENT": saw,
                                          "CLAIM": saw, "TOTAL": saw},
                         cache=True, propagate_positions=False, maybe_placeholders=False)
        self.lean = install(self.lark) if lean else False
        lexer = self.lark.parser.lexer
        real = lexer.lex

        def recorded(lexer_state: Any, parser_state: Any) -> Iterator[Token]:
            for token in real(lexer_state, parser_state):
                self.seen.append(facts(token))
                yield token

        lexer.lex = recorded

    def stream(self, body: str) -> list[Any]:
        """Every token of ``body`` and how its parse ended."""
        self.seen = []
        try:
            self.lark.parse(body)
            ending: Any = "parsed"
        except UnexpectedInput as error:
            token = getattr(error, "token", None)
            ending = (type(error).__name__, str(error), getattr(error, "pos_in_stream", None),
                      error.line, error.column, sorted(getattr(error, "expected", None) or ()),
                      sorted(getattr(error, "allowed", None) or ()),
                      facts(token) if isinstance(token, Token) else None)
        return [*self.seen, ending]


def game_bodies(text: str) -> list[str]:
    """The text of each game the slicer cuts ``text`` into, and the whole text."""
    reader = read_games(text)
    return [reader.text[piece.start:piece.end] for piece in reader.slices] + [reader.text]


def first_difference(lean: StreamReader, plain: StreamReader, text: str) -> str | None:
    """Where the two readers part on ``text``, or None when they never do."""
    for body in game_bodies(text):
        mine, lark = lean.stream(body), plain.stream(body)
        if mine != lark:
            at = next((i for i, (a, b) in enumerate(zip(mine, lark, strict=False)) if a != b),
                      min(len(mine), len(lark)))
            return (f"game text {body[:60]!r}…: item {at}: lean "
                    f"{mine[at] if at < len(mine) else None} / Lark "
                    f"{lark[at] if at < len(lark) else None}")
    return None
