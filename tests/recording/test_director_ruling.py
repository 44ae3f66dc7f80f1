"""A director's ruling on a deal the table has already left (``Session.rule``, issue 39):
written into that deal, every later deal judged again with the score it makes (their
items as recorded), the winner changed or the game reopened when it says so, and
refused whole, nothing written, when a later deal would not stand."""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation.checking import check_text
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Tag
from allfours_notation.recording.entries import Phase, Ruling
from allfours_notation.recording.opening import Resume, inspect, new_tags
from allfours_notation.recording.script import lines_of_game
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from tests.recording.helpers import feed, generated

FOUR = {"North": "Ann", "East": "Bob", "South": "Cy", "West": "Di"}

# Deal 1 disputed (East's side claims Low), then two deals agreed; deal 4 begun.
DISPUTED_THEN_TWO = ["n", "h e", "l n", "", "claim E high low",
                     "h w", "l s", "", "y", "h n", "j e", "", "y"]

# Six deals to 14: NS win in deal 6 at Jack, NS 14 EW 13.  Deal 1 disputed: ruled
# 'N hangjack E high low', NS 11 EW 13 stand before deal 6, and EW win it at Low.
CLOSE_GAME = ["n", "x n", "h e", "l n", "", "claim N hangjack E high low",
              "x e", "h e", "l e", "g e", "", "y",
              "x n", "h n", "l n", "g n", "", "y",
              "x w", "h w", "l w", "", "y",
              "h s", "l s", "", "y",
              "h n", "l e", "j s", "", "y"]


def four(rules: str = "trinidad14", players: dict[str, str] = FOUR) -> tuple[Tag, ...]:
    return (*new_tags(players=players, date="2026.12.07", rules=rules),
            Tag(name="Entry", value="results"))


def recorded(path: Path, lines: list[str], rules: str = "trinidad14",
             players: dict[str, str] = FOUR) -> tuple[Session, RecordFile]:
    """A session writing ``path``, fed ``lines`` (its record still locked)."""
    record = RecordFile(path)
    record.acquire()
    session = Session(four(rules, players), record=record)
    feed(session, lines)
    return session, record


def deal_text(text: str, number: int) -> str:
    return text.split(f"deal {number} dealer")[1].split("\ndeal ")[0]


def settled_clean(text: str) -> None:
    """The file reads back with no error and no dispute left."""
    found = check_text(text).all_diagnostics()
    assert not [d for d in found if d.is_error or d.is_dispute], found


def test_a_ruling_on_a_deal_left_two_deals_ago_is_written_into_it(tmp_path: Path) -> None:
    path = tmp_path / "t.afn"
    session, record = recorded(path, DISPUTED_THEN_TWO)
    try:
        before = path.read_text()
        later = [deal_text(before, n).split("total")[0] for n in (2, 3)]
        assert session.ruled_deal() == 3  # a ruling typed now would go on deal 3
        outcome = session.rule(1, "E high low")
        assert outcome.accepted, outcome.message
        assert "deal 1" in outcome.message
        assert "the score is now NS 2 EW 4 (was NS 3 EW 3)" in outcome.message
        text = path.read_text()
        assert "{ recorded: E high N low }\n  director scored E high low" in \
            deal_text(text, 1)
        # the later deals' items as recorded, their totals with the corrected score
        assert [deal_text(text, n).split("total")[0] for n in (2, 3)] == later
        assert "total N 1 E 3" in deal_text(text, 2)
        assert "total N 2 E 4" in deal_text(text, 3)
        settled_clean(text)
        assert dict(session.scores()) == {"NS": 2, "EW": 4}
        assert session.expect().phase is Phase.RESULTS  # deal 4 goes on
        # the table's undo takes back its own last step (the agreement to deal 3, and
        # deal 4 begun with it), not the director's ruling; redo brings that step back
        assert session.undo().accepted
        assert session.expect().phase is Phase.CONFIRM
        assert "director scored E high low" in path.read_text()
        assert session.redo().accepted and session.expect().phase is Phase.RESULTS
        assert "director scored E high low" in path.read_text()
        for _ in range(6):  # back into deal 2: the ruling stays
            assert session.undo().accepted
        assert "director scored E high low" in path.read_text()
        assert len(session.judgement().game.deals) == 2
        scores = dict(session.scores())
    finally:
        record.release()
    with RecordFile(path) as again:  # the file is the truth: resumed, the same game
        opened = inspect(path, again)
        assert isinstance(opened, Resume)
        assert dict(opened.session.scores()) == scores
        assert sum(isinstance(e, Ruling) for e in opened.session.entries) == 1


