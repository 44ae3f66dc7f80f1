"""The loop over the shipped parse table (:mod:`allfours_notation.reading.game_parser`)
reads what Lark's own loop reads (every token, with its offsets, lines and columns, the
lexer callbacks' tokens, the parse), and hands over to Lark exactly the texts Lark
raises on: on every sample and test record, on generated texts of AFN words, comments,
stray characters and whitespace, and on mutated samples.

``python -m bench.lexer_check`` runs the same comparison over every bench corpus.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from allfours_notation import parse
from allfours_notation.reading import game_parser, lalr
from allfours_notation.reading.lark_parser import lark_parse

from .lexer_streams import HANDED_OVER, LarkReader, TableReader, first_difference

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted([*(ROOT / "samples").glob("*.afn"), *(ROOT / "tests").rglob("*.afn")])

_lean = TableReader()
_plain = LarkReader()

# Words of the notation, the pieces of its terminals, comments, and things that are not
# AFN at all; joined with and without whitespace between them.
FRAGMENTS = [
    "deal 1 dealer N", "deal 2 dealer s", "DEAL 3 DEALER E", "deal", "dealer", "N", "E", "S",
    "W", "JS", "10h", "T♠", "J♦", "??", "9X", "turn", "turn 4S", "stands", "begs", "gives",
    "runs", "concedes", "S stands", "N runs", "S discards", "pack", "1.", "12.", "1. S:JS",
    "N:2D", "S:9H!", "N:3H??", "!?", "claim", "claim S high low", "jack", "game", "kick", "3",
    "hangjack", "total", "total N 0 S 4", "N -2", "penalty S revoke", "penalty", "undertrump",
    "redeal exhausted", "redeal misdeal", "abandoned", "end", "END", '[Event "x"]',
    '[Site "a \\" b"]', "[Bad]", "{ a comment }", "{ two\nlines }", "{ unclosed", "; to the end\n",
    "% AFN 1\n", "%x", "\n", "\r\n", " ", "\t", "  \n  ", "\u00a0", "é", "#", ":", ".", "!",
]

texts = st.lists(
    st.tuples(st.sampled_from(FRAGMENTS), st.sampled_from(["", " ", "\n", "  ", "\t"])),
    max_size=40,
).map(lambda pairs: "".join(word + gap for word, gap in pairs))


def test_the_parser_reads_with_the_shipped_table() -> None:
    """Reading runs the loop the comparisons run, on the table read from the file."""
    parse_text, _ = game_parser.game_parser()
    assert parse_text.__qualname__ == "direct_parse.<locals>.parse"
    assert game_parser.table() is game_parser._tables[0]
    shipped = game_parser._table_data()
    assert shipped["grammar_crc32"] == lalr.grammar_checksum(
        lalr.grammar_file("allfours.lark"))
    assert "about" in shipped  # the file's own, not one made from Lark at run time


@pytest.mark.parametrize("path", RECORDS, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_record_gives_the_same_tokens(path: Path) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    assert first_difference(_lean, _plain, text) is None


@given(texts)
def test_generated_texts_give_the_same_tokens_and_errors(text: str) -> None:
    assert first_difference(_lean, _plain, text) is None


SAMPLE_TEXTS = [path.read_text(encoding="utf-8")
                for path in sorted((ROOT / "samples").glob("*.afn"))]


@given(st.sampled_from(SAMPLE_TEXTS), st.lists(st.tuples(
    st.integers(0, 10_000), st.integers(0, 12), st.sampled_from(["", *FRAGMENTS])), max_size=6))
def test_mutated_samples_give_the_same_tokens_and_errors(
        text: str, edits: list[tuple[int, int, str]]) -> None:
    """Each edit deletes a few characters somewhere and writes a fragment there."""
    for where, length, insert in edits:
        at = where % (len(text) + 1)
        text = text[:at] + insert + text[at + length:]
    assert first_difference(_lean, _plain, text) is None


def test_a_difference_would_be_found() -> None:
    """The comparison sees a token one character off, a comment left out, and a text
    handed to Lark that Lark reads (so a pass means something)."""
    text = "deal 1 dealer N { c } turn 4S end"
    assert first_difference(_lean, _plain, text) is None
    real = _lean.stream

    def shifted(body: str) -> list[Any]:
        found = real(body)
        deal, (kind, value, start, *others) = found[-1][1]  # the deal, then "end"
        return [*found[:-1], ("parsed", [deal, (kind, value, start + 1, *others)])]

    def without_comments(body: str) -> list[Any]:
        return real(body)[-1:]

    def handed_over(body: str) -> list[Any]:
        return [*real(body)[:-1], HANDED_OVER]

    for wrong in (shifted, without_comments, handed_over):
        _lean.stream = wrong  # type: ignore[method-assign]
        try:
            assert first_difference(_lean, _plain, text) is not None, wrong.__name__
        finally:
            del _lean.stream


@pytest.mark.parametrize("name", ["annotated.afn", "disputed-claim.afn"])
def test_records_read_with_the_table_are_the_records_lark_reads(
        name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end: a sample parses to the same games and diagnostics either way."""
    text = (ROOT / "samples" / name).read_text(encoding="utf-8")
    ours = parse(text)
    collector = game_parser.game_parser()[1]
    monkeypatch.setattr(game_parser._local, "game_parser",
                        (lambda body: lark_parse(collector, body), collector))
    by_lark = parse(text)
    assert ours.games == by_lark.games
    assert ours.diagnostics == by_lark.diagnostics
