"""Every use of Lark's insides, in one place: the grammar loaded, and driven for a game.

Lark builds the LALR parser and its contextual lexer from ``grammar/allfours.lark``; the
rest of reading uses only what :func:`_game_parser` hands it (a function from a game's
text to its tokens, and the comment collector) and Lark's public exceptions.  Whatever
here reaches past Lark's public API is checked at build time and left out (Lark's own
code kept) when Lark's insides are not as expected.
"""

from __future__ import annotations

import operator
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

from lark import Lark, Token
from lark.exceptions import LexError
from lark.grammar import Rule

from ..limits import MAX_COMMENTS_PER_GAME


def grammar_text() -> str:
    """The AFN grammar: shipped in the wheel, or read from the source checkout.  Plain
    paths first: importing importlib.resources costs a cold start more than the read
    (issue 27); it is asked only where the package is not a folder of files."""
    package = Path(__file__).resolve().parents[1]
    for candidate in (package / "_grammar" / "allfours.lark",
                      package.parent / "grammar" / "allfours.lark"):
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    from importlib import resources

    packaged = resources.files("allfours_notation").joinpath("_grammar/allfours.lark")
    return packaged.read_text(encoding="utf-8")


class TooManyComments(Exception):
    """Raised from inside Lark's lexer when a game has more comments than
    :data:`~.limits.MAX_COMMENTS_PER_GAME`: the game is not read (AFN120), and the
    comments are not held."""


class _Collector:
    """Receives the comments Lark's lexer skips, for the game being parsed, and the
    last claim or total it read (where a claim cut by comments starts, for
    :func:`~.syntax_errors.explain`)."""

    def __init__(self) -> None:
        self.comments: list[Token] = []
        self.opened: Token | None = None

    def __call__(self, token: Token) -> Token:
        self.comments.append(token)
        if len(self.comments) > MAX_COMMENTS_PER_GAME:  # stop reading: a limit, AFN120
            raise TooManyComments
        return token

    def open_statement(self, token: Token) -> Token:
        self.opened = token
        return token


class _Callbacks:
    """Inline callbacks: keep tokens as they are, build no tree."""

    def start(self, children: list[Any]) -> Any:
        return children[0]

    def game(self, children: list[Any]) -> list[Any]:
        return children

    def deal(self, children: list[Any]) -> list[Any]:
        return children

    def statement(self, children: list[Any]) -> list[Any]:
        """A statement a comment cut in two or more tokens: its tokens, in order."""
        return children


_Reduction = Callable[[list[Any]], Any]


def _reduction(rule: Any) -> _Reduction:
    """What reducing by ``rule`` gives, as :class:`_Callbacks` and Lark's tree builder
    together give it: the children, with those of an inlined helper rule (a name
    starting with "_": Lark's expansion of ``x*``) spliced in; one child alone for a
    ``?`` rule; the game itself for ``start``.

    ``children`` is always a fresh list (the parser slices its value stack), so it
    is returned or extended in place rather than copied."""
    spliced = tuple(place for place, symbol in enumerate(rule.expansion)
                    if not symbol.is_term and symbol.name.startswith("_"))
    if rule.origin.name == "start":
        return operator.itemgetter(0)
    if rule.options.expand1:  # ?statement: the token itself, or its tokens
        if spliced == (1,) and len(rule.expansion) == 2:
            def statement(children: list[Any]) -> Any:
                first, more = children
                more.insert(0, first)
                return more
            return statement
        assert not spliced
        return lambda children: children[0] if len(children) == 1 else children
    if not spliced:
        return _as_is
    if spliced == (0,) and len(rule.expansion) == 2:  # x*: one more, to the list so far
        def one_more(children: list[Any]) -> Any:
            so_far, item = children
            so_far.append(item)
            return so_far
        return one_more

    def splice(children: list[Any]) -> Any:
        out: list[Any] = []
        for place, child in enumerate(children):
            if place in spliced:
                out.extend(child)
            else:
                out.append(child)
        return out
    return splice


def _as_is(children: list[Any]) -> Any:
    return children


