"""What a bug report needs: ``allfours bug-report`` and ``allfours --version --verbose``
print the versions and the platform; an internal error (AFN901) says how to report it."""

from __future__ import annotations

import platform
from importlib import metadata

import pytest

import allfours_notation
from allfours_notation.cli import main
from allfours_notation.cli.bugreport import DEPENDENCIES
from allfours_notation.guard import INTERNAL_ERROR, internal_error


@pytest.mark.parametrize("argv", [["bug-report"], ["--version", "--verbose"],
                                  ["--verbose", "--version"], ["--version", "-v"]])
def test_the_report_names_every_version_and_the_platform(
        argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == f"allfours-notation {allfours_notation.__version__}"
    assert lines[1].startswith(f"Python {platform.python_version()} ")
    assert f"platform {platform.platform()}" in out
    for name in DEPENDENCIES:
        assert f"{name} {metadata.version(name)}" in out, name


def test_the_plain_version_stays_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"allfours {allfours_notation.__version__}\n"


def test_an_internal_error_says_how_to_report_it() -> None:
    found = internal_error(ValueError("boom"), doing="parsing this game", line=3, column=1)
    assert found.code == INTERNAL_ERROR
    assert "please report it, with what 'allfours bug-report' prints" in found.message
    assert "CONTRIBUTING.md" in found.message
