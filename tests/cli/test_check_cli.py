"""``allfours check``: exit codes, summary line, stdin, unreadable inputs, JSON."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from allfours_notation.cli import main

GOOD = (
    "% AFN 1\n"
    '[Event "e"] [Site "s"] [Date "d"] [Rules "hoffmann1909"] [North "A"] [South "B"]\n'
    '[Result "*"]\n'
    "deal 1 dealer N turn 4S S stands abandoned\n"
    "end\n"
)
BAD = GOOD.replace("turn 4S", "turn 4X")


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_clean_file_exits_0_with_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "good.afn"
    path.write_text(GOOD, encoding="utf-8")
    code, out, _ = run(["check", str(path)], capsys)
    assert code == 0
    assert out.strip().splitlines()[-1] == "1 game, 0 with errors"


def test_errors_exit_1_and_are_located(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.afn"
    path.write_text(GOOD + BAD.replace("% AFN 1\n", ""), encoding="utf-8")
    code, out, _ = run(["check", str(path)], capsys)
    assert code == 1
    assert f"{path}:8:22: error AFN101 [game 2, deal 1]" in out
    assert out.strip().splitlines()[-1] == "2 games, 1 with errors (1 error)"


def test_stdin_is_read_for_dash(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(BAD.encode())))
    code, out, _ = run(["check", "-"], capsys)
    assert code == 1
    assert out.startswith("<stdin>:4:22: error AFN101")


@pytest.mark.parametrize("kind", ["missing", "directory"])
def test_unreadable_input_is_one_line_and_exit_2(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "nothing.afn" if kind == "missing" else tmp_path
    code, _, err = run(["check", str(target)], capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.afn"
    path.write_text(BAD, encoding="utf-8")
    code, out, _ = run(["check", "--json", str(path)], capsys)
    data = json.loads(out)
    assert code == 1
    assert data["games"] == 1 and data["games_with_errors"] == 1
    (diagnostic,) = [d for d in data["diagnostics"] if d["severity"] == "error"]
    assert (diagnostic["code"], diagnostic["line"], diagnostic["column"]) == ("AFN101", 4, 22)


def test_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as raised:
        main(["check"])
    assert raised.value.code == 2
