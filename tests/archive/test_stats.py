"""``allfours stats``: standings and item counts from the referee, JSON/CSV, plots."""

from __future__ import annotations

import csv
import io
import json
import struct
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import RECORDS, Cli


def _profile(data: dict[str, Any], rules: str) -> dict[str, Any]:
    (found,) = [p for p in data["profiles"] if p["rules"] == rules]
    assert isinstance(found, dict)
    return found


def test_standings_agree_with_the_score_sheets(cli: Cli) -> None:
    data = json.loads(cli(["stats", "--json", *RECORDS]).out)
    sheets = json.loads(cli(["score", "--json", *RECORDS]).out)["games"]
    played = sum(p["games"] for p in data["profiles"])
    assert played == len(sheets)
    assert data["unreadable"] == 1  # the broken game of one-broken-game.afn
    points = sum(sum(s["scores"].values()) for s in sheets)
    assert sum(p["points"] for p in data["profiles"]) == points
    hoffmann = _profile(data, "hoffmann1909")
    players = {row["name"]: row for row in hoffmann["players"]}
    ann = players["Ann Baptiste"]
    # club-night 1 and 2, two-player-to-seven, turned-jack-wins: won 2 of 4 (game 2 and 2p7)
    assert (ann["games"], ann["wins"]) == (4, 2)
    total_wins = sum(row["wins"] for row in players.values())
    assert total_wins == sum(1 for s in sheets if s["rules"] == "hoffmann1909" and s["winner"])


def test_items_add_up_to_the_awards(cli: Cli) -> None:
    data = json.loads(cli(["stats", "--json", "samples/two-player-to-seven.afn"]).out)
    sheets = json.loads(cli(["score", "--json", "samples/two-player-to-seven.afn"]).out)["games"]
    awarded: dict[str, int] = {}
    for deal in sheets[0]["deals"]:
        for point in deal["points"]:
            awarded[point["item"]] = awarded.get(point["item"], 0) + 1
    rows = _profile(data, "hoffmann1909")["players"]
    assert isinstance(rows, list)
    for item, column in (("high", "high"), ("low", "low"), ("jack", "jack"), ("game", "game")):
        assert sum(row[column] for row in rows) == awarded.get(item, 0)


def test_partnerships_in_the_four_handed_game(cli: Cli) -> None:
    data = json.loads(cli(["stats", "--json", "samples/four-handed-trinidad.afn"]).out)
    sides = _profile(data, "trinidad14")["sides"]
    assert isinstance(sides, list)
    assert [(s["name"], s["wins"], s["points_for"]) for s in sides] == [
        ("Kelvin Ramdass & Anil Persad", 1, 14), ("Marcia Joseph & Dexter Alleyne", 0, 13)]


def test_csv_is_long_form(cli: Cli) -> None:
    run = cli(["stats", "--csv", "samples/club-night.afn"])
    rows = list(csv.DictReader(io.StringIO(run.out)))
    assert set(rows[0]) == {"rules", "table", "name", "measure", "value"}
    wins = {r["name"]: r["value"] for r in rows if r["measure"] == "wins" and
            r["rules"] == "hoffmann1909"}
    assert wins == {"Ann Baptiste": "2", "Ben Charles": "0", "Carla Mohammed": "0"}


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.xdist_group("matplotlib")  # matplotlib imported once (bench/test_chart.py)
def test_plot_png_and_svg(cli: Cli, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png, svg = tmp_path / "season.png", tmp_path / "season.svg"
    assert cli(["stats", "samples/club-night.afn", "--plot", str(png)]).code == 0
    assert _png_size(png) == (1500, 500)
    assert cli(["stats", *RECORDS, "--plot", str(svg), "--plot-game", "3"]).code == 1
    text = svg.read_text(encoding="utf-8")
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    again = tmp_path / "again.png"
    cli(["stats", "samples/club-night.afn", "--plot", str(again)])
    assert again.read_bytes() == png.read_bytes()  # no date in the file: same games, same bytes


def test_plot_without_matplotlib_says_how_to_get_it(
        cli: Cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    run = cli(["stats", "samples/revoke.afn", "--plot", str(tmp_path / "x.png")])
    assert run.code == 2
    assert "pip install 'allfours-notation[plots]'" in run.err
    assert not (tmp_path / "x.png").exists()


def test_plot_needs_a_png_or_svg_name(cli: Cli) -> None:
    run = cli(["stats", "samples/revoke.afn", "--plot", "chart.gif"])
    assert run.code == 2 and ".png or .svg" in run.err
