"""Folders everywhere: the expansion helper and the commands that take files."""

from __future__ import annotations

from pathlib import Path

from allfours_notation.cli.inputs import expand_inputs

from .conftest import Cli


def test_folder_expands_to_its_afn_files_recursively_in_sorted_order(tmp_path: Path) -> None:
    for name in ("b.afn", "a/z.afn", "a/c.afn", "B/x.afn", ".hidden/h.afn", "a/.h.afn",
                 "note.txt", "a/deeper/d.afn"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("", encoding="utf-8")
    expanded = expand_inputs([str(tmp_path), "-", "missing.afn"])
    names = [Path(name).relative_to(tmp_path).as_posix() for name in expanded.names[:-2]]
    assert names == ["B/x.afn", "a/c.afn", "a/deeper/d.afn", "a/z.afn", "b.afn"]
    assert expanded.names[-2:] == ("-", "missing.afn")
    assert expanded.problems == ()


def test_empty_folder_is_a_problem_not_a_file(tmp_path: Path) -> None:
    (tmp_path / "readme.txt").write_text("x", encoding="utf-8")
    expanded = expand_inputs([str(tmp_path)])
    assert expanded.names == ()
    assert expanded.problems == (f"{tmp_path}: folder holds no .afn file",)


def test_every_file_command_takes_a_folder(cli: Cli, archive: Path) -> None:
    """A folder gives what its .afn files named one by one, in sorted order, give.

    Three of the samples stay beside the subfolder (the sorting of path parts needs two,
    and one has a broken game): the twenty made each command read all of them twice
    (2 s of CPU) for the same two lists of names."""
    for sample in archive.glob("*.afn"):
        if sample.name not in ("annotated.afn", "club-night.afn", "one-broken-game.afn"):
            sample.unlink()
    files = sorted((p for p in archive.rglob("*.afn")), key=lambda p: p.relative_to(archive).parts)
    # path parts compared: club/broken.afn after annotated.afn, before club-night.afn
    assert [p.name for p in files][:4] == ["annotated.afn", "broken.afn", "generated.afn",
                                          "club-night.afn"]
    for command in (["check", "-j", "1"], ["score"], ["fmt", "--check"], ["export"], ["list"],
                    ["stats"], ["find", "--list"]):
        by_folder = cli([*command, str(archive)])
        by_files = cli([*command, *map(str, files)])
        assert (by_folder.out, by_folder.err, by_folder.code) == \
            (by_files.out, by_files.err, by_files.code), command
        assert by_folder.out and "Traceback" not in by_folder.err


def test_empty_folder_exits_2_with_one_line_and_other_inputs_still_read(
        cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    run = cli(["list", str(tmp_path / "empty"), "samples/revoke.afn"])
    assert run.code == 2
    assert run.err.strip().endswith("folder holds no .afn file")
    assert len(run.err.strip().splitlines()) == 1
    assert run.out.startswith("samples/revoke.afn:1")
