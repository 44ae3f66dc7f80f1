"""Property tests on generated records (see ``strategies``): format → parse gives
the records back (seats filled, ``end`` written), and formatting is a fixed point."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from allfours_notation.checking.parsing import parse
from allfours_notation.reading.lark_parser import grammar_text
from allfours_notation.reading.parser import ParseResult
from allfours_notation.reading.records import Game
from allfours_notation.writing.formatter import canonical_records, format_game, format_result

from .strategies import games, results


def _reparse(text: str) -> ParseResult:
    result = parse(text)
    unreadable = [d for d in result.diagnostics if d.code.startswith("AFN1") and d.is_error]
    assert not unreadable, text
    return result


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_a_formatted_game_reads_back_the_same_and_formats_the_same(game: Game) -> None:
    text = format_game(game)
    reread = _reparse(text)
    assert len(reread.games) == 1, text
    assert reread.games[0] == canonical_records(game), text
    assert format_result(reread) == "% AFN 1\n" + text  # a fixed point


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(results)
def test_a_formatted_file_keeps_every_game_and_the_comments_after_them(
    result: ParseResult,
) -> None:
    text = format_result(result)
    reread = _reparse(text)
    assert reread.games == tuple(canonical_records(game) for game in result.games), text
    assert reread.trailing == result.trailing
    assert format_result(reread) == text


_LOSSY = {"AFN110", "AFN206", "AFN213"}  # the formatter refuses to rewrite these files


def _text_from_the_grammar() -> st.SearchStrategy[str]:
    """Text from the grammar's rules and terminals.  from_lark reads those only, never a
    parse table: Earley builds none, where LALR would build the whole table (1.4 s of
    CPU); the strategy is the same either way (the same rules, terminals and start
    symbols).  Made when the test first draws (st.deferred), in the worker that runs it,
    not at import in every xdist worker that collects this module (0.3 s of CPU each)."""
    return from_lark(Lark(grammar_text(), parser="earley", lexer="dynamic"))


@settings(deadline=None, suppress_health_check=list(HealthCheck))
@given(st.deferred(_text_from_the_grammar))
def test_text_from_the_grammar_formats_without_loss(text: str) -> None:
    """Lax text as the grammar allows it (any case, ``10``, suit symbols, labels
    and numbers left out) reads back from its canonical form unchanged."""
    original = parse(text)
    if any(game.broken for game in original.games) or any(
        d.code in _LOSSY for d in original.diagnostics
    ):
        return  # not the formatter's to keep whole (fmt refuses such files)
    formatted = format_result(original)
    reread = parse(formatted)
    assert reread.games == tuple(canonical_records(game) for game in original.games), formatted
    assert format_result(reread) == formatted
