"""Start-up and printing cost (issue 27): what a light command imports, and the direct
writing of piped diagnostics, which must print what Rich prints, byte for byte."""

from __future__ import annotations

import contextlib
import functools
import io
import random
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from allfours_notation.cli.check import _consequence, _escape, _folded, _styled
from allfours_notation.cli.output import Lines, plain_is_exact

ROOT = Path(__file__).resolve().parents[2]
# Rich's console, the UI libraries.
HEAVY = {"textual", "pygls", "lsprotocol", "rich.console", "rich_argparse", "shtab",
         "multiprocessing"}


def test_version_imports_nothing_heavy_nor_the_parser() -> None:
    code = ("import sys\nfrom allfours_notation.cli import main\n"
            "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "{'lark', 'rich', 'textual', 'pygls'} or "
            "m.startswith('allfours_notation.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    assert out.splitlines()[-1] == "['allfours_notation.cli']"


@pytest.mark.parametrize("argv", [
    ["check", "samples/club-night.afn"],
    ["check", "--quiet", "samples/club-night.afn"],
    ["check", "samples/disputed-claim.afn"],  # diagnostics printed: no Rich when piped
    ["score", "samples/club-night.afn"],
], ids=" ".join)
@pytest.mark.xdist_group("cold-start-modules")  # one process per command (_loaded_by)
def test_a_piped_check_imports_no_ui_library(argv: list[str]) -> None:
    allowed = {"rich.console"} if argv[0] == "score" else set()  # score draws a Rich table
    assert (_modules_loaded(argv) & HEAVY) - allowed == set()


def _packages_loaded(argv: list[str]) -> set[str]:
    """The top-level packages loaded by ``allfours ARGV`` (stdout piped)."""
    return {name.split(".")[0] for name in _modules_loaded(argv)}


def _modules_loaded(argv: list[str]) -> set[str]:
    """Every module loaded by ``allfours ARGV`` (stdout piped), in an interpreter of its
    own: several tests ask their question of the same command's modules, and the
    command runs once per test process for all of them (:func:`_loaded_by`)."""
    return set(_loaded_by(tuple(argv)))


@functools.cache
def _loaded_by(argv: tuple[str, ...]) -> frozenset[str]:
    code = ("import sys, contextlib, io\nfrom allfours_notation.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    try:\n        main({list(argv)!r})\n    except SystemExit:\n        pass\n"
            "print(sorted(sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    return frozenset(eval(out.strip().splitlines()[-1]))  # a printed list of names


@pytest.mark.xdist_group("cold-start-modules")
def test_a_one_game_check_does_not_hash_its_file() -> None:
    """The file's identity (a SHA-256 digest, for fmt's safe rewrite) is made when asked
    (issue 27): a check never asks, so neither hashlib nor the safe writer is imported."""
    loaded = _modules_loaded(["check", "samples/annotated.afn"])
    assert not {"hashlib", "allfours_notation.safe_write"} & loaded


@pytest.mark.xdist_group("cold-start-modules")
def test_a_one_game_check_does_not_import_pathlib() -> None:
    """pathlib (with urllib.parse and ipaddress) is for folders and the other commands
    (issue 27)."""
    assert "pathlib" not in _modules_loaded(["check", "samples/annotated.afn"])


@pytest.mark.xdist_group("cold-start-modules")
def test_a_one_game_check_does_not_import_shutil() -> None:
    """argparse's formatters ask shutil for the terminal's width; the ones a command line
    makes and never prints with are given one (issue 27)."""
    assert "shutil" not in _modules_loaded(["check", "samples/annotated.afn"])


def test_help_is_drawn_to_the_terminal_s_width() -> None:
    """The case above is not vacuous: help still fits the terminal (Rich's formatter)."""
    import os

    def help_lines(columns: int) -> list[str]:
        return subprocess.run([sys.executable, "-m", "allfours_notation", "check", "--help"],
                              capture_output=True, text=True, cwd=ROOT, check=True,
                              env={**os.environ, "COLUMNS": str(columns)}).stdout.splitlines()

    narrow, wide = help_lines(60), help_lines(120)
    assert len(narrow) > len(wide)
    assert max(map(len, wide)) > 100


def test_checking_a_folder_imports_pathlib_and_finds_its_files(tmp_path: Path) -> None:
    """The case above is not vacuous: a folder is walked with pathlib."""
    (tmp_path / "a.afn").write_bytes((ROOT / "samples" / "annotated.afn").read_bytes())
    assert "pathlib" in _modules_loaded(["check", str(tmp_path)])
    out = subprocess.run([sys.executable, "-m", "allfours_notation", "check", str(tmp_path)],
                         capture_output=True, text=True, cwd=ROOT, check=False).stdout
    assert out.splitlines()[-1] == "1 game, 0 with errors"


def test_the_identity_of_an_input_is_the_file_s_as_read(tmp_path: Path) -> None:
    """The case above is not vacuous: the identity is still there when asked, the one the
    safe writer compares before a rewrite."""
    import hashlib

    from allfours_notation.reading.files import read_input
    from allfours_notation.safe_write import identity_of

    path = tmp_path / "game.afn"
    path.write_bytes(b"% AFN 1\n")
    read = read_input(str(path))
    assert read.identity is not None and read.identity == identity_of(path)
    assert read.identity.digest == hashlib.sha256(b"% AFN 1\n").hexdigest()


@pytest.mark.parametrize("sample", ["annotated.afn", "club-night.afn", "disputed-claim.afn"])
@pytest.mark.xdist_group("cold-start-modules")
def test_checking_games_that_parse_does_not_import_lark(sample: str) -> None:
    """A game that parses is read from the shipped table (issue 27): Lark is for the
    games that do not (its own loop reports their errors)."""
    assert "lark" not in _packages_loaded(["check", f"samples/{sample}"])


def test_a_game_that_does_not_parse_is_reported_through_lark(tmp_path: Path) -> None:
    """The case above is not vacuous: a syntax error does import Lark."""
    broken = tmp_path / "broken.afn"
    broken.write_text("% AFN 1\ndeal 1 dealer N\nturn 4X\nend\n", encoding="utf-8")
    assert "lark" in _packages_loaded(["check", str(broken)])


def test_a_check_prints_diagnostics_for_the_disputed_sample() -> None:
    """The case above is not vacuous: the sample has diagnostics to print."""
    out = subprocess.run([sys.executable, "-m", "allfours_notation", "check",
                          "samples/disputed-claim.afn"], capture_output=True, text=True, cwd=ROOT,
                         check=False).stdout
    assert " | " in out and "^^^" in out


# --- the direct writer against Rich -----------------------------------------------------------

TRICKY = [
    "plain text", "file.afn:100:5: error AFN101 [game 1]: 'x'", ":smile: and :+1:",
    "a:thumbs_up-emoji:b", ":Smile:", "::", "ends with a backslash \\", "\\[bold]not markup",
    "[bold]looks like markup[/]", "tab\there", "bell\x07", "cr\rhere", "form\x0cfeed",
    "brackets [game 1, deal 2] and [Event \"…\"]", "x:b[game]:smile:", "naïve: É:100:",
    "   trailing spaces   ", "", ":", "a:b:c", "[/]", "[link=x]y[/link]", "\\", "\\\\[x]",
]
ALPHABET = [*"ab :[]/\\\t\x07\r-", "smile", "100", "emoji", "text", "bold", "…", "É"]


def _random_texts(count: int) -> list[str]:
    rng = random.Random(27)
    return ["".join(rng.choice(ALPHABET) for _ in range(rng.randrange(1, 14)))
            for _ in range(count)]


def _by_rich(markup: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        Console(highlight=False, soft_wrap=True, emoji=False).print(markup)
    return out.getvalue()


def _direct(text: str, recipe: object, *args: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        lines = Lines(lambda: Console(highlight=False, soft_wrap=True, emoji=False),
                      plain=True)
        lines.line(text, recipe, *args)  # type: ignore[arg-type]
        lines.flush()
    return out.getvalue()


@pytest.mark.parametrize("text", TRICKY + _random_texts(400))
def test_direct_lines_are_what_rich_prints(text: str) -> None:
    assert _direct(text, _styled, "bold red", text) == _by_rich(_styled("bold red", text))
    assert _direct(text, _escape, text) == _by_rich(_escape(text))
    folded = f"  {text} (--all shows them)"
    assert _direct(folded, _folded, text) == _by_rich(_folded(text))
    follows = f"  ↳ {text} (follows from the above)"
    assert _direct(follows, _consequence, "yellow", text) == _by_rich(_consequence("yellow", text))


def test_some_lines_do_go_to_rich() -> None:
    """Where Rich changes a line, the direct writer hands it over (else the comparison
    above would only ever compare Rich with itself or plain text with plain text)."""
    lines = Lines(lambda: Console(emoji=False), plain=True)
    assert lines._unchanged("file.afn:12:5: warning")
    assert lines._unchanged("file.afn:100:5: warning")  # a position, not an emoji code
    for changed in ("a\\", "tab\t", "cr\r"):
        assert not lines._unchanged(changed)


def test_a_diagnostic_on_line_100_keeps_its_position_on_a_terminal_too(tmp_path: Path) -> None:
    """Rich's emoji codes would print ``f.afn:100:3:`` as ``f.afn💯3:`` (they once did):
    every console of ours has them off, piped or on a terminal (FORCE_COLOR)."""
    import os

    sample = ROOT / "samples" / "disputed-claim.afn"
    first = _run(["check", str(sample)]).splitlines()[0]  # "…afn:LINE:COL: error …"
    line = int(first.removeprefix(str(sample)).split(":")[1])
    path = tmp_path / "f.afn"
    path.write_text("\n" * (100 - line) + sample.read_text(encoding="utf-8"), encoding="utf-8")
    for env in ({}, {"FORCE_COLOR": "1", "COLUMNS": "200"}):
        out = _run(["check", str(path)], {**os.environ, **env})
        assert "\N{HUNDRED POINTS SYMBOL}" not in out, env
        assert "f.afn:100:" in out, env


def _run(argv: list[str], env: dict[str, str] | None = None) -> str:
    return subprocess.run([sys.executable, "-m", "allfours_notation", *argv],
                          capture_output=True, text=True, cwd=ROOT, check=False, env=env).stdout


def test_plain_is_decided_by_the_terminal_and_the_colour_variables(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    with contextlib.redirect_stdout(io.StringIO()):
        assert plain_is_exact()
        monkeypatch.setenv("FORCE_COLOR", "1")
        assert not plain_is_exact()


def test_the_public_cards_stays_the_function_whoever_imports_the_submodule_first() -> None:
    code = ("import allfours_notation.reading.records, allfours_notation as a; "
            "from allfours_notation import cards; print(callable(cards), a.cards is cards, "
            "type(a.cards).__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout
    assert out.split() == ["True", "True", "function"]


def _collector_after(statement: str) -> list[str]:
    code = ("import gc, sys, contextlib, io\nfrom allfours_notation.cli import main\n"
            f"{statement}\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    main(['check', 'samples/annotated.afn'])\n"
            "print(gc.isenabled(), gc.get_freeze_count() > 1000)")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=True).stdout.split()


def test_a_command_line_s_imports_are_frozen_out_of_the_collector_s_reach() -> None:
    """The objects the imports made are frozen (issue 27), the collector still runs."""
    assert _collector_after("") == ["True", "True"]


def test_a_caller_that_paused_the_collector_keeps_it_as_it_was() -> None:
    assert _collector_after("gc.disable()") == ["False", "False"]
