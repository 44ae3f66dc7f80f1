"""``allfours serve``'s card-by-card mode and the next game, through the HTTP interface:
the mode switched by an entry (written in the header), a deal entered card by card with
what the core expects next and the legal cards it knows in the state, a refused card's
reason, a revoke recorded once confirmed, each entry once by its id; a game over, the
next game appended with the same tags and seats (refused before the game is over, taken
back by an undo, resumed after a restart), and no next game once the event's match
rule says the match at the table is over."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient

from allfours_notation.checking import check_text
from allfours_notation.events.assemble import assemble, table_over
from allfours_notation.events.games import read_folder
from allfours_notation.venue.app import Venue
from allfours_notation.venue.event import event_tables, write_missing
from allfours_notation.venue.games import event_match_over
from allfours_notation.venue.table import open_table

from .serving import HEADER, game_file, token_of, with_client
from .test_serve_event import EVENT, event_in, tags_of
from .test_serve_http import send

# North–South need one point: the first deal's High ends the game
NEAR_THE_END = HEADER.replace('[Result "*"]', '[Result "*"]\n[Score "NS 13 EW 0"]')


class Phone:
    """A phone of the table: its entries numbered from 1."""

    def __init__(self, client: TestClient[Any, Any], token: str) -> None:
        self.client, self.token, self.number = client, token, 0

    async def send(self, line: str) -> dict[str, Any]:
        self.number += 1
        status, body = await send(self.client, self.token, self.number, line)
        assert status == 200, body
        return body

    async def accepted(self, *lines: str) -> dict[str, Any]:
        body: dict[str, Any] = {}
        for line in lines:
            body = await self.send(line)
            assert body["outcome"]["accepted"], body["outcome"]
        return body


def test_a_deal_card_by_card_with_the_legal_cards_and_the_referees_word(
        tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        phone = Phone(client, token_of(venue))
        body = await phone.accepted("mode cards")
        assert body["outcome"]["message"] == "deals are entered card by card"
        state = body["state"]
        assert (state["mode"], state["phase"], state["cards_due"]) == ("cards", "dealer", False)
        state = (await phone.accepted("n"))["state"]
        assert (state["phase"], state["cards_due"], state["hand_size"]) == ("turn", True, 6)
        assert state["offered"] == [] and state["proposed_dealer"] is None
        await phone.accepted("E 2s 3s 4s 5s 6s 7d", "4h")
        state = (await phone.accepted("stand"))["state"]
        assert (state["phase"], state["actor"], state["offered"]) == ("play", "W", [])
        state = (await phone.accepted("js", "kh"))["state"]
        # E's hand is known: the core offers E's legal cards, and the page shows them
        assert state["actor"] == "E" and state["offered"] == ["6s", "5s", "4s", "3s", "2s"]
        assert state["next"] == "E to play to trick 1"

        refused = await phone.send("qh")  # a card E does not hold
        assert not refused["outcome"]["accepted"]
        assert refused["outcome"]["message"].startswith("refused: E plays QH, a card E does "
                                                        "not hold")
        revoke = await phone.send("7d")  # held spades: the referee asks first
        assert not revoke["outcome"]["accepted"] and revoke["outcome"]["confirm"]
        assert revoke["outcome"]["code"] == "AFN306"
        number = phone.number + 1
        confirmed = await phone.accepted("confirm 7d")
        assert confirmed["state"]["actor"] == "N"
        again = await send(client, phone.token, number, "confirm 7d")  # sent twice
        assert again[0] == 200 and again[1]["replayed"]
        state = (await phone.accepted("2h"))["state"]
        assert state["actor"] == "S" and "1. W:JS S:KH E:7D N:2H" in state["last_deal"]

        # back to results: the next deals; this one goes on card by card
        switched = await phone.accepted("mode results")
        assert "this deal stays as it was begun" in switched["outcome"]["message"]
        assert switched["state"]["mode"] == "results" and switched["state"]["cards_due"]
        assert (await phone.accepted("undo"))["state"]["actor"] == "N"

    with_client(path, test)
    text = path.read_text()
    assert '[Entry "results"]' in text and "QH" not in text
    assert "1. W:JS S:KH E:7D\n" in text and text.count("7D") == 2
    assert not [d for d in check_text(text).all_diagnostics() if d.is_error]


def test_a_mode_switch_before_the_deal_switches_it(tmp_path: Path) -> None:
    path = game_file(tmp_path)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        phone = Phone(client, token_of(venue))
        state = (await phone.accepted("n"))["state"]
        assert (state["phase"], state["mode"], state["cards_due"]) == ("results", "results",
                                                                        False)
        state = (await phone.accepted("mode cards"))["state"]  # nothing entered in it yet
        assert (state["phase"], state["cards_due"]) == ("turn", True)
        refused = (await phone.send("h n"))["outcome"]  # an item is no card
        assert not refused["accepted"] and "type the turned card" in refused["message"]

    with_client(path, test)
    assert '[Entry "cards"]' in path.read_text()


def test_the_next_game_is_appended_with_the_same_tags_and_resumed(tmp_path: Path) -> None:
    path = game_file(tmp_path, header=NEAR_THE_END)

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        phone = Phone(client, token_of(venue))
        early = await phone.send("next game")
        assert not early["outcome"]["accepted"]
        assert early["outcome"]["message"] == ("the game is not over: the next game begins "
                                               "when it is")
        assert early["state"]["next_game"] is None
        state = (await phone.accepted("n", "h n", "", "y"))["state"]
        assert state["phase"] == "over"
        assert state["next_game"] == {"offered": True, "why_not": None, "game": 2}
        body = await phone.accepted("next game")
        assert body["outcome"]["message"] == ("game 2 begins: who deals the first deal? "
                                              "type N, E, S or W")
        state = body["state"]
        assert (state["game"], state["phase"], state["scores"]) == (2, "dealer",
                                                                    [["NS", 0], ["EW", 0]])
        assert state["last_deal"] == "" and state["proposed_dealer"] is None
        status, late = await send(client, phone.token, 1, "next game",  # a second phone
                                  phone="phone-bbbbbbbb")
        assert status == 200 and not late["outcome"]["accepted"]
        assert late["outcome"]["message"] == ("game 2 has begun already: who deals the "
                                              "first deal? type N, E, S or W")
        undone = await phone.accepted("undo")  # the empty game taken back out
        assert undone["state"]["game"] == 1 and undone["state"]["phase"] == "over"
        assert path.read_text().count("[Event ") == 1
        await phone.accepted("next game", "w", "h e")

    with_client(path, test)
    first, second = path.read_text().split("\n\n[Event ")
    assert '[Result "NS"]' in first and "Score" in first
    tags = {line.split(" ", 1)[0].lstrip("["): line for line in
            ("[Event " + second).splitlines() if line.startswith("[")}
    assert tags["Result"] == '[Result "*"]' and "Score" not in tags
    for name in ("Event", "Site", "Rules", "North", "East", "South", "West", "Entry"):
        assert tags[name] in first, name  # the same players, rules and mode
    assert "deal 1 dealer W\n  scored E high" in second
    table = open_table(path, "again")  # a server restarted: the second game resumed
    try:
        state = table.state()
        assert (state["game"], state["phase"], state["scores"]) == (2, "results",
                                                                    [["NS", 0], ["EW", 1]])
    finally:
        table.release()


def test_no_next_game_once_the_match_at_the_table_is_over(tmp_path: Path) -> None:
    event = event_in(tmp_path, EVENT.replace("games = 2", "games = 1"))
    folder = tmp_path / "games"
    tables = event_tables(event, folder, "1")
    write_missing(tables)
    path = tables[0].path
    path.write_text(path.read_text().replace('[Result "*"]',
                                             '[Result "*"]\n[Score "NS 13 EW 0"]'))
    assert tags_of(path)["Table"] == "1"

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        table = next(iter(venue.tables.values()))
        table.match.over = event_match_over(event, folder)
        phone = Phone(client, token_of(venue))
        state = (await phone.accepted("n", "h n", "", "y"))["state"]
        assert state["next_game"] == {"offered": False, "game": 2,
                                      "why_not": "table 1 has played its 1 games"}
        polled = await (await client.get(f"/t/{phone.token}/state")).json()
        assert polled["next_game"]["why_not"] == "table 1 has played its 1 games"
        refused = await phone.send("next game")
        assert refused["outcome"] == {**refused["outcome"], "accepted": False, "message":
                                      "no next game: table 1 has played its 1 games; tell "
                                      "the director"}

    with_client(path, test)
    assert path.read_text().count("[Event ") == 1
    matches = assemble(event, read_folder(folder, event.given_rules)).matches
    assert table_over(event, matches[0], 2) is None  # table 2 has not played


def test_the_match_rule_at_a_table(tmp_path: Path) -> None:
    """The event layer's word, per rule: a best of decided, a race won, games played."""
    for rule, over in (('rule = "best_of"\ntarget = 1', "the best of 1 at table 1 is "
                        "decided"),
                       ('rule = "race"\ntarget = 1', "the match is over: Arima wins "
                        "(table 1, game 1)"),
                       ('rule = "games"\ngames = 2', None)):
        folder = tmp_path / rule.split('"')[1]
        folder.mkdir()
        event = event_in(folder, EVENT.replace('rule = "games"\ngames = 2', rule))
        tables = event_tables(event, folder / "games", "1")
        write_missing(tables)
        path = tables[0].path
        path.write_text(path.read_text().replace('[Result "*"]',
                                                 '[Result "*"]\n[Score "NS 13 EW 0"]'))
        table = open_table(path, "t1")
        try:
            for line in ("n", "h n", "", "y"):  # North-South (Arima) win the game
                assert table.session.type(line).accepted
            assert event_match_over(event, folder / "games")(table.session.tags) == over, \
                rule
        finally:
            table.release()


def test_a_next_game_sent_across_a_restart_is_told_the_game_has_begun(
        tmp_path: Path) -> None:
    """One phone began the next game, then the server was restarted: the file's empty
    game is resumed, and another phone's 'next game' that waited meanwhile is told it
    has begun, nothing written."""
    path = game_file(tmp_path, header=NEAR_THE_END)
    table = open_table(path, "t1")
    try:
        for line in ("n", "h n", "", "y"):
            assert table.session.type(line).accepted
        assert table.enter("phone-cccccccc", 1, "next game").body["outcome"]["accepted"]
    finally:
        table.release()
    before = path.read_text()

    async def test(client: TestClient[Any, Any], venue: Venue) -> None:
        body = await Phone(client, token_of(venue)).send("next game")
        assert body["outcome"]["message"] == ("game 2 has begun already: who deals the first "
                                              "deal? type N, E, S or W")

    with_client(path, test)
    assert path.read_text() == before
