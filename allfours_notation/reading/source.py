"""Reading bytes as AFN text: UTF-8, with or without a BOM, CRLF or LF.

A byte that is not UTF-8 becomes a diagnostic with its line and column and is
replaced by U+FFFD, so the rest of the file can still be read.
"""

from __future__ import annotations

import codecs
import re

from ..diagnostics import Diagnostic, Severity

BOM = "\ufeff"
MAX_ENCODING_DIAGNOSTICS = 20


def decode(data: bytes, filename: str | None = None) -> tuple[str, list[Diagnostic]]:
    """Decode ``data``; return the text and one diagnostic per bad byte run."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return _decode_with_errors(data, filename)
    return strip_bom(text), []


def strip_bom(text: str) -> str:
    return text[1:] if text.startswith(BOM) else text


def _decode_with_errors(data: bytes, filename: str | None) -> tuple[str, list[Diagnostic]]:
    """Replace each bad byte run with U+FFFD in one linear pass; report the first few."""
    bad_runs: list[tuple[int, int]] = []

    def remember(error: UnicodeError) -> tuple[str, int]:
        assert isinstance(error, UnicodeDecodeError)
        bad_runs.append((error.start, error.end))
        return "\ufffd", error.end

    codecs.register_error("allfours-remember", remember)
    text = data.decode("utf-8", errors="allfours-remember")
    diagnostics = [
        _bad_bytes(data, start, end, filename) for start, end in bad_runs[:MAX_ENCODING_DIAGNOSTICS]
    ]
    if len(bad_runs) > MAX_ENCODING_DIAGNOSTICS:
        # Placed at the first run not reported on its own.
        first_unreported = _bad_bytes(data, *bad_runs[MAX_ENCODING_DIAGNOSTICS], filename)
        diagnostics.append(
            Diagnostic(
                code="AFN102",
                severity=Severity.ERROR,
                message=f"{len(bad_runs) - MAX_ENCODING_DIAGNOSTICS} more runs of bytes are not "
                "UTF-8 from here on; only the first are reported one by one",
                file=filename,
                line=first_unreported.line,
                column=first_unreported.column,
                hint="re-save the file as UTF-8",
            )
        )
    return strip_bom(text), diagnostics


def _bad_bytes(data: bytes, start: int, end: int, filename: str | None) -> Diagnostic:
    line_start = data.rfind(b"\n", 0, start) + 1
    line = data.count(b"\n", 0, start) + 1
    column = len(data[line_start:start].decode("utf-8", errors="replace")) + 1
    return Diagnostic(
        code="AFN102",
        severity=Severity.ERROR,
        message=f"byte {data[start:end].hex(' ')} is not UTF-8; AFN files are UTF-8 text",
        file=filename,
        line=line,
        column=column,
        hint="re-save the file as UTF-8",
    )


# NUL and the other C0 controls but TAB, LF and CR; DEL; the C1 controls; lone surrogates
# (a str handed over by an editor or an API can hold them; decoded bytes cannot).
CONTROL_CODE = "AFN111"
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROL_NAMES = {0x00: "NUL", 0x07: "BEL", 0x08: "BS", 0x0B: "VT", 0x0C: "FF", 0x1B: "ESC",
                  0x7F: "DEL", 0x9B: "CSI", 0x9D: "OSC"}


def control_characters(text: str, filename: str | None = None) -> list[Diagnostic]:
    """One warning (AFN111) per control character in ``text``, at its line and column
    (the first :data:`MAX_ENCODING_DIAGNOSTICS`, then one that counts the rest).  The
    character is kept: nothing written is dropped, and every tool shows it escaped."""
    first = _CONTROL.search(text)
    if first is None:
        return []
    found: list[Diagnostic] = []
    line, line_start, counted_to = 1, 0, 0
    more = 0
    for match in _CONTROL.finditer(text, first.start()):
        offset = match.start()
        if len(found) >= MAX_ENCODING_DIAGNOSTICS:
            more += 1
            continue
        line += text.count("\n", counted_to, offset)
        counted_to = offset
        line_start = text.rfind("\n", 0, offset) + 1
        code = ord(match.group())
        name = _CONTROL_NAMES.get(code)
        kind = ("a lone surrogate" if 0xD800 <= code <= 0xDFFF else
                f"control character U+{code:04X}" + (f" ({name})" if name else ""))
        found.append(Diagnostic(
            code=CONTROL_CODE, severity=Severity.WARNING,
            message=f"{kind} in the text: it is kept as written, and shown as an escape",
            file=filename, line=line, column=offset - line_start + 1,
            end_column=offset - line_start + 2,
            hint="a record holds printable text: remove it, or write what it stands for"))
    if more:
        last = found[-1]
        found.append(Diagnostic(
            code=CONTROL_CODE, severity=Severity.WARNING,
            message=f"{more} more control characters after this one; only the first "
            f"{MAX_ENCODING_DIAGNOSTICS} are reported one by one",
            file=filename, line=last.line, column=last.column))
    return found
