"""Every reproducer of issue 16 (hostile input), each a regression test.

The hangs run in a child process with a time limit, so that a regression fails
the test instead of freezing the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from allfours_notation import parse
from allfours_notation.cli import main
from allfours_notation.reading.records import Deal
from allfours_notation.reading.syntax_errors import explain
from allfours_notation.referee import disputes
from allfours_notation.referee.deal.table import Table
from allfours_notation.referee.profiles import PROFILES
from allfours_notation.referee.replay import check_game
from tests.conftest import codes

ROOT = Path(__file__).resolve().parents[2]


def check_in_child(path: Path, seconds: float = 30.0) -> subprocess.CompletedProcess[str]:
    """``allfours check FILE`` in a fresh interpreter, killed after ``seconds``."""
    return subprocess.run(
        [sys.executable, "-m", "allfours_notation", "check", str(path)],
        capture_output=True, text=True, timeout=seconds, cwd=ROOT, check=False,
    )


@pytest.mark.parametrize(
    "text",
    [
        " " * 32 + "x\n",  # the 42-byte hang (32 spaces, an x)
        "% AFN 1\n" + "\n" * 40 + "{",  # blank lines, then an unclosed comment
        ";" * 40 + "\nx\n",  # line comments in a row, then a word
    ],
    ids=["spaces-then-x", "blank-lines-then-brace", "semicolons-then-x"],
)
def test_backtracking_shapes_finish(tmp_path: Path, text: str) -> None:
    path = tmp_path / "hang.afn"
    path.write_text(text, encoding="utf-8")
    done = check_in_child(path)
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert "1 with errors" in done.stdout or "0 with errors" in done.stdout


def test_turn_with_a_backquote_is_a_syntax_error_not_a_recursion() -> None:
    result = parse("deal 3 dealer N\nturn`")
    found = [d for d in result.diagnostics if d.code == "AFN101"]
    assert len(found) == 1
    assert (found[0].line, found[0].column) == (2, 1)
    assert "turn`" in found[0].message


def test_explaining_restarts_a_statement_at_most_once() -> None:
    """The explanation reads a statement again from its start once, never more."""
    from lark.exceptions import UnexpectedCharacters

    body = "deal 3 dealer N\nturn`"
    error = UnexpectedCharacters(body, len("deal 3 dealer N\n"), 2, 1)  # type: ignore[no-untyped-call]
    explanation = explain(error, body, len("deal 3 dealer N\n"))
    assert explanation.code == "AFN101"


def test_disputed_deals_replay_each_alternative_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """400 deals of only a header and a claim: each alternative rule set gets one table
    per game, fed each deal once, not a replay per disputed claim (it was quadratic:
    30 s)."""
    tables: list[object] = []
    fed: list[int] = []

    class Counting(Table):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            tables.append(self)

        def feed_deal(self, deal: Deal) -> None:
            fed.append(deal.number)
            super().feed_deal(deal)

    monkeypatch.setattr(disputes, "Table", Counting)
    text = "".join(f"deal {n} dealer N\nclaim N high\n" for n in range(1, 401))
    found = check_game(parse(text).games[0])
    assert codes(found).count("AFN401") >= 400
    alternatives = len(PROFILES) + sum(len(v) for v in disputes.RELEVANT_OPTIONS.values())
    assert 0 < len(tables) <= 4 * alternatives  # independent of the number of deals
    assert len(fed) <= 400 * len(tables)  # every deal fed once to each table at most


def test_fifo_without_writer_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.afn"
    os.mkfifo(fifo)
    done = check_in_child(fifo, seconds=20)
    assert done.returncode == 2
    assert "FIFO" in done.stderr


@pytest.mark.parametrize("command", ["check", "score", "fmt", "export", "view"])
def test_a_device_is_refused(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([command, "/dev/zero"]) == 2
    assert "device" in capsys.readouterr().err


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    from allfours_notation.cli.inputs import InputError, read_input

    path = tmp_path / "big.afn"
    path.write_bytes(b"deal 1 dealer N\n" * 100)
    with pytest.raises(InputError, match="larger than"):
        read_input(str(path), limit=1000)
    assert len(read_input(str(path), limit=1600).data) == 1600


def test_score_reports_bytes_that_are_not_utf8(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.afn"
    path.write_bytes(b'% AFN 1\n[Event "caf\xe9"]\ndeal 1 dealer N\nend\n')
    assert main(["score", str(path)]) == 1
    out = capsys.readouterr().out
    assert "AFN102" in out and ":2:12:" in out
    assert main(["check", "-q", str(path)]) == 1


@pytest.mark.parametrize(
    "place",
    [["--deal", "0"], ["--deal", "99999"], ["--deal", "1", "--trick", "99"], ["--game", "0"],
     ["--game", "99"], ["--trick", "1"]],
    ids=["deal-0", "deal-99999", "trick-99", "game-0", "game-99", "trick-without-deal"],
)
def test_view_out_of_range_is_a_usage_error(place: list[str],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["view", str(ROOT / "samples" / "club-night.afn"), *place]) == 2
    err = capsys.readouterr().err
    assert place[-2] in err  # the option that names nothing


def test_no_games_and_the_bad_bytes_summary_have_positions() -> None:
    assert [(d.code, d.line, d.column) for d in parse("; nothing\n").diagnostics
            if d.code == "AFN107"] == [("AFN107", 1, 1)]
    data = b"% AFN 1\n" + b"deal 1 dealer N\n\xff\n" * 30 + b"end\n"
    summary = parse(data).diagnostics
    found = [d for d in summary if d.code == "AFN102" and "more runs" in d.message]
    assert len(found) == 1
    assert (found[0].line, found[0].column) == (2 + 2 * 20 + 1, 1)


@pytest.mark.parametrize("text", [
    "% AFN 1\n; " + "x" * 3000 + "\nend\n",  # found by the atheris campaign (31 inputs)
    "x" * 3000 + "\nend\n",
])
def test_a_long_game_with_no_deal_word_is_read_not_an_internal_error(text: str) -> None:
    """The input-limit check cut a long game at its 'deal' words, and had none to cut at."""
    codes = [d.code for d in parse(text).diagnostics]
    assert "AFN901" not in codes and codes
