"""Fuzzing the safe writer: a disk that fails at random, and a process killed anywhere.

:func:`fault_round` writes random bytes over a file (alone, or with another hard link,
so both ways of writing are used) through a :class:`~fuzz.faulty_fs.FaultyFileSystem`
that fails calls at random (ENOSPC, EIO, EDQUOT, short writes); the file must then
hold the old bytes or the new, and no temporary file may be left.

:func:`run_killed` starts a small process that rewrites a file back and forth
through :func:`allfours_notation.safe_write.replace_file` and SIGKILLs itself at a
random call; after each kill the next run's cleanup (:func:`~allfours_notation.
safe_write.recover`) runs, and the file must be the old text or the new, with no
temporary file or journal left.

:func:`planted_round` plants a leftover the toolkit did not write (random bytes, a
header for another file or with the wrong digest, a symbolic link, another user's
journal when run as root) beside a file, then writes in that folder: the file must be
untouched, and the planted leftover named and left alone (issue 41).
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

from allfours_notation.safe_write import (
    OutputFolder,
    OutputRefused,
    journal_header,
    recover,
    replace_file,
)

from .faulty_fs import FaultyFileSystem

ROOT = Path(__file__).resolve().parent.parent
_LEFTOVER = re.compile(r"\.afn-(tmp|new)$")

__all__ = ["KILL_CHILD", "fault_round", "leftovers", "planted_round", "run_killed"]


def leftovers(folder: Path) -> list[str]:
    """Temporary files and journals of the safe writer in ``folder``."""
    return sorted(p.name for p in folder.iterdir() if _LEFTOVER.search(p.name))


def fault_round(rng: random.Random, folder: Path) -> str:
    """One random write over a failing disk; '' if every promise held, else what broke."""
    path = folder / "file.txt"
    for extra in folder.iterdir():
        extra.unlink()
    old = rng.randbytes(rng.choice([0, 10, 5000, 70000]))
    new = rng.randbytes(rng.choice([0, 1, 4096, 9000, 100000]))
    path.write_bytes(old)
    linked = rng.random() < 0.5
    if linked:
        os.link(path, folder / "other.txt")
    faulty = FaultyFileSystem(rng, rate=rng.choice([0.05, 0.2, 0.5]))
    try:
        if rng.random() < 0.8:
            replace_file(path, new, fs=faulty, notice=None)
        else:
            with OutputFolder(folder, force=True, fs=faulty) as out:
                out.write("file.txt", new)
    except (OSError, OutputRefused):
        pass
    now = path.read_bytes()
    if now not in (old, new):
        return f"{len(now)} bytes: neither the old {len(old)} nor the new {len(new)}"
    if linked and (folder / "other.txt").read_bytes() != now:
        return "the hard link was split"
    if leftovers(folder):
        return f"left {leftovers(folder)}"
    return ""


# The killed process: safe_write loaded from its file alone (it imports nothing of the
# package), so that each start costs a few milliseconds.
KILL_CHILD = """
import importlib.util, os, signal, sys
spec = importlib.util.spec_from_file_location("safe_write", sys.argv[1])
sw = importlib.util.module_from_spec(spec)
sys.modules["safe_write"] = sw
spec.loader.exec_module(sw)
path, kill_at = sys.argv[2], int(sys.argv[3])
old, new = open(sys.argv[4], "rb").read(), open(sys.argv[5], "rb").read()

