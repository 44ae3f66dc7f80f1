"""Any input gets diagnostics, never a traceback, in time linear in its size."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from allfours_notation import parse, scan_headers

AFN_ALPHABET = (
    list('[]{};%"\\:.!? \n\t-')
    + list("NESWnesw")
    + list("AKQJT98765432")
    + list("SHDC♠♥♦♣")
    + ["deal ", "dealer ", "turn ", "end", "claim ", "total ", "stands", "begs", "runs", "10"]
)


@settings(deadline=None)
@given(st.lists(st.sampled_from(AFN_ALPHABET), max_size=80).map("".join))
def test_afn_like_noise_never_raises(text: str) -> None:
    result = parse(text)
    assert all(d.code.startswith("AFN") for d in result.diagnostics)
    assert len(scan_headers(text)) == len(result.games)


@settings(deadline=None)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_never_raise(data: bytes) -> None:
    result = parse(data)
    for diagnostic in result.diagnostics:
        assert diagnostic.code.startswith("AFN")
        diagnostic.render(result.text)


def test_a_megabyte_of_random_bytes_is_read_with_diagnostics() -> None:
    data = random.Random(7).randbytes(1 << 20)
    result = parse(data)
    assert any(d.code == "AFN102" for d in result.diagnostics)


def test_a_huge_unterminated_comment_is_one_diagnostic() -> None:
    text = '% AFN 1\n[Event "x"] deal 1 dealer N {' + "never closed " * 80_000
    result = parse(text)
    assert [d.code for d in result.diagnostics if d.is_error] == ["AFN103"]


def test_non_utf8_byte_is_reported_at_its_line() -> None:
    data = b'% AFN 1\n[Event "caf\xe9"]\ndeal 1 dealer N turn 4S end\n'
    result = parse(data)
    (bad,) = [d for d in result.diagnostics if d.code == "AFN102"]
    assert (bad.line, bad.column) == (2, 12)
    assert result.games[0].tag("Event") == "caf\ufffd"
