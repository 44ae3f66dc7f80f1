"""What the README and docs/ show is what the commands print.

Three kinds of example are run: a block that starts with ``$ allfours …`` on files of this
checkout (the samples) must print exactly what the block shows after that line, with the
exit status the page implies; a block that is a whole record (it starts with the version
line ``% AFN 1``) must check clean, since the pages show such records as examples to copy;
and every ``python`` block must run (from the repository root, where its paths point).
Of grammar/NOTATION.md, every block marked ``afn`` must read without a syntax error as
printed (a fragment inside a deal, where it stands); the others are marked ``text``.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from allfours_notation import parse
from allfours_notation.cli import main
from allfours_notation.referee.replay import check_game
from allfours_notation.writing.formatter import format_result

ROOT = Path(__file__).resolve().parents[1]
_BLOCK = re.compile(r"^```[a-z]*\n(.*?)^```", re.M | re.S)
_PYTHON = re.compile(r"^```python\n(.*?)^```", re.M | re.S)


NOTATION = ROOT / "grammar" / "NOTATION.md"


def pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), NOTATION]


def blocks(page: Path) -> list[str]:
    return _BLOCK.findall(page.read_text(encoding="utf-8"))


def command_examples() -> list[tuple[str, list[str], str]]:
    """(page, arguments, output shown) of every ``$ allfours`` block on files that exist."""
    found = []
    for page in pages():
        for block in blocks(page):
            first, _, shown = block.partition("\n")
            if not first.startswith("$ allfours "):
                continue
            args = shlex.split(first)[2:]
            files = [arg for arg in args if not arg.startswith("-") and "." in arg]
            if files and all((ROOT / name).is_file() for name in files):
                found.append((page.relative_to(ROOT).as_posix(), args, shown))
    return found


def records() -> list[tuple[str, str]]:
    return [(page.relative_to(ROOT).as_posix(), block) for page in pages()
            for block in blocks(page) if block.startswith("% AFN 1\n")]


@pytest.fixture
def allfours(capsys: pytest.CaptureFixture[str],
             monkeypatch: pytest.MonkeyPatch) -> Callable[[list[str]], tuple[int, str]]:
    """``allfours(args)`` runs the command in-process from the repository root, colour
    off: its exit status and what it printed (standard output, then standard error)."""
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("TERM", "dumb")
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("FORCE_COLOR", raising=False)

    def run(args: list[str]) -> tuple[int, str]:
        capsys.readouterr()
        code = main(args)
        captured = capsys.readouterr()
        return code, captured.out + captured.err

    return run


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.rstrip("\n").splitlines()]


def test_there_are_examples_of_both_kinds() -> None:
    assert len(command_examples()) >= 3
    assert {page for page, _ in records()} >= {"README.md", "docs/tutorial.md"}


@pytest.mark.parametrize(("page", "args", "shown"), [
    pytest.param(page, args, shown, id=f"{page}: {shlex.join(args)}")
    for page, args, shown in command_examples()])
def test_a_shown_command_prints_what_is_shown(
        allfours: Callable[[list[str]], tuple[int, str]], page: str, args: list[str],
        shown: str) -> None:
    """The output as shown, line by line; exit status 1 where it shows a diagnostic."""
    code, printed = allfours(args)
    assert _lines(printed) == _lines(shown), f"{page}: allfours {shlex.join(args)}"
    assert code == (1 if re.search(r"\bAFN[1-9][0-9]{2}\b", shown) else 0)


@pytest.mark.parametrize(("page", "text"), [
    pytest.param(page, text, id=f"{page}: record {index}")
    for index, (page, text) in enumerate(records(), 1)])
def test_a_shown_record_checks_clean(page: str, text: str) -> None:
    result = parse(text)
    findings = [*result.diagnostics]
    for game in result.games:
        findings += check_game(game)
    assert [finding.code for finding in findings] == [], page
    assert result.games, page


def test_a_shown_record_is_in_canonical_form() -> None:
    # issue 37: the README's record put ten spaces before its comment; `allfours fmt`
    # writes one, and the pages show records as the formatter writes them
    shown = records()
    assert {page for page, _ in shown} >= {"README.md", "grammar/NOTATION.md"}
    assert [page for page, text in shown if format_result(parse(text)) != text] == []


def python_examples() -> list[tuple[str, str]]:
    return [(page.relative_to(ROOT).as_posix(), code) for page in pages()
            for code in _PYTHON.findall(page.read_text(encoding="utf-8"))]


@pytest.mark.parametrize(("page", "code"), [
    pytest.param(page, code, id=f"{page}: python {index}")
    for index, (page, code) in enumerate(python_examples(), 1)])
def test_a_shown_python_example_runs(page: str, code: str, monkeypatch: pytest.MonkeyPatch,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT)
    exec(compile(code, f"<{page}>", "exec"), {"__name__": "__docs__"})
    assert capsys.readouterr().out, f"{page}: the example prints nothing"


def test_the_library_page_has_python_examples() -> None:
    assert sum(page == "docs/library.md" for page, _ in python_examples()) >= 3


_FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```", re.M | re.S)


def notation_blocks() -> list[tuple[int, str, str]]:
    """(line, language, text) of every fenced block of NOTATION.md."""
    text = NOTATION.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2))
            for m in _FENCE.finditer(text)]


HEADER = '% AFN 1\n[Event "example"]\n\n'


def as_record(block: str) -> str:
    """An ``afn`` block as the text it would stand in: a record or a game as printed, a
    deal under a header, a statement inside a deal."""
    first = block.lstrip()
    if first.startswith(("% AFN", "[")):
        return block
    if first.startswith("deal "):
        return HEADER + block + "end\n"
    return HEADER + "deal 1 dealer N\n" + block + "end\n"


def test_every_notation_example_says_whether_it_is_afn() -> None:
    blocks = notation_blocks()
    assert sum(language == "afn" for _, language, _ in blocks) >= 10
    assert [line for line, language, _ in blocks if language not in ("afn", "text")] == []


@pytest.mark.parametrize(("line", "block"), [
    pytest.param(line, block, id=f"NOTATION.md line {line}")
    for line, language, block in notation_blocks() if language == "afn"])
def test_a_notation_example_marked_afn_reads_as_printed(line: int, block: str) -> None:
    # issue 37: §4.8's example wrote its notes as plain words, which are not comments
    result = parse(as_record(block))
    syntax = [d.headline() for d in result.diagnostics if d.is_error and d.code < "AFN2"]
    assert syntax == [], f"NOTATION.md line {line}"
    assert result.games and result.games[0].deals, f"NOTATION.md line {line}: no deal read"
