"""Issue 41, findings 2 and 4: every number AFN reads is bounded, and so are the words of a
claim, a line of results or a total, and the items of a game.

A number of more than 4,300 digits was AFN901 (Python's ``int()`` refuses it) in 30 of 48
command x file runs, and ``list``, ``find --list`` and ``export --json`` stopped at that
file; one ``scored`` line of very many items cost about 94 bytes of memory per byte (the
lexer's regular expression kept its state per repetition).
"""

from __future__ import annotations

import re
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from allfours_notation import parse
from allfours_notation.cli import main
from allfours_notation.limits import (
    LIMIT_CODE,
    MAX_NUMBER_DIGITS,
    MAX_WORDS_PER_STATEMENT,
)
from allfours_notation.reading import bounds
from fuzz.shapes import SHAPES

BIG = "9" * 5_000

GAME = """% AFN 1
[Event "E"]
[Rules "trinidad14"]
[North "A"]
[East "B"]
[South "C"]
[West "D"]
{score}{target}
deal {deal} dealer N
  turn 6D
  W stands
  scored N kick{kick} W high low N jack game
  claim N kick{claim} W high low N jack game
  total N 4 W {total}
deal 2 dealer W
  N AS KS QS JS TS 9S
  E AH KH QH JH TH 9H
  S AD KD QD JD TD 9D
  W AC KC QC JC TC 9C
  turn 2S
  E stands
  {trick}. N:AS E:AH S:AD W:AC
  {joined}N:KS E:KH S:KD W:KC
end
"""

# Where a number is written, and the line and column AFN120 is given at when the number is
# read with the game's statements (None: a tag's or a directive's own diagnostic).
POSITIONS: dict[str, tuple[int, int] | None] = {
    "deal-number": (9, 6),
    "scored-points": (12, 17),
    "claim-points": (13, 16),
    "total": (14, 15),
    "trick-number": (22, 3),
    "trick-number-joined": (23, 3),
    "score-tag": None,
    "target-tag": None,
    "version": None,
}


def game_with_big_number(position: str, number: str = BIG) -> str:
    fields = {"score": "", "target": "", "deal": "1", "kick": "", "claim": "", "total": "2",
              "trick": "1", "joined": "2."}
    if position == "score-tag":
        fields["score"] = f'[Score "NS 1 EW {number}"]\n'
    elif position == "target-tag":
        fields["target"] = f'[Target "{number}"]\n'
    elif position == "deal-number":
        fields["deal"] = number
    elif position == "scored-points":
        fields["kick"] = f" {number}"
    elif position == "claim-points":
        fields["claim"] = f" {number}"
    elif position == "total":
        fields["total"] = number
    elif position == "trick-number":
        fields["trick"] = number
    elif position == "trick-number-joined":
        fields["joined"] = f"{number}."
    text = GAME.format(**fields)
    if position == "version":
        text = text.replace("% AFN 1", f"% AFN {number}")
    return text


@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_a_number_of_thousands_of_digits_is_a_diagnostic_at_its_place(position: str) -> None:
    result = parse(game_with_big_number(position))
    found = result.diagnostics  # the file's and every game's
    assert "AFN901" not in {d.code for d in found}
    place = POSITIONS[position]
    if place is None:  # a tag's or the directive's own finding, given when it is judged
        return
    limits = [d for d in found if d.code == LIMIT_CODE]
    assert [(d.line, d.column) for d in limits] == [place]
    assert f"5,000 digits, more than {MAX_NUMBER_DIGITS}" in limits[0].message
    assert result.games[0].broken  # not read, like a game past any other limit


@pytest.mark.parametrize("position", ["deal-number", "total", "claim-points"])
def test_a_number_at_the_limit_is_read(position: str) -> None:
    result = parse(game_with_big_number(position, "1" * MAX_NUMBER_DIGITS))
    codes = {d.code for game in result.games for d in game.diagnostics}
    assert LIMIT_CODE not in codes and not result.games[0].broken


COMMANDS = [["check"], ["score"], ["fmt"], ["fmt", "--check"], ["export"], ["export", "--csv",
            "{out}/csv"], ["export", "--sqlite", "{out}/db.sqlite"], ["list"], ["list", "--check"],
            ["find", "--list"], ["stats"], ["html", "-o", "{out}/page.html"],
            ["analyse", "--no-cache", "--deal", "2"]]


@pytest.fixture
def quiet_cli(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
              ) -> Iterator[pytest.CaptureFixture[str]]:
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("XDG_CACHE_HOME", "/nonexistent-cache-of-the-tests")
    yield capsys


