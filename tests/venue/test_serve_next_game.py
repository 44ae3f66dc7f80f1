"""The next game begun from what the table's session holds: the file read, not parsed
and checked again (200 tables ending their games at once each parsing its whole file
was the server's memory stepping up, issue 39); the same game proposed as
:func:`inspect` proposes it; parsed again only when the file is not the session's."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest

from allfours_notation.recording import opening
from allfours_notation.recording.opening import NewGame, following, inspect
from allfours_notation.venue import games
from allfours_notation.venue.table import Table, open_table

from .serving import HEADER, game_file

# North–South need one point: the first deal's High ends the game
NEAR_THE_END = HEADER.replace('[Result "*"]', '[Result "*"]\n[Score "NS 13 EW 0"]')


def _ended(tmp_path: Path) -> Table:
    table = open_table(game_file(tmp_path, header=NEAR_THE_END), "t1")
    for line in ("n", "h n", "", "y"):
        assert table.session.type(line).accepted
    return table


def test_the_next_game_is_what_inspect_proposes_without_parsing_the_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    table = _ended(tmp_path)
    try:
        parsed = inspect(table.path, table.record, house=table.session.house)
        assert isinstance(parsed, NewGame)
        known = following(table.session, table.record)
        assert known == parsed

        def no_parse(*args: object, **kwargs: object) -> None:
            raise AssertionError("the file parsed again for the next game")

        monkeypatch.setattr(games, "inspect", no_parse)
        monkeypatch.setattr(opening, "read_games", no_parse)
        answer = table.enter("phone-aaaaaaaa", 1, "next game")
        assert answer.body["outcome"]["accepted"], answer.body
        assert table.session.index == 2
        assert table.path.read_text(encoding="utf-8") == table.session.text()
        assert table.session.prefix == parsed.prefix
    finally:
        table.release()


def test_a_file_changed_on_disk_is_parsed_again(tmp_path: Path) -> None:
    table = _ended(tmp_path)
    try:
        edited = table.path.read_text(encoding="utf-8") + "\n% a note\n"
        table.path.write_text(edited, encoding="utf-8")
        assert following(table.session, table.record) is None
        answer = table.enter("phone-aaaaaaaa", 1, "next game")
        assert answer.body["outcome"]["accepted"], answer.body
        assert table.session.prefix == edited  # the file as it is now, checked again
    finally:
        table.release()


def test_the_finished_games_session_is_let_go_and_an_undo_makes_it_again(
        tmp_path: Path) -> None:
    """The next game keeps the finished game's entries for its undo, not its session
    (the referee's tables, the undo history): nothing refers to it after the next game."""
    table = _ended(tmp_path)
    try:
        finished = weakref.ref(table.session)
        ended_text = table.path.read_text(encoding="utf-8")
        scores = table.session.scores()
        assert table.enter("phone-aaaaaaaa", 1, "next game").body["outcome"]["accepted"]
        gc.collect()
        assert finished() is None
        undone = table.enter("phone-aaaaaaaa", 2, "undo").body
        assert undone["outcome"]["accepted"], undone
        assert undone["state"]["game"] == 1 and undone["state"]["phase"] == "over"
        assert table.session.scores() == scores
        assert table.path.read_text(encoding="utf-8") == ended_text
        again = table.enter("phone-aaaaaaaa", 3, "next game").body
        assert again["outcome"]["accepted"] and again["state"]["game"] == 2
    finally:
        table.release()
