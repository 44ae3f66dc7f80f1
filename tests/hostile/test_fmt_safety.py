"""``fmt`` never hides a problem and ``fmt --write`` never loses anyone's text."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from allfours_notation import parse
from allfours_notation.cli import fmt as fmt_cli
from allfours_notation.cli import main
from allfours_notation.cli.inputs import read_input
from allfours_notation.safe_write import ChangedOnDisk, replace_file
from allfours_notation.writing.formatter import format_checked

SKIPPED_TRICK = (
    "% AFN 1\n"
    "deal 1 dealer N\n"
    "  1. N:JS S:2D\n"
    "  2. N:3D S:4D\n"
    "  4. N:5D S:6D\n"
    "end\n"
)
LAX = "deal 1 dealer n\nturn 4s\n1. s:js n:2d\nend\n"


def test_trick_numbers_as_written_stop_a_rewrite(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "skip.afn"
    path.write_text(SKIPPED_TRICK, encoding="utf-8")
    assert main(["fmt", "--write", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == SKIPPED_TRICK
    err = capsys.readouterr().err
    assert "would hide AFN207" in err and "--renumber" in err


def test_renumber_renumbers_on_purpose(tmp_path: Path) -> None:
    path = tmp_path / "skip.afn"
    path.write_text(SKIPPED_TRICK, encoding="utf-8")
    assert main(["fmt", "--write", "--renumber", str(path)]) == 0
    assert "  3. N:5D S:6D\n" in path.read_text(encoding="utf-8")
    assert "AFN207" not in [d.code for d in parse(path.read_bytes()).diagnostics]


def test_plain_fmt_prints_with_a_warning(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    path = tmp_path / "skip.afn"
    path.write_text(SKIPPED_TRICK, encoding="utf-8")
    assert main(["fmt", str(path)]) == 1
    captured = capsys.readouterr()
    assert "3. N:5D S:6D" in captured.out
    assert "does not keep everything" in captured.err


def test_the_repaired_diagnostics_are_the_only_ones_that_may_go() -> None:
    """A missing version line and a missing 'end' are repaired on purpose."""
    checked = format_checked(parse("deal 1 dealer N\nturn 4S\n1. N:JS S:2D\n"))
    assert checked.safe, checked.refusals


def test_a_file_changed_after_it_was_read_is_not_rewritten(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.afn"
    path.write_text(LAX, encoding="utf-8")
    saved_by_editor = LAX.replace("2d", "3d")
    real = fmt_cli._formatted

    def editor_saves_meanwhile(*args: object, **kwargs: object) -> object:
        done = real(*args, **kwargs)  # type: ignore[arg-type]
        path.write_text(saved_by_editor, encoding="utf-8")
        return done

    monkeypatch.setattr(fmt_cli, "_formatted", editor_saves_meanwhile)
    assert main(["fmt", "--write", str(path)]) == 1
    assert path.read_text(encoding="utf-8") == saved_by_editor
    assert "changed on disk" in capsys.readouterr().err
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".afn-tmp")]


def test_same_size_change_is_seen_by_the_hash(tmp_path: Path) -> None:
    path = tmp_path / "game.afn"
    path.write_text(LAX, encoding="utf-8")
    read = read_input(str(path))
    stat = os.stat(path)
    path.write_text(LAX.replace("2d", "3d"), encoding="utf-8")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same size, same mtime
    with pytest.raises(ChangedOnDisk):
        replace_file(path, b"new", expected=read.identity)


def test_hard_links_stay_one_file(tmp_path: Path) -> None:
    path = tmp_path / "a.afn"
    path.write_text(LAX, encoding="utf-8")
    other = tmp_path / "b.afn"
    os.link(path, other)
    assert main(["fmt", "--write", str(path)]) == 0
    assert os.stat(path).st_ino == os.stat(other).st_ino
    assert other.read_text(encoding="utf-8").startswith("% AFN 1\n")


def test_symlink_target_is_rewritten_and_mode_kept(tmp_path: Path) -> None:
    target = tmp_path / "real.afn"
    target.write_text(LAX, encoding="utf-8")
    target.chmod(0o640)
    link = tmp_path / "link.afn"
    link.symlink_to(target)
    assert main(["fmt", "--write", str(link)]) == 0
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8").startswith("% AFN 1\n")
    assert target.stat().st_mode & 0o777 == 0o640


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_a_root_run_rewrite_keeps_the_owner(tmp_path: Path) -> None:
    path = tmp_path / "theirs.afn"
    path.write_text(LAX, encoding="utf-8")
    os.chown(path, 12345, 23456)
    assert main(["fmt", "--write", str(path)]) == 0
    assert (path.stat().st_uid, path.stat().st_gid) == (12345, 23456)
    assert path.read_text(encoding="utf-8").startswith("% AFN 1\n")
