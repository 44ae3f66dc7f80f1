"""``allfours view`` refuses what it cannot show with one line and exit code 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from allfours_notation.cli import main

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("missing.afn", None, "no such file"),
        ("folder", "DIR", "is a directory"),
        ("picture.png", b"\x89PNG\r\n\x1a\n\x00\x00", "not an AFN file"),
        ("notes.txt", b"dear diary\n", "not an AFN file"),
    ],
)
def test_unviewable_paths_exit_2_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                               name: str, content: bytes | str | None,
                                               message: str) -> None:
    path = tmp_path / name
    if content == "DIR":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    assert main(["view", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    sample = str(Path(__file__).parent / "fixtures" / "two.afn")
    assert main(["view", sample, "--trick", "2"]) == 2
    assert "--trick needs --deal" in capsys.readouterr().err
    assert main(["view", sample, "--game", "0"]) == 2


def test_a_missing_file_never_starts_textual(tmp_path: Path) -> None:
    code = (
        "import sys; from allfours_notation.cli import main; "
        f"code = main(['view', {str(tmp_path / 'nope.afn')!r}]); "
        "print(code, any(m.split('.')[0] == 'textual' for m in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            cwd=ROOT, check=True)
    assert result.stdout.split() == ["2", "False"]


def test_view_is_listed_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "view" in capsys.readouterr().out


def test_view_refuses_stdin_and_a_pipe_at_once() -> None:
    """No terminal, no viewer: exit 2 with a reason, before Textual starts (no escape
    codes written, nothing waiting for keys)."""
    sample = str(ROOT / "samples" / "revoke.afn")
    for argv, reason in ((["-"], "standard input"), ([sample], "needs a terminal")):
        done = subprocess.run([sys.executable, "-m", "allfours_notation", "view", *argv],
                              capture_output=True, text=True, timeout=60,
                              stdin=subprocess.DEVNULL, cwd=ROOT)
        assert done.returncode == 2
        assert done.stdout == ""
        assert reason in done.stderr and done.stderr.count("\n") == 1
