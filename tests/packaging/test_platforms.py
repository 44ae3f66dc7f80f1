"""What the package promises about platforms: every module imports where ``fcntl`` is
missing (Windows), and recording, which needs its lock, then refuses in a sentence."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

WITHOUT_FCNTL = """
import sys
sys.modules["fcntl"] = None  # import fcntl now raises ImportError, as on Windows
import allfours_notation.recording
import allfours_notation.recording.storage as storage
import allfours_notation.safe_write
import allfours_notation.cli.record
try:
    storage.RecordFile(__import__("pathlib").Path(sys.argv[1])).acquire()
except storage.FileLocked as refused:
    print(refused)
"""
REFUSAL = "this platform has no file locking (fcntl), which recording needs; record on Linux"


def test_recording_imports_without_fcntl_and_refuses_to_lock(tmp_path: Path) -> None:
    target = tmp_path / "game.afn"
    result = subprocess.run([sys.executable, "-c", WITHOUT_FCNTL, str(target)], cwd=ROOT,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"{target}: {REFUSAL} or macOS"
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no lock file, no record


def test_the_refusal_is_reported_as_a_held_file_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from allfours_notation.cli import main

    monkeypatch.setitem(sys.modules, "fcntl", None)
    monkeypatch.setenv("NO_COLOR", "1")
    code = main(["record", "--players", "2", str(tmp_path / "game.afn")])
    assert code != 0
    assert REFUSAL in capsys.readouterr().err
    assert not (tmp_path / "game.afn").exists()  # nothing written
