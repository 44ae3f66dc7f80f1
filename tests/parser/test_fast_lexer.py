"""The lean lexer loop (:mod:`allfours_notation.reading.lexer`) gives Lark's token stream,
errors included: on every sample and test record, on generated texts of AFN words,
comments, stray characters and whitespace, and on mutated samples.

``python -m bench.lexer_check`` runs the same comparison over every bench corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from allfours_notation import parse
from allfours_notation.reading.parser import _lark

from .lexer_streams import StreamReader, first_difference

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted([*(ROOT / "samples").glob("*.afn"), *(ROOT / "tests").rglob("*.afn")])

_lean = StreamReader(lean=True)
_plain = StreamReader(lean=False)

# Lark before 1.3 (the lowest version allowed) keeps its own loop: nothing to compare.
pytestmark = pytest.mark.skipif(not _lean.lean, reason="this Lark keeps its own lexer loop")

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


def test_the_parser_reads_with_the_lean_loop() -> None:
    lark, _ = _lark()
    assert _lean.lean, "this Lark should take the lean loop"
    lexers = lark.parser.lexer.lexers.values()
    assert all("next_token" in vars(lexer) for lexer in lexers)


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
    """The comparison sees a token one character off (so a pass means something)."""
    text = "deal 1 dealer N turn 4S end"
    assert first_difference(_lean, _plain, text) is None
    real = _lean.stream

    def shifted(body: str) -> list[object]:
        found = real(body)
        return [(*found[0][:2], found[0][2] + 1, *found[0][3:]), *found[1:]]

    _lean.stream = shifted  # type: ignore[method-assign]
    try:
        assert first_difference(_lean, _plain, text) is not None
    finally:
        del _lean.stream


def test_records_read_with_the_lean_loop_are_the_records() -> None:
    """End to end: a sample parses to the same games and diagnostics either way."""
    text = (ROOT / "samples" / "annotated.afn").read_text(encoding="utf-8")
    lark, _ = _lark()
    lean = parse(text)
    saved = {id(lexer): lexer for lexer in lark.parser.lexer.lexers.values()}
    for lexer in saved.values():
        del lexer.next_token
    try:
        plain = parse(text)
    finally:
        from allfours_notation.reading.lexer import install
        install(lark)
    assert lean.games == plain.games
    assert lean.diagnostics == plain.diagnostics
