"""``allfours fmt``: printing, --check, --write (atomic, and never over a broken file)."""

from __future__ import annotations

import io
import os
import sys
from pathlib import Path

import pytest

from allfours_notation.cli import main
from allfours_notation.safe_write import FileSystem
from allfours_notation.writing import formatter

GOLDEN = Path(__file__).parent / "golden"
LAX = (GOLDEN / "lax.in.afn").read_bytes()
CANONICAL = (GOLDEN / "lax.out.afn").read_bytes()
BROKEN = b'% AFN 1\n[Event "x"]\ndeal 1 dealer N\n  turn 4X\nend\n'
TWO_CLAIMS = b"% AFN 1\ndeal 1 dealer N\n  turn 4S\n  claim S high\n  claim N low\nend\n"


def _file(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_prints_the_canonical_text(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    assert main(["fmt", str(_file(tmp_path, "lax.afn", LAX))]) == 0
    assert capsysbinary.readouterr().out == CANONICAL


def test_reads_standard_input(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(LAX)))
    assert main(["fmt", "-"]) == 0
    assert capsysbinary.readouterr().out == CANONICAL


def test_check_lists_the_files_that_are_not_canonical(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lax = _file(tmp_path, "lax.afn", LAX)
    good = _file(tmp_path, "good.afn", CANONICAL)
    assert main(["fmt", "--check", str(lax), str(good)]) == 1
    out = capsys.readouterr().out
    assert f"would reformat {lax}" in out
    assert str(good) not in out
    assert "1 file would be reformatted, 1 file already canonical" in out
    assert lax.read_bytes() == LAX  # --check never writes


def test_check_passes_on_canonical_files(tmp_path: Path) -> None:
    assert main(["fmt", "--check", str(_file(tmp_path, "good.afn", CANONICAL))]) == 0


@pytest.mark.parametrize(
    "variant", [b"\xef\xbb\xbf" + CANONICAL, CANONICAL.replace(b"\n", b"\r\n")], ids=["bom", "crlf"]
)
def test_a_bom_or_crlf_is_not_canonical(tmp_path: Path, variant: bytes) -> None:
    assert main(["fmt", "--check", str(_file(tmp_path, "x.afn", variant))]) == 1


def test_check_fails_on_a_broken_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fmt", "--check", str(_file(tmp_path, "broken.afn", BROKEN))]) == 1
    assert "cannot be formatted" in capsys.readouterr().err


def test_write_rewrites_in_place(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lax = _file(tmp_path, "lax.afn", LAX)
    lax.chmod(0o640)
    assert main(["fmt", "--write", str(lax)]) == 0
    assert lax.read_bytes() == CANONICAL
    assert lax.stat().st_mode & 0o777 == 0o640
    assert f"reformatted {lax}" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lax.afn"]  # no temporary left


def test_write_leaves_a_canonical_file_untouched(tmp_path: Path) -> None:
    good = _file(tmp_path, "good.afn", CANONICAL)
    before = good.stat()
    assert main(["fmt", "--write", str(good)]) == 0
    after = good.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


@pytest.mark.parametrize(
    ("data", "reason"),
    [(BROKEN, "AFN101"), (TWO_CLAIMS, "AFN206")],
    ids=["syntax-error", "statement-dropped"],
)
def test_write_never_rewrites_a_file_it_cannot_keep_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, reason: str
) -> None:
    path = _file(tmp_path, "bad.afn", data)
    good = _file(tmp_path, "lax.afn", LAX)
    assert main(["fmt", "--write", str(path), str(good)]) == 1
    assert path.read_bytes() == data
    assert good.read_bytes() == CANONICAL  # the other file is still formatted
    err = capsys.readouterr().err
    assert f"{path}: not rewritten" in err
    assert reason in err


def test_write_refuses_when_the_output_would_change_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The safety check: a formatter that lost a comment must not write."""
    real = formatter.format_result
    monkeypatch.setattr(
        formatter,
        "format_result",
        lambda result: real(result).replace("{ Lax input", "{ Lost input"),
    )
    lax = _file(tmp_path, "lax.afn", LAX)
    assert main(["fmt", "--write", str(lax)]) == 1
    assert lax.read_bytes() == LAX
    assert "formatting would change game 1" in capsys.readouterr().err


def test_write_goes_through_a_temporary_file_in_the_same_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lax = _file(tmp_path, "lax.afn", LAX)
    renames: list[tuple[str, str, os.stat_result]] = []
    real_replace = FileSystem.replace

    def recording_replace(self: FileSystem, source: str, target: str, folder: int) -> None:
        renames.append((source, target, os.fstat(folder)))
        assert lax.read_bytes() == LAX  # the original is whole until the rename
        real_replace(self, source, target, folder)

    monkeypatch.setattr(FileSystem, "replace", recording_replace)
    assert main(["fmt", "--write", str(lax)]) == 0
    [(source, target, folder)] = renames
    assert folder.st_ino == tmp_path.stat().st_ino  # a temporary file beside it
    assert source.startswith(".lax.afn.") and target == "lax.afn"
    assert lax.read_bytes() == CANONICAL


def test_a_failed_rename_leaves_the_original_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lax = _file(tmp_path, "lax.afn", LAX)

    def failing_replace(self: FileSystem, source: str, target: str, folder: int) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(FileSystem, "replace", failing_replace)
    assert main(["fmt", "--write", str(lax)]) == 2
    assert lax.read_bytes() == LAX
    assert sorted(p.name for p in tmp_path.iterdir()) == ["lax.afn"]


def test_write_cannot_rewrite_standard_input() -> None:
    assert main(["fmt", "--write", "-"]) == 2


def test_a_missing_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fmt", str(tmp_path / "nope.afn")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_check_and_write_exclude_each_other() -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["fmt", "--check", "--write", "x.afn"])
    assert exit_.value.code == 2


def test_printing_a_broken_file_keeps_its_text_and_exits_1(
    tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    assert main(["fmt", str(_file(tmp_path, "broken.afn", BROKEN))]) == 1
    captured = capsysbinary.readouterr()
    assert b"turn 4X" in captured.out
    assert b"AFN101" in captured.err


def test_write_through_a_symlink_rewrites_its_target_and_keeps_the_link(tmp_path: Path) -> None:
    target = _file(tmp_path, "real.afn", LAX)
    link = tmp_path / "link.afn"
    link.symlink_to(target)
    assert main(["fmt", "--write", str(link)]) == 0
    assert link.is_symlink()
    assert target.read_bytes() == CANONICAL


def test_several_files_print_one_version_line(
    monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    root = Path(__file__).parents[2]
    monkeypatch.chdir(root)
    names = ["samples/revoke.afn", "samples/no-hands.afn", "samples/three-handed.afn"]
    assert main(["fmt", *names]) == 0
    text = capsysbinary.readouterr().out.decode("utf-8")
    assert text.startswith("% AFN 1\n") and text.count("% AFN 1") == 1
    # the stream is itself canonical AFN holding every game
    from allfours_notation import parse

    result = parse(text)
    assert result.ok and len(result.games) == sum(len(parse((root / n).read_bytes()).games)
                                                  for n in names)
    assert formatter.format_result(result) == text
