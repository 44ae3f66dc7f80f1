"""The floor: a plain regular-expression tokenizer over the same bytes.

It decodes the bytes and visits every token of the file once, counting each
kind, which is the least any Python reader of AFN must do.  Our parser's
throughput is reported as a fraction of this.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(
    r"""
      (?P<comment>\{[^}]*\}|;[^\n]*)
    | (?P<directive>%[^\n]*)
    | (?P<tag>\[[^\]\n]*\])
    | (?P<card>(?:[NESWnesw]:)?(?:10|[AKQJTakqjt2-9])[SHDCshdc♠♥♦♣](?:[!?]{1,2})?(?![A-Za-z0-9]))
    | (?P<number>[0-9]+\.?)
    | (?P<word>[A-Za-z]+)
    | (?P<other>\S)
    """,
    re.VERBOSE,
)


def tokenize(data: bytes) -> dict[str, int]:
    """Count the tokens of each kind in ``data``."""
    counts: dict[str, int] = {}
    for match in _TOKEN.finditer(data.decode("utf-8")):
        kind = match.lastgroup or "other"
        counts[kind] = counts.get(kind, 0) + 1
    return counts
