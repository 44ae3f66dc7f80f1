"""What the package promises about platforms: every module imports where ``fcntl`` is
missing (Windows), and recording, which needs it, then refuses in a sentence."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from allfours_notation.recording import storage

ROOT = Path(__file__).resolve().parents[2]

WITHOUT_FCNTL = """
import sys
sys.modules["fcntl"] = None  # import fcntl now raises ImportError, as on Windows
import allfours_notation.recording
import allfours_notation.recording.storage as storage
import allfours_notation.cli.record
assert storage._flock is None
try:
    storage.RecordFile(__import__("pathlib").Path(sys.argv[1])).acquire()
except storage.LockingUnavailable as refused:
    print(refused)
"""


def test_recording_imports_without_fcntl_and_refuses_to_lock(tmp_path: Path) -> None:
    target = tmp_path / "game.afn"
    result = subprocess.run([sys.executable, "-c", WITHOUT_FCNTL, str(target)], cwd=ROOT,
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (f"{target}: this platform has no file locking (fcntl), "
                                     "which recording needs; record on Linux or macOS")
    assert not storage.lock_path(target).exists()


def test_the_refusal_is_reported_as_a_held_file_is(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from allfours_notation.cli import main

    monkeypatch.setattr(storage, "_flock", None)
    monkeypatch.setenv("NO_COLOR", "1")
    code = main(["record", "--players", "2", str(tmp_path / "game.afn")])
    assert code != 0
    assert "this platform has no file locking (fcntl)" in capsys.readouterr().err
    assert not (tmp_path / "game.afn").exists()  # nothing written
