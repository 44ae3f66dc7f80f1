"""A leaner token loop for Lark's contextual lexer: the same tokens, made with less work.

Lark's contextual lexer keeps one basic lexer per parser state, each with one
compiled regular expression over the terminals that state accepts.  Its
``next_token`` goes through a scanner object, a line counter's ``feed`` method and
``Token.__new__``'s keyword handling for every token and for every run of
whitespace between tokens: about a sixth of Lark's time on AFN, where whitespace
stands between every two tokens.

:func:`install` gives each of those basic lexers a ``next_token`` that runs the
very same compiled expression at the very same place and makes the same tokens
(type, text, offsets, lines and columns), keeps the line counter and the last
token as Lark keeps them, and calls the same callbacks.  Anything unusual (no
terminal matches, the end of the text) is handed to Lark's own method, which
raises what Lark raises.  In the source tree, ``tests/parser/test_fast_lexer.py``
(Hypothesis over generated and mutated games, every sample) and the benchmark's
``lexer_check`` module (every bench corpus) compare the token streams and errors
of both, token by token.

Only a Lark whose insides look as expected gets the new loop (Lark 1.3's
``TextSlice`` input, one expression per state); any other keeps its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Lark, Token
from lark.exceptions import LexError

_NextToken = Callable[[Any, Any], Token]


def install(lark: Lark) -> bool:
    """Give every basic lexer of ``lark``'s contextual lexer the lean loop; False if
    this Lark is not built the way the loop expects (it is then left as it is)."""
    try:
        from lark.utils import TextSlice  # noqa: F401 - Lark 1.3: the input is a slice
    except ImportError:
        return False
    lexers = getattr(getattr(lark, "parser", None), "lexer", None)
    by_state = getattr(lexers, "lexers", None)
    if not isinstance(by_state, dict):
        return False
    basic = {id(lexer): lexer for lexer in by_state.values()}
    loops: dict[int, _NextToken] = {}
    for key, lexer in basic.items():
        loop = _lean_loop(lexer)
        if loop is None:
            return False
        loops[key] = loop
    for key, lexer in basic.items():
        lexer.next_token = loops[key]
    return True


def _lean_loop(lexer: Any) -> _NextToken | None:
    """``lexer.next_token``, done in one function with its state in local variables."""
    try:
        expressions = lexer.scanner._mres
        ignore: frozenset[str] = frozenset(lexer.ignore_types)
        callbacks: dict[str, Callable[[Token], Token]] = lexer.callback
        newline_types: frozenset[str] = frozenset(lexer.newline_types)
        lark_next_token: _NextToken = type(lexer).next_token.__get__(lexer)
    except AttributeError:
        return None
    if len(expressions) != 1:
        return None
    match = expressions[0].match
    # Skipped without a token: ignored terminals no callback wants (whitespace).
    skip = frozenset(kind for kind in ignore if kind not in callbacks)
    new = str.__new__

    def next_token(lex_state: Any, parser_state: Any = None) -> Token:
        line_ctr = lex_state.line_ctr
        text = lex_state.text
        source, end = text.text, text.end
        pos, line, line_start = line_ctr.char_pos, line_ctr.line, line_ctr.line_start_pos
        while pos < end:
            found = match(source, pos, end)
            if found is None:
                break  # Lark's own loop raises the error, with its expected terminals
            kind = found.lastgroup
            value = found.group()
            if kind in skip:
                if kind in newline_types and (newlines := value.count("\n")):
                    line += newlines
                    line_start = pos + value.rindex("\n") + 1
                pos = found.end()
                continue
            token = new(Token, value)
            token.type = kind
            token.value = value
            token.start_pos = pos
            token.line = line
            token.column = pos - line_start + 1
            if kind in newline_types and (newlines := value.count("\n")):
                line += newlines
                line_start = pos + value.rindex("\n") + 1
            pos = found.end()
            token.end_line = line
            token.end_column = pos - line_start + 1
            token.end_pos = pos
            callback = callbacks.get(kind)
            if callback is not None:
                token = callback(token)
            if kind not in ignore:
                line_ctr.char_pos = pos
                line_ctr.line = line
                line_ctr.line_start_pos = line_start
                line_ctr.column = pos - line_start + 1
                if not isinstance(token, Token):
                    raise LexError(f"Callbacks must return a token (returned {token!r})")
                lex_state.last_token = token
                return token
        line_ctr.char_pos = pos
        line_ctr.line = line
        line_ctr.line_start_pos = line_start
        line_ctr.column = pos - line_start + 1
        return lark_next_token(lex_state, parser_state)

    return next_token