def every_big_number(folder: Path) -> list[str]:
    """Two files: a game per place a number is written (each game independent of the
    others), and one whose version line is the big number."""
    path = folder / "every-place.afn"
    path.write_text("% AFN 1\n" + "\n".join(
        game_with_big_number(position).removeprefix("% AFN 1\n")
        for position in sorted(POSITIONS) if position != "version"), encoding="utf-8")
    version = folder / "version.afn"
    version.write_text(game_with_big_number("version"), encoding="utf-8")
    return [str(path), str(version)]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda words: " ".join(words[:2]))
def test_every_command_reads_every_big_number_without_an_internal_error(
        tmp_path: Path, quiet_cli: pytest.CaptureFixture[str], command: list[str]) -> None:
    files = every_big_number(tmp_path)
    args = [word.format(out=tmp_path) for word in command]
    runs = ([[*args, "--game", str(game), files[0]] for game in range(1, len(POSITIONS))]
            + [[*args, files[1]]] if command[0] == "html" else [[*args, *files]])
    for run in runs:
        status = main(run)
        said = quiet_cli.readouterr()
        text = said.out + said.err
        assert "AFN901" not in text and "internal error" not in text, (run, text[:500])
        assert status in (0, 1), (run, status, said.err[:300])


def _folder_with_a_bad_file_first(tmp_path: Path) -> Path:
    folder = tmp_path / "season"
    folder.mkdir()
    (folder / "a-big-number.afn").write_text(game_with_big_number("total"), encoding="utf-8")
    (folder / "b-good.afn").write_text(
        game_with_big_number("none").replace('[Event "E"]', '[Event "Second file"]'),
        encoding="utf-8")
    return folder


@pytest.mark.parametrize("command", [["list"], ["find", "--list"], ["export"], ["stats"],
                                     ["check"], ["list", "--json"]])
def test_folder_commands_go_on_past_a_file_with_a_big_number(
        tmp_path: Path, quiet_cli: pytest.CaptureFixture[str], command: list[str]) -> None:
    folder = _folder_with_a_bad_file_first(tmp_path)
    main([*command, str(folder)])
    said = quiet_cli.readouterr()
    assert "AFN901" not in said.out + said.err
    if command[0] in ("list", "find", "export"):
        assert "Second file" in said.out
    elif command[0] == "stats":  # the good file's game counted, the other one named
        assert "1 game," in said.out and "1 game(s) could not be read" in said.out
    else:
        assert "2 games, 2 with errors" in said.out  # the good file has its own slips


@pytest.mark.parametrize("command", [["list"], ["find", "--list"], ["stats"], ["export"],
                                     ["export", "--csv", "{out}"]])
def test_folder_commands_go_on_past_a_file_that_meets_a_fault(
        tmp_path: Path, quiet_cli: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        command: list[str]) -> None:
    """Whatever goes wrong in one file (here a planted fault in the first one), the files
    after it are read, the fault is one AFN901 line for that file, and the exit status
    is 1."""
    folder = _folder_with_a_bad_file_first(tmp_path)
    from allfours_notation.archive import catalog
    from allfours_notation.checking import parsing
    from allfours_notation.cli import archive_inputs, export, listing

    def planted(real: Callable[..., object], name_at: int | str) -> Callable[..., object]:
        def work(*args: object, **kwargs: object) -> object:
            name = kwargs.get(name_at, "") if isinstance(name_at, str) else args[name_at]
            if "a-big-number" in str(name):
                raise RuntimeError("planted fault")
            return real(*args, **kwargs)
        return work

    # each command's first use of the file after its headers are scanned
    monkeypatch.setattr(archive_inputs, "parse_indexed",
                        planted(parsing.parse_indexed, "filename"))
    monkeypatch.setattr(export, "parse", planted(parsing.parse, "filename"))
    monkeypatch.setattr(listing, "entry_of", planted(catalog.entry_of, 0))
    monkeypatch.setattr(catalog, "entry_of", planted(catalog.entry_of, 0))
    args = [word.format(out=tmp_path / "csv") for word in command]
    status = main([*args, str(folder)])
    said = quiet_cli.readouterr()
    assert status == 1, said.err
    faults = [line for line in said.err.splitlines() if "AFN901" in line]
    assert len(faults) == 1 and "a-big-number.afn" in faults[0] and "planted fault" in faults[0]
    if command[0] in ("list", "find", "export") and "--csv" not in command:
        assert "Second file" in said.out
    elif command[0] == "stats":
        assert "1 game" in said.out
    else:
        assert "1 game added" in said.err


# --- words of a statement and items of a game ----------------------------------------------

HEAD = '% AFN 1\n[Event "E"]\n[Rules "trinidad14"]\n\ndeal 1 dealer N\n'


