"""A run as Markdown (for people and docs/performance.md) and as JSON (for comparing runs)."""

from __future__ import annotations

import json
from typing import Any

from . import stages, waits
from .run import CHECK, FLOOR, Report, Throughput, ratios

SCHEMA = 1


def _floor_for(report: Report, row: Throughput) -> Throughput | None:
    return report.find(FLOOR, row.corpus)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def markdown(report: Report) -> str:
    machine = report.machine
    lines = [
        f"Machine: {machine['nproc']} cores, {machine['cpu']}, "
        f"{machine['implementation']} {machine['python']}, {machine['system']}; "
        f"load average before {_load(machine['load_before'])}, "
        f"after {_load(machine.get('load_after'))}. "
        f"Median of {report.config.repeats} runs (min–max).",
        "",
        "Corpora: " + "; ".join(
            f"{c.label} = {c.deals:,} deals in {c.games:,} games, {c.bytes / 1e6:.2f} MB"
            for c in report.corpora) + ".",
        "",
    ]
    rows = []
    for row in report.throughput:
        floor = _floor_for(report, row)
        vs_floor = f"{row.mb_per_s / floor.mb_per_s:.2f}" if floor and row.name != FLOOR else ""
        timing = row.timing
        cpu = timing.cpu_median
        rows.append([
            row.name + (f" ({row.note})" if row.note else ""),
            row.corpus,
            f"{row.mb_per_s:.2f}",
            f"{row.units_per_s:,.0f} {row.unit}/s",
            f"{timing.median:.3f} ({timing.min:.3f}–{timing.max:.3f})",
            f"{cpu:.3f}" if cpu is not None else "",
            vs_floor,
        ])
    lines += _table(["throughput", "corpus", "MB/s", "records/s", "seconds (wall)", "CPU s",
                     "× floor"], rows)
    lines += _ratio_lines(report)
    if report.stages is not None:
        lines.append("")
        lines += stages.markdown(report.stages)
    if report.latency:
        lines.append("")
        lines += _table(
            ["latency (cold, wall)", "seconds", "min–max", "× python -c pass"],
            [[lat.name, f"{lat.timing.median:.3f}", f"{lat.timing.min:.3f}–{lat.timing.max:.3f}",
              f"{lat.ratio:.2f}"] for lat in report.latency],
        )
    if report.waits:
        lines.append("")
        lines += waits.markdown(report.waits)
    if report.memory:
        lines.append("")
        lines += _table(
            ["memory", "corpus", "MB of input", "peak RSS MB", "wall s", "MB/s"],
            [[m.name, m.corpus, f"{m.bytes / 1e6:.1f}", f"{m.peak_rss_mb:.0f}", f"{m.wall:.1f}",
              f"{m.bytes / 1e6 / m.wall:.2f}" if m.name.startswith("allfours") else ""]
             for m in report.memory],
        )
    if report.viewer_indexed_s is not None:
        lines += ["", f"The viewer indexed the whole file {report.viewer_indexed_s:.2f} s after "
                  "it started (the game list fills in while the first game is already shown)."]
    if report.targets:
        lines.append("")
        lines += _table(
            ["target", "goal", "measured", "met"],
            [[t.name, t.goal, t.value, {True: "yes", False: "**no**", None: "n/a"}[t.met]]
             for t in report.targets],
        )
    if report.skipped:
        lines.append("")
        lines += [f"- not measured: {reason}" for reason in report.skipped]
    lines.append("")
    lines.append(f"Whole run: {report.seconds:.0f} s.")
    return "\n".join(lines) + "\n"


def _ratio_lines(report: Report) -> list[str]:
    corpus = report.config.peer_size
    found = ratios(report, corpus)
    if not found:
        return []
    names = {"endplay": "endplay pbn.load", "python_chess": "python-chess read_game",
             "floor": "the regex floor"}
    parts = [f"{value:.2f}× {names[key]}" for key, value in found.items()]
    return ["", f"`{CHECK}` on the {corpus} corpus, against what was measured in this run on "
            f"the same bytes: " + ", ".join(parts) + "."]


def _load(value: object) -> str:
    if not isinstance(value, (tuple, list)):
        return "?"
    return " ".join(f"{v:.2f}" for v in value)


def as_json(report: Report) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "quick": report.config.quick,
        "repeats": report.config.repeats,
        "seed": report.config.seed,
        "machine": report.machine,
        "seconds": round(report.seconds, 2),
        "corpora": [corpus.describe() for corpus in report.corpora],
        "throughput": [
            {
                "name": row.name,
                "corpus": row.corpus,
                "bytes": row.bytes,
                "records": row.units,
                "unit": row.unit,
                "note": row.note,
                "runs_s": list(row.timing.runs),
                "median_s": row.timing.median,
                "cpu_runs_s": list(row.timing.cpu_runs),
                "cpu_median_s": row.timing.cpu_median,
                "min_s": row.timing.min,
                "max_s": row.timing.max,
                "mb_per_s": row.mb_per_s,
                "records_per_s": row.units_per_s,
                "floor_fraction": _fraction(report, row),
            }
            for row in report.throughput
        ],
        "latency": [
            {"name": lat.name, "runs_s": list(lat.timing.runs), "median_s": lat.timing.median,
             "min_s": lat.timing.min, "max_s": lat.timing.max, "ratio_to_python": lat.ratio}
            for lat in report.latency
        ],
        "memory": [
            {"name": m.name, "corpus": m.corpus, "bytes": m.bytes, "peak_rss_mb": m.peak_rss_mb,
             "wall_s": m.wall, "returncode": m.returncode}
            for m in report.memory
        ],
        "targets": [
            {"name": t.name, "goal": t.goal, "measured": t.value, "met": t.met}
            for t in report.targets
        ],
        "waits": waits.as_json(report.waits),
        "viewer_indexed_s": report.viewer_indexed_s,
        "check_ratios": ratios(report, report.config.peer_size),
        "stages": stages.as_json(report.stages) if report.stages is not None else None,
        "skipped": report.skipped,
    }


def _fraction(report: Report, row: Throughput) -> float | None:
    floor = _floor_for(report, row)
    return None if floor is None else row.mb_per_s / floor.mb_per_s


def dumps(report: Report) -> str:
    return json.dumps(as_json(report), indent=2, ensure_ascii=False) + "\n"
