"""Semantic tokens: the lexer's classes as the protocol's standard types, a line at a
time, in the client's units, for the whole document or a range of lines."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from lsprotocol import types

from allfours_notation.lsp import tokens
from allfours_notation.lsp.document import Analyzer

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.afn"))

GAME = """% AFN 1
[Event "Club \U0001F0A1 night"]
deal 1 dealer N
  turn 7D
  S begs
  1. S:J♠! { two lines
  of comment } N:9H
  claim S high game
"""


def decoded(data: Sequence[int]) -> list[tuple[int, int, int, str]]:
    """The protocol's relative encoding undone: (line, start, length, type)."""
    found, line, start = [], 0, 0
    for at in range(0, len(data), 5):
        delta_line, delta_start, length, kind, modifiers = data[at:at + 5]
        assert modifiers == 0
        line += delta_line
        start = start + delta_start if delta_line == 0 else delta_start
        found.append((line, start, length, tokens.TOKEN_TYPES[kind]))
    return found


def texts(text: str, found: list[tuple[int, int, int, str]]) -> list[tuple[str, str]]:
    """(type, text) of each token, reading UTF-16 columns as the client does."""
    lines = text.split("\n")
    out = []
    for line, start, length, kind in found:
        units = lines[line].encode("utf-16-le")
        out.append((kind, units[2 * start:2 * (start + length)].decode("utf-16-le")))
    return out


def test_each_word_has_its_standard_type_and_utf16_place() -> None:
    analysis = Analyzer().analyse(GAME)
    found = texts(GAME, decoded(tokens.semantic_tokens(analysis).data))
    assert found[:4] == [("macro", "% AFN 1"), ("property", "Event"),
                         ('string', '"Club \U0001F0A1 night"'), ("keyword", "deal")]
    assert ("variable", "S") in found and ("function", "begs") in found
    assert ("enum", "7D") in found and ("enum", "J♠") in found and ("operator", "!") in found
    assert ("number", "1.") in found and ("enumMember", "high") in found
    # a comment over two lines is a token on each; the card after it is in place
    assert ("comment", " two lines") in found and ("comment", "  of comment ") in found
    assert found[-5:] == [("enum", "9H"), ("keyword", "claim"), ("variable", "S"),
                          ("enumMember", "high"), ("enumMember", "game")]
    assert all(kind in tokens.LEGEND.token_types for kind, _ in found)


@pytest.mark.parametrize("path", SAMPLES[:4], ids=[p.stem for p in SAMPLES[:4]])
def test_a_range_is_the_whole_documents_tokens_on_those_lines(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    analysis = Analyzer().analyse(text)
    whole = decoded(tokens.semantic_tokens(analysis).data)
    count = len(text.split("\n"))
    for first in range(0, count, 7):
        last = min(first + 9, count - 1)
        wanted = types.Range(types.Position(first, 0), types.Position(last, 0))
        part = decoded(tokens.semantic_tokens(analysis, wanted).data)
        assert part == [t for t in whole if first <= t[0] <= last], (path.name, first)


def test_every_sample_is_coloured_throughout() -> None:
    """Every character of every sample but white space, brackets and the seat's colon
    is in a token (one sample's typo, "gma", is read by nothing, on purpose)."""
    for path in SAMPLES:
        text = path.read_text(encoding="utf-8")
        lines = text.split("\n")
        covered = [[False] * len(line.encode("utf-16-le")) for line in lines]
        for number, start, length, _ in decoded(
                tokens.semantic_tokens(Analyzer().analyse(text)).data):
            covered[number][2 * start:2 * (start + length)] = [True] * (2 * length)
        bare = ""
        for line, mask in zip(lines, covered, strict=True):
            units = line.encode("utf-16-le")
            bare += "".join(units[i:i + 2].decode("utf-16-le") for i in range(0, len(units), 2)
                            if not mask[i])
        left = "".join(bare.split()).replace("[", "").replace("]", "").replace(":", "")
        assert left == ("gma" if path.name == "one-broken-game.afn" else ""), path.name
