"""Results mode refuses what cannot be (issue 37): an entry the referee's results checks
(AFN404-407, kicks against the pack) find impossible is refused at once, with the
referee's reason as data (code and message), and nothing of it reaches the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Tag
from allfours_notation.recording.opening import new_tags
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from tests.recording.helpers import feed

FOUR = {"North": "Ann", "East": "Cal", "South": "Ben", "West": "Dee"}
TWO = {"North": "Ann", "South": "Ben"}

# (rules, players, the lines accepted first, the forbidden line, the code refusing it)
FORBIDDEN = [
    pytest.param("hoffmann1909", TWO, ["n", "h n"], "h s", "AFN404", id="high-twice"),
    pytest.param("trinidad14", FOUR, ["n"], "k 4", "AFN406", id="kick-of-4"),
    pytest.param("trinidad14", FOUR, ["n", "k 1", "k 2", "k 3"], "k 1", "AFN404",
                 id="four-kicks-four-players"),
    pytest.param("hoffmann1909", TWO, ["n"], "x n", "AFN405", id="hang-jack-hoffmann"),
    pytest.param("hoffmann1909", TWO, ["n", "k", "k", "k", "k"], "k", "AFN404",
                 id="five-turned-jacks"),
    pytest.param("hoffmann1909", TWO, ["n"], "k s", "AFN407", id="kick-to-the-elder"),
    pytest.param("hoffmann1909", TWO, ["n"], "t n", "AFN407", id="gift-to-the-dealer"),
    pytest.param("hoffmann1909", TWO, ["n"], "h n 2", "AFN406", id="high-worth-2"),
    pytest.param("trinidad14", FOUR, ["n", "j n"], "x e", "AFN404", id="jack-and-hang-jack"),
    pytest.param("trinidad14", FOUR, ["n"], "k", "AFN406", id="trinidad-kick-unsized"),
]


@pytest.mark.parametrize(("rules", "players", "before", "line", "code"), FORBIDDEN)
def test_a_forbidden_result_is_refused_and_not_written(
        tmp_path: Path, rules: str, players: dict[str, str], before: list[str], line: str,
        code: str) -> None:
    path = tmp_path / "refused.afn"
    tags = (*new_tags(rules=rules, players=players, date="2026.12.07"),
            Tag(name="Entry", value="results"))
    with RecordFile(path) as record:
        session = Session(tags, record=record)
        feed(session, before)
        written = path.read_bytes()
        entries = session.entries
        outcome = session.type(line)
        assert not outcome.accepted
        assert outcome.finding is not None and outcome.finding.code == code
        assert outcome.message == f"refused: {outcome.finding.message}"
        assert session.entries == entries
        assert path.read_bytes() == written  # nothing of it on disk
    game = parse(path.read_text(encoding="utf-8")).games[0]
    assert not [d for d in game.diagnostics if d.code == code]


def test_an_accepted_item_after_a_refused_one_is_written() -> None:
    session = Session((*new_tags(players=TWO, date="2026.12.07"),
                       Tag(name="Entry", value="results")))
    feed(session, ["n", "h n"])
    assert not session.type("h s").accepted
    feed(session, ["l s", ""])
    deal = parse(session.text()).games[0].deals[0]
    assert deal.results is not None
    assert [(a.seat.letter, a.item.value) for a in deal.results.awards] == [("N", "high"),
                                                                           ("S", "low")]
