"""Caret snippets on long lines: a window around the column, made from the line's
offsets found once (issue 27: printing as cheap as finding)."""

from __future__ import annotations

import pytest

from allfours_notation.diagnostics import Diagnostic, LineIndex, Severity, caret_snippet
from allfours_notation.visible import visible

LONG = "end " * 50_000  # one line of 200 kB: each word a game, each game a warning


def snippet_of_lines(text: str, column: int) -> str:
    """The snippet made from the text split into lines: the other path, no index."""
    return caret_snippet(text.split("\n"), 1, column, column + 3)


@pytest.mark.parametrize("column", [1, 77, 81, 85, 4 * 25_000 + 1, len(LONG) - 3])
def test_a_snippet_on_a_very_long_line_is_a_window_with_the_caret_under_its_word(
        column: int) -> None:
    shown = caret_snippet(LineIndex(LONG), 1, column, column + 3)
    assert shown == snippet_of_lines(LONG, column)
    source, caret = shown.split("\n")
    assert len(source) <= len("    1 | ") + 160
    start = caret.index("^")
    assert caret[start:] == "^^^"
    assert source[start:start + 3] == "end"


def test_a_control_character_far_from_the_window_leaves_it_as_it_is() -> None:
    text = "\x1b\t" + LONG
    column = 100_001
    shown = caret_snippet(LineIndex(text), 1, column, column + 3)
    assert shown == snippet_of_lines(text, column)
    assert "\\x1b" not in shown


def test_a_control_character_and_a_tab_in_the_window_are_shown() -> None:
    text = LONG[:400] + "\x1b\t" + LONG[400:]
    shown = caret_snippet(LineIndex(text), 1, 403, 406)
    assert shown == snippet_of_lines(text, 403)
    assert "\\x1b end" in shown  # the escape made visible, the tab a space


def test_the_diagnostics_of_one_long_line_find_the_line_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each diagnostic's snippet is cut from the line's offsets, found for the first:
    the cost per diagnostic does not grow with the line's length."""
    searches = []
    line_start = LineIndex.line_start

    def counted(self: LineIndex, line: int) -> int | None:
        searches.append(line)
        return line_start(self, line)

    monkeypatch.setattr(LineIndex, "line_start", counted)
    lines = LineIndex("% AFN 1\n" + LONG + "\n")
    for column in range(1, len(LONG), 4):
        Diagnostic("AFN108", Severity.WARNING, "missing tags", "f.afn", 2, column,
                   column + 3, hint="a hint …").render(lines)
    assert searches == [2]


@pytest.mark.parametrize("hostile", ["\x1b[2J", "a\tb", "a\nb", "\u202eexe", "\x00", "\\[red]"])
def test_a_headline_and_hint_are_shown_as_visible_shows_them_whole(hostile: str) -> None:
    """The parts of a headline are made visible one by one (and remembered): the same
    as making the whole line visible, the first time and the next."""
    found = Diagnostic("AFN101", Severity.ERROR, f"bad {hostile} here", f"f{hostile}.afn", 3,
                       7, game=2, deal=4, hint=f"write {hostile} …")
    for _ in range(2):
        assert found.render() == (f"{visible(found.headline())}\n"
                                  f"  hint: {visible(found.hint or '')}")
