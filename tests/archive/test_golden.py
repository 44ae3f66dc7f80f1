"""Golden outputs of ``list``, ``find`` and ``stats`` on the bundled samples.

Rewrite them after an intended change with ``python -m pytest --update-goldens
tests/archive`` and read the diff.
"""

from __future__ import annotations

import pytest

from tests.golden import check_golden

from .conftest import GOLDEN, RECORDS, ROOT, Cli

# golden file → (arguments, exit status)
CASES: dict[str, tuple[list[str], int]] = {
    "list.txt": (["list", *RECORDS], 0),
    "list-check.json": (["list", "--check", "--json", *RECORDS], 1),
    "list.csv": (["list", "--csv", *RECORDS], 0),
    "find-ann.afn": (["find", "--player", "Ann Baptiste", *RECORDS], 0),
    "find-dispute-couva.txt": (["find", "--list", "--has", "dispute", *RECORDS,
                                    "--tag", "Site~Couva"], 0),
    "find-run-4-deals.txt": (["find", "--list", "--has", "run", "--deals", "4-", *RECORDS], 0),
    "stats.txt": (["stats", *RECORDS], 1),
    "stats.json": (["stats", "--json", *RECORDS], 1),
    "stats-club-night.csv": (["stats", "--csv", "samples/club-night.afn"], 0),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden(cli: Cli, name: str, update_goldens: bool) -> None:
    args, status = CASES[name]
    run = cli(args)
    assert run.code == status, run.err
    check_golden(run.out, GOLDEN / name, update=update_goldens)


def test_no_stale_golden_file_and_no_machine_path() -> None:
    assert sorted(p.name for p in GOLDEN.iterdir()) == sorted(CASES)
    for path in GOLDEN.iterdir():
        assert str(ROOT) not in path.read_text(encoding="utf-8")


def test_find_golden_is_the_samples_bytes() -> None:
    """The games in find-ann.afn are the samples' text, byte for byte."""
    found = (GOLDEN / "find-ann.afn").read_bytes().removeprefix(b"% AFN 1\n")
    club = (ROOT / "samples" / "club-night.afn").read_bytes()
    first_two = club[club.index(b"{ Arima") : club.index(b"\n\n{ The last game")]
    assert found.startswith(first_two)
