"""``allfours serve`` restarted (or a phone replaced) resumes the table where it stood:
a game the file has finished is shown as it ended, with the next game offered (or, at
an event's table whose match is over, the reason there is none), the event layer
asked once when the table is opened and not on the page's poll, the file not changed
by opening it; the next game begins when the table asks for it, and a table that
chose card-by-card entry keeps it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

from allfours_notation.events.games import FolderRead, read_folder
from allfours_notation.reading.records import Tag
from allfours_notation.venue.app import Venue
from allfours_notation.venue.event import event_tables, write_missing
from allfours_notation.venue.games import MatchOver, event_match_over
from allfours_notation.venue.table import open_table

from .serving import HEADER, game_file, token_of, with_client
from .test_serve_cards import NEAR_THE_END, Phone
from .test_serve_event import EVENT, event_in

FIRST_DEALER = "who deals the first deal? type N, E, S or W"


def finish_the_game(path: Path, over: MatchOver | None = None) -> None:
    """The server before the restart: North–South win the game at its first deal."""
    table = open_table(path, "before", over=over)
    try:
        for line in ("n", "h n", "", "y"):
            assert table.session.type(line).accepted, line
        assert table.session.over
    finally:
        table.release()


async def state_of(client: TestClient[Any, Any], token: str) -> dict[str, Any]:
    response = await client.get(f"/t/{token}/state")
    assert response.status == 200
    answer: dict[str, Any] = await response.json()
    return answer


def test_a_finished_game_is_served_as_it_ended_with_the_next_game_offered(
        tmp_path: Path) -> None:
    path = game_file(tmp_path, header=NEAR_THE_END)
    finish_the_game(path)
    finished = path.read_bytes()

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        assert path.read_bytes() == finished  # opening wrote nothing
        phone = Phone(client, token_of(venue))
        for _ in range(2):  # a poll changes nothing either
            state = await state_of(client, phone.token)
            assert (state["game"], state["phase"], state["scores"], state["deal"]) == \
                (1, "over", [["NS", 14], ["EW", 0]], 1)
            assert state["next"] == "the game is over (NS wins)"
            assert state["last_deal"] == "deal 1 dealer N\n  scored N high\n  total N 14 E 0"
            assert state["next_game"] == {"offered": True, "why_not": None, "game": 2}
            assert state["mode"] == "results"
        assert path.read_bytes() == finished
        body = await phone.accepted("next game")
        assert body["outcome"]["message"] == f"game 2 begins: {FIRST_DEALER}"
        assert (body["state"]["game"], body["state"]["phase"]) == (2, "dealer")
        await phone.accepted("w", "h e")

    with_client(path, test)
    text = path.read_text(encoding="utf-8")
    assert text.startswith(finished.decode().rstrip("\n") + "\n\n[Event ")
    assert text.count("[Event ") == 2 and text.count('[Result "*"]') == 1
    assert "deal 1 dealer W\n  scored E high" in text.split("\n\n[Event ")[1]


def test_a_replaced_phone_sees_the_finished_game_too(tmp_path: Path) -> None:
    """A second phone (a new page) asks the state of a restarted table: the same."""
    path = game_file(tmp_path, header=NEAR_THE_END)
    finish_the_game(path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        token = token_of(venue)
        first, second = await state_of(client, token), await state_of(client, token)
        assert first == second and first["phase"] == "over"
        late = await Phone(client, token).send("undo")  # the table's last entry back
        assert late["outcome"]["accepted"] and late["state"]["phase"] == "confirm"

    with_client(path, test)
    assert '[Result "*"]' in path.read_text(encoding="utf-8")  # the game goes on again


def counted(over: MatchOver) -> tuple[MatchOver, list[tuple[Tag, ...]]]:
    """``over``, and the list of the tags it was asked about (one item an ask)."""
    asked: list[tuple[Tag, ...]] = []

    def counting(tags: tuple[Tag, ...]) -> str | None:
        asked.append(tags)
        return over(tags)

    return counting, asked


def event_table(tmp_path: Path, games: int, finished: int = 1) -> tuple[Path, MatchOver]:
    """Table 1 of an event's round 1 under ``games = N``, its first game won by
    North–South (the home team) before the restart (table 2's too, with ``finished =
    2``); and the event's match rule."""
    event = event_in(tmp_path, EVENT.replace("games = 2", f"games = {games}"))
    folder = tmp_path / "games"
    tables = event_tables(event, folder, "1")
    write_missing(tables)
    over = event_match_over(event, folder)
    for table in tables[:finished]:
        table.path.write_text(table.path.read_text(encoding="utf-8").replace(
            '[Result "*"]', '[Result "*"]\n[Score "NS 13 EW 0"]'), encoding="utf-8")
        finish_the_game(table.path, over)
    return tables[0].path, over


