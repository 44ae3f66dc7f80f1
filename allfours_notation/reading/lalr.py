"""The LALR loop over the parse table shipped beside the grammar, and what it needs: no Lark.

Importing Lark and building its parser cost a one-game ``check`` about 0.25 s of CPU
(issue 27), more than everything else it does.  The grammar's LALR table and its
contextual lexer's expressions are plain data, so ``grammar/allfours.table.json`` holds
them (made from Lark by :func:`.lark_parser.table_data`; ``python -m
allfours_notation.reading.build_table`` writes it again after a grammar edit, and a test
fails with that command when the file does not match the grammar), and
:func:`direct_parse` drives them: one loop that lexes a token with the expression of
the parser state it is in and shifts or reduces it, as Lark's LALR parser with its
contextual lexer does.  The tokens are this module's :class:`Token`, with the
attributes of Lark's that reading uses.  :mod:`.game_parser` puts the loop together
with the table and Lark's own loop, for the games it cannot read.
"""

from __future__ import annotations

import operator
import os
import re
import zlib
from collections.abc import Callable
from typing import Any

from ..limits import MAX_COMMENTS_PER_GAME

TABLE_FILE = "allfours.table.json"
REGENERATE = "python -m allfours_notation.reading.build_table"


def grammar_file(name: str) -> str:
    """A file of the grammar folder: shipped in the wheel (``_grammar``), or read from
    the source checkout (``grammar``).  Plain paths first: importing importlib.resources
    costs a cold start more than the read (issue 27); it is asked only where the package
    is not a folder of files."""
    package = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
    for candidate in (os.path.join(package, "_grammar", name),
                      os.path.join(os.path.dirname(package), "grammar", name)):
        if os.path.isfile(candidate):
            with open(candidate, encoding="utf-8") as text:
                return text.read()
    from importlib import resources

    return resources.files("allfours_notation").joinpath(f"_grammar/{name}").read_text(
        encoding="utf-8")


def grammar_checksum(grammar: str) -> int:
    """What the table file records of the grammar it was made from (CRC-32: it tells a
    table that was not made again after an edit, and is cheap to import and work out)."""
    return zlib.crc32(grammar.encode("utf-8"))


class Token(str):
    """A token of the game's text: its text, and the attributes of Lark's ``Token`` that
    reading uses (Lark's own loop, which reports syntax errors, gives Lark's tokens, which
    have them too).  Its line and column are worked out from ``text``, the game's, when
    asked for: reading uses only offsets, and counting the lines of every token as the
    loop went cost about 1% of reading a game (issue 38)."""

    __slots__ = ("end_pos", "start_pos", "text", "type", "value")
    type: str
    value: str
    start_pos: int
    end_pos: int
    text: str

    @property
    def line(self) -> int:
        return self.text.count("\n", 0, self.start_pos) + 1

    @property
    def column(self) -> int:
        return self.start_pos - self.text.rfind("\n", 0, self.start_pos)

    @property
    def end_line(self) -> int:
        return self.text.count("\n", 0, self.end_pos) + 1

    @property
    def end_column(self) -> int:
        return self.end_pos - self.text.rfind("\n", 0, self.end_pos)


class TooManyComments(Exception):
    """Raised from inside the lexer when a game has more comments than
    :data:`~.limits.MAX_COMMENTS_PER_GAME`: the game is not read (AFN120), and the
    comments are not held."""


class Collector:
    """Receives the comments the lexer skips, for the game being parsed, and the last
    claim or total it read (where a claim cut by comments starts, for
    :func:`~.syntax_errors.explain`).  One per thread: the lexer callbacks of this
    module's loop and of Lark's (the error path) both call it."""

    def __init__(self) -> None:
        self.comments: list[Any] = []  # this module's tokens, or Lark's
        self.opened: Any = None

    def __call__(self, token: Any) -> Any:
        self.comments.append(token)
        if len(self.comments) > MAX_COMMENTS_PER_GAME:  # stop reading: a limit, AFN120
            raise TooManyComments
        return token

    def open_statement(self, token: Any) -> Any:
        self.opened = token
        return token


# The terminals the lexer hands to the collector: the comments it skips, and the
# statements a comment may cut (their start, for the explanation of an error in them).
COMMENT_TERMINALS = ("BRACE_COMMENT", "LINE_COMMENT")
OPENING_TERMINALS = ("CLAIM", "TOTAL")


def lexer_callbacks(collector: Collector) -> dict[str, Callable[[Any], Any]]:
    """The lexer callbacks of a parse that reports to ``collector``."""
    return {**dict.fromkeys(COMMENT_TERMINALS, collector),
            **dict.fromkeys(OPENING_TERMINALS, collector.open_statement)}


