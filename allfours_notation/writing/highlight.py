"""Syntax highlighting for AFN: a Pygments lexer, and Rich text made with it.

The lexer is registered under the Pygments entry point, so that after
installing the package ``pygmentize -l afn FILE`` (and every tool built on
Pygments) knows AFN.  The token classes here are the contract the TextMate
grammar in ``editors/`` follows; a test tokenises every sample with both and
compares them.

The lexer follows the grammar's words, not its structure: a card is a card
wherever it stands, so a half-typed line still colours sensibly.  Anything the
lexer does not know is an ``Error`` token, which is how a test proves that
every sample is fully understood.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, ClassVar

from pygments.lexer import RegexLexer, bygroups
from pygments.token import (
    Comment,
    Error,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    _TokenType,
)

from ..reading.words import (
    CALLS,
    CARD_PATTERN,
    CLAIM_ITEMS,
    CLOCK_PATTERN,
    DISCARDS,
    GLYPH_PATTERN,
    KEYWORDS,
    PENALTY_KINDS,
    REDEAL_REASONS,
    SEAT_PATTERN,
    UNKNOWN_CARD,
    either,
)

if TYPE_CHECKING:
    from rich.text import Text as RichText

# A card (and ``??``, a card not known): a string symbol, which 48 of Pygments' 50 stock
# styles colour (plain ``Literal`` is coloured by 11), so cards and their suits stand out
# in ``pygmentize``, Sphinx, MkDocs and every tool built on Pygments with any style.
CARD_TOKEN = String.Symbol

# Word boundaries: AFN words end before a letter, digit or underscore.
_END = r"(?![A-Za-z0-9_])"
CARD = CARD_PATTERN
SEAT = SEAT_PATTERN
GLYPH = f"(?:{GLYPH_PATTERN})"
# The notation's words by class (reading/words.py, held to the grammar): "penalty" is a
# keyword here, never an item; "exhausted" is coloured as a penalty's kind is.
_ITEMS = tuple(item for item in CLAIM_ITEMS if item not in KEYWORDS)
_KINDS = (*PENALTY_KINDS, *(reason for reason in REDEAL_REASONS if reason not in PENALTY_KINDS))


class AfnLexer(RegexLexer):
    """All Fours Notation (``.afn``)."""

    name = "AFN"
    aliases: ClassVar[list[str]] = ["afn", "allfours"]
    filenames: ClassVar[list[str]] = ["*.afn"]
    mimetypes: ClassVar[list[str]] = ["text/x-afn"]
    url = "https://github.com/allfours-notation"

    tokens: ClassVar[dict[str, list[object]]] = {
        "root": [
            (r"\s+", Text.Whitespace),
            (r"\{", Comment.Multiline, "brace"),
            (r";[^\n]*", Comment.Single),
            (r"%[^\n]*", Comment.Preproc),
            (
                r'(\[)([ \t]*)([A-Za-z][A-Za-z0-9_]*)([ \t]+)("(?:[^"\\\n]|\\.)*")([ \t]*)(\])',
                bygroups(Punctuation, Text.Whitespace, Name.Tag, Text.Whitespace, String,
                         Text.Whitespace, Punctuation),
            ),
            (either(KEYWORDS) + _END, Keyword),
            (either((*CALLS, DISCARDS)) + _END, Keyword.Pseudo),
            (either(_ITEMS) + _END, Name.Constant),
            (either(_KINDS) + _END, Name.Attribute),
            (CLOCK_PATTERN + r"(?![A-Za-z0-9_:.])", Number),  # a deal's time: "at 20:41"
            (r"[0-9]+\.", Number.Integer),
            (rf"({SEAT})(:)({CARD})({GLYPH}?)" + _END,
             bygroups(Name.Builtin, Punctuation, CARD_TOKEN, Operator)),
            (rf"({CARD})({GLYPH}?)" + _END, bygroups(CARD_TOKEN, Operator)),
            (re.escape(UNKNOWN_CARD) + _END, CARD_TOKEN),
            (SEAT + _END, Name.Builtin),
            (r"-?[0-9]+" + _END, Number.Integer),
            (r".", Error),
        ],
        "brace": [
            (r"[^}]+", Comment.Multiline),
            (r"\}", Comment.Multiline, "#pop"),
        ],
    }


def token_stream(text: str) -> list[tuple[_TokenType, str]]:
    """The lexer's tokens, adjacent tokens of one class merged."""
    merged: list[tuple[_TokenType, str]] = []
    for kind, value in AfnLexer().get_tokens(text):
        if merged and merged[-1][0] is kind:
            merged[-1] = (kind, merged[-1][1] + value)
        else:
            merged.append((kind, value))
    return merged


_STYLES = {
    Comment: "dim italic",
    Comment.Preproc: "magenta",
    Name.Tag: "blue",
    String: "green",
    Keyword: "bold",
    Keyword.Pseudo: "bold cyan",
    Name.Constant: "cyan",
    Name.Attribute: "yellow",
    Name.Builtin: "bold yellow",
    CARD_TOKEN: "bright_white",
    Operator: "magenta",
    Number: "cyan",
    Error: "red",
}


def _style_of(kind: _TokenType) -> str | None:
    while kind is not None:
        if kind in _STYLES:
            return _STYLES[kind]
        kind = kind.parent
    return None


def highlighted(text: str) -> RichText:
    """``text`` as Rich text coloured by the AFN lexer (plain where no style
    applies), for printing on a terminal; Rich drops the colours when the output
    is not one, so piped output stays byte-for-byte plain."""
    from rich.text import Text as RichText

    out = RichText()
    for kind, value in AfnLexer().get_tokens(text):
        out.append(value, style=_style_of(kind) or "")
    if not text.endswith("\n") and out.plain.endswith("\n"):
        out.right_crop(1)  # Pygments ends every text with a newline
    return out
