"""The advisor at the calls of a recorded game: which steps are calls, the position each
caller knew, and the replay page's data (only when asked for)."""

from __future__ import annotations

from pathlib import Path

from allfours_notation.cards import Seat, cards
from allfours_notation.checking import replay_of
from allfours_notation.checking.analysis.advisor_calls import advice_at_calls, call_points
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import CallKind
from allfours_notation.referee.replay import replay_changes
from allfours_notation.referee.state import GameReplay
from allfours_notation.writing.html_replay import replay_data

ROOT = Path(__file__).resolve().parents[2]


def replayed(name: str) -> GameReplay:
    game = parse((ROOT / "samples" / name).read_text(encoding="utf-8")).games[0]
    found = replay_of(game)
    assert found is not None
    return found


def test_each_first_call_is_found_with_what_the_caller_knew() -> None:
    points = call_points(replayed("two-player-to-seven.afn"))
    assert [(p.deal, p.seat, p.call) for p in points] == [
        (1, Seat.SOUTH, CallKind.STANDS), (2, Seat.NORTH, CallKind.BEGS),
        (2, Seat.SOUTH, CallKind.GIVES), (3, Seat.SOUTH, CallKind.BEGS),
        (3, Seat.NORTH, CallKind.RUNS), (4, Seat.NORTH, CallKind.BEGS),
        (4, Seat.SOUTH, CallKind.RUNS)]
    gift = points[2]
    assert gift.position is not None and gift.position.role == "dealer"
    assert gift.position.hand == cards("AH KD 6D JC TC 9C")
    assert gift.position.scores == (("N", 1), ("S", 3))  # the score before deal 2
    steps = replayed("two-player-to-seven.afn").steps
    assert all(steps[p.step].text.startswith(f"{p.seat.letter} {p.call.value}")
               for p in points)  # "N runs the cards: three more each" for a run


def test_a_hand_not_recorded_is_read_from_the_play_unless_the_cards_were_run() -> None:
    """Without a run the hands play began with are the hands as dealt (the referee reads
    them from the play); after a run they hold the run's cards too: no advice, and why."""
    points = call_points(replayed("no-hands.afn"))
    first = [p for p in points if p.deal == 1]
    assert [p.call for p in first] == [CallKind.BEGS, CallKind.GIVES]
    assert all(p.position is not None for p in first)
    assert first[0].position is not None
    assert first[0].position.hand == cards("KS JS 3S KH KD 6D")
    run = [p for p in points if p.deal > 1]
    assert run and all(p.position is None and p.why_not for p in run)
    assert all("not recorded" in (p.why_not or "") for p in run)


def test_the_replay_page_carries_the_advice_only_when_asked() -> None:
    game = parse((ROOT / "samples" / "turned-jack-wins.afn").read_text(encoding="utf-8")).games[0]
    plain, changes = replay_changes(game)
    assert "advice" not in replay_data(plain, changes=changes)
    advice = advice_at_calls(plain, changes, samples=2, dealer_samples=1, later=4,
                             time_limit=0.05)
    assert len(advice) == 4  # two stands, a beg and a run
    data = replay_data(plain, changes=changes, advice=advice)
    assert data["advice"] == {str(step): lines for step, lines in advice.items()}
    for lines in advice.values():
        assert "the advisor" in lines[0] or lines[0].startswith("no advice")