def test_no_next_game_after_a_restart_once_the_match_is_over(tmp_path: Path) -> None:
    path, over = event_table(tmp_path, games=1)
    finished = path.read_bytes()
    asking, asked = counted(over)
    why = "table 1 has played its 1 games"

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        assert len(asked) == 1  # asked when the table was opened
        phone = Phone(client, token_of(venue))
        for _ in range(3):
            state = await state_of(client, phone.token)
            assert state["phase"] == "over"
            assert state["next_game"] == {"offered": False, "why_not": why, "game": 2}
        assert len(asked) == 1  # not on the page's poll
        refused = await phone.send("next game")
        assert not refused["outcome"]["accepted"]
        assert refused["outcome"]["message"] == f"no next game: {why}; tell the director"
        assert refused["state"]["next_game"]["why_not"] == why
        assert len(asked) == 2  # asked again for the next game, as without a restart

    with_client(path, test, over=asking)
    assert path.read_bytes() == finished  # nothing written


def test_the_next_game_after_a_restart_while_the_match_goes_on(tmp_path: Path) -> None:
    path, over = event_table(tmp_path, games=2)
    asking, asked = counted(over)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        phone = Phone(client, token_of(venue))
        state = await state_of(client, phone.token)
        assert state["next_game"] == {"offered": True, "why_not": None, "game": 2}
        body = await phone.accepted("next game")
        assert body["state"]["game"] == 2 and body["state"]["next_game"] is None

    with_client(path, test, over=asking)
    assert len(asked) == 2  # at the opening, and for the next game
    second = path.read_text(encoding="utf-8").split("\n\n[Event ")[1]
    assert '[Round "1"]' in second and '[Table "1"]' in second


