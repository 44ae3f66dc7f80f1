"""``allfours event export``: the event's tables in SQLite and CSV, joined to the archive's
export on each game's digest, and documented column by column in docs/events.md."""

from __future__ import annotations

import csv
import re
import sqlite3
from pathlib import Path

import pytest

from allfours_notation.cli import main
from allfours_notation.events.export import TABLES
from tests.events.test_assemble import EVENT, games, write

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def event(tmp_path: Path) -> Path:
    path = tmp_path / "EVENT.toml"
    path.write_text(EVENT.format(rule="games", target=3, games=2), encoding="utf-8")
    write(tmp_path / "games", "t1.afn", games(1, 2, 1))
    write(tmp_path / "games", "t2.afn", games(2, 2, 2))
    return path


def test_the_sqlite_export_joins_the_archive_on_the_digest(event: Path, tmp_path: Path) -> None:
    db, archive = tmp_path / "event.db", tmp_path / "archive.db"
    assert main(["event", "export", str(event), "--sqlite", str(db)]) == 0
    assert main(["export", "--sqlite", str(archive), str(tmp_path / "games")]) == 0
    connection = sqlite3.connect(db)
    connection.execute("ATTACH ? AS archive", (str(archive),))
    joined = connection.execute(
        "SELECT e.table_no, e.position, g.game_index FROM event_games e "
        "JOIN archive.games g ON g.digest = e.digest ORDER BY e.table_no, e.position"
    ).fetchall()
    assert joined == [(1, 1, 1), (1, 2, 2), (2, 1, 1), (2, 2, 2)]
    total = connection.execute("SELECT home_bullseyes + away_bullseyes FROM matches").fetchone()
    assert total == (4,)
    assert connection.execute("SELECT value FROM event WHERE key = 'name'").fetchone() == (
        "Small night",)
    assert connection.execute("SELECT COUNT(*) FROM team_players").fetchone() == (9,)
    connection.close()
    assert main(["event", "export", str(event), "--sqlite", str(db)]) == 0  # replaced whole


def test_the_csv_export_writes_one_file_a_table(event: Path, tmp_path: Path) -> None:
    out = tmp_path / "csv"
    assert main(["event", "export", str(event), "--csv", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == sorted(f"event_{t}.csv" for t in TABLES)
    with (out / "event_standings.csv").open(encoding="utf-8", newline="") as handle:
        found = list(csv.reader(handle))
    assert found[0] == [name for name, _ in TABLES["standings"]] and len(found) == 3


def test_export_needs_a_target(event: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["event", "export", str(event)]) == 2
    assert "--sqlite DB or --csv DIR" in capsys.readouterr().err


def test_every_table_and_column_is_documented() -> None:
    page = (ROOT / "docs" / "events.md").read_text(encoding="utf-8")
    text = page.split("## The event as tables")[1].split("\n## ")[0]
    for table, columns in TABLES.items():
        row = re.search(rf"^\| `{table}` \| (.+) \|$", text, re.M)
        assert row is not None, table
        assert re.findall(r"`(\w+)`", row.group(1)) == [name for name, _ in columns], table


def test_the_archive_export_adds_the_event_tables_to_the_same_database(
        event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "night.db"
    games_folder = str(tmp_path / "games")
    assert main(["export", "--sqlite", str(db), "--event", str(event), games_folder]) == 0
    assert "the event's 7 tables written" in capsys.readouterr().err
    connection = sqlite3.connect(db)
    joined = connection.execute(
        "SELECT m.home, e.table_no, e.position, g.game_index FROM event_games e "
        "JOIN games g USING (digest) JOIN matches m USING (match_id) "
        "ORDER BY e.table_no, e.position").fetchall()
    assert joined == [("Red", 1, 1, 1), ("Red", 1, 2, 2), ("Red", 2, 1, 1), ("Red", 2, 2, 2)]
    connection.close()
    # exported again: the games are there already, the event's tables replaced whole
    assert main(["export", "--sqlite", str(db), "--event", str(event), games_folder]) == 0
    connection = sqlite3.connect(db)
    assert connection.execute("SELECT COUNT(*) FROM event_games").fetchone() == (4,)
    assert connection.execute("SELECT COUNT(*) FROM games").fetchone() == (4,)
    connection.close()


def test_the_archive_csv_export_adds_the_event_files(event: Path, tmp_path: Path) -> None:
    out = tmp_path / "csv"
    assert main(["export", "--csv", str(out), "--event", str(event),
                 str(tmp_path / "games")]) == 0
    names = {p.name for p in out.iterdir()}
    assert {f"event_{t}.csv" for t in TABLES} <= names and "games.csv" in names
    games_csv = list(csv.DictReader((out / "games.csv").open(encoding="utf-8", newline="")))
    event_csv = list(csv.DictReader((out / "event_event_games.csv").open(encoding="utf-8",
                                                                          newline="")))
    assert {row["digest"] for row in event_csv} == {row["digest"] for row in games_csv}


def test_the_event_tables_need_an_archive_and_a_good_event_file(
        event: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    games_folder = str(tmp_path / "games")
    assert main(["export", "--event", str(event), games_folder]) == 2
    assert "--sqlite DB or --csv DIR" in capsys.readouterr().err
    event.write_text(event.read_text(encoding="utf-8").replace("[match]", "[match]\nrace = 1"),
                     encoding="utf-8")
    db = tmp_path / "bad.db"
    assert main(["export", "--sqlite", str(db), "--event", str(event), games_folder]) == 2
    assert "AFN602" in capsys.readouterr().err and not db.exists()  # nothing written