def test_a_ruling_that_flips_the_winner_of_a_finished_game(tmp_path: Path) -> None:
    path = tmp_path / "t.afn"
    session, record = recorded(path, CLOSE_GAME)
    try:
        assert session.over and session.winner() == "NS"
        assert parse(path.read_text()).games[0].tag("Result") == "NS"
        outcome = session.rule(1, "N hangjack E high low")
        assert outcome.accepted, outcome.message
        assert "the game's winner changes: EW win it (deal 6, at Low), not NS" in \
            outcome.message
        text = path.read_text()
        assert parse(text).games[0].tag("Result") == "EW"
        assert "scored N high E low S jack" in deal_text(text, 6)  # as recorded
        assert "total N 12 E 14" in deal_text(text, 6)
        settled_clean(text)
        assert session.over
    finally:
        record.release()


def test_a_ruling_that_unwins_a_finished_game_lets_it_go_on(tmp_path: Path) -> None:
    path = tmp_path / "t.afn"
    session, record = recorded(path, ["n"] + ["x n", "h n", "l n", "", "y"] * 3)
    try:
        assert session.over and dict(session.scores()) == {"NS": 15, "EW": 0}
        outcome = session.rule(2, "N high low")
        assert outcome.accepted, outcome.message
        assert "the game is no longer won (NS had won it, deal 3, at Hang Jack): " \
            "play goes on; deal 4: E deals" in outcome.message
        assert session.expect().phase is Phase.RESULTS and not session.over
        assert parse(path.read_text()).games[0].tag("Result") == "*"
        feed(session, ["h n", "l n", "", "y"])  # NS 14: won again, a deal later
        assert session.winner() == "NS"
    finally:
        record.release()


def test_a_ruling_that_wins_the_game_in_a_deal_the_table_played_past_is_refused(
        tmp_path: Path) -> None:
    path = tmp_path / "t.afn"
    session, record = recorded(path, CLOSE_GAME)
    try:
        written, entries = path.read_bytes(), session.entries
        outcome = session.rule(5, "W high low")  # EW 12 + 2: the game won in deal 5
        assert not outcome.accepted
        assert "with this ruling EW win the game in deal 5 (deal 5, at Low), but the " \
            "table has played deal 6 since" in outcome.message
        assert path.read_bytes() == written and session.entries is entries
    finally:
        record.release()


def test_a_ruling_won_before_a_deal_with_only_its_dealer_ends_the_game(
        tmp_path: Path) -> None:
    path = tmp_path / "t.afn"
    lines = ["n", "h e", "l n", "", "claim E high low"] + ["h n", "l e", "", "y"] * 12
    session, record = recorded(path, lines)
    try:
        assert dict(session.scores()) == {"NS": 13, "EW": 13}  # deal 14 begun, empty
        outcome = session.rule(1, "E high low")
        assert outcome.accepted, outcome.message
        assert "EW now win the game (deal 13, at Low)" in outcome.message
        assert session.over and len(parse(path.read_text()).games[0].deals) == 13
    finally:
        record.release()


def test_a_ruling_that_makes_a_later_entry_impossible_is_refused(tmp_path: Path) -> None:
    # Foster's rules, two players, to 7: with S at 6 the dealer may not give
    path = tmp_path / "t.afn"
    lines = ["n", "h s", "l s", "j s", "g n", "", "y",
             "h n", "l n", "j s", "", "claim S high low jack",
             "u 4h", "b", "t", "h n", "l n", "", "y"]
    session, record = recorded(path, lines, "foster", {"North": "Ann", "South": "Bob"})
    try:
        written = path.read_bytes()
        outcome = session.rule(2, "S high low jack")
        assert not outcome.accepted
        assert outcome.message.startswith("refused: with this ruling, deal 3's 'N gives' "
                                          "would be refused: the gift is forbidden")
        assert outcome.finding is not None and outcome.finding.code == "AFN310"
        assert path.read_bytes() == written
    finally:
        record.release()


