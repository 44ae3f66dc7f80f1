"""Smoke test of the benchmark harness: a tiny corpus, one run of everything.

It checks the shape of what a run reports (the Markdown tables and the JSON),
never how fast anything was: speed is measured by ``python -m bench``, not
asserted in tests.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from bench import floor
from bench.report import as_json, dumps, markdown
from bench.run import CHECK, CHECK_J2, FLOOR, HEADERS, PARSE, STREAM, Config, Report, run
from bench.stages import STAGES

# endplay's own imports warn about a pyparsing deprecation; not ours to fix.  The tests
# share one benchmark run (the module fixture), so they run on one xdist worker.
pytestmark = [pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.xdist_group("bench")]

# Each in-process measurement twice (the test checks that repeats are kept), each command
# started as a process once (a new interpreter, and the viewer, cost most of the run).
TINY = Config(repeats=2, process_repeats=1, sizes=(("tiny", 12),), throughput_sizes=("tiny",),
              peer_size="tiny", memory_sizes=("tiny",), waits=False)  # waits: test_waits


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Report:
    out = tmp_path_factory.mktemp("bench-out")
    return run(replace(TINY, out_dir=out))


def test_the_corpus_holds_the_deals_asked_for(report: Report) -> None:
    (corpus,) = report.corpora
    assert corpus.deals >= 12
    assert corpus.games >= 1
    assert corpus.bytes == corpus.path.stat().st_size
    assert corpus.path.read_text(encoding="utf-8").startswith("% AFN 1")


def test_every_afn_measurement_is_timed_repeatedly(report: Report) -> None:
    names = {row.name for row in report.throughput}
    assert {FLOOR, HEADERS, PARSE, STREAM, CHECK} <= names
    for row in report.throughput:
        assert len(row.timing.runs) == 2
        assert row.timing.min <= row.timing.median <= row.timing.max
        assert row.mb_per_s > 0 and row.units_per_s > 0


def test_latency_is_compared_with_a_bare_interpreter(report: Report) -> None:
    names = [latency.name for latency in report.latency]
    assert names[0] == "python -c pass"
    assert any(name.startswith("allfours check") for name in names)
    assert all(latency.ratio > 0 for latency in report.latency)
    assert all(len(latency.timing.runs) == 1 for latency in report.latency)  # process_repeats


def test_memory_of_check_is_measured(report: Report) -> None:
    (check,) = [m for m in report.memory if m.name.startswith("allfours check")]
    assert check.returncode == 0
    assert check.peak_rss_mb > 0


def test_markdown_has_one_row_per_measurement(report: Report) -> None:
    text = markdown(report)
    assert text.startswith("Machine: ")
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    for row in report.throughput:
        assert any(line.startswith(f"| {row.name}") for line in rows), row.name
    assert "| target | goal | measured | met |" in text
    assert "| latency (cold, wall) |" in text


def test_json_round_trips_with_the_documented_keys(report: Report) -> None:
    data = json.loads(dumps(report))
    assert data == json.loads(json.dumps(as_json(report)))
    assert {"schema", "machine", "corpora", "throughput", "latency", "memory", "targets",
            "skipped"} <= set(data)
    assert {"nproc", "cpu", "python", "load_before", "load_after"} <= set(data["machine"])
    parse_row = next(row for row in data["throughput"] if row["name"] == PARSE)
    assert set(parse_row) >= {"median_s", "min_s", "max_s", "runs_s", "mb_per_s",
                              "records_per_s", "floor_fraction"}
    for target in data["targets"]:
        assert set(target) == {"name", "goal", "measured", "met"}


def test_check_is_timed_on_one_core_and_on_two_with_cpu_time_where_it_is_ours(
        report: Report) -> None:
    one = report.find(CHECK, "tiny")
    two = report.find(CHECK_J2, "tiny")
    assert one is not None and two is not None
    assert len(one.timing.cpu_runs) == 2 and one.timing.cpu_median is not None
    assert two.timing.cpu_runs == ()  # the workers' CPU time is not this process's


def test_the_stages_of_check_are_in_the_report(report: Report) -> None:
    assert report.stages is not None
    assert tuple(stage.name for stage in report.stages.stages) == STAGES
    text = markdown(report)
    for name in STAGES:
        assert any(line.startswith(f"| {name} | ") for line in text.splitlines()), name
    data = json.loads(dumps(report))
    assert [stage["name"] for stage in data["stages"]["stages"]] == list(STAGES)
    assert set(data["check_ratios"]) >= {"floor"}
    assert f"`{CHECK}` on the tiny corpus" in text


def test_the_floor_counts_every_token() -> None:
    counts = floor.tokenize(b"[Event \"x\"]\ndeal 1 dealer N\n  1. S:JS N:10D! {c}\nend\n")
    assert counts == {"tag": 1, "word": 4, "number": 2, "card": 2, "comment": 1}


def test_the_command_documents_its_options() -> None:
    result = subprocess.run([sys.executable, "-m", "bench", "--help"], capture_output=True,
                            text=True, check=True, cwd=Path(__file__).resolve().parents[2])
    assert "--quick" in result.stdout and "--out" in result.stdout
