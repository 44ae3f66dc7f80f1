"""``allfours export --sqlite/--csv``: the database answers what ``score --json`` says."""

from __future__ import annotations

import csv
import json
import re
import sqlite3
from pathlib import Path

import pytest

from allfours_notation.archive.sqlite import schema_sql
from allfours_notation.archive.tables import TABLES, columns

from .conftest import RECORDS, ROOT, Cli


def _db(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    return db


def test_sqlite_round_trip_matches_score_json(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "archive.db"
    run = cli(["export", "--sqlite", str(path), *RECORDS])
    assert run.code == 1  # a sample has errors; everything is still written
    sheets = json.loads(cli(["score", "--json", *RECORDS]).out)["games"]
    db = _db(path)
    assert db.execute("SELECT COUNT(*) FROM games WHERE broken = 0").fetchone()[0] == len(sheets)
    for sheet in sheets:
        game = db.execute("SELECT * FROM games WHERE file = ? AND game_index = ?",
                          (sheet["file"], sheet["game"])).fetchone()
        assert (game["winner"], game["decided"], game["rules"]) == (
            sheet["winner"], sheet["decided"], sheet["rules"])
        last = db.execute("SELECT MAX(deal) FROM deals WHERE game_id = ?",
                          (game["game_id"],)).fetchone()[0]
        totals = dict(db.execute("SELECT side, points FROM totals WHERE game_id = ? AND deal = ?",
                                 (game["game_id"], last)).fetchall())
        assert totals == sheet["scores"]
        for position, deal in enumerate(sheet["deals"], start=1):
            awards = db.execute(
                "SELECT item, side, seat, points, reason FROM awards WHERE game_id = ? AND "
                "deal = ? AND scored = 1 ORDER BY position", (game["game_id"], position))
            assert [dict(row) for row in awards] == [
                {key: value for key, value in point.items() if key != "status"}
                for point in deal["points"]]
            row = db.execute("SELECT * FROM deals WHERE game_id = ? AND deal = ?",
                             (game["game_id"], position)).fetchone()
            assert (row["number"], row["dealer"], row["trump"]) == (
                deal["number"], deal["dealer"], deal["trump"])
            turned = [r[0] for r in db.execute(
                "SELECT card FROM turnups WHERE game_id = ? AND deal = ? ORDER BY position",
                (game["game_id"], position))]
            assert turned == deal["turnups"]
        codes = sorted(r[0] for r in db.execute(
            "SELECT code FROM diagnostics WHERE game_id = ?", (game["game_id"],)))
        assert codes == sorted(d["code"] for d in sheet["diagnostics"])


def test_re_export_never_duplicates_and_adds_new_games(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "archive.db"
    first = cli(["export", "--sqlite", str(path), "samples/club-night.afn"])
    assert "3 games added" in first.err
    again = cli(["export", "--sqlite", str(path), "samples/club-night.afn", "samples/revoke.afn"])
    assert "1 game added, 3 already there" in again.err
    db = _db(path)
    assert db.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 4
    assert db.execute("SELECT COUNT(DISTINCT game_id) FROM plays").fetchone()[0] == 4


def test_keys_join_and_plays_agree_with_tricks(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "archive.db"
    cli(["export", "--sqlite", str(path), *RECORDS])
    db = _db(path)
    orphans = db.execute("SELECT COUNT(*) FROM plays LEFT JOIN tricks USING (game_id, deal, trick) "
                         "WHERE tricks.winner IS NULL").fetchone()[0]
    assert orphans == 0
    leaders = db.execute("SELECT COUNT(*) FROM tricks JOIN plays USING (game_id, deal, trick) "
                         "WHERE position = 1 AND plays.seat != tricks.leader").fetchone()[0]
    assert leaders == 0
    low = db.execute("SELECT player, COUNT(*) AS n FROM awards JOIN seats USING (game_id, seat) "
                     "WHERE item = 'low' AND scored GROUP BY player ORDER BY n DESC, player "
                     "LIMIT 1").fetchone()
    assert low["n"] >= 1


def test_a_foreign_database_is_refused(cli: Cli, tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE people (name TEXT)")
    run = cli(["export", "--sqlite", str(path), "samples/revoke.afn"])
    assert run.code == 2 and "did not write" in run.err


def test_csv_tables_read_back_with_the_csv_module(cli: Cli, tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    db_path = tmp_path / "archive.db"
    assert cli(["export", "--csv", str(folder), *RECORDS, "samples/club-night.afn"]).code == 1
    cli(["export", "--sqlite", str(db_path), *RECORDS])
    db = _db(db_path)
    for table in TABLES:
        with open(folder / f"{table}.csv", encoding="utf-8", newline="") as handle:
            rows = list(csv.reader(handle))
        assert tuple(rows[0]) == columns(table)
        count = db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
        assert len(rows) - 1 == count, table  # the repeated file was not written twice
    with open(folder / "games.csv", encoding="utf-8", newline="") as handle:
        games = {row["game_id"]: row for row in csv.DictReader(handle)}
    with open(folder / "awards.csv", encoding="utf-8", newline="") as handle:
        awards = list(csv.DictReader(handle))
    assert all(award["game_id"] in games for award in awards)
    club = [g for g in games.values() if g["file"] == "samples/club-night.afn"]
    assert [g["winner"] for g in club] == ["N", "S", "N"]


def test_schema_is_documented() -> None:
    """Every table and column of the export is described in docs/archive-schema.md,
    and the documented DDL is the one the exporter runs."""
    doc = (ROOT / "docs" / "archive-schema.md").read_text(encoding="utf-8")
    for table in TABLES:
        section = re.search(rf"^### `{table}`\n(.*?)(?=^### |\Z)", doc, re.M | re.S)
        assert section is not None, table
        for column in columns(table):
            assert f"`{column}`" in section.group(1), (table, column)
    assert schema_sql() in doc


@pytest.mark.parametrize("target", ["--sqlite", "--csv"])
def test_unwritable_target_is_one_line(cli: Cli, tmp_path: Path, target: str) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    run = cli(["export", target, str(blocker / "inside"), "samples/revoke.afn"])
    assert run.code == 2 and len(run.err.strip().splitlines()) == 1


def test_documented_queries_run_and_answer(cli: Cli, tmp_path: Path) -> None:
    path, with_event = tmp_path / "archive.db", tmp_path / "event.db"
    cli(["export", "--sqlite", str(path), *RECORDS])
    # The event's tables are queried in an archive exported with them (export --event).
    club = "samples/event/club"
    cli(["export", "--sqlite", str(with_event), "--event", f"{club}/EVENT.toml", f"{club}/games"])
    db, event_db = _db(path), _db(with_event)
    for doc in ("docs/archive-schema.md", "docs/archives.md"):
        text = (ROOT / doc).read_text(encoding="utf-8")
        queries = re.findall(r"```sql\n(SELECT.*?)```", text, re.S)
        assert len(queries) >= 3, doc
        for query in queries:
            on = event_db if re.search(r"\bevent_\w+|\bstandings\b", query) else db
            assert on.execute(query).fetchall(), query


def test_the_deals_clock_time_and_each_sides_pips_are_exported(cli: Cli, tmp_path: Path) -> None:
    """``deals.time`` from the header (``at 20:41``); ``totals.pips`` by the cards, or a
    results deal's count for Game, NULL for a results deal without one (issue 38)."""
    record = tmp_path / "timed.afn"
    record.write_text(
        '% AFN 1\n[Event "e"]\n[Site "s"]\n[Date "2026.11.21"]\n[Rules "hoffmann1909"]\n'
        '[North "A"]\n[South "B"]\n[Result "*"]\n\n'
        "deal 1 dealer N at 20:41\n  scored N high game S low\n  count N 31 S 18\n\n"
        "deal 2 dealer S\n  scored S high\nend\n", encoding="utf-8")
    path = tmp_path / "t.sqlite"
    assert cli(["export", "--sqlite", str(path), str(record)]).code == 0
    db = _db(path)
    assert [tuple(r) for r in db.execute("SELECT deal, time FROM deals ORDER BY deal")] == \
        [(1, "20:41"), (2, None)]
    pips = db.execute("SELECT deal, side, pips FROM totals ORDER BY deal, side").fetchall()
    assert [tuple(r) for r in pips] == [(1, "N", 31), (1, "S", 18), (2, "N", None),
                                        (2, "S", None)]