@pytest.mark.parametrize(("deal", "items", "said"), [
    (0, "E high low", "refused: there is no deal 0: the game has deals 1 to 4"),
    (5, "E high low", "refused: there is no deal 5"),
    (1, "E high nonsense", "'nonsense' is not a claim item"),
    (1, "", "a claim starts with a seat"),
])
def test_a_ruling_refused_writes_nothing(tmp_path: Path, deal: int, items: str,
                                         said: str) -> None:
    path = tmp_path / "t.afn"
    session, record = recorded(path, DISPUTED_THEN_TWO)
    try:
        written = path.read_bytes()
        outcome = session.rule(deal, items)
        assert not outcome.accepted and said in outcome.message, outcome.message
        assert path.read_bytes() == written
    finally:
        record.release()


def test_a_second_ruling_on_a_deal_replaces_the_first(tmp_path: Path) -> None:
    path = tmp_path / "t.afn"
    session, record = recorded(path, DISPUTED_THEN_TWO)
    try:
        assert session.rule(1, "E high low").accepted
        outcome = session.rule(1, "director E high N low")  # the word itself is taken too
        assert outcome.accepted and "replacing the ruling made before" in outcome.message
        text = path.read_text()
        assert text.count("director scored") == 1
        # the ruling replaced is kept beside the new one: nothing a director said is lost
        assert "director scored E high N low { replaces: E high low }" in deal_text(text, 1)
        assert dict(session.scores()) == {"NS": 3, "EW": 3}
        assert session.rule(1, "E high").accepted  # a third: both before it kept
        assert "director scored E high { replaces: E high N low } { replaces: E high low }" \
            in deal_text(path.read_text(), 1)
    finally:
        record.release()
    with RecordFile(path) as again:  # resumed and written again: the comments stay
        opened = inspect(path, again)
        assert isinstance(opened, Resume)
        session = opened.session
        feed(session, ["h n"])
        assert "{ replaces: E high N low } { replaces: E high low }" in path.read_text()


def test_a_ruling_on_a_deal_played_by_its_cards(tmp_path: Path) -> None:
    game = generated("trinidad14", 4, seed=3, target=14)  # EW win in deal 5, NS 3
    path = tmp_path / "t.afn"
    with RecordFile(path) as record:
        session = Session(game.tags, record=record)
        feed(session, lines_of_game(game))
        assert session.winner() == "EW" and len(session.judgement().game.deals) == 5
        outcome = session.rule(1, "N high low jack game")
        assert outcome.accepted, outcome.message
        assert "the game is no longer won (EW had won it, deal 5, at High)" in outcome.message
        assert "not by its cards" in outcome.message  # AFN410, as the recorder says it
        assert session.expect().phase is Phase.DEALER  # by the cards: who deals deal 6
        text = path.read_text()
        assert "director scored N high low jack game" in deal_text(text, 1)
        assert "1. W:JS S:JD E:4S N:KD" in deal_text(text, 1)  # the cards as recorded
        found = check_text(text).all_diagnostics()
        assert not [d for d in found if d.is_error], found


def test_a_ruling_on_the_deal_just_ended_is_typed_as_in_the_recorder() -> None:
    session = Session(four())
    feed(session, DISPUTED_THEN_TWO[:5])  # deal 1 claimed; deal 2 has only its dealer
    assert session.ruled_deal() == 1
    outcome = session.rule(1, "E high low")
    assert outcome.accepted and "the score is now NS 0 EW 2" in outcome.message
    assert outcome.message.startswith("director's ruling: E high E low (deal 1)")
    assert session.rule(1, "E high").accepted  # a second: the first one replaced
    text = session.text()
    assert text.count("director scored") == 1
    assert "director scored E high { replaces: E high low }" in text
    assert session.undo().accepted  # the table's undo: its own last entry
    assert "director scored E high { replaces: E high low }" in session.text()