# Worth 1.3%, 2.6% and 2.5% of ``check`` on the bench's corpus (2,000 deals),
# tiny games and varied small games (issue 22: ``check -j 1 --quiet``, CPU time,
# median of 7 runs alternated with plain code in one process).
def _resolve_callbacks(lark: Lark) -> None:
    """Give Lark's LALR parser one plain function per grammar rule, keyed by the very
    rule objects its parse table holds.

    Lark wraps each :class:`_Callbacks` method in tree-builder objects (a Python call
    or two and a ``Tree`` per reduction), and its cached parse table holds copies of
    the rules, so each lookup ends in the rules' Python ``__eq__``.  The functions
    here give the same values (a test compares both on every sample); with a Lark
    whose insides differ they are simply not installed."""
    try:
        parser = lark.parser.parser.parser  # ParsingFrontend → LALR_Parser → _Parser
        states = parser.parse_table.states
        rules = {id(arg): arg for actions in states.values()
                 for action, arg in actions.values() if action.name == "Reduce"}
        if any(type(key) is not Rule for key in parser.callbacks) or \
                any(type(rule) is not Rule for rule in rules.values()):
            return  # not the table this was written for: leave Lark's
        twins = {key: _twin(rule) for key, rule in rules.items()}
        for actions in states.values():
            for terminal, (action, arg) in actions.items():
                if action.name == "Reduce":
                    actions[terminal] = (action, twins[id(arg)])
        parser.callbacks = {twin: _reduction(twin) for twin in twins.values()}
    except (AttributeError, TypeError, ValueError):  # pragma: no cover
        return


class _TableRule(Rule):
    """A grammar rule as the parse table holds it, equal only to itself and hashed by
    identity in C: the parser hashes the rule of every reduction, and compares it with
    the end state (``Rule.__hash__`` and ``__eq__`` are Python code)."""

    __slots__ = ()
    __hash__ = object.__hash__
    __eq__ = object.__eq__


def _twin(rule: Any) -> _TableRule:
    twin = _TableRule.__new__(_TableRule)
    for name in ("origin", "expansion", "alias", "options", "order", "_hash"):
        setattr(twin, name, getattr(rule, name))
    return twin


_local = threading.local()


def _lark() -> tuple[Lark, _Collector]:
    """One Lark instance per thread (the comment collector is per-parse state).  The parse
    table is built once and then loaded from this user's cache (:mod:`.parse_table`)."""
    cached = getattr(_local, "parser", None)
    if cached is None:
        from lark import __version__ as lark_version

        from .parse_table import table_file

        collector = _Collector()
        grammar = grammar_text()
        lark = Lark(
            grammar,
            parser="lalr",
            lexer="contextual",
            transformer=cast(Any, _Callbacks()),
            lexer_callbacks={
                "BRACE_COMMENT": collector,
                "LINE_COMMENT": collector,
                "CLAIM": collector.open_statement,
                "TOTAL": collector.open_statement,
            },
            cache=table_file(grammar, lark_version) or False,
            propagate_positions=False,
            maybe_placeholders=False,
        )
        _resolve_callbacks(lark)
        install_lean_lexer(lark)
        cached = (lark, collector)
        _local.parser = cached
        _local.parse = _direct_parse(lark, collector)
    return cast(tuple[Lark, _Collector], cached)


def build_parser() -> None:
    """Build this thread's parser now rather than at the first game (a forkserver does,
    so that every process it forks starts with the parser built)."""
    _game_parser()


_GameParser = tuple[Callable[[str], Any], _Collector]


def _game_parser() -> _GameParser:
    """``_lark()``'s parse of one game's text, and its comment collector (asked for
    once per game: kept ready on the thread)."""
    found = getattr(_local, "game_parser", None)
    if found is None:
        collector = _lark()[1]  # which also makes _local.parse
        found = _local.game_parser = (_local.parse, collector)
    return cast(_GameParser, found)