@pytest.mark.parametrize(("keyword", "unit"), [("scored", " N high"), ("claim", " N kick 3"),
                                               ("director scored", " W low"),
                                               ("total", " N 4")])
def test_a_statement_of_too_many_words_is_a_diagnostic_at_the_first_word_past(
        keyword: str, unit: str) -> None:
    words_per_unit = len(unit.split())
    keyword_words = len(keyword.split())
    units = (MAX_WORDS_PER_STATEMENT - keyword_words) // words_per_unit
    fits = HEAD + "  " + keyword + unit * units + "\nend\n"
    assert LIMIT_CODE not in {d.code for g in parse(fits).games for d in g.diagnostics}
    over = HEAD + "  " + keyword + unit * (units + 2) + "\nend\n"
    result = parse(over)
    limits = [d for g in result.games for d in g.diagnostics if d.code == LIMIT_CODE]
    assert len(limits) == 1 and result.games[0].broken
    found_line, column = limits[0].line, limits[0].column
    assert found_line is not None and column is not None
    words_before = len(over.splitlines()[found_line - 1][: column - 1].split())
    assert words_before == MAX_WORDS_PER_STATEMENT  # underlined: the first word past
    assert f"more than {MAX_WORDS_PER_STATEMENT} words" in limits[0].message


def test_the_items_of_a_game_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bounds, "MAX_ITEMS_PER_GAME", 30)
    deals = "".join(f"deal {n} dealer N\n  scored N high low jack game\n" for n in range(1, 9))
    result = parse(HEAD.removesuffix("deal 1 dealer N\n") + deals + "end\n")
    limits = [d for g in result.games for d in g.diagnostics if d.code == LIMIT_CODE]
    assert len(limits) == 1 and "more than 30 items" in limits[0].message
    assert limits[0].line == 5 + 2 * 7 + 1  # deal 8's line of results: items 29 to 32


@pytest.mark.parametrize("shape", ["long-scored-line", "long-claim-line", "long-total-line"])
@pytest.mark.parametrize("broken_after", [False, True], ids=["parses", "syntax-error-after"])
def test_a_long_statement_costs_little_memory_per_byte(shape: str, broken_after: bool) -> None:
    """Before: 1 MB of one ``scored`` line took the lexer about 50 MB (94 bytes a byte in
    all); a syntax error after it (Lark's loop reads the game again) as much again."""
    text = SHAPES[shape](300_000)
    if broken_after:
        text = text.replace("\nend\n", "\n  bogus!\nend\n")
    parse(HEAD)  # the parser's table and expressions loaded first, not counted
    if broken_after:
        parse(HEAD + "  bogus!\n")  # and Lark's
    tracemalloc.start()
    try:
        parse(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # a few copies of the line (the text, the game's, the token's; Lark's token too)
    assert peak < (8 if broken_after else 4) * len(text), f"{peak / len(text):.1f} B a byte"


def test_the_language_server_holds_the_same_limits() -> None:
    """A 4.1 MB document of one line of results took the language server to 411 MB: it
    reads with the same reading, so the line is one AFN120 where the limit is passed, and
    the analysis holds a few copies of the text at most."""
    from allfours_notation.lsp.document import Analyzer

    text = SHAPES["long-scored-line"](400_000) + SHAPES["huge-numbers"](25_000).removeprefix(
        "% AFN 1\n")
    analyzer = Analyzer()
    analyzer.analyse(HEAD + "end\n")  # the parser's table loaded first, not counted
    tracemalloc.start()
    try:
        analysis = analyzer.analyse(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    limits = [d for d in analysis.diagnostics() if d.code == LIMIT_CODE]
    past = list(re.finditer(r"\S+", text.splitlines()[5]))[MAX_WORDS_PER_STATEMENT]
    assert [(d.line, d.column) for d in limits][:2] == [(6, past.start() + 1), (11, 6)]
    assert "AFN901" not in {d.code for d in analysis.diagnostics()}
    assert peak < 6 * len(text), f"{peak / len(text):.1f} bytes a byte"


@pytest.mark.parametrize("text", [
    f"% AFN 1\ndeal {BIG} dealer N\n  bogus!\nend\n",  # a syntax error names the deal before it
    f"% AFN 1\ndeal 1 dealer N\n  {BIG}.\nend\n",  # a trick number and nothing after it
    f"% AFN 1\ndeal 1 dealer N\n  claim N kick {BIG} bogus!\nend\n",
])
def test_a_big_number_beside_a_syntax_error(text: str) -> None:
    result = parse(text)
    assert "AFN901" not in {d.code for d in result.diagnostics}
