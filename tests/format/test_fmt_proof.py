"""fmt's proof does each thing once (issue 27), and still catches a formatter bug.

The proof reads the new text back; a game whose text is the old game's is neither
parsed nor refereed again (see ``formatter._read_back``).  These tests hold both
halves: a canonical file costs no second pass, and a formatter that changes any
game's text, in a file that is otherwise canonical, is still refused.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation import checking
from allfours_notation.checking.parsing import parse
from allfours_notation.checking.parsing import parse_game_body as parse_game_body_
from allfours_notation.writing import formatter
from allfours_notation.writing.formatter import format_checked, format_result

SAMPLE = Path(__file__).parents[2] / "samples" / "club-night.afn"


def _canonical() -> str:
    text = format_result(parse(SAMPLE.read_bytes()))
    assert format_result(parse(text)) == text  # a fixed point: the file is canonical
    return text


def _counting(monkeypatch: pytest.MonkeyPatch) -> tuple[list[int], list[int]]:
    """Count the games the proof parses (after the first read) and referees."""
    parsed: list[int] = []
    refereed: list[int] = []
    real_parse, real_check = parse_game_body_, checking.check_games

    def parse_game_body(*args: object, **kwargs: object) -> object:
        parsed.append(1)
        return real_parse(*args, **kwargs)  # type: ignore[arg-type]

    def check_games(games: list[object], *args: object, **kwargs: object) -> object:
        refereed.append(len(games))
        return real_check(games, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(formatter, "parse_game_body", parse_game_body)
    monkeypatch.setattr(checking, "check_games", check_games)
    return parsed, refereed


def test_a_canonical_file_is_read_and_refereed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _canonical()
    result = parse(text)
    parsed, refereed = _counting(monkeypatch)
    checked = format_checked(result)
    assert checked.safe and checked.text == text
    assert parsed == []  # no game of the new text parsed again
    assert sum(refereed) == len(result.games)  # each game refereed once, on the old text


def test_a_rewritten_game_is_read_back_and_refereed_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = _canonical()
    lax = text.replace("\n\n[Event", "\n\n\n[Event", 1)  # white space outside a game: kept
    second = lax.index("[Event", lax.index("[Event") + 1)
    lax = lax[:second] + lax[second:].replace("  turn ", "  turn  ", 1)  # game 2 rewritten
    result = parse(lax)
    parsed, refereed = _counting(monkeypatch)
    checked = format_checked(result)
    assert checked.safe and checked.text == text
    assert len(parsed) == 1  # only the game whose text the formatter changed
    assert sum(refereed) == len(result.games) + 1


@pytest.mark.parametrize(
    ("bug", "refusal"),
    [
        # one card written as another, in the last game of an otherwise canonical file
        (lambda text: text[: text.rindex(":")] + ":" +
         ("2C" if text[text.rindex(":") + 1 : text.rindex(":") + 3] != "2C" else "3C") +
         text[text.rindex(":") + 3 :], "formatting would change game 3"),
        # the first two games written in each other's place
        (lambda text: _swapped(text), "formatting would change game 1"),
        # a game dropped
        (lambda text: text[: text.rindex("\n[Event")] + "\n", "holds 2 games, not 3"),
        # a comment lost after the last game... or anywhere: the first one changed
        (lambda text: text.replace("{", "{ changed", 1), "formatting would change game"),
    ],
)
def test_the_proof_still_catches_a_formatter_bug(
    monkeypatch: pytest.MonkeyPatch, bug: object, refusal: str
) -> None:
    """A bug injected into the writer, on a file that is canonical already (where
    the proof skips the most), is refused: nothing would be written."""
    text = _canonical()
    assert "{" in text  # the sample has comments for the last case to change
    real = formatter.format_result
    monkeypatch.setattr(formatter, "format_result",
                        lambda result: bug(real(result)))  # type: ignore[operator]
    checked = format_checked(parse(text))
    assert not checked.safe
    assert any(refusal in str(r) for r in checked.refusals), checked.refusals


def _swapped(text: str) -> str:
    first = text.index("[Event")
    second = text.index("[Event", first + 1)
    third = text.index("[Event", second + 1)
    games = text[first:second], text[second:third]
    return text[:first] + games[1] + games[0] + text[third:]
