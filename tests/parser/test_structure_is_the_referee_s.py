"""Reading reports what it reads; the structure checks (AFN2xx) are the referee's
(issue 22): the reading floor's ``parse`` gives none of them, the public ``parse``,
``iter_games``, ``parse_indexed`` and the one door give them all, the same."""

from __future__ import annotations

import io

import allfours_notation
from allfours_notation import checking
from allfours_notation.reading import headers, parser, stream

# A card dealt twice (AFN201), a hand of seven (AFN203), a trick short (AFN204), a
# second total (AFN206), deals out of order (AFN210), a total naming a seat twice
# (AFN212) and a finding of reading's (AFN104, no 'end') in one game.
TEXT = """% AFN 1
[Event "e"] [Site "s"] [Date "2026.01.01"] [Rules "x"] [North "n"] [South "s"]
[Result "*"]
deal 1 dealer N
N AS KS QS JS 10S 9S 8S
S AS 2H 3H 4H 5H 6H
turn 7D
S stands
1. S:2H N:KS 2. N:QS
total N 1 N 2
total N 1 S 0
deal 3 dealer S
"""

STRUCTURE = {"AFN201", "AFN203", "AFN204", "AFN206", "AFN210", "AFN212"}


def codes(diagnostics: object) -> set[str]:
    return {d.code for d in diagnostics}  # type: ignore[attr-defined]


def test_the_reading_floor_reports_no_structure_finding() -> None:
    read = parser.parse(TEXT)
    assert "AFN104" in codes(read.diagnostics)
    assert not {code for code in codes(read.diagnostics) if code.startswith("AFN2")}
    streamed = list(stream.iter_games(io.StringIO(TEXT)))
    assert not {code for code in codes(streamed[0].diagnostics) if code.startswith("AFN2")}
    header = headers.scan_headers(TEXT)[0]
    indexed = headers.parse_indexed(TEXT, header)
    assert not {code for code in codes(indexed.diagnostics) if code.startswith("AFN2")}


def test_the_public_parse_and_the_door_report_them() -> None:
    public = allfours_notation.parse(TEXT)
    assert STRUCTURE | {"AFN104"} <= codes(public.diagnostics)
    read = parser.parse(TEXT)
    # reading's findings, then the structure checks', as before the move
    assert [d for d in public.diagnostics if d.code[:4] != "AFN2"] == list(read.diagnostics)
    game = public.games[0]
    streamed = list(allfours_notation.iter_games(io.StringIO(TEXT)))
    assert streamed[0].diagnostics == game.diagnostics
    header = allfours_notation.scan_headers(TEXT)[0]
    assert allfours_notation.parse_indexed(TEXT, header).diagnostics == game.diagnostics
    checked = checking.check_text(TEXT)
    assert codes(checked.all_diagnostics()) >= STRUCTURE
    assert codes(checking.check(game).diagnostics) >= STRUCTURE