# --- reductions ---------------------------------------------------------------------------------

_Reduction = Callable[[list[Any]], Any]


def reduction(shape: str, spliced: tuple[int, ...] = ()) -> _Reduction:
    """What reducing by a rule of ``shape`` gives (see :func:`.lark_parser.reduction_shape`,
    which reads the shape off Lark's rule): the children, with those of an inlined helper
    rule (at the places ``spliced``) spliced in.

    ``children`` is always a fresh list (the parser slices its value stack), so it is
    returned or extended in place rather than copied."""
    if shape == "first":  # start: the game itself
        return operator.itemgetter(0)
    if shape == "statement":  # ?statement: HAND HAND_MORE*: the token and its continuations
        def statement(children: list[Any]) -> Any:
            first, more = children
            more.insert(0, first)
            return more
        return statement
    if shape == "one_or_list":  # ?statement of one token: the token itself
        return lambda children: children[0] if len(children) == 1 else children
    if shape == "as_is":
        return _as_is
    if shape == "one_more":  # x*: one more, to the list so far
        def one_more(children: list[Any]) -> Any:
            so_far, item = children
            so_far.append(item)
            return so_far
        return one_more
    if shape != "splice":
        raise ValueError(f"no reduction of shape {shape!r}")

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


# --- the table ----------------------------------------------------------------------------------

_Reduce = tuple[int, str, _Reduction]  # the rule's length, its origin, what it gives
_Action = tuple[bool, Any]  # (True, the state shifted to) or (False, a _Reduce)
_Match = Callable[[str, int], "re.Match[str] | None"]


class Table:
    """The shipped table, ready for the loop: per parser state its actions and its
    lexer's expression, compiled on the state's first token (compiling every state's
    up front, as Lark does, cost 0.055 s of a one-game check: issue 27).

    Several lexers are another lexer's terminals with one more in front (after a hand,
    ``HAND_MORE`` and then every statement's): such a lexer compiles only its own
    terminals and tries the other lexer's expression when they do not match, which is
    what the one alternation would do.  A one-game check compiles the statements'
    twenty terminals once instead of four times (about 7 ms of its 0.1 s: issue 27).
    """

    def __init__(self, data: dict[str, Any]) -> None:
        rules: list[_Reduce] = [(rule["size"], rule["origin"],
                                 reduction(rule["shape"], tuple(rule.get("spliced", ()))))
                                for rule in data["rules"]]
        self.actions: list[dict[str, _Action]] = [
            {symbol: (True, arg) if what == "shift" else (False, rules[arg])
             for symbol, (what, arg) in actions.items()}
            for actions in data["states"]]
        self.start: int = data["start_state"]
        self.end: int = data["end_state"]
        terminals = {name: possessive(expression)
                     for name, expression in data["terminals"].items()}
        self.flags: int = data["flags"]
        lexers: list[list[str]] = data["lexers"]
        # Each lexer's own terminals and the lexer whose terminals follow them (or None).
        self.tails: list[int | None] = [_tail_lexer(names, lexers) for names in lexers]
        # The whitespace between tokens is tried first: it stands before nearly every
        # token, and no terminal starts with whitespace (a test holds that), so the order
        # changes no match.  Tried last, every other terminal failed on it first, and a
        # lexer with a tail went on to the tail's expression (issue 38).
        blank = [name for name in data["ignore"] if data["terminals"][name] == r"\s+"]
        self.patterns = [
            "|".join(f"(?P<{name}>{terminals[name]})"
                     for name in _blank_first(names if tail is None
                                              else names[:len(names) - len(lexers[tail])],
                                              [name for name in blank if name in names]))
            for names, tail in zip(lexers, self.tails, strict=True)]
        self.lexer_of_state: list[int] = data["lexer_of_state"]
        self.ignore = frozenset(data["ignore"])
        self.callbacks = frozenset(data["callbacks"])
        self._compiled: list[_Match | None] = [None] * len(self.patterns)
        self.matches: list[_Match | None] = [None] * len(self.actions)

    def match_of(self, state: int) -> _Match:
        """State ``state``'s lexer expression's ``match``, compiled now if need be."""
        found = self.matches[state] = self._lexer_match(self.lexer_of_state[state])
        return found

    def _lexer_match(self, lexer: int) -> _Match:
        found = self._compiled[lexer]
        if found is None:
            own = re.compile(self.patterns[lexer], self.flags).match
            tail = self.tails[lexer]
            found = self._compiled[lexer] = own if tail is None else _either(
                own, self._lexer_match(tail))
        return found


