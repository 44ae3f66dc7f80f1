"""The analysis cache is never an error and never a way in (issue 41, findings 5 and 8).

Before: a row of the wrong shape (nesting, ``"par": []``, ``"best_line": [{}]``,
``"seconds": "x"``) stopped ``analyse`` with AFN901 and exit 1; a dangling symbolic link
at the cache's path made the file at its target; a link to the user's exported archive
added a table to it; a file that was not a database was abandoned for good, silently.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from allfours_notation.checking.analysis.data import read_row, to_json
from allfours_notation.checking.analysis.rows import valid_row
from allfours_notation.cli import main
from allfours_notation.cli.analyse import deal_lines
from tests.conftest import examples

ROOT = Path(__file__).resolve().parents[2]
TWO = str(ROOT / "samples" / "two-player-to-seven.afn")
SAMPLE = str(ROOT / "samples" / "club-night.afn")


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("ALLFOURS_CACHE_DIR", str(folder))
    return folder / "analysis.sqlite"


def analyse(capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["analyse", TWO])
    out, err = capsys.readouterr()
    return code, out, err


def rows(path: Path) -> list[tuple[str, Any]]:
    with sqlite3.connect(path) as db:
        found = list(db.execute("SELECT digest, data FROM analyses ORDER BY digest"))
    db.close()
    return found


# --- finding 5: rows of the wrong shape ------------------------------------------------------

def _with(field: str, value: object) -> Any:
    return lambda row: {**row, field: value}


SHAPES = {
    "nesting": lambda row: "[" * 100_000 + "]" * 100_000,
    "par_list": _with("par", []),
    "best_line_objects": _with("best_line", [{}]),
    "seconds_text": _with("seconds", "x"),
    "sides_one": _with("sides", ["N"]),
    "card_not_a_card": lambda row: {**row, "cards": [{**row["cards"][0], "card": "ZZ"}]},
    "reason_closing_a_comment": lambda row: {
        **row, "cards": [{**card, "reason": "} 9. N:AS {"} for card in row["cards"]]},
    "not_an_object": lambda row: [row],
    "a_number": lambda row: 7,
    "not_json": lambda row: b"\x00not json",
    "a_huge_number": lambda row: json.dumps(row).replace('"nodes": ', '"nodes": 1' + "0" * 5000),
}


MODES = (["analyse"], ["analyse", "--json"], ["analyse", "--annotate"])


def _without_timing(out: str) -> str:
    """The report less what solving again changes (the seconds and nodes in --json)."""
    return re.sub(r'"(seconds|nodes)": [0-9.e-]+', "", out)


def test_finding_5_a_row_of_the_wrong_shape_is_ignored_and_replaced(
        cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Each shape in one of the cache's four rows (three rounds for all of them), under
    the text report, --json and --annotate: the same output as from a good cache, exit
    0, nothing on standard error, and every row replaced by a good one.  Before: AFN901
    and exit 1 (nesting, "par": [], "best_line": [{}], two-sided with one side; and
    "seconds": "x" under --json)."""
    first = []
    for mode in MODES:
        assert main([*mode, TWO]) == 0
        first.append(_without_timing(capsys.readouterr().out))
    good = rows(cache)
    # The brace goes where a card is flagged (its reason is written into the record).
    by_flags = sorted(good, key=lambda row: -sum(card["points_lost"] > 0
                                                  for card in json.loads(row[1])["cards"]))
    shapes = sorted(SHAPES, key=lambda shape: (shape != "reason_closing_a_comment", shape))
    for start in range(0, len(shapes), len(good)):
        for mode, expected in zip(MODES, first, strict=True):
            with sqlite3.connect(cache) as db:
                for (digest, data), shape in zip(by_flags, shapes[start:], strict=False):
                    bad = SHAPES[shape](json.loads(data))
                    db.execute("UPDATE analyses SET data = ? WHERE digest = ?",
                               (bad if isinstance(bad, str | bytes) else json.dumps(bad),
                                digest))
            db.close()
            code = main([*mode, TWO])
            out, err = capsys.readouterr()
            assert (code, _without_timing(out), err) == (0, expected, ""), (
                mode, shapes[start:start + len(good)])
            assert [digest for digest, _ in rows(cache)] == [digest for digest, _ in good]
            assert all(valid_row(json.loads(data)) for _, data in rows(cache))  # replaced


