"""Issue 41, finding 10: what a command prints agrees with its exit status.

Before: ``check`` on a missing file printed ``0 games, 0 with errors`` beside "no such
file" (exit 2); ``analyse`` printed its caveat before the file's error; ``export
--sqlite/--csv`` printed "24 games added" and exited 1 (two games had errors);
``analyse --time-limit 100000`` asked for "a number of seconds above 0" (the bound is a day).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from allfours_notation.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


@pytest.fixture
def cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> Iterator[pytest.CaptureFixture[str]]:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "200")
    yield capsys


def test_check_on_a_missing_file_prints_no_summary(
        tmp_path: Path, cli: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(tmp_path / "missing.afn")]) == 2
    said = cli.readouterr()
    assert said.out == ""
    assert said.err.strip().endswith("missing.afn: no such file")


def test_check_counts_the_files_it_could_not_read(
        tmp_path: Path, cli: pytest.CaptureFixture[str]) -> None:
    status = main(["check", str(tmp_path / "missing.afn"), str(SAMPLES / "club-results.afn")])
    said = cli.readouterr()
    assert status == 2
    assert said.out.splitlines()[-1] == "1 game, 0 with errors; 1 file not read"
    main(["check", "--json", str(tmp_path / "missing.afn")])
    assert '"files_not_read": 1' in cli.readouterr().out


def test_analyse_says_nothing_before_a_file_it_cannot_read(
        tmp_path: Path, cli: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", "--no-cache", str(tmp_path / "missing.afn")]) == 2
    said = cli.readouterr()
    assert said.out == ""
    assert said.err.count("\n") == 1


def test_analyse_time_limit_names_its_whole_range(cli: pytest.CaptureFixture[str]) -> None:
    for given in ("100000", "0", "-1", "nan"):
        with pytest.raises(SystemExit) as stopped:
            main(["analyse", "--time-limit", given, "x.afn"])
        assert stopped.value.code == 2
        if given != "nan":
            assert "above 0 and at most 86,400" in cli.readouterr().err


@pytest.mark.parametrize("form", ["--sqlite", "--csv"])
def test_export_tables_says_how_many_games_added_have_errors(
        tmp_path: Path, cli: pytest.CaptureFixture[str], form: str) -> None:
    target = tmp_path / ("games.db" if form == "--sqlite" else "tables")
    files = [str(SAMPLES / "club-night.afn"), str(SAMPLES / "disputed-claim.afn")]
    status = main(["export", form, str(target), *files])
    said = cli.readouterr().err.strip()
    assert status == 1  # every game added, some with errors: the documented status
    assert said == f"{target}: 4 games added, 1 of them with errors (see 'allfours check')"
    if form == "--sqlite":
        again = main(["export", form, str(target), *files])
        assert again == 0  # nothing added, nothing wrong added
        assert cli.readouterr().err.strip() == f"{target}: 0 games added, 4 already there"
        with sqlite3.connect(target) as db:
            assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 4


def test_export_tables_writes_nothing_when_no_input_can_be_read(
        tmp_path: Path, cli: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "tables"
    assert main(["export", "--csv", str(target), str(tmp_path / "missing.afn")]) == 2
    said = cli.readouterr()
    assert said.err.count("\n") == 1 and "games added" not in said.err
    assert not (target / "games.csv").exists()