def possessive(expression: str) -> str:
    """``expression`` with its last repetition possessive (``(?:…)+`` → ``(?:…)++``), when
    it ends in one: the same match, since nothing follows it in the terminal, without the
    state the regular expression engine otherwise keeps per repetition to backtrack into.

    A claim, a line of results or a total is one token of as many words as are written:
    matched greedily, a line of 1 MB of items cost the lexer about 50 MB; possessively,
    nothing (issue 41)."""
    if expression.endswith(("++", "*+", "?+", "}+")) or not expression.endswith((")+", ")*")):
        return expression
    return expression + "+"


def _tail_lexer(names: list[str], lexers: list[list[str]]) -> int | None:
    """The longest other lexer whose terminals end ``names`` (in order), if any."""
    tails = [(len(other), index) for index, other in enumerate(lexers)
             if 0 < len(other) < len(names) and names[len(names) - len(other):] == other]
    return max(tails)[1] if tails else None


def _blank_first(own: list[str], blank: list[str]) -> list[str]:
    """A lexer's own terminals ``own``, the whitespace terminals ``blank`` of the whole
    lexer (its tail's too) put first (see :class:`Table`)."""
    return [*blank, *(name for name in own if name not in blank)]


def _either(first: _Match, then: _Match) -> _Match:
    """``first``'s match at a position, else ``then``'s: the alternation of the two
    expressions, which tries its branches in order."""

    def match(text: str, pos: int) -> re.Match[str] | None:
        return first(text, pos) or then(text, pos)

    return match


# --- the loop -----------------------------------------------------------------------------------


class _Unusual(Exception):
    """What the loop met is for Lark's own loop to report."""


_Fallback = Callable[[str], Any]


def direct_parse(parse_table: Table, collector: Collector,
                 fallback: _Fallback) -> Callable[[str], Any]:
    """A parse of one game's text with ``parse_table``: its tokens as the grammar's
    reductions group them (see :func:`reduction`), the comments (and the last claim or
    total) reported to ``collector``.

    Only the successful parse is done here.  At anything unusual (text no terminal
    matches, a token the table does not expect) ``collector`` is emptied and the text
    is handed to ``fallback`` (reading's is Lark's own loop, reporting to this
    collector: it raises what Lark raises, with its parser state for the error
    explanation, :mod:`.syntax_errors`)."""
    actions = parse_table.actions
    matches = parse_table.matches
    match_of = parse_table.match_of
    start_state, end_state = parse_table.start, parse_table.end
    ignore = parse_table.ignore
    every_callback = lexer_callbacks(collector)
    callbacks = {kind: every_callback[kind] for kind in parse_table.callbacks}
    # Skipped without a token: ignored terminals no callback wants (whitespace).
    skip = frozenset(kind for kind in ignore if kind not in callbacks)
    new = str.__new__

    other_loop = fallback

    def parse(text: str) -> Any:
        end = len(text)
        pos = 0
        state_stack = [start_state]
        value_stack: list[Any] = []
        try:
            while True:
                state = state_stack[-1]
                kind = "$END"  # unless a token is found before the end of the text
                while pos < end:
                    match = matches[state] or match_of(state)
                    found = match(text, pos)
                    if found is None:
                        raise _Unusual  # Lark's lexer says what was expected
                    name: str = found.lastgroup  # type: ignore[assignment]  # every terminal is a named group
                    if name in skip:
                        pos = found.end()
                        continue
                    value = found.group()
                    token = new(Token, value)
                    token.type = name
                    token.value = value
                    token.start_pos = pos
                    pos = found.end()
                    token.end_pos = pos
                    token.text = text
                    callback = callbacks.get(name)
                    if callback is not None:
                        token = callback(token)
                    if name not in ignore:
                        kind = name
                        break
                while True:
                    shift, arg = actions[state][kind]
                    if shift:
                        if arg == end_state or kind == "$END":
                            raise _Unusual
                        state_stack.append(arg)
                        value_stack.append(token)
                        break
                    size, origin, reduce = arg
                    if size:
                        children = value_stack[-size:]
                        del state_stack[-size:]
                        del value_stack[-size:]
                    else:
                        children = []
                    state = actions[state_stack[-1]][origin][1]
                    state_stack.append(state)
                    value_stack.append(reduce(children))
                    if kind == "$END" and state == end_state:
                        return value_stack[-1]
        except TooManyComments:
            raise
        except Exception:  # Lark's own loop says what it was
            collector.comments = []
            collector.opened = None
            return other_loop(text)

    return parse


