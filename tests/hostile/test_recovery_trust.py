"""The writer's recovery trusts nothing it did not make (issue 41, findings 1 and 7).

:func:`~allfours_notation.safe_write.recover` runs in every folder a command writes to.
Before, it copied any ``.NAME.PID.INODE.afn-new`` whose PID was not running and whose
INODE was NAME's over NAME, and removed any ``.afn-tmp`` whose PID was not running: a
journal planted by another user replaced root's file, and a live writer in another PID
namespace lost its temporary file.  Now a leftover is acted on only when its lock can be
taken (its writer holds it for its whole life), it is a regular file owned by the
target's owner (or by the recovering user), and, for a journal, its header binds it to
the target and to its own text.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from allfours_notation.safe_write import (
    FileSystem,
    journal_header,
    recover,
    replace_file,
    untrusted_owner,
)
from fuzz.writers import leftovers

ROOT = Path(__file__).resolve().parents[2]
MODULE = ROOT / "allfours_notation" / "safe_write.py"
SAMPLE = str(ROOT / "samples" / "two-player-to-seven.afn")
OLD, NEW = b"root's own notes\n", b"the attacker's bytes\n"


def _unused_pid() -> int:
    """A process id nothing runs under in this namespace (as another namespace's writer
    looks from here)."""
    pid = 4_000_000
    while True:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return pid
        except PermissionError:
            pass
        pid -= 1


def _journal(folder: Path, target: Path, new: bytes, *, pid: int = 999_999_999) -> Path:
    """A journal as a writer killed in the middle of its copy leaves it."""
    info = os.stat(target)
    journal = folder / f".{target.name}.{pid}.{info.st_ino}.afn-new"
    journal.write_bytes(journal_header(info, target.read_bytes(), new) + new)
    return journal


def _stat(uid: int, mode: int = 0o100600) -> os.stat_result:
    return os.stat_result((mode, 1, 1, 1, uid, 0, 10, 0, 0, 0))


# --- the owner check, without root ---------------------------------------------------------

def test_a_leftover_of_the_target_owner_or_of_the_recovering_user_is_trusted() -> None:
    assert untrusted_owner(_stat(1000), _stat(1000), user=0) is None
    assert untrusted_owner(_stat(0), _stat(1000), user=0) is None
    assert untrusted_owner(_stat(1000), None, user=1000) is None


def test_a_leftover_of_anyone_else_is_not() -> None:
    assert untrusted_owner(_stat(1001), _stat(0), user=0) == (
        "owned by user 1001, the file by user 0")
    assert untrusted_owner(_stat(1001), None, user=0) == "owned by user 1001"
    link = _stat(0, mode=0o120777)
    assert untrusted_owner(link, _stat(0), user=0) == "not a regular file"


# --- finding 1: a planted journal ----------------------------------------------------------

@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="planting as another user needs root (to chown)")
def test_finding_1_a_journal_planted_by_another_user_is_left_alone_and_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reproducer: in a shared folder another user plants a well-formed journal for
    root's notes.txt; root's next write there.  Before: notes.txt held the attacker's
    bytes and a line said the rewrite was finished."""
    from allfours_notation.cli import main

    tmp_path.chmod(0o1777)
    notes = tmp_path / "notes.txt"
    notes.write_bytes(OLD)
    journal = _journal(tmp_path, notes, NEW)
    os.chown(journal, 4242, 4242)
    assert main(["export", "--sqlite", str(tmp_path / "season.db"), SAMPLE]) == 0
    assert notes.read_bytes() == OLD and journal.exists()
    assert capsys.readouterr().err.splitlines()[0] == (
        f"allfours: {journal}: left alone, not trusted as a journal of {notes} (owned by "
        "user 4242, the file by user 0); nothing was written")


def test_a_journal_without_the_toolkit_header_is_left_alone(tmp_path: Path) -> None:
    """A journal for a file that was never being rewritten (a bare copy of other bytes,
    as the old recovery took): nothing written, one line."""
    notes = tmp_path / "notes.txt"
    notes.write_bytes(OLD)
    journal = tmp_path / f".notes.txt.999999999.{os.stat(notes).st_ino}.afn-new"
    journal.write_bytes(NEW)
    said = recover(tmp_path, notice=None, again=True)
    assert notes.read_bytes() == OLD and journal.exists()
    assert len(said) == 1 and "left alone" in said[0] and "no journal header" in said[0]


