"""Reading bytes as AFN text: UTF-8, with or without a BOM, CRLF or LF.

A byte that is not UTF-8 becomes a diagnostic with its line and column and is
replaced by U+FFFD, so the rest of the file can still be read.
"""

from __future__ import annotations

import codecs

from .diagnostics import Diagnostic, Severity

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