class KilledAt(sw.FileSystem):
    # SIGKILL at the kill_at-th call of the write: every step is a kill point.
    calls = 0
    def tick(self):
        KilledAt.calls += 1
        if KilledAt.calls >= kill_at:
            os.kill(os.getpid(), signal.SIGKILL)
    def write(self, fd, data):
        self.tick()
        return sw.FileSystem.write(self, fd, data[: max(1, len(data) // 2)])
    def fsync(self, fd): self.tick(); sw.FileSystem.fsync(self, fd)
    def reserve(self, fd, size): self.tick(); sw.FileSystem.reserve(self, fd, size)
    def truncate(self, fd, size): self.tick(); sw.FileSystem.truncate(self, fd, size)
    def replace(self, a, b, d): self.tick(); sw.FileSystem.replace(self, a, b, d)
    def link(self, a, b, d): self.tick(); sw.FileSystem.link(self, a, b, d)
    def unlink(self, a, d): self.tick(); sw.FileSystem.unlink(self, a, d)

fs = KilledAt()
for text in (new, old, new, old):
    sw.replace_file(path, text, fs=fs, notice=None)
print(KilledAt.calls)
"""


def run_killed(folder: Path, *, kills: int, links: int, rng: random.Random) -> dict[str, int]:
    """Kill the writing process at ``kills`` random points; assert the promises after
    each (the next run's cleanup done first).  Returns counts of what happened."""
    path = folder / "record.afn"
    old, new = b"% AFN 1\n" + b"old line\n" * 400, b"% AFN 1\n" + b"the new text\n" * 900
    (folder / "old.bin").write_bytes(old)
    (folder / "new.bin").write_bytes(new)
    path.write_bytes(old)
    if links == 2:
        os.link(path, folder / "other.afn")
    module = ROOT / "allfours_notation" / "safe_write.py"
    counts = {"killed": 0, "finished": 0}
    most = 60 if links == 2 else 40
    for _ in range(kills):
        kill_at = rng.randrange(1, most)
        child = subprocess.run(
            [sys.executable, "-S", "-c", KILL_CHILD, str(module), str(path), str(kill_at),
             str(folder / "old.bin"), str(folder / "new.bin")],
            capture_output=True, check=False)
        if child.returncode == -signal.SIGKILL:
            counts["killed"] += 1
        else:
            assert child.returncode == 0, child.stderr.decode()
            counts["finished"] += 1
        recover(folder, notice=None, again=True)  # what the next run does first
        now = path.read_bytes()
        assert now in (old, new), f"killed at call {kill_at}: {len(now)} bytes"
        if links == 2:
            assert (folder / "other.afn").read_bytes() == now, "hard link split"
            assert os.stat(path).st_nlink == 2
        assert leftovers(folder) == [], f"killed at call {kill_at}: {leftovers(folder)}"
    return counts


PLANTS = ("bytes", "other_inode", "wrong_digest", "symlink", "other_user")


def planted_round(rng: random.Random, folder: Path) -> str:
    """Plant one leftover the toolkit did not write beside a file, then write beside it:
    '' if the file is untouched and the plant left alone (or, if stale and ours, removed)."""
    for extra in folder.iterdir():
        extra.unlink()
    target = folder / "notes.txt"
    old, new = rng.randbytes(rng.choice([0, 9, 3000])), rng.randbytes(rng.choice([0, 5, 4000]))
    target.write_bytes(old)
    info = os.stat(target)
    kind = rng.choice(PLANTS if os.geteuid() == 0 else PLANTS[:-1])
    pid = rng.choice([1, 999_999_999, os.getpid() + 1])
    plant = folder / f".notes.txt.{pid}.{info.st_ino}.afn-new"
    header = journal_header(info, old, new)
    if kind == "bytes":
        plant.write_bytes(rng.choice([new, header[: rng.randrange(1, len(header))] + new]))
    elif kind == "other_inode":
        decoy = folder / "decoy"
        decoy.write_bytes(old)
        plant.write_bytes(journal_header(os.stat(decoy), old, new) + new)
    elif kind == "wrong_digest":
        plant.write_bytes(header + new + b"x")
    elif kind == "symlink":
        (folder / "decoy").write_bytes(header + new)
        plant.symlink_to(folder / "decoy")
    else:
        plant.write_bytes(header + new)
        os.chown(plant, 4242, 4242)
    replace_file(folder / "other.txt", b"x", notice=None)
    said = recover(folder, notice=None, again=True)
    if target.read_bytes() != old:
        return f"{kind}: the file was changed"
    stale = kind == "other_inode"
    if plant.is_symlink() or plant.exists() != stale:
        if not stale and not any("left alone" in line for line in said):
            return f"{kind}: not named: {said}"
        return ""
    return f"{kind}: the planted journal was {'kept' if stale else 'removed'}"
