"""A fast fuzz test in the suite: the checks of the long atheris campaign
(``python -m fuzz``) on inputs Hypothesis builds.

Inputs are AFN-looking texts cut and mutated: words of the notation, cards,
seats, numbers, brackets, quotes, comments and white space in any order, the
bundled samples with bytes replaced, inserted or deleted, and raw bytes.  For
each: no exception, no internal-error diagnostic, and when the formatter calls
its output safe, that output formats to itself (see ``fuzz.target``).  Time is
not asserted here (see test_linear_time.py).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fuzz.target import Outcome, run_input
from tests.conftest import examples

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.afn"))
WORDS = [
    "deal", "dealer", "end", "turn", "claim", "total", "penalty", "redeal", "abandoned",
    "stands", "begs", "gives", "runs", "concedes", "high", "low", "jack", "game", "kick",
    "gift", "hangjack", "exhausted", "misdeal", "revoke", "N", "E", "S", "W", "N:", "S:",
    "JS", "2D", "10h", "AH", "TC", "K♠", "??", "1.", "2.", "4.", "7", "-3", "% AFN 1", "%",
    '[Event "x"]', '[North "A"]', '[South "B"]', '[Rules "trinidad14"]', "[", "]", '"', "\\",
    "{", "}", "{ c }", "; c", "!", "?!", "`", "\t", " ", "\n", "\r\n", "\n\n", "\ufffd",
    # issue 41: a number past int()'s 4,300 digits, and a line of results of many items
    "9" * 4_400, "scored" + " N high W low" * 60, "claim" + " N kick 3" * 80,
]


def afn_like() -> st.SearchStrategy[bytes]:
    words = st.lists(st.sampled_from(WORDS), max_size=120)
    return words.map(lambda chosen: " ".join(chosen).encode("utf-8"))


@st.composite
def mutated_sample(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SAMPLES)).read_bytes())
    for _ in range(draw(st.integers(1, 8))):
        where = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["replace", "insert", "delete"]))
        chunk = draw(st.binary(min_size=1, max_size=4) | st.sampled_from(
            [word.encode("utf-8") for word in WORDS]))
        if action == "replace":
            data[where : where + len(chunk)] = chunk
        elif action == "insert":
            data[where:where] = chunk
        else:
            del data[where : where + len(chunk)]
    return bytes(data)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(afn_like() | mutated_sample() | st.binary(max_size=300))
def test_no_crash_and_no_formatter_disagreement(data: bytes) -> None:
    verdict = run_input(data)
    assert verdict.outcome in (Outcome.OK, Outcome.SLOW), verdict.detail
