"""``python -m bench.identical``: its inputs are the same on every run and it names
every output that differs."""

from __future__ import annotations

import hashlib
from pathlib import Path

from bench.identical import ROOT, differences, internal_faults, mutations, run_side

SAMPLES = sorted((ROOT / "samples").glob("*.afn"))


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


def test_a_run_that_met_an_internal_fault_is_named() -> None:
    results: dict[str, list[object]] = {"export a.afn": [3, "h", "h2", True],
                                        "check a.afn": [0, "h", "h2", False]}
    assert internal_faults(results) == ["export a.afn"]


def test_the_runner_gives_commands_a_byte_buffer_as_a_real_stdout_has(tmp_path: Path) -> None:
    """``export`` writes through ``sys.stdout.buffer``: under the runner's captured
    streams it must succeed and its output be hashed, not fail the same way on both
    sides (as it once did, hashing two equal AFN901 reports)."""
    jobs = [("export", ["export", str(SAMPLES[0])]), ("schema", ["export", "--schema"])]
    results = run_side(ROOT, jobs)
    for key in ("export", "schema"):
        code, out_hash, _err_hash, fault = results[key]
        assert code == 0 and fault is False, key
        assert out_hash != hashlib.sha256(b"").hexdigest(), key
