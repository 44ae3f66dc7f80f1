"""``allfours check -j N``: the same output, byte for byte and in order, as ``-j 1``."""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation import checking as check
from allfours_notation.archive.parallel import WorkerPool, can_start_workers

from .conftest import Cli

# Every `-j` test on one worker (with test_analyse_cli.py's and test_single_dummy.py's):
# each worker process that asks for a pool starts a forkserver of its own, a fresh
# interpreter that imports the package and builds the parser (WORKER_START).
pytestmark = pytest.mark.xdist_group("forkserver")


def _square(number: int) -> int:
    return number * number


@pytest.mark.skipif(not can_start_workers(), reason="no forkserver on this platform")
def test_pool_map_keeps_order_and_bounds() -> None:
    with WorkerPool(2) as pool:
        assert list(pool.map(_square, iter(range(500)))) == [n * n for n in range(500)]


@pytest.mark.skipif(not can_start_workers(), reason="no forkserver on this platform")
@pytest.mark.parametrize("extra", [[], ["--json"], ["--no-rules"], ["--rules", "english10"]])
def test_output_is_identical_for_any_number_of_jobs(
        cli: Cli, archive: Path, extra: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The folder holds broken games and a file big enough to be shared among workers.
    Two and three workers for the plain report; three for the options (each passed to
    the workers as the plain report's are, two or three alike)."""
    monkeypatch.setattr(check, "SMALL_FILE_GAMES", 2)  # every multi-game file goes to workers
    # Small runs of games: the generated file alone is several, so each worker gets
    # more than one and their results come back interleaved, as a large file's do.
    monkeypatch.setattr(check, "CHUNK_CHARS", 2_000)
    one = cli(["check", "-j", "1", *extra, str(archive)])
    assert "AFN1" in one.out  # the broken games are reported
    for jobs in ("2", "3") if not extra else ("3",):
        many = cli(["check", "-j", jobs, *extra, str(archive)])
        assert many.out == one.out
        assert (many.code, many.err) == (one.code, one.err)


@pytest.mark.skipif(not can_start_workers(), reason="no forkserver on this platform")
def test_quiet_prints_the_summary_of_the_full_report_for_any_number_of_jobs(
        cli: Cli, archive: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--quiet`` counts in the workers and sends back only the counts."""
    monkeypatch.setattr(check, "SMALL_FILE_GAMES", 2)
    monkeypatch.setattr(check, "CHUNK_CHARS", 2_000)
    full = cli(["check", "-j", "1", str(archive)])
    summary = full.out.rstrip("\n").rsplit("\n", 1)[-1]
    assert "root cause" in summary  # the archive has problems that follow from others
    for jobs in ("1", "2", "3"):
        quiet = cli(["check", "-q", "-j", jobs, str(archive)])
        assert (quiet.out, quiet.code) == (summary + "\n", full.code)


def test_jobs_must_be_a_positive_number(cli: Cli) -> None:
    for bad in ("0", "many"):
        with pytest.raises(SystemExit) as stop:
            cli(["check", "-j", bad, "samples/revoke.afn"])
        assert stop.value.code == 2
