"""Every use of Lark's insides, in one place: the grammar loaded into Lark, the parse table
shipped beside it (made here from Lark's), and Lark's own loop for a game that does not
parse.

A game that parses is read without Lark (:mod:`.lalr`, from the shipped table);
Lark is imported only to report a syntax error (its own loop, which raises what Lark
raises), to make the table again (``python -m allfours_notation.reading.build_table``),
and by the tests that compare both.  Whatever here reaches past Lark's public API is
checked and left out (Lark's own code kept) when Lark's insides are not as expected.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any, cast

from lark import Lark

from .lalr import Collector, grammar_checksum, grammar_file, lexer_callbacks, possessive


def grammar_text() -> str:
    """The AFN grammar: shipped in the wheel, or read from the source checkout."""
    return grammar_file("allfours.lark")


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


def reduction_shape(rule: Any) -> tuple[str, tuple[int, ...]]:
    """What reducing by ``rule`` gives, as :class:`_Callbacks` and Lark's tree builder
    together give it, named for :func:`.lalr.reduction`: the children, with those
    of an inlined helper rule (a name starting with "_": Lark's expansion of ``x*``)
    spliced in (their places, the second item); one child alone for a ``?`` rule; the
    game itself for ``start``."""
    spliced = tuple(place for place, symbol in enumerate(rule.expansion)
                    if not symbol.is_term and symbol.name.startswith("_"))
    if rule.origin.name == "start":
        return "first", ()
    if rule.options.expand1:  # ?statement: the token itself, or its tokens
        if spliced == (1,) and len(rule.expansion) == 2:
            return "statement", ()
        if spliced:
            raise ValueError(f"a ?rule of a shape the parser has no reduction for: {rule}")
        return "one_or_list", ()
    if not spliced:
        return "as_is", ()
    if spliced == (0,) and len(rule.expansion) == 2:  # x*: one more, to the list so far
        return "one_more", ()
    return "splice", spliced


def _build(collector: Collector) -> Lark:
    """A Lark of the grammar whose lexer reports to ``collector``.  The parse table is
    built once and then loaded from this user's cache (:mod:`.parse_table`)."""
    from lark import __version__ as lark_version

    from .parse_table import table_file

    grammar = grammar_text()
    lark = Lark(
        grammar,
        parser="lalr",
        lexer="contextual",
        transformer=cast(Any, _Callbacks()),
        lexer_callbacks=lexer_callbacks(collector),
        cache=table_file(grammar, lark_version) or False,
        propagate_positions=False,
        maybe_placeholders=False,
    )
    return lark


_local = threading.local()


def lark_for(collector: Collector) -> Lark:
    """This thread's Lark whose lexer reports to ``collector`` (built at its first use:
    reading builds one, for its thread's collector, at the first game that does not
    parse)."""
    cached = getattr(_local, "parser", None)
    if cached is None or cached[1] is not collector:
        lark = _build(collector)
        _possessive_terminals(lark)
        cached = _local.parser = (lark, collector, _lark_entry(lark))
    return cast(Lark, cached[0])


def _possessive_terminals(lark: Lark) -> None:
    """Lark's terminals with their last repetition possessive, as :mod:`.lalr` compiles
    them (:func:`.lalr.possessive`: the same tokens, without the engine's state kept per
    repetition), before any lexer compiles them: Lark's loop reads a game that does not
    parse, which may hold a claim of a million words (issue 41).  Left as Lark made them
    where its insides are not as expected."""
    try:
        from lark.lexer import PatternRE

        for terminal in lark.terminals:
            if isinstance(terminal.pattern, PatternRE):
                terminal.pattern.value = possessive(terminal.pattern.value)
    except (ImportError, AttributeError):  # pragma: no cover - another Lark
        return


def lark_parse(collector: Collector, text: str) -> Any:
    """Lark's own parse of one game's text, its lexer reporting to ``collector``: where
    reading hands a game its table's loop does not read (it raises Lark's error)."""
    lark_for(collector)
    return _local.parser[2](text)


def _lark_entry(lark: Lark) -> Callable[[str], Any]:
    """``lark.parse``, less its per-call layers (start symbol, lexer thread, parse
    configuration) where this Lark has the insides this was written for (1.3's)."""
    try:
        from lark.lexer import LexerState, LexerThread
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
    except (ImportError, AttributeError, KeyError):  # pragma: no cover - another Lark
        return lark.parse

    def parse(text: str) -> Any:
        return run(ParserState(conf, LexerThread(lexer, LexerState(TextSlice(text, 0,
                                                                            len(text))))))

    return parse


# --- the shipped table ------------------------------------------------------------------------


def table_data(lark: Lark | None = None) -> dict[str, Any]:
    """The parse table and lexers of ``lark`` (by default a Lark built from the grammar
    as :func:`_build` builds it) as plain data, for :mod:`.lalr`: what
    ``grammar/allfours.table.json`` holds.

    States are numbered in the order a walk from the start state meets them (each
    state's symbols in sorted order), rules and lexers in the order the walk first
    uses them, so that the file is the same from one build to the next whatever the
    order Lark's sets give.  Each lexer's terminals are in the order Lark's contextual
    lexer tries them; the expression they make is checked against Lark's own.  Lark
    makes a lexer for each set of terminals a state accepts, "$END" included; states
    whose lexers try the same terminals share one here (8 expressions to compile, not
    17: each of the large ones costs about 11 ms, issue 27)."""
    if lark is None:
        lark = _build(Collector())
    inner = lark.parser.parser.parser  # ParsingFrontend → LALR_Parser → _Parser
    parse_table = inner.parse_table
    states = parse_table.states
    lexers = lark.parser.lexer.lexers
    if set(parse_table.start_states) != {"start"}:
        raise ValueError("the grammar has other start symbols than 'start'")
    order: list[int] = [parse_table.start_states["start"]]
    number = {order[0]: 0}
    for state in order:  # grows as the walk goes
        for _, (action, arg) in sorted(states[state].items()):
            if action.name == "Shift" and arg not in number:
                number[arg] = len(order)
                order.append(arg)
    if len(order) != len(states):
        raise ValueError("a parser state no walk from the start reaches")
    rule_number: dict[int, int] = {}
    rules: list[dict[str, Any]] = []
    lexer_number: dict[tuple[str, ...], int] = {}  # one lexer per list of terminals
    lexer_of_state: list[int] = []
    terminals: dict[str, str] = {}
    flags: set[int] = set()
    newline: set[str] = set()
    out_states: list[dict[str, list[Any]]] = []
    for state in order:
        actions: dict[str, list[Any]] = {}
        for symbol, (action, arg) in sorted(states[state].items()):
            if action.name == "Shift":
                actions[symbol] = ["shift", number[arg]]
                continue
            if id(arg) not in rule_number:
                rule_number[id(arg)] = len(rules)
                shape, spliced = reduction_shape(arg)
                rule: dict[str, Any] = {"origin": arg.origin.name, "size": len(arg.expansion),
                                        "shape": shape}
                if spliced:
                    rule["spliced"] = list(spliced)
                rules.append(rule)
            actions[symbol] = ["reduce", rule_number[id(arg)]]
        out_states.append(actions)
        lexer = lexers[state]
        names = tuple(_lexer_terminals(lexer, terminals, flags))
        lexer_of_state.append(lexer_number.setdefault(names, len(lexer_number)))
        newline |= lexer.newline_types
    ignore = sorted(next(iter(lexers.values())).ignore_types)
    callbacks = sorted(next(iter(lexers.values())).callback)
    if len(flags) != 1:
        raise ValueError("the lexers' expressions differ in their flags")
    return {
        "about": "the AFN grammar's LALR table and contextual lexers, for "
                 "allfours_notation/reading/lalr.py; made from Lark by "
                 "python -m allfours_notation.reading.build_table: never edited by hand",
        "grammar_crc32": grammar_checksum(grammar_text()),
        "start_state": 0,
        "end_state": number[parse_table.end_states["start"]],
        "rules": rules,
        "states": out_states,
        "lexer_of_state": lexer_of_state,
        "lexers": [list(names) for names in lexer_number],
        "terminals": dict(sorted(terminals.items())),
        "flags": flags.pop(),
        "ignore": ignore,
        "newline": sorted(newline),
        "callbacks": callbacks,
    }


def _lexer_terminals(lexer: Any, terminals: dict[str, str], flags: set[int]) -> list[str]:
    """The terminals one of Lark's basic lexers tries, in its order, each one's
    expression added to ``terminals`` and the expression's flags to ``flags``; an error
    where the lexer is not the plain one :mod:`.lalr` does the work of (one
    expression, no callbacks but the collector's, no terminal of Lark's own making)."""
    scanner = lexer.scanner  # builds it, as Lark does at the first token
    if len(scanner._mres) != 1 or scanner.use_bytes or getattr(scanner, "match_whole", False):
        raise ValueError("a lexer of more than one expression, or over bytes")
    names: list[str] = []
    for terminal in scanner.terminals:
        expression = terminal.pattern.to_regexp()
        if terminals.setdefault(terminal.name, expression) != expression:
            raise ValueError(f"two expressions for {terminal.name}")
        names.append(terminal.name)
    ours = "|".join(f"(?P<{name}>{terminals[name]})" for name in names)
    compiled = scanner._mres[0]
    if ours != compiled.pattern or re.compile(ours, scanner.g_regex_flags).flags != compiled.flags:
        raise ValueError("a lexer expression is not the one Lark compiles")
    flags.add(scanner.g_regex_flags)
    wanted = {name for name in lexer.callback if name in lexer.user_callbacks}
    if set(lexer.callback) != wanted or any(lexer.callback[name] is not lexer.user_callbacks[name]
                                            for name in wanted):
        raise ValueError("a lexer callback of Lark's own making (a keyword inside a terminal)")
    return names

