"""The long runs of the safe writer (marked slow: `pytest -m slow`): SIGKILL at 200
random points, and a real full disk (a 64 KiB tmpfs, where mounting is allowed)."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from allfours_notation.cli import main
from fuzz.writers import leftovers, run_killed

pytestmark = pytest.mark.slow


def test_kill_anywhere_200_points(tmp_path: Path) -> None:
    """A process writing through the safe writer is SIGKILLed at 200 random points (100
    renaming, 100 rewriting a hard-linked file in place); after each, once the next run
    has started, the file is byte-equal to the old text or the new and no temporary file
    or journal is left."""
    killed = 0
    for links in (1, 2):
        folder = tmp_path / f"links{links}"
        folder.mkdir()
        killed += run_killed(folder, kills=100, links=links,
                             rng=random.Random(200 + links))["killed"]
    assert killed >= 150


@pytest.fixture
def tiny_tmpfs(tmp_path: Path) -> Iterator[Path]:
    """A 64 KiB tmpfs, or a skip where mounting is not allowed."""
    mount = shutil.which("mount")
    if mount is None or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root and mount(8)")
    point = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    point.mkdir()
    done = subprocess.run([mount, "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(point)],
                          capture_output=True, check=False)
    if done.returncode != 0:
        pytest.skip(f"mount not allowed here: {done.stderr.decode().strip()}")
    try:
        yield point
    finally:
        subprocess.run(["umount", str(point)], check=False)


def test_finding_1_on_a_real_full_disk(tiny_tmpfs: Path) -> None:
    """The issue's reproducer as it was: a hard-linked file of a few KB that fmt would
    change, the disk filled, fmt --write.  The file keeps its old text under both names."""
    lax = "deal 1 dealer n\nturn 4s\n1. s:js n:2d\nend\n" + "{ a comment }\n" * 300
    path, other = tiny_tmpfs / "a.afn", tiny_tmpfs / "b.afn"
    path.write_text(lax, encoding="utf-8")
    os.link(path, other)
    filler = tiny_tmpfs / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while os.write(fd, b"\0" * 512):
            pass
    except OSError:
        pass  # full
    finally:
        os.close(fd)
    assert main(["fmt", "--write", str(path)]) == 2
    assert path.read_text(encoding="utf-8") == lax == other.read_text(encoding="utf-8")
    assert leftovers(tiny_tmpfs) == []
    filler.unlink()  # room again: the rewrite goes through
    assert main(["fmt", "--write", str(path)]) == 0
    assert other.read_text(encoding="utf-8").startswith("% AFN 1\n")
