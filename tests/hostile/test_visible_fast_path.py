"""visible() and has_hostile() first ask ``str.isprintable`` (issue 27: it runs in C, the
character class several times slower); that is sound only if every character they
escape is unprintable."""

from __future__ import annotations

import sys

from allfours_notation.visible import _LINES, _ONE_LINE, HOSTILE, has_hostile, visible


def test_every_escaped_character_is_unprintable() -> None:
    printable_yet_escaped = [
        hex(code) for code in range(sys.maxunicode + 1)
        if chr(code).isprintable()
        and (_ONE_LINE.match(chr(code)) or _LINES.match(chr(code)) or HOSTILE.match(chr(code)))
    ]
    assert printable_yet_escaped == []


def test_the_fast_path_keeps_what_the_pattern_finds() -> None:
    assert visible("a\x1b[2Jb") == "a\\x1b[2Jb"
    assert has_hostile("x\u202ey") and not has_hostile("plain … text")
    assert visible("a\tb") == "a\\tb" and visible("a\tb", lines=True) == "a\tb"
