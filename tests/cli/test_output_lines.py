"""``Lines`` writes a line itself only where Rich would write the same (issue 27)."""

from __future__ import annotations

import pytest

from allfours_notation.cli.output import _RICH_CHANGES, Lines


def no_console() -> object:
    raise AssertionError("no Rich console is needed for plain text")


@pytest.mark.parametrize("character", _RICH_CHANGES)
def test_every_character_rich_changes_sends_the_block_to_rich(character: str) -> None:
    lines = Lines(no_console, plain=True)  # type: ignore[arg-type]
    assert not lines.written(f"file.afn:1:1: warning …\n    1 | a{character}b")


def test_a_block_rich_would_not_change_is_written_as_it_is(
        capsys: pytest.CaptureFixture[str]) -> None:
    lines = Lines(no_console, plain=True)  # type: ignore[arg-type]
    assert lines.written("file.afn:1:1: warning …\n    1 | end\n        ^")
    lines.flush()
    assert capsys.readouterr().out == "file.afn:1:1: warning …\n    1 | end\n        ^\n"
