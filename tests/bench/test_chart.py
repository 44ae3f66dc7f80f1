"""``python -m bench.chart``: the chart of docs/performance.md comes from the page's own table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import chart
from bench.run import CHECK, FLOOR

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "performance.md"


def _page_rows() -> list[list[str]]:
    """The throughput table of the page, read independently of bench.chart."""
    lines = PAGE.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| throughput |"))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def test_the_chart_reads_every_row_of_the_pages_table() -> None:
    bars = chart.read_bars(PAGE)
    rows = _page_rows()
    assert [(bar.name, bar.corpus, bar.mb_per_s) for bar in bars] == \
        [(row[0], row[1], float(row[2])) for row in rows]
    assert any(bar.name == CHECK and bar.corpus == "10k" for bar in bars)
    assert any(bar.name == FLOOR for bar in bars)


def test_a_run_as_json_gives_the_same_bars_as_its_markdown() -> None:
    """bench writes a run both ways; the chart reads either to the same bars."""
    run = {"throughput": [
        {"name": CHECK, "corpus": "10k", "mb_per_s": 1.5, "note": ""},
        {"name": "python-chess read_game (PGN)", "corpus": "10k", "mb_per_s": 0.7,
         "note": "python-chess 1.11.2"},
    ]}
    bars = chart.bars_from_json(run)
    assert [bar.name for bar in bars] == \
        [CHECK, "python-chess read_game (PGN) (python-chess 1.11.2)"]
    with pytest.raises(ValueError):
        chart.bars_from_json({"latency": []})
    with pytest.raises(ValueError):
        chart.bars_from_markdown("| stage | seconds |\n|---|---:|\n| lex | 0.2 |\n")


@pytest.mark.xdist_group("matplotlib")  # matplotlib imported once (test_stats.py)
def test_the_chart_is_drawn(tmp_path: Path) -> None:
    out = tmp_path / "chart.png"
    assert chart.main([str(PAGE), str(out)]) == 0
    assert out.read_bytes().startswith(b"\x89PNG")
    assert chart.main([str(PAGE), str(out), "--corpus", "nonesuch"]) == 2
    missing = tmp_path / "run.json"
    missing.write_text(json.dumps({"throughput": []}), encoding="utf-8")
    assert chart.main([str(missing), str(out)]) == 2