def test_the_games_folder_is_read_once_for_the_tables_opened(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two tables whose games are over, opened after a restart: the event layer asked
    for each, the folder read once (its bytes the same); read again once they change."""
    first, _ = event_table(tmp_path, games=1, finished=2)
    reads: list[Path] = []

    def counted_read(folder: Path, *args: Any, **kwargs: Any) -> FolderRead:
        reads.append(folder)
        return read_folder(folder, *args, **kwargs)

    monkeypatch.setattr("allfours_notation.events.games.read_folder", counted_read)
    over = event_match_over(event_in(tmp_path, EVENT.replace("games = 2", "games = 1")),
                            first.parent)
    second = first.with_name(first.name.replace("-t1.", "-t2."))
    tables = [open_table(path, path.stem, over=over) for path in (first, second)]
    try:
        assert [t.state()["next_game"]["why_not"] for t in tables] == \
            ["the match is over: Arima wins"] * 2
        assert len(reads) == 1
        first.write_text(first.read_text(encoding="utf-8") + "{ a note }\n",
                         encoding="utf-8")
        assert over(tables[0].session.tags) == "the match is over: Arima wins"
        assert len(reads) == 2
    finally:
        for table in tables:
            table.release()


def test_a_file_with_no_game_yet_begins_one_as_before(tmp_path: Path) -> None:
    """A header alone is the game to record: its first dealer asked, as before."""
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        state = await state_of(client, token_of(venue))
        assert (state["game"], state["phase"], state["next"]) == (1, "dealer", FIRST_DEALER)
        assert state["next_game"] is None

    with_client(path, test)


def test_a_table_that_chose_cards_keeps_them_across_a_restart(tmp_path: Path) -> None:
    path = game_file(tmp_path, header=HEADER.replace('[Entry "results"]', '[Entry "cards"]'))
    before = path.read_bytes()

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        state = await state_of(client, token_of(venue))
        assert (state["mode"], state["phase"]) == ("cards", "dealer")

    with_client(path, test)
    assert path.read_bytes() == before


def test_a_finished_game_that_names_no_mode_is_left_as_written(tmp_path: Path) -> None:
    """A game the recorder finished card by card (no ``[Entry]`` tag), its last deal
    won at the turn-up: shown over, as recorded (read by its results, that deal would
    be asked for its results again), its file unchanged; its next game is entered by
    results, the phone's first pad, and says so in its header."""
    header = HEADER.replace('[Entry "results"]\n', "").replace(
        '[Result "*"]', '[Result "NS"]\n[Score "NS 11 EW 5"]')
    path = game_file(tmp_path, header=header + "\ndeal 1 dealer N\n  turn JD\n"
                     "  claim N kick 3\n  total N 14 E 5\nend\n")
    finished = path.read_bytes()

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        phone = Phone(client, token_of(venue))
        state = await state_of(client, phone.token)
        assert (state["mode"], state["phase"], state["game"]) == ("cards", "over", 1)
        assert state["next_game"]["offered"]
        assert path.read_bytes() == finished
        state = (await phone.accepted("next game", "w"))["state"]
        assert (state["mode"], state["phase"], state["game"]) == ("results", "results", 2)

    with_client(path, test)
    text = path.read_text(encoding="utf-8")
    assert text.startswith(finished.decode().rstrip("\n"))
    assert '[Entry "results"]' in text.split("\n\n[Event ")[1]



@pytest.mark.parametrize("ending", ["", "end\n"], ids=["header", "header-and-end"])
def test_who_deals_survives_a_kill_before_the_file_records_it(tmp_path: Path,
                                                             ending: str) -> None:
    """Who deals is accepted before the game file records it (the deal's line is written
    with its first result): a server killed right after answering (the journal left as
    it was) comes back with the dealer taken and the phone's next entry expected, not
    with the phone one entry ahead of a table that forgot (bench/serve.py's night with a
    kill, whose files end ``end``, met it)."""
    path = game_file(tmp_path, header=HEADER + ending)
    table = open_table(path, "before")
    try:
        assert table.state()["phase"] == "dealer"
        answer = table.enter("phone-one", 1, "n")
        assert answer.status == 200 and answer.body["outcome"]["accepted"]
        assert "dealer" not in path.read_text(encoding="utf-8")  # not in the file yet
        told = answer.body["state"]["phase"]
        assert told != "dealer"
    finally:
        table.release()  # the lock only: the kill left the journal as it was

    again = open_table(path, "after")
    try:
        assert (again.state()["phase"], again.state()["dealer"]) == (told, "N")
        assert again.sent == {"phone-one": 1}
        answer = again.enter("phone-one", 2, "h n")
        assert answer.status == 200 and answer.body["outcome"]["accepted"], answer.body
    finally:
        again.release()


def test_who_deals_is_not_taken_again_once_the_file_has_moved_on(tmp_path: Path) -> None:
    """The dealer held for a file that has changed since is not applied again: the file
    records the deal (its line written with its first result)."""
    path = game_file(tmp_path)
    table = open_table(path, "before")
    try:
        assert table.enter("phone-one", 1, "n").status == 200
        assert table.held == "n"
        assert table.enter("phone-one", 2, "h n").status == 200
        assert "dealer N" in path.read_text(encoding="utf-8")
    finally:
        table.release()
    again = open_table(path, "after")
    try:
        assert again.held is None
        assert again.sent == {"phone-one": 2}
        assert again.state()["phase"] != "dealer"
    finally:
        again.release()
