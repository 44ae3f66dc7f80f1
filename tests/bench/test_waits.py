"""bench.waits (issue 27): each figure measured beside its reference, and reported so."""

from __future__ import annotations

import sys
from pathlib import Path

from bench import waits

ROOT = Path(__file__).resolve().parents[2]


def test_child_cpu_sees_a_busy_child() -> None:
    idle = waits.child_cpu([sys.executable, "-c", "pass"])
    busy = waits.child_cpu([sys.executable, "-c", "sum(range(3_000_000))"])
    assert 0 < idle < busy


def test_cold_start_and_printing_stand_beside_their_references(tmp_path: Path) -> None:
    one = tmp_path / "one.afn"
    one.write_text((ROOT / "samples" / "club-night.afn").read_text(encoding="utf-8")
                   .split("\nend\n")[0] + "\nend\n", encoding="utf-8")
    found = waits.cold_start(one, 1) + waits.printing(tmp_path, 3_000, 1)
    assert [w.reference_name for w in found] == ["python -c pass", "python -c pass",
                                                 "check --quiet", "check --quiet"]
    assert all(w.value > 0 and w.reference and w.ratio for w in found)
    assert found[1].value > found[0].value  # checking a game costs more than the version
    table = waits.markdown(found)
    assert len(table) == 2 + len(found) and "(python -c pass)" in table[2]
    assert waits.as_json(found)[0]["ratio"] == found[0].ratio


def test_the_public_door_is_measured_against_the_command() -> None:
    from bench.run import _check

    sample = ROOT / "samples" / "club-night.afn"
    tally, door = waits.public_door(sample, sample.stat().st_size, 1, _check)
    assert tally.name.startswith("checking.tally_file") and tally.met is not None
    assert door.name.startswith("checking.check_file") and door.reference is not None
    assert {tally.reference_name, door.reference_name} == {"allfours check --quiet -j 1"}


def test_a_paired_ratio_is_the_one_shown_and_judged() -> None:
    """Taken in pairs, the ratio is the median of the pairs', not that of the medians: a
    pair shares the machine's speed of its moment."""
    paired = waits.Wait("x", "CPU s", 3.0, "ref", 1.0, "≤ 2×", True, 5, 1.5)
    unpaired = waits.Wait("x", "CPU s", 3.0, "ref", 1.0, "≤ 2×", False, 5)
    assert paired.ratio == 1.5 and unpaired.ratio == 3.0
    assert "| 1.50× |" in waits.markdown([paired])[-1]
    assert waits.as_json([paired])[0]["ratio"] == 1.5