# Worth 5.6%, 18.2% and 15.9% of ``check`` on the bench's corpus (2,000 deals),
# tiny games and varied small games (issue 22: ``check -j 1 --quiet``, CPU time,
# median of 7 runs alternated with plain code in one process).
def _direct_parse(lark: Lark, collector: _Collector) -> Callable[[str], Any]:
    """``lark.parse``, less its per-call set-up and its per-token layers.

    The same LALR parse table, callbacks and contextual lexers, driven by one loop:
    Lark's own parse goes through four layers of calls per text (start symbol, lexer
    thread, parse configuration, a parser state object) and, per token, a generator
    and a method that fetches the table again; for a one-deal game those were a
    third of reading it, and a file may hold tens of thousands.

    Only the successful parse is done here.  At anything unusual (a token the table
    does not expect, text no terminal matches, an internal surprise) the text is
    parsed again from the start by Lark's own loop (``lark_parse``), which raises
    exactly what Lark raises, with its parser state for the error explanation; the
    comment collector is emptied first, as before any parse.  A test compares both
    loops on every sample and on generated and mutated games.  A Lark built
    otherwise than this module builds its own keeps ``lark.parse``."""
    try:
        from lark.lexer import LexerState, LexerThread
        from lark.parsers.lalr_analysis import Shift
        from lark.parsers.lalr_parser_state import ParseConf, ParserState
        from lark.utils import TextSlice

        frontend = lark.parser
        inner = frontend.parser.parser  # ParsingFrontend → LALR_Parser → _Parser
        if frontend.skip_lexer or lark.options._plugins or \
                frontend.parser_conf.start != ["start"]:
            return lark.parse
        conf = ParseConf(inner.parse_table, inner.callbacks, "start")
        lexer = frontend.lexer
        run = inner.parse_from_state
        # The basic lexer of each parser state (Lark's contextual lexer picks it so).
        next_token = {state: basic.next_token for state, basic in lexer.lexers.items()}
        states = conf.states
        start_state, end_state = conf.start_state, conf.end_state
        callbacks = conf.callbacks
        reductions = {rule: (len(rule.expansion), rule.origin.name, callbacks[rule])
                      for actions in states.values()
                      for action, rule in actions.values() if action is not Shift}
        shifted = {kind for kind in callbacks if isinstance(kind, str)}
    except (ImportError, AttributeError, KeyError):  # pragma: no cover - another Lark
        return lark.parse

    def lark_parse(text: str) -> Any:
        return run(ParserState(conf, LexerThread(lexer, LexerState(TextSlice(text, 0,
                                                                            len(text))))))

    if shifted:  # pragma: no cover - this module's callbacks work on rules only
        return lark_parse

    def parse(text: str) -> Any:
        text_end = len(text)
        lex_state = LexerState(TextSlice(text, 0, text_end))
        line_counter = lex_state.line_ctr
        state_stack = [start_state]
        value_stack: list[Any] = []
        try:
            kind = ""
            while kind != "$END":
                state = state_stack[-1]
                if line_counter.char_pos >= text_end:  # where Lark's lexer raises EOFError
                    kind = "$END"
                else:
                    try:
                        token: Any = next_token[state](lex_state, None)
                        kind = token.type
                    except EOFError:  # only blanks or comments were left
                        kind = "$END"
                while True:
                    action, arg = states[state][kind]
                    if action is Shift:
                        if arg == end_state or kind == "$END":
                            raise _Unusual
                        state_stack.append(arg)
                        value_stack.append(token)
                        break
                    size, origin, reduce = reductions[arg]
                    if size:
                        children = value_stack[-size:]
                        del state_stack[-size:]
                        del value_stack[-size:]
                    else:
                        children = []
                    action, state = states[state_stack[-1]][origin]
                    state_stack.append(state)
                    value_stack.append(reduce(children))
                    if kind == "$END" and state == end_state:
                        return value_stack[-1]
        except TooManyComments:
            raise
        except Exception:  # Lark's own loop says what it was
            collector.comments = []
            collector.opened = None
            return lark_parse(text)
        raise _Unusual  # pragma: no cover - the loop ends only by returning

    return parse


class _Unusual(Exception):
    """What the direct loop met is for Lark's own loop to report."""


# --- the lean lexer loop --------------------------------------------------------------------------
#
# A leaner token loop for Lark's contextual lexer: the same tokens, made with less work.
#
# Lark's contextual lexer keeps one basic lexer per parser state, each with one
# compiled regular expression over the terminals that state accepts.  Its
# ``next_token`` goes through a scanner object, a line counter's ``feed`` method and
# ``Token.__new__``'s keyword handling for every token and for every run of
# whitespace between tokens: about a sixth of Lark's time on AFN, where whitespace
# stands between every two tokens.
#
# :func:`install_lean_lexer` gives each of those basic lexers a ``next_token`` that runs the
# very same compiled expression at the very same place and makes the same tokens
# (type, text, offsets, lines and columns), keeps the line counter and the last
# token as Lark keeps them, and calls the same callbacks.  Anything unusual (no
# terminal matches, the end of the text) is handed to Lark's own method, which
# raises what Lark raises.  In the source tree, ``tests/parser/test_fast_lexer.py``
# (Hypothesis over generated and mutated games, every sample) and the benchmark's
# ``lexer_check`` module (every bench corpus) compare the token streams and errors
# of both, token by token.
#
# Only a Lark whose insides look as expected gets the new loop (Lark 1.3's
# ``TextSlice`` input, one expression per state); any other keeps its own.

# Worth 4.1%, 7.3% and 10.2% of ``check`` on the bench's corpus (2,000 deals),
# tiny games and varied small games (issue 22: ``check -j 1 --quiet``, CPU time,
# median of 7 runs alternated with plain code in one process).
_NextToken = Callable[[Any, Any], Token]


def install_lean_lexer(lark: Lark) -> bool:
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
