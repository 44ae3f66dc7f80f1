"""``allfours --version`` and ``allfours --version --verbose`` (what a bug report needs)."""

from __future__ import annotations

import platform
from importlib import metadata
from pathlib import Path

import pytest

import allfours_notation
from allfours_notation.cli import REPORTED_LIBRARIES, main


def test_version_alone_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"allfours {allfours_notation.__version__}\n"


@pytest.mark.parametrize("words", [["--version", "--verbose"], ["--verbose", "--version"]])
def test_verbose_version_names_python_the_platform_and_each_library(
        capsys: pytest.CaptureFixture[str], words: list[str]) -> None:
    assert main(words) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"allfours {allfours_notation.__version__}"
    assert lines[1].startswith(f"Python {platform.python_version()} (")
    assert lines[2].startswith("platform ")
    assert lines[3:] == [f"{name} {metadata.version(name)}" for name in REPORTED_LIBRARIES]


def test_verbose_without_version_still_needs_a_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--verbose"])
    assert exit_.value.code == 2
    assert "COMMAND" in capsys.readouterr().err


def test_the_readme_asks_for_what_it_prints() -> None:
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "`allfours --version --verbose`" in readme


def test_an_internal_error_says_what_to_send() -> None:
    """AFN901 asks for a report; it names the command whose output the report needs."""
    from allfours_notation.guard import BUG_TEXT

    assert "'allfours --version --verbose'" in BUG_TEXT
