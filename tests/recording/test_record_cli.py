"""``allfours record`` before any screen: its help, and what it refuses."""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation.cli import main


def test_help_explains_typing_keys_and_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["record", "--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for words in ("--players {2,3,4}", "--rules NAME", "--set OPTION=VALUE",
                  "rewritten atomically", "resume", "Ctrl+Z undo", "exit status"):
        assert words in text


def test_a_file_that_is_not_afn_is_refused_with_its_diagnostics_and_untouched(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.afn"
    text = "% AFN 1\n[Event \"x\"]\ndeal 1 dealer N\n  turn 4S\n  1. S:JS N:JS\nend\n"
    path.write_text(text, encoding="utf-8")
    assert main(["record", str(path)]) == 1
    out = capsys.readouterr().out
    assert "AFN201" in out and "left untouched" in out
    assert path.read_text(encoding="utf-8") == text
    assert not (tmp_path / ".bad.afn.lock").exists()


def test_a_directory_and_bad_options_are_usage_errors(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", str(tmp_path)]) == 2
    assert "is a directory" in capsys.readouterr().err
    assert main(["record", str(tmp_path / "g.afn"), "--rules", "nosuch"]) == 2
    assert "unknown rule profile" in capsys.readouterr().err
    assert main(["record", str(tmp_path / "missing" / "g.afn")]) == 2
    assert "no such folder" in capsys.readouterr().err


RECORDED = sorted((Path(__file__).resolve().parents[2] / "docs" / "recorded").glob("*.afn"))


@pytest.mark.parametrize("path", RECORDED, ids=[p.stem for p in RECORDED])
def test_the_games_recorded_under_tmux_check_clean(path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(path)]) == 0
    assert "1 game, 0 with errors" in capsys.readouterr().out


def test_two_games_were_recorded() -> None:
    assert [p.stem for p in RECORDED] == ["four-handed-trinidad", "two-handed-hoffmann"]
