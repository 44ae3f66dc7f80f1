"""Every output format over a corpus of hostile records (issue 23, findings 2, 5, 7, 10):
no raw control byte on a terminal, no formula cell, no tag element in HTML or Markdown
that the input put there, markup in names shown as typed."""

from __future__ import annotations

import csv
import html.parser
import io
import re
import sys
from collections import Counter
from pathlib import Path

import pytest

from allfours_notation import parse
from allfours_notation.cli import main
from allfours_notation.visible import FORMULA_START, visible

SAMPLE = (Path(__file__).resolve().parents[2] / "samples" / "club-night.afn").read_text(
    encoding="utf-8")
FIRST_GAME = SAMPLE[: SAMPLE.index("end\n") + 4]

HOSTILE = {
    "csi": "\x1b[2J\x1b[HALL CLEAN 0 errors",
    "title": "\x1b]0;pwned\x07Ann",
    "osc52": "\x1b]52;c;ZWNobyBoaQ==\x07",
    "c1": "\u009b2J\u009d0;t\u009cAnn",
    "markup": "[bold red]Ann[/] [link=http://evil.example]x[/link]",
    "formula": '=HYPERLINK("http://evil.example","x")',
    "plus": "+1+2",
    "minus": "-2-3",
    "at": "@SUM(A1:A9)",
    "tab": "\tTAB",
    "cr": "\rALL CLEAN",
    "html": "<script>alert(1)</script><img src=x onerror=alert(2)>",
    "bidi": "\u202eexe.gnp\u202c Ann",
    "nul": "Ann\x00Ben",
    "long": "Ann " + "L" * 20_000,
}


