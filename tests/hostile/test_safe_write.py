"""The one safe writer (issue 23, findings 1, 3, 4, 6, 9): whole or nothing on a disk
that fails, links kept, nobody's edit lost, locks on the real file, no leftovers, and
output folders that are never left by a link or overwritten unasked."""

from __future__ import annotations

import errno
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from allfours_notation.cli import main
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import FileLocked, RecordChanged, RecordFile, lock_path
from allfours_notation.safe_write import (
    ChangedOnDisk,
    OutputFolder,
    OutputRefused,
    journal_header,
    recover,
    replace_file,
)
from fuzz.faulty_fs import FaultyFileSystem, installed
from fuzz.writers import leftovers, run_killed
from tests.recording.helpers import TWO_TAGS, feed

LAX = "deal 1 dealer n\nturn 4s\n1. s:js n:2d\nend\n" + "{ a comment to make it longer }\n" * 60


def test_finding_1_a_hard_linked_file_on_a_full_disk_keeps_its_old_text(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reproducer: a hard-linked file that fmt would change, the disk full after the
    first 4,096 bytes.  Before: the file held those 4,096 bytes under both names."""
    path, other = tmp_path / "a.afn", tmp_path / "b.afn"
    path.write_text(LAX, encoding="utf-8")
    os.link(path, other)
    for fail_at in range(1, 8):  # the disk fills at every call of the write in turn
        faulty = FaultyFileSystem(random.Random(fail_at), fail_at=fail_at, error=errno.ENOSPC)
        with installed(faulty):
            code = main(["fmt", "--write", str(path)])
        text = path.read_text(encoding="utf-8")
        assert text == other.read_text(encoding="utf-8")
        assert os.stat(path).st_ino == os.stat(other).st_ino and os.stat(path).st_nlink == 2
        if code == 0:  # the failing call came after the last one the write needed
            assert text.startswith("% AFN 1\n")
            path.write_text(LAX, encoding="utf-8")
            continue
        assert code == 2, capsys.readouterr().err
        assert text == LAX, f"failure at call {fail_at} left a part"
        assert "No space left on device" in capsys.readouterr().err
        assert leftovers(tmp_path) == []


@pytest.mark.parametrize("links", [1, 2])
def test_random_faults_leave_the_old_text_or_the_new(tmp_path: Path, links: int) -> None:
    """ENOSPC, EIO, EDQUOT and short writes at random, in both ways of writing."""
    path = tmp_path / "f.txt"
    old, new = b"old text\n" * 500, b"the new text, longer\n" * 700
    if links == 2:
        path.write_bytes(old)
        os.link(path, tmp_path / "g.txt")
    rng = random.Random(links)
    failures = 0
    for _ in range(40):
        path.write_bytes(old)
        with installed(FaultyFileSystem(rng, rate=0.15)):
            try:
                replace_file(path, new)
            except OSError:
                failures += 1
        assert path.read_bytes() in (old, new)
        assert leftovers(tmp_path) == []
    assert failures > 3  # the faults did happen


def test_finding_3_the_recorder_writes_through_a_symlink_and_locks_the_real_file(
        tmp_path: Path) -> None:
    real = tmp_path / "real.afn"
    link = tmp_path / "link.afn"
    link.symlink_to(real)
    with RecordFile(link) as record:
        # a deal is written with its first entry after the dealer (issue 37)
        feed(Session(TWO_TAGS, record=record), ["n", "4s"])
        assert link.is_symlink()
        assert "deal 1 dealer N" in real.read_text(encoding="utf-8")
        for other_name in (real, link, tmp_path / "." / "real.afn"):
            with pytest.raises(FileLocked):
                RecordFile(other_name).acquire()
    assert not lock_path(real).exists()


def test_finding_3_a_save_keeps_hard_links_and_mode(tmp_path: Path) -> None:
    path = tmp_path / "game.afn"
    with RecordFile(path) as record:
        Session(TWO_TAGS, record=record).save()
    os.chmod(path, 0o640)
    os.link(path, tmp_path / "copy.afn")
    with RecordFile(path) as record:
        from allfours_notation.recording.opening import Resume, inspect

        opened = inspect(path, record)
        assert isinstance(opened, Resume)
        feed(opened.session, ["n"])
    assert os.stat(path).st_nlink == 2 and os.stat(path).st_mode & 0o777 == 0o640
    assert (tmp_path / "copy.afn").read_text(encoding="utf-8") == path.read_text(
        encoding="utf-8")


@pytest.mark.parametrize("edit", ["append", "editor"])
def test_finding_4_the_recorder_never_overwrites_another_programs_edit(
        tmp_path: Path, edit: str) -> None:
    path = tmp_path / "game.afn"
    with RecordFile(path) as record:
        session = Session(TWO_TAGS, record=record)
        feed(session, ["n"])
        text = path.read_text(encoding="utf-8")
        if edit == "append":
            with open(path, "a", encoding="utf-8") as handle:
                handle.write("{ a line someone added }\n")
        else:  # an editor saves a new file over it (another inode)
            saved = tmp_path / "saved"
            saved.write_text(text.replace("Test night", "Edited night"), encoding="utf-8")
            os.replace(saved, path)
        edited = path.read_text(encoding="utf-8")
        with pytest.raises(RecordChanged):
            session.type("s js 9h 8h 7c 6d 5d")
        assert path.read_text(encoding="utf-8") == edited
        assert len(session.entries) == 1  # the entry was not taken


def test_fmt_refuses_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    path = tmp_path / "x.afn"
    path.write_bytes(b"first\n")
    from allfours_notation.cli.inputs import read_input

    read = read_input(str(path))
    path.write_bytes(b"second\n")
    with pytest.raises(ChangedOnDisk):
        replace_file(path, b"new\n", expected=read.identity)
    assert path.read_bytes() == b"second\n"


def test_finding_9_a_killed_recorder_leaves_nothing_the_next_one_does_not_clean(
        tmp_path: Path) -> None:
    """A recorder killed in the middle of a write: its lock file and temporary file are
    removed when the next recorder starts, each with a line saying so."""
    path = tmp_path / "game.afn"
    script = (
        "import os, signal, sys\n"
        "from pathlib import Path\n"
        "from allfours_notation.recording.storage import RecordFile\n"
        "from allfours_notation.safe_write import FileSystem\n"
        "record = RecordFile(Path(sys.argv[1])); record.acquire()\n"
        "def die(self, fd):\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "FileSystem.fsync = die\n"
        "record.write('% AFN 1\\n')\n"
    )
    child = subprocess.run([sys.executable, "-c", script, str(path)], check=False)
    assert child.returncode == -signal.SIGKILL
    assert lock_path(path).exists() and leftovers(tmp_path)  # what the kill left
    said: list[str] = []
    with RecordFile(path, notice=said.append):
        pass
    assert any("temporary file left by process" in line for line in said), said
    assert any("the lock of process" in line for line in said), said
    assert leftovers(tmp_path) == [] and not lock_path(path).exists()


def test_finding_9_the_lock_file_goes_at_a_normal_exit(tmp_path: Path) -> None:
    path = tmp_path / "game.afn"
    with RecordFile(path) as record:
        Session(TWO_TAGS, record=record).save()
        assert lock_path(path).exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.afn"]


def test_kill_anywhere_a_few_points(tmp_path: Path) -> None:
    """The suite's short version of the kill-anywhere test (the slow one kills 200
    times): SIGKILL at random calls of the write, in both ways of writing."""
    for links in (1, 2):
        folder = tmp_path / f"links{links}"
        folder.mkdir()
        outcomes = run_killed(folder, kills=6, links=links, rng=random.Random(links))
        assert outcomes["killed"] >= 3


# --- output folders (finding 6) ------------------------------------------------------------

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "club-night.afn"


def test_finding_6_find_split_never_follows_a_symlink_in_the_folder(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    outside = tmp_path / "precious.txt"
    outside.write_text("keep me\n", encoding="utf-8")
    (out / "club-night-001.afn").symlink_to(outside)
    assert main(["find", "--split", str(out), str(SAMPLE)]) == 2
    assert outside.read_text(encoding="utf-8") == "keep me\n"
    err = capsys.readouterr().err
    assert "club-night-001.afn" in err and "symbolic link" in err
    assert main(["find", "--split", str(out), "--force", str(SAMPLE)]) == 2  # not even forced
    assert outside.read_text(encoding="utf-8") == "keep me\n"


def test_finding_6_find_split_overwrites_only_with_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["find", "--split", str(out), str(SAMPLE)]) == 0
    first = sorted(p.name for p in out.iterdir())
    (out / first[0]).write_text("mine\n", encoding="utf-8")
    assert main(["find", "--split", str(out), str(SAMPLE)]) == 2
    assert (out / first[0]).read_text(encoding="utf-8") == "mine\n"
    err = capsys.readouterr().err
    assert first[0] in err and "already exists" in err and "--force" in err
    assert main(["find", "--split", str(out), "--force", str(SAMPLE)]) == 0
    assert (out / first[0]).read_text(encoding="utf-8").startswith("% AFN 1\n")


def test_finding_6_export_csv_refuses_links_and_existing_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tables"
    out.mkdir()
    outside = tmp_path / "precious.txt"
    outside.write_text("keep me\n", encoding="utf-8")
    (out / "games.csv").symlink_to(outside)
    assert main(["export", "--csv", str(out), str(SAMPLE)]) == 2
    assert outside.read_text(encoding="utf-8") == "keep me\n"
    assert "games.csv" in capsys.readouterr().err
    (out / "games.csv").unlink()
    assert main(["export", "--csv", str(out), str(SAMPLE)]) in (0, 1)
    assert main(["export", "--csv", str(out), str(SAMPLE)]) == 2  # exists: not without --force
    assert "already exists" in capsys.readouterr().err
    assert main(["export", "--csv", str(out), "--force", str(SAMPLE)]) in (0, 1)
    assert leftovers(out) == []


def test_finding_6_html_without_o_never_silently_overwrites(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "club-night.html").write_text("my page\n", encoding="utf-8")
    assert main(["html", str(SAMPLE)]) == 2
    assert (tmp_path / "club-night.html").read_text(encoding="utf-8") == "my page\n"
    err = capsys.readouterr().err
    assert "club-night.html" in err and "--force" in err
    assert main(["html", "--force", str(SAMPLE)]) in (0, 1)
    assert (tmp_path / "club-night.html").read_text(encoding="utf-8").startswith("<!DOCTYPE")


def test_an_output_name_never_leaves_its_folder(tmp_path: Path) -> None:
    with OutputFolder(tmp_path / "out") as folder:
        for name in ("../escape.afn", "a/b.afn", "..", ""):
            with pytest.raises(OutputRefused):
                folder.write(name, b"x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


def test_find_o_and_stats_plot_write_whole_through_a_symlink(tmp_path: Path) -> None:
    target = tmp_path / "real.afn"
    target.write_text("old\n", encoding="utf-8")
    os.chmod(target, 0o640)
    link = tmp_path / "link.afn"
    link.symlink_to(target)
    assert main(["find", str(SAMPLE), "-o", str(link)]) == 0
    assert link.is_symlink() and target.read_bytes().startswith(b"% AFN 1\n")
    assert target.stat().st_mode & 0o777 == 0o640
    assert leftovers(tmp_path) == []


def test_recover_rolls_an_interrupted_in_place_rewrite_forward(tmp_path: Path) -> None:
    """What a kill between the journal and the end of the copy leaves: the next writer
    puts the complete new text in place."""
    path = tmp_path / "f.txt"
    path.write_bytes(b"old text\n")
    header = journal_header(os.stat(path), b"old text\n", b"new text\n")
    path.write_bytes(b"new te")  # the copy stopped part-way
    inode = os.stat(path).st_ino
    journal = tmp_path / f".f.txt.999999999.{inode}.afn-new"
    journal.write_bytes(header + b"new text\n")
    said = recover(tmp_path, notice=None, again=True)
    assert path.read_bytes() == b"new text\n" and not journal.exists()
    assert said and "finished the rewrite" in said[0]


def test_export_sqlite_builds_a_new_database_whole(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """An export interrupted before its end leaves no half database; a finished one is
    in place, and a second export adds to it (through a symlink too)."""
    from allfours_notation.archive import sqlite as sqlite_out

    db = tmp_path / "season.db"
    real_add = sqlite_out.SqliteWriter.add

    def interrupted(self: sqlite_out.SqliteWriter, game: object) -> bool:
        raise KeyboardInterrupt

    monkeypatch.setattr(sqlite_out.SqliteWriter, "add", interrupted)
    assert main(["export", "--sqlite", str(db), str(SAMPLE)]) not in (0, 1)  # interrupted
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    monkeypatch.setattr(sqlite_out.SqliteWriter, "add", real_add)
    assert main(["export", "--sqlite", str(db), str(SAMPLE)]) in (0, 1)
    link = tmp_path / "link.db"
    link.symlink_to(db)
    assert main(["export", "--sqlite", str(link), str(SAMPLE)]) in (0, 1)
    assert link.is_symlink() and sorted(p.name for p in tmp_path.iterdir()) == [
        "link.db", "season.db"]
