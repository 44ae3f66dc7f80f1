"""A long game at a venue (a deal every 20 s for hours): what a session keeps per deal
stays small, and a ruling on a deal long left is judged as a fresh judge would."""

from __future__ import annotations

from allfours_notation.reading.records import Tag
from allfours_notation.recording.session import Session
from tests.recording.helpers import feed
from tests.recording.test_director_ruling import four
from tests.recording.test_session import same_as_a_fresh_judge

DEAL = ["h n", "l e", "j s", "g =", "", "y"]  # NS 2 EW 1: 40 deals stay under 99


def long_game(deals: int) -> Session:
    session = Session((*four(), Tag(name="Target", value="99")))
    feed(session, ["n", *DEAL * deals])
    assert len(session.game().deals) == deals + 1  # the next deal begun
    return session


def test_the_judge_keeps_the_newest_tables_and_one_every_few_deals() -> None:
    session = long_game(40)
    kept = [i for i, table in enumerate(session._judge._before) if table is not None]
    assert len(session._judge._before) == 41
    assert len(kept) <= 3 + 1 + 40 // 8
    assert same_as_a_fresh_judge(session)


def test_the_deals_proved_to_read_back_are_the_games_and_a_few_more() -> None:
    session = long_game(40)  # each entry changed the last deal: 240 deals proved in all
    assert len(session._proved) <= 41 + 12
    assert set(session._written) <= session._proved  # the file's deals: not parsed again


def test_a_ruling_on_a_deal_long_left_is_judged_as_a_fresh_judge_would() -> None:
    session = long_game(30)
    outcome = session.rule(3, "N high low")
    assert outcome.accepted, outcome.message
    assert "director scored N high low" in session.text()
    assert same_as_a_fresh_judge(session)
    assert session.undo().accepted and same_as_a_fresh_judge(session)