def test_a_good_row_is_read_back_as_it_was_written(cache: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    analyse(capsys)
    for _, text in rows(cache):
        read = read_row(text)
        assert read is not None and to_json(read[0], read[1]["time_limit"]) == json.loads(text)


@functools.cache
def _good_rows() -> tuple[dict[str, Any], ...]:
    """Every row ``analyse`` writes for the two-player sample."""
    from allfours_notation.checking.analysis.deals import played_deals
    from allfours_notation.checking.analysis.report import analyse_deal
    from allfours_notation.checking.parsing import parse_file
    from allfours_notation.referee.replay import replay

    return tuple(to_json(analyse_deal(played, time_limit=5.0), 5.0)
                 for game in parse_file(TWO).games for played in played_deals(replay(game)))


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=20)


def _usable(text: str) -> None:
    """``text`` as a cache row: ignored, or an analysis the report prints whole."""
    read = read_row(text)
    if read is not None:
        deal_lines(read[0])
        json.dumps(to_json(read[0]))


@settings(max_examples=examples(150), deadline=None)
@given(JSON)
def test_any_json_value_as_a_row_is_ignored_or_printed(value: object) -> None:
    _usable(json.dumps(value))


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), JSON)
def test_a_good_row_with_any_part_replaced_is_ignored_or_printed(data: st.DataObject,
                                                                 value: object) -> None:
    """A row ``analyse`` wrote, with one field (or a field of one of its cards or points)
    replaced by any JSON value."""
    row = json.loads(json.dumps(data.draw(st.sampled_from(_good_rows()))))
    holder: dict[str, Any] = row
    nested = [k for k in ("cards", "fixed", "recorded") if row[k]]
    inside: bool = data.draw(st.booleans())
    if nested and inside:
        holder = data.draw(st.sampled_from(row[data.draw(st.sampled_from(nested))]))
    holder[data.draw(st.sampled_from(sorted(holder)))] = value
    _usable(json.dumps(row))


# --- finding 8: the cache file follows no link and takes no file it did not make -------------

def _said(err: str) -> list[str]:
    return [line for line in err.splitlines() if "analysis cache" in line]


def test_finding_8_a_dangling_link_at_the_cache_path_makes_nothing(
        cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cache.parent.mkdir(mode=0o700)
    target = tmp_path / "made-by-the-link.sqlite"
    cache.symlink_to(target)
    code, out, err = analyse(capsys)
    assert code == 0 and "deal 2" in out
    assert not target.exists() and cache.is_symlink()
    assert _said(err) == [f"allfours: the analysis cache {cache} is not used: it is a symbolic "
                          "link, which is never followed; every deal is solved afresh"]


def _archive(tmp_path: Path) -> Path:
    archive = tmp_path / "season.db"
    assert main(["export", "--sqlite", str(archive), SAMPLE]) in (0, 1)
    return archive


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as db:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    db.close()
    return names


@pytest.mark.parametrize("how", ["symlink", "hard link", "copy"])
def test_finding_8_the_users_archive_at_the_cache_path_is_never_written(
        how: str, cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The user's exported archive as the cache (linked or copied there): not a table
    added, not a byte changed; one line says why the cache is not used."""
    archive = _archive(tmp_path)
    tables, before = _tables(archive), archive.read_bytes()
    capsys.readouterr()
    cache.parent.mkdir(mode=0o700)
    if how == "symlink":
        cache.symlink_to(archive)
    elif how == "hard link":
        os.link(archive, cache)
    else:
        cache.write_bytes(before)
    code, out, err = analyse(capsys)
    assert code == 0 and "deal 2" in out
    assert archive.read_bytes() == before and _tables(archive) == tables
    said = _said(err)
    assert len(said) == 1 and "is not used" in said[0], err
    if how == "copy":
        assert cache.read_bytes() == before


def test_finding_8_a_folder_others_may_write_is_not_used(
        cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cache.parent.mkdir()
    cache.parent.chmod(0o777)
    code, _, err = analyse(capsys)
    assert code == 0 and not cache.exists()
    assert _said(err) == [f"allfours: the analysis cache {cache} is not used: its folder "
                          f"{cache.parent} may be written by other users; every deal is "
                          "solved afresh"]


def test_a_cache_that_is_not_a_database_is_started_afresh_and_said_once(
        cache: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cache.parent.mkdir(mode=0o700)
    cache.write_bytes(b"this was a cache once\n" * 500)
    code, out, err = analyse(capsys)
    assert code == 0 and "deal 2" in out
    assert _said(err) == [f"allfours: the analysis cache {cache} was not a database (torn or "
                          "overwritten); a new one is started"]
    assert len(rows(cache)) == 4  # rebuilt and filled
    assert analyse(capsys) == (0, out, "")  # and used, silently, the next time
    assert sorted(p.name for p in cache.parent.iterdir()) == ["analysis.sqlite"]