def afn_quoted(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def hostile_game(value: str) -> str:
    """The first game of the club-night sample with ``value`` as its event, site, both
    players and a comment."""
    game = FIRST_GAME
    for tag, old in (("Event", "Arima club night"), ("Site", "Arima, Trinidad"),
                     ("North", "Ann Baptiste"), ("South", "Ben Charles")):
        game = game.replace(f'[{tag} "{old}"]', f'[{tag} "{afn_quoted(value)}"]')
    return game.replace("{ Arima club night, table 4: three games in one file. }",
                        "{ " + value.replace("}", ")") + " }")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    for name, value in HOSTILE.items():
        (folder / f"{name}.afn").write_text(hostile_game(value), encoding="utf-8",
                                            errors="surrogateescape")
    return folder


class Terminal(io.TextIOWrapper):
    """Standard output that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def on_a_terminal(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> str:
    out = Terminal(io.BytesIO(), encoding="utf-8", errors="surrogateescape",
                   write_through=True)
    err = Terminal(io.BytesIO(), encoding="utf-8", errors="surrogateescape",
                   write_through=True)
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setenv("TERM", "xterm-256color")
    main(argv)
    out.flush()
    err.flush()
    raw = out.buffer.getvalue() + err.buffer.getvalue()  # type: ignore[attr-defined]
    return str(raw.decode("utf-8", "surrogateescape"))


# Rich's own colours (SGR) are the only escape sequences the tools write themselves.
SGR = re.compile(r"\x1b\[[0-9;]*m")
RAW = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069"
                 "\ud800-\udfff]|\r(?!\n)")

TERMINAL_COMMANDS = [
    ["check"], ["check", "--all"], ["list"], ["list", "--check"], ["list", "--csv"],
    ["list", "--json"], ["find", "--list"], ["find"], ["fmt"], ["score"],
    ["score", "--format", "markdown"], ["score", "--format", "html"], ["score", "--json"],
    ["stats"], ["stats", "--csv"], ["stats", "--json"], ["export"], ["export", "--compact"],
    ["analyse"], ["analyse", "--json"], ["analyse", "--annotate"],
]


@pytest.mark.parametrize("command", TERMINAL_COMMANDS, ids=" ".join)
def test_no_raw_control_byte_reaches_a_terminal(corpus: Path, command: list[str],
                                                monkeypatch: pytest.MonkeyPatch,
                                                tmp_path: Path) -> None:
    # A cache of its own: the analyses of the corpus (its deals are the samples') would
    # otherwise show in the next 'stats' golden run on this worker.
    monkeypatch.setenv("ALLFOURS_CACHE_DIR", str(tmp_path / "cache"))
    shown = on_a_terminal(monkeypatch, [*command, str(corpus)])
    assert shown.strip(), "the command printed nothing"
    left = RAW.findall(SGR.sub("", shown))
    assert left == [], f"raw control characters on the terminal: {sorted(set(left))!r}"


def test_html_page_to_a_terminal_is_escaped(corpus: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    shown = on_a_terminal(monkeypatch, ["html", str(corpus / "csi.afn"), "-o", "-"])
    assert "<!DOCTYPE" in shown and RAW.findall(SGR.sub("", shown)) == []


def test_finding_2_the_list_reproducer(corpus: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: list cleared the screen and painted 'ALL CLEAN 0 errors'; now the escape
    is shown as the characters \\x1b[2J."""
    shown = on_a_terminal(monkeypatch, ["list", str(corpus / "csi.afn")])
    assert "\\x1b[2J\\x1b[HALL CLEAN 0 errors" in shown
    assert "\x1b[2J" not in shown and "\x1b]" not in shown


def test_markup_in_a_name_shows_as_typed(corpus: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    for command in (["stats"], ["score"], ["list"]):
        shown = SGR.sub("", on_a_terminal(monkeypatch, [*command, str(corpus / "markup.afn")]))
        assert "[bold red]Ann[/]" in shown or "[link=http://evil.example]" in shown, command
        assert "\x1b]8;" not in shown  # no hyperlink was made


def test_a_caret_stays_under_its_word_after_an_escape() -> None:
    text = '% AFN 1\n[Event "\x1b[2J"] deal 1 dealer N 1. N:JS S:\x1b2X\nend\n'
    found = next(d for d in parse(text).diagnostics if d.code == "AFN101")
    source, caret = found.render(text).split("\n")[1:3]
    start = caret.index("^")
    assert source[start:start + len("S:\\x1b2X")] == "S:\\x1b2X"


# --- CSV (finding 5) --------------------------------------------------------------------------

def cells_of(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def assert_no_formula(rows: list[list[str]], where: str) -> None:
    for row in rows:
        for cell in row:
            assert not cell.startswith(FORMULA_START), f"{where}: formula cell {cell[:40]!r}"


def test_finding_5_export_csv_has_no_formula_cell(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "tables"
    main(["export", "--csv", str(out), str(corpus)])
    for table in out.glob("*.csv"):
        assert_no_formula(cells_of(table.read_text(encoding="utf-8")), table.name)
    games = cells_of((out / "games.csv").read_text(encoding="utf-8"))
    header = games[0]
    events = {row[header.index("event")] for row in games[1:]}
    assert "'" + HOSTILE["formula"] in events and "'-2-3" in events  # kept, made inert
    assert all(row[header.index("game_index")].isdigit() for row in games[1:])  # numbers


def test_list_and_stats_csv_have_no_formula_cell(
        corpus: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for command in (["list", "--csv"], ["list", "--check", "--csv"], ["stats", "--csv"]):
        main([*command, str(corpus)])
        rows = cells_of(capsys.readouterr().out)
        assert len(rows) > 5
        assert_no_formula(rows, " ".join(command))
    main(["stats", "--csv", str(corpus)])
    rows = cells_of(capsys.readouterr().out)
    values = [row[4] for row in rows[1:]]
    assert all(re.fullmatch(r"-?\d+(\.\d+)?", value) for value in values)  # numbers stay


# --- HTML and Markdown (finding 7) -----------------------------------------------------------

class Tags(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: Counter[str] = Counter()
        self.handlers: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] += 1
        self.handlers += [name for name, _ in attrs if name.startswith("on")]


def tags_of(page: str) -> Tags:
    parser = Tags()
    parser.feed(page)
    return parser


def benign_game() -> str:
    return hostile_game("Plain Name")


@pytest.mark.parametrize("command", [["score", "--format", "html"], ["html", "-o", "-"]],
                         ids=" ".join)
def test_no_element_in_html_that_the_input_put_there(
        corpus: Path, tmp_path: Path, command: list[str],
        capsys: pytest.CaptureFixture[str]) -> None:
    plain = tmp_path / "plain.afn"
    plain.write_text(benign_game(), encoding="utf-8")
    main([*command, str(plain)])
    expected = tags_of(capsys.readouterr().out)
    for name in HOSTILE:
        main([*command, str(corpus / f"{name}.afn")])
        found = tags_of(capsys.readouterr().out)
        assert found.tags == expected.tags, name
        assert found.handlers == expected.handlers, name


def test_finding_7_markdown_escapes_user_text(corpus: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    main(["score", "--format", "markdown", str(corpus / "html.afn")])
    text = capsys.readouterr().out
    assert "<" not in text and ">" not in text.replace("&gt;", "")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    main(["score", "--format", "markdown", str(corpus / "markup.afn")])
    text = capsys.readouterr().out
    assert "\\[link=http://evil.example\\]" in text  # no link: the brackets are escaped
    main(["score", "--format", "markdown", str(corpus / "nul.afn")])
    assert "\x00" not in capsys.readouterr().out


# --- control characters in a record (finding 10) ---------------------------------------------

def test_finding_10_a_nul_in_a_tag_value_is_a_warning_at_its_place(corpus: Path) -> None:
    text = (corpus / "nul.afn").read_text(encoding="utf-8")
    found = [d for d in parse(text).diagnostics if d.code == "AFN111"]
    assert found and all(d.severity.value == "warning" for d in found)
    line = text.splitlines()[found[0].line - 1]  # type: ignore[operator]
    assert line[found[0].column - 1] == "\x00"  # type: ignore[operator]


@pytest.mark.parametrize("char", ["\x00", "\x01", "\x1b", "\x7f", "\x85", "\x9b", "\ud800"])
def test_every_kind_of_control_character_is_reported(char: str) -> None:
    text = f'% AFN 1\n[Event "a{char}b"]\n'
    found = [d for d in parse(text).diagnostics if d.code == "AFN111"]
    assert [(d.line, d.column) for d in found] == [(2, 10)]


@pytest.mark.parametrize("allowed", ["\t", "\r\n", "é♠", "\u200d"])
def test_tabs_line_ends_and_text_are_not_control_characters(allowed: str) -> None:
    text = f'% AFN 1\n[Event "a{allowed}b"]\n'
    assert "AFN111" not in [d.code for d in parse(text).diagnostics]


def test_visible_leaves_ordinary_text_alone_and_escapes_the_rest() -> None:
    assert visible("Ann Baptiste · J♠ é") == "Ann Baptiste · J♠ é"
    assert visible("\x1b[2J\u009b\u202e\x00") == "\\x1b[2J\\u009b\\u202e\\x00"
    assert visible("a\nb\tc") == "a\\nb\\tc"
    assert visible("a\r\nb\tc\rd", lines=True) == "a\r\nb\tc\\x0dd"


def test_stats_accuracy_after_analyse_shows_names_escaped(
        corpus: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("ALLFOURS_CACHE_DIR", str(tmp_path / "cache"))
    on_a_terminal(monkeypatch, ["analyse", str(corpus)])
    for command in (["stats"], ["stats", "--csv"]):
        shown = on_a_terminal(monkeypatch, [*command, str(corpus)])
        assert "accuracy" in shown, command
        assert RAW.findall(SGR.sub("", shown)) == [], command
