"""``python -m bench.identical``: its inputs are the same on every run and it names
every output that differs."""

from __future__ import annotations

from pathlib import Path

from bench.identical import differences, mutations

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.afn"))


def test_the_mutants_are_the_same_for_a_seed_and_differ_from_the_samples() -> None:
    first = mutations(SAMPLES, 30, seed=7)
    assert first == mutations(SAMPLES, 30, seed=7)
    assert first != mutations(SAMPLES, 30, seed=8)
    originals = {path.read_text(encoding="utf-8") for path in SAMPLES}
    assert sum(text not in originals for _, text in first) >= 25


def test_every_differing_part_of_a_run_is_named() -> None:
    base = {"check a.afn": [0, "ok\n", ""], "fmt a.afn": [1, "x", "warning"]}
    ours = {"check a.afn": [0, "ok\n", ""], "fmt a.afn": [0, "y", "warning"]}
    assert differences(ours, base) == ["fmt a.afn: exit code, stdout differ"]
    assert differences(base, base) == []
