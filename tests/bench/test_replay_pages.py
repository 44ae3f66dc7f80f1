"""``python -m bench.replay_pages``: the pages hashed are the same on every run and a
changed page changes its hash; the cost workload takes its games to each stage."""

from __future__ import annotations

from bench.replay_pages import ROOT, STAGES, page_hashes, records, workload

SAMPLE = "revoke.afn"


def test_the_pages_hashed_are_the_same_every_run_and_a_changed_page_is_named() -> None:
    text = (ROOT / "samples" / SAMPLE).read_text(encoding="utf-8")
    digest, lines = page_hashes(iter([(SAMPLE, text)]))
    assert (digest, lines) == page_hashes(iter([(SAMPLE, text)]))
    assert lines and all(line.startswith(f"{SAMPLE}#") for line in lines)
    changed = text.replace("deal 1 ", "{ a note }\ndeal 1 ", 1)  # the page shows the record
    other, other_lines = page_hashes(iter([(SAMPLE, changed)]))
    assert other != digest
    assert other_lines[0] != lines[0]


def test_the_records_are_the_samples_then_the_same_generated_games() -> None:
    first = [name for name, _ in records(per_knobs=1)]
    assert first == [name for name, _ in records(per_knobs=1)]
    assert first[0].endswith(".afn") and first[-1] == "trinidad14-4-0"


def test_the_workload_takes_its_games_to_every_stage() -> None:
    for stage in STAGES:
        assert workload(stage, games=2) == 2
