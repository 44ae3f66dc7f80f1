"""The Pygments lexer and the TextMate grammar: every sample read whole, and both
agreeing token for token.

Editors run TextMate grammars with Oniguruma; the grammar keeps to the part of
the regular-expression language Python's ``re`` shares (flat patterns, one
begin/end rule), so a small interpreter here can run it the way an editor does:
line by line, at each position the first pattern that matches there.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Text

from allfours_notation.writing.highlight import AfnLexer, highlighted, token_stream

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.afn"))
GRAMMAR = ROOT / "editors" / "vscode" / "syntaxes" / "afn.tmLanguage.json"
GOLDEN = ROOT / "tests" / "golden" / "highlight" / "two-player-to-seven.tokens.txt"

# The one mapping between the two: TextMate scope → Pygments token class.
SCOPES = {
    "comment.block.afn": "Token.Comment.Multiline",
    "comment.line.semicolon.afn": "Token.Comment.Single",
    "meta.preprocessor.directive.afn": "Token.Comment.Preproc",
    "punctuation.definition.tag.begin.afn": "Token.Punctuation",
    "punctuation.definition.tag.end.afn": "Token.Punctuation",
    "entity.name.tag.afn": "Token.Name.Tag",
    "string.quoted.double.afn": "Token.Literal.String",
    "keyword.control.afn": "Token.Keyword",
    "keyword.other.call.afn": "Token.Keyword.Pseudo",
    "constant.language.item.afn": "Token.Name.Constant",
    "support.constant.reason.afn": "Token.Name.Attribute",
    "constant.numeric.time.afn": "Token.Literal.Number",
    "constant.numeric.trick.afn": "Token.Literal.Number.Integer",
    "constant.numeric.afn": "Token.Literal.Number.Integer",
    "variable.language.seat.afn": "Token.Name.Builtin",
    "punctuation.separator.seat.afn": "Token.Punctuation",
    "constant.other.card.afn": "Token.Literal.String.Symbol",
    "constant.other.card.unknown.afn": "Token.Literal.String.Symbol",
    "keyword.operator.glyph.afn": "Token.Operator",
    "invalid.illegal.afn": "Token.Error",
}
# One sample is broken on purpose: its typo ("gmae") is the only text the lexer
# cannot read (the final "e" reads as the seat East).
BROKEN = {"one-broken-game.afn": "gma"}


def pygments_tokens(text: str) -> list[tuple[str, str]]:
    """(class, text) for every token but white space outside comments."""
    return [
        (str(kind), value) for kind, value in token_stream(text)
        if kind not in Text.Whitespace and value.strip()
    ]


class TextMate:
    """Runs the flat grammar of ``editors/`` as an editor would, line by line."""

    def __init__(self, grammar: dict[str, Any]) -> None:
        self.rules = [
            (re.compile(rule["begin"] if "begin" in rule else rule["match"]), rule)
            for rule in grammar["patterns"]
        ]

    def tokens(self, text: str) -> list[tuple[str, str]]:
        found: list[tuple[str, str]] = []
        inside: dict[str, Any] | None = None
        for line in text.splitlines(keepends=True):
            pos = 0
            while pos < len(line):
                if inside is not None:
                    end = re.compile(inside["end"]).search(line, pos)
                    stop = end.end() if end else len(line)
                    found.append((inside["name"], line[pos:stop]))
                    inside = None if end else inside
                    pos = stop
                    continue
                pos = self.step(line, pos, found)
                if found and found[-1][0] == "<begin>":
                    rule = found.pop()[1]
                    inside = next(r for _, r in self.rules if r.get("begin") == rule)
        return self.merged(found)

    def step(self, line: str, pos: int, found: list[tuple[str, str]]) -> int:
        for pattern, rule in self.rules:
            match = pattern.match(line, pos)
            if match is None or match.end() == pos:
                continue
            if "begin" in rule:
                found.append((rule["name"], match.group()))
                found.append(("<begin>", rule["begin"]))
            elif "captures" in rule:
                for group, capture in sorted(rule["captures"].items()):
                    if match.group(int(group)):
                        found.append((capture["name"], match.group(int(group))))
            else:
                found.append((rule["name"], match.group()))
            return match.end()
        return pos + 1  # white space: no scope

    @staticmethod
    def merged(found: list[tuple[str, str]]) -> list[tuple[str, str]]:
        out: list[tuple[str, str]] = []
        for scope, value in found:
            kind = SCOPES[scope]
            if out and out[-1][0] == kind and kind == "Token.Comment.Multiline":
                out[-1] = (kind, out[-1][1] + value)  # a comment's lines are one comment
            elif value.strip():
                out.append((kind, value))
        return out


def without_space_merge(tokens: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Adjacent tokens of one class joined, so that both sides cut text alike."""
    out: list[tuple[str, str]] = []
    for kind, value in tokens:
        if out and out[-1][0] == kind:
            out[-1] = (kind, out[-1][1] + value)
        else:
            out.append((kind, value))
    return out


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_every_sample_is_read_whole(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    errors = "".join(value for kind, value in token_stream(text) if kind in Error)
    assert errors == BROKEN.get(path.name, "")
    assert "".join(value for _, value in AfnLexer().get_tokens(text)).rstrip("\n") == \
        text.rstrip("\n")


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_the_textmate_grammar_agrees_with_the_lexer(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    grammar = TextMate(json.loads(GRAMMAR.read_text(encoding="utf-8")))
    assert without_space_merge(grammar.tokens(text)) == \
        without_space_merge(pygments_tokens(text))


def test_golden_token_stream(update_goldens: bool) -> None:
    text = (ROOT / "samples" / "two-player-to-seven.afn").read_text(encoding="utf-8")
    stream = "".join(f"{kind} {value!r}\n" for kind, value in token_stream(text))
    if update_goldens:
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(stream, encoding="utf-8")
    assert stream == GOLDEN.read_text(encoding="utf-8")


def test_registered_with_pygments() -> None:
    assert isinstance(get_lexer_by_name("afn"), AfnLexer)
    assert isinstance(get_lexer_for_filename("games.afn"), AfnLexer)


def test_lax_words_and_mistakes() -> None:
    kinds = {value: str(kind) for kind, value in token_stream("1. s:10h! N:J♠ claim N HIGH x\n")}
    assert kinds["s"] == "Token.Name.Builtin" and kinds["10h"] == "Token.Literal.String.Symbol"
    assert kinds["!"] == "Token.Operator" and kinds["J♠"] == "Token.Literal.String.Symbol"
    assert kinds["HIGH"] == "Token.Name.Constant" and kinds["x"] == "Token.Error"


CLOCK_AND_COUNT = ("deal 3 dealer N at 20:41\n  scored N high game S low\n"
                   "  count N 31 S 18\n\ndeal 4 dealer S AT 9:05:30\n")


def test_a_clock_time_and_a_count_are_coloured_alike_by_both() -> None:
    kinds = {value: str(kind) for kind, value in token_stream(CLOCK_AND_COUNT)}
    assert kinds["at"] == kinds["AT"] == kinds["count"] == "Token.Keyword"
    assert kinds["20:41"] == kinds["9:05:30"] == "Token.Literal.Number"
    assert kinds["31"] == "Token.Literal.Number.Integer"
    grammar = TextMate(json.loads(GRAMMAR.read_text(encoding="utf-8")))
    assert without_space_merge(grammar.tokens(CLOCK_AND_COUNT)) == \
        without_space_merge(pygments_tokens(CLOCK_AND_COUNT))


def test_rich_text_keeps_the_text() -> None:
    line = "  1. S:JS N:2D  ; a comment"
    assert highlighted(line).plain == line
    assert any(span.style for span in highlighted(line).spans)



def test_check_colours_the_snippet_only_on_a_terminal() -> None:
    from rich.console import Console

    from allfours_notation import parse
    from allfours_notation.cli.check import print_diagnostic
    from allfours_notation.referee import check_game

    text = (ROOT / "samples" / "revoke.afn").read_text(encoding="utf-8")
    result = parse(text)
    diagnostic = check_game(result.games[0])[0]
    written = {}
    for terminal in (True, False):
        stream = io.StringIO()
        out = Console(force_terminal=terminal, width=200, color_system="standard", file=stream,
                      highlight=False)
        print_diagnostic(out, diagnostic, text)
        written[terminal] = stream.getvalue()
    def plain(output: str) -> str:
        return re.sub("\x1b\\[[0-9;]*m", "", output)

    assert plain(written[True]) == plain(written[False])  # the same words either way
    snippets = {t: next(line for line in written[t].splitlines() if " | " in line)
                for t in written}
    assert "\x1b[" not in snippets[False]  # not on a pipe (Rich drops all colour there too)
    assert snippets[True].count("\x1b[") > 4  # coloured word by word on a terminal


def test_cards_are_coloured_in_stock_pygments_styles() -> None:
    """A card's class is one that nearly every stock style colours (48 of Pygments'
    50 styles at 2.21), apart from the plain text around it."""
    from pygments.styles import get_all_styles, get_style_by_name
    from pygments.token import Text

    from allfours_notation.writing.highlight import CARD_TOKEN

    kinds = dict((value, kind) for kind, value in token_stream("  1. S:J♠ N:10h\n"))
    assert kinds["J♠"] is CARD_TOKEN and kinds["10h"] is CARD_TOKEN
    names = list(get_all_styles())
    coloured = [name for name in names
                if (style := get_style_by_name(name)).style_for_token(CARD_TOKEN)["color"]
                not in (None, "", style.style_for_token(Text)["color"])]
    assert {"default", "monokai", "friendly", "solarized-dark", "github-dark"} <= set(coloured)
    assert len(coloured) >= len(names) - 3