def test_a_journal_whose_text_is_not_its_header_s_is_left_alone(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_bytes(OLD)
    journal = _journal(tmp_path, notes, NEW)
    journal.write_bytes(journal.read_bytes()[:-3] + b"!!\n")  # torn or edited
    said = recover(tmp_path, notice=None, again=True)
    assert notes.read_bytes() == OLD and journal.exists()
    assert len(said) == 1 and "left alone" in said[0]


def test_a_journal_written_for_another_file_is_not_copied(tmp_path: Path) -> None:
    """The header names another inode (the name now holds another file): the journal is
    stale; the file is not touched."""
    other = tmp_path / "other.txt"
    other.write_bytes(OLD)
    notes = tmp_path / "notes.txt"
    notes.write_bytes(OLD)
    info = os.stat(other)
    journal = tmp_path / f".notes.txt.999999999.{os.stat(notes).st_ino}.afn-new"
    journal.write_bytes(journal_header(info, OLD, NEW) + NEW)
    said = recover(tmp_path, notice=None, again=True)
    assert notes.read_bytes() == OLD and other.read_bytes() == OLD
    assert not journal.exists() and "changed since" in said[0]


def test_a_symbolic_link_named_as_a_journal_is_left_alone(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_bytes(OLD)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.write_bytes(NEW)
    journal = tmp_path / f".notes.txt.999999999.{os.stat(notes).st_ino}.afn-new"
    journal.symlink_to(elsewhere)
    said = recover(tmp_path, notice=None, again=True)
    assert notes.read_bytes() == OLD and journal.is_symlink()
    assert len(said) == 1 and "left alone" in said[0] and "symbolic link" in said[0]


# --- finding 7: a live writer whose process id we cannot see ---------------------------------

HOLDER = """
import fcntl, os, sys
fds = [os.open(name, os.O_RDONLY) for name in sys.argv[1:]]
for fd in fds:
    fcntl.flock(fd, fcntl.LOCK_EX)
print("held", flush=True)
sys.stdin.read()
"""


def test_finding_7_a_live_writer_in_another_namespace_keeps_its_files(tmp_path: Path) -> None:
    """A writer whose process id does not exist here (another PID namespace, another NFS
    client) holds the locks of its temporary file and journal.  Before: both were taken
    for a dead writer's, the temporary file removed and the journal copied over the file.
    Now they are untouched while it holds them, and cleaned once it has let go."""
    pid = _unused_pid()
    notes = tmp_path / "notes.txt"
    notes.write_bytes(OLD)
    temp = tmp_path / f".notes.txt.{pid}.1.afn-tmp"
    temp.write_bytes(b"half a new te")
    journal = _journal(tmp_path, notes, NEW, pid=pid)
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(temp), str(journal)],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"held\n"
        assert recover(tmp_path, notice=None, again=True) == []
        assert temp.exists() and journal.exists() and notes.read_bytes() == OLD
    finally:
        holder.communicate(b"")
    said = recover(tmp_path, notice=None, again=True)  # it has stopped: now they are clean
    assert notes.read_bytes() == NEW and leftovers(tmp_path) == []
    assert len(said) == 2 and "finished the rewrite" in said[1]


RECOVER_ELSEWHERE = """
import importlib.util, sys
spec = importlib.util.spec_from_file_location("safe_write", sys.argv[1])
sw = importlib.util.module_from_spec(spec)
sys.modules["safe_write"] = sw
spec.loader.exec_module(sw)
print(sw.recover(sys.argv[2], notice=None, again=True))
"""


class _RecoveredMidway(FileSystem):
    """At every fsync of a write, another process runs the folder's recovery: what a
    second writer (in another namespace or not) does at any instant."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.said: list[str] = []

    def fsync(self, fd: int) -> None:
        run = subprocess.run([sys.executable, "-S", "-c", RECOVER_ELSEWHERE, str(MODULE),
                              str(self.folder)], capture_output=True, text=True, check=True)
        self.said.append(run.stdout.strip())
        super().fsync(fd)


def test_another_process_s_recovery_never_touches_a_write_under_way(tmp_path: Path) -> None:
    """The writer's own files are locked from creation to the end: a recovery run by
    another process mid-write (on the temporary file, on the journal of an in-place
    rewrite) finds nothing to do, and the write completes."""
    path, other = tmp_path / "a.txt", tmp_path / "b.txt"
    path.write_bytes(OLD)
    os.link(path, other)  # written in place, through a journal
    fs = _RecoveredMidway(tmp_path)
    replace_file(path, NEW, fs=fs, notice=None)
    os.unlink(other)
    replace_file(path, OLD, fs=fs, notice=None)  # one link: a temporary file, renamed
    assert path.read_bytes() == OLD and leftovers(tmp_path) == []
    assert len(fs.said) >= 3 and set(fs.said) == {"[]"}


def test_a_writer_whose_new_file_a_recovery_locked_first_takes_another(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The one instant a writer's temporary file is not yet locked: a recovery that takes
    the lock there removes the file; the writer sees its lock refused and takes a new
    name, and the write is whole."""
    import fcntl

    from allfours_notation import safe_write

    real = safe_write._flock
    raced: list[str] = []

    def recovery_first(fd: int, *, writer: bool) -> bool:
        if writer and not raced:
            name = next(p.name for p in tmp_path.iterdir() if p.name.endswith(".afn-tmp"))
            other = os.open(tmp_path / name, os.O_RDONLY)
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.unlink(tmp_path / name)  # what recover() does with a lock it took
            raced.append(name)
            try:
                return real(fd, writer=writer)
            finally:
                os.close(other)
        return real(fd, writer=writer)

    monkeypatch.setattr(safe_write, "_flock", recovery_first)
    path = tmp_path / "f.txt"
    path.write_bytes(OLD)
    replace_file(path, NEW, notice=None)
    assert raced and path.read_bytes() == NEW and leftovers(tmp_path) == []
