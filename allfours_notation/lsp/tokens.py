"""LSP semantic tokens: AFN highlighted in every editor that speaks LSP.

The tokens are the Pygments lexer's (:mod:`allfours_notation.writing.highlight`, which the
TextMate grammar in ``editors/`` follows too), so an editor colours a record as
``pygmentize`` and VS Code do, half-typed lines included.  Each lexer class maps to
one of the protocol's standard token types, so that an editor's theme colours it
without any configuration:

=====================  ===============  ===============================
lexer class            token type       in AFN
=====================  ===============  ===============================
Comment.*              comment          ``{ … }`` and ``; …``
Comment.Preproc        macro            ``% AFN 1``
Name.Tag               property         a tag's name
String                 string           a tag's value
Keyword                keyword          ``deal``, ``turn``, ``claim`` …
Keyword.Pseudo         function         the calls: ``stands``, ``begs`` …
Name.Constant          enumMember       claim items: ``high``, ``game`` …
Name.Attribute         decorator        penalties and reasons
Number                 number           trick numbers, scores
Name.Builtin           variable         the seats
String.Symbol (cards)  enum             ``JS``, ``10h``, ``??``
Operator               operator         the glyphs ``!`` ``?!`` …
=====================  ===============  ===============================

Tokens never span lines (a brace comment over several lines is one token a line),
and positions and lengths are in the client's units (UTF-16 unless it chose
otherwise).
"""

from __future__ import annotations

from collections.abc import Iterator

from lsprotocol import types
from pygments.token import (
    Comment,
    Keyword,
    Name,
    Number,
    Operator,
    String,
    _TokenType,
)

from ..writing.highlight import CARD_TOKEN, AfnLexer
from .document import DocumentAnalysis

TOKEN_TYPES = ("comment", "macro", "property", "string", "keyword", "function",
               "enumMember", "decorator", "number", "variable", "enum", "operator")
LEGEND = types.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=[])

# Most specific first: a card is a String.Symbol, itself a String.
_CLASSES: tuple[tuple[_TokenType, str], ...] = (
    (Comment.Preproc, "macro"),
    (Comment, "comment"),
    (Name.Tag, "property"),
    (CARD_TOKEN, "enum"),
    (String, "string"),
    (Keyword.Pseudo, "function"),
    (Keyword, "keyword"),
    (Name.Constant, "enumMember"),
    (Name.Attribute, "decorator"),
    (Name.Builtin, "variable"),
    (Number, "number"),
    (Operator, "operator"),
)
_INDEX = {name: index for index, name in enumerate(TOKEN_TYPES)}


def token_type(kind: _TokenType) -> int | None:
    """The legend's index for a lexer class, None for what is not coloured
    (white space, punctuation, text the lexer cannot read)."""
    for parent, name in _CLASSES:
        if kind in parent:
            return _INDEX[name]
    return None


def spans(text: str, first_line: int = 0,
          first_column: int = 0) -> Iterator[tuple[int, int, int, int]]:
    """``(line, column, length, type)`` in characters, one line at a time, for
    ``text`` that starts at the document's ``first_line`` and ``first_column``."""
    line, column = first_line, first_column
    for _, kind, value in AfnLexer().get_tokens_unprocessed(text):
        wanted = token_type(kind)
        for number, piece in enumerate(value.split("\n")):
            if number:
                line, column = line + 1, 0
            if piece and wanted is not None and piece.strip():
                yield line, column, len(piece), wanted
            column += len(piece)


def semantic_tokens(analysis: DocumentAnalysis,
                    wanted: types.Range | None = None) -> types.SemanticTokens:
    """The document's tokens (those of the lines ``wanted`` spans, when given),
    delta-encoded as the protocol asks."""
    lines = analysis.lines
    text, first_line, first_column = analysis.text, 0, 0
    last_line = lines.line_count - 1
    if wanted is not None:
        start_line = min(lines.from_client(wanted.start.line, 0)[0], last_line)
        last_line = min(lines.from_client(wanted.end.line, 0)[0], last_line)
        # lex from the start of the game the range begins in: a game never begins
        # inside a comment, so the lexer's state there is its first
        line_start = lines.offset(start_line, 0)
        placed = analysis.game_at(line_start)
        begin = min(placed.piece.start, line_start) if placed is not None else line_start
        first_line, first_column = lines.position(begin)
        end = lines.offset(last_line, len(lines.line_text(last_line)))
        text = text[begin:end]
    data: list[int] = []
    previous_line = previous_start = 0
    for line, column, length, kind in spans(text, first_line, first_column):
        if wanted is not None and not (wanted.start.line <= line <= wanted.end.line):
            continue
        if line > last_line:
            break
        start = lines.to_client(line, column)[1]
        size = lines.to_client(line, column + length)[1] - start
        delta_line = line - previous_line
        data += [delta_line, start - previous_start if delta_line == 0 else start, size,
                 kind, 0]
        previous_line, previous_start = line, start
    return types.SemanticTokens(data=data)
