"""``python -m bench.chart RUN OUT.png``: the throughput of one benchmark run as a bar chart.

RUN is either a run's JSON (``python -m bench --out run.json``; by default
``bench/out/latest.json``) or a Markdown page holding the run's throughput table as
``python -m bench`` prints it (``docs/performance.md``), so the chart of the docs is drawn
from the very figures the page quotes.  One corpus (``--corpus``, default 10k) is drawn:
MB/s per measurement on a log scale, ``check -j 1`` and the per-core target marked.
Needs matplotlib (the ``dev`` and ``plots`` extras).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .run import CHECK

TARGET_MB_PER_S = 1.5


@dataclass(frozen=True, slots=True)
class Bar:
    name: str
    corpus: str
    mb_per_s: float


def bars_from_json(data: Mapping[str, Any]) -> list[Bar]:
    rows = data.get("throughput")
    if not isinstance(rows, list):
        raise ValueError("no 'throughput' list in the JSON: not a run of python -m bench")
    bars = []
    for row in rows:
        name = str(row["name"]) + (f" ({row['note']})" if row.get("note") else "")
        bars.append(Bar(name, str(row["corpus"]), float(row["mb_per_s"])))
    return bars


def bars_from_markdown(text: str) -> list[Bar]:
    """The rows of the first table headed ``| throughput | corpus | MB/s |``."""
    lines = text.splitlines()
    heads = [index for index, line in enumerate(lines)
             if _cells(line)[:3] == ["throughput", "corpus", "MB/s"]]
    if not heads:
        raise ValueError("no table headed '| throughput | corpus | MB/s |'")
    bars = []
    for line in lines[heads[0] + 2:]:
        if not line.startswith("|"):
            break
        name, corpus, mb_per_s, *_ = _cells(line)
        bars.append(Bar(name, corpus, float(mb_per_s)))
    return bars


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def read_bars(path: Path) -> list[Bar]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return bars_from_json(json.loads(text))
    return bars_from_markdown(text)


def draw(bars: Sequence[Bar], corpus: str, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    chosen = sorted((bar for bar in bars if bar.corpus == corpus), key=lambda bar: bar.mb_per_s)
    if not chosen:
        raise ValueError(f"no measurement on the {corpus} corpus")
    figure, axes = plt.subplots(figsize=(9, 0.42 * len(chosen) + 1.4), dpi=110)
    colours = ["#c0392b" if bar.name.startswith(CHECK) else "#7f8c8d" for bar in chosen]
    axes.barh([bar.name for bar in chosen], [bar.mb_per_s for bar in chosen], color=colours)
    axes.set_xscale("log")
    axes.axvline(TARGET_MB_PER_S, color="#c0392b", linestyle="--", linewidth=1)
    axes.text(TARGET_MB_PER_S * 1.05, -0.6, f"target {TARGET_MB_PER_S} MB/s per core",
              color="#c0392b", fontsize=8, va="bottom")
    for index, bar in enumerate(chosen):
        axes.text(bar.mb_per_s * 1.05, index, f"{bar.mb_per_s:.2f}", va="center", fontsize=8)
    axes.set_xlabel("MB/s (log scale)")
    axes.set_title(f"Throughput on the {corpus}-deal corpus (median of the runs)", fontsize=10)
    axes.set_xlim(right=max(bar.mb_per_s for bar in chosen) * 2)
    figure.tight_layout()
    figure.savefig(out, metadata={"Software": None})
    plt.close(figure)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.chart", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", type=Path, nargs="?", default=Path("bench/out/latest.json"),
                        help="a run's JSON, or a Markdown page with its throughput table")
    parser.add_argument("out", type=Path, nargs="?", default=Path("docs/performance.png"),
                        help="the PNG (or SVG) to write (default docs/performance.png)")
    parser.add_argument("--corpus", default="10k", help="the corpus to draw (default 10k)")
    args = parser.parse_args(argv)
    try:
        draw(read_bars(args.run), args.corpus, args.out)
    except (OSError, ValueError, KeyError) as error:
        print(f"python -m bench.chart: {error}", file=sys.stderr)
        return 2
    print(f"chart written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
