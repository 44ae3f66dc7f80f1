"""Results mode, the keys of issue 37: nothing typed is dropped (understood and taken,
refused with the reason, or kept in the line to edit), and keys for a stand, a beg, the
dealer's gift or run, and a Game tie, whose meaning the referee gives."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from allfours_notation.cards import Seat, parse_card
from allfours_notation.checking import check
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Award, Call, CallKind, ClaimItem, Tag, TurnUp
from allfours_notation.recording.claiming import ClaimDraft, items_text
from allfours_notation.recording.entries import GameTied, Phase
from allfours_notation.recording.opening import Resume, inspect, new_tags
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from allfours_notation.referee import replay
from tests.recording.app_helpers import recorder, send_keys, status
from tests.recording.helpers import feed, start_file

FOUR = {"North": "Ann", "East": "Cal", "South": "Ben", "West": "Dee"}
TWO = {"North": "Ann", "South": "Ben"}


def results_session(rules: str = "hoffmann1909", players: dict[str, str] = TWO,
                    record: RecordFile | None = None) -> Session:
    return Session((*new_tags(rules=rules, players=players, date="2026.12.07"),
                    Tag(name="Entry", value="results")), record=record)


def errors(session: Session) -> list[str]:
    """The errors 'allfours check' finds in the session's file, disputes aside."""
    game = parse(session.text()).games[0]
    return [f"{d.code} {d.message}" for d in check(game).diagnostics
            if d.is_error and d.code not in ("AFN104", "AFN314")]


def awards(session: Session) -> list[tuple[str, str, int | None]]:
    deal = parse(session.text()).games[0].deals[0]
    assert deal.results is not None
    return [(a.seat.letter, a.item.value, a.points) for a in deal.results.awards]


# -- text never dropped ----------------------------------------------------------------------


def test_a_stray_digit_after_a_kick_keeps_the_rest_of_the_line() -> None:
    session = results_session("trinidad14", FOUR)
    feed(session, ["n"])
    outcome = session.type("k 1 2 h n")
    assert not outcome.accepted
    assert outcome.message.startswith("N kick 1; then '2'")
    assert outcome.rest == "2 h n"  # for the scorer to edit: High is not lost
    assert awards(session) == [("N", "kick", 1)]
    feed(session, ["h n"])
    assert awards(session) == [("N", "kick", 1), ("N", "high", None)]


def test_items_typed_together_are_all_taken() -> None:
    session = results_session()
    feed(session, ["n", "hnls", "j n g s"])
    assert awards(session) == [("N", "high", None), ("N", "jack", None), ("S", "low", None),
                               ("S", "game", None)]


def test_an_item_refused_is_said_and_the_text_after_it_kept() -> None:
    session = results_session()
    feed(session, ["n", "h n"])
    outcome = session.type("h s l s")
    assert not outcome.accepted and outcome.finding is not None
    assert outcome.finding.code == "AFN404"
    assert outcome.rest == "l s"
    assert awards(session) == [("N", "high", None)]


def test_a_beg_before_the_turn_up_is_refused_with_the_reason() -> None:
    session = results_session()
    feed(session, ["n"])
    outcome = session.type("b h n")
    assert not outcome.accepted
    assert "turn-up" in outcome.message and outcome.rest == "h n"


def test_the_screen_puts_back_what_it_did_not_take(tmp_path: Path) -> None:
    path = tmp_path / "stray.afn"
    start_file(path, (*new_tags(rules="trinidad14", players=FOUR, date="2026.12.07"),
                      Tag(name="Entry", value="results")))

    async def scenario() -> None:
        async with recorder(path, players=4, rules="trinidad14") as (screen, _pilot):
            session = screen.session
            assert session is not None
            await send_keys(screen, ["n", "enter"],
                            until=lambda: session.expect().phase is Phase.RESULTS)
            await send_keys(screen, ["k", "1", "2", "h", "n", "enter"],
                            until=lambda: screen.lines_taken >= 3)
            assert screen.entry_line.value == "2hn"  # kept, not thrown away
            assert "a number goes after k" in status(screen)

    asyncio.run(scenario())
    deal = parse(path.read_text(encoding="utf-8")).games[0].deals[0]
    assert deal.results is not None and len(deal.results.awards) == 1


# -- the new keys ----------------------------------------------------------------------------


def test_a_beg_and_a_gift_write_the_calls_and_the_gift_the_rules_give() -> None:
    session = results_session()
    feed(session, ["n", "turn 4s"])
    assert session.expect().due is Phase.CALL and session.expect().actor is not None
    feed(session, ["b"])
    assert session.expect().due is Phase.ANSWER
    outcome = session.type("t")
    assert outcome.accepted and outcome.message == "N gives; S gift"
    feed(session, ["h n", "l s", ""])
    deal = parse(session.text()).games[0].deals[0]
    assert [str(c.kind.value) for c in deal.calls] == ["begs", "gives"]
    assert awards(session) == [("S", "gift", None), ("S", "low", None), ("N", "high", None)]
    assert errors(session) == []
    assert session.undo().accepted and session.undo().accepted  # Enter, then Low
    session.undo()
    session.undo()  # the gift and its items in one step
    assert [type(e).__name__ for e in session.entries][-1] == "Call"


def test_three_players_giving_to_each_opponent_get_two_gift_items() -> None:
    tags = (*new_tags(rules="foster", players={"North": "A", "East": "B", "South": "C"},
                      date="2026.12.07"), Tag(name="Entry", value="results"))
    session = Session(tags)
    feed(session, ["n", "turn 4s", "b", "t"])
    gifts = [e for e in session.entries if type(e).__name__ == "Item"]
    assert len(gifts) == 2


def test_a_stand_is_written_as_the_elders_call() -> None:
    session = results_session("trinidad14", FOUR)
    feed(session, ["n", "turn 4s"])
    elder = session.expect().actor
    assert elder is not None and session.expect().due is Phase.CALL
    feed(session, ["s", "h e", ""])
    deal = parse(session.text()).games[0].deals[0]
    assert [f"{c.seat.letter} {c.kind.value}" for c in deal.calls] == [f"{elder.letter} stands"]
    assert errors(session) == []


def test_a_run_asks_for_its_turn_up_and_the_referee_counts_its_kick() -> None:
    session = results_session()
    feed(session, ["n", "turn 4s", "b", "r"])
    assert session.expect().due is Phase.RUN_TURN
    assert "The run's turn-up: u and its card" in session.expect().text
    outcome = session.type("jd")
    assert outcome.accepted and outcome.message == "turned up JD; N kick"
    feed(session, ["h s", ""])
    assert errors(session) == []
    assert dict(replay(parse(session.text()).games[0]).scores) == {"N": 1, "S": 1}


def test_the_end_of_the_results_is_refused_while_they_are_wrong() -> None:
    session = results_session()
    feed(session, ["n", "turn js"])  # its kick is entered with it
    assert awards(session) == [("N", "kick", None)]
    session.undo()
    feed(session, ["turn 4s", "b", "r"])
    card = parse_card("jd")
    assert card is not None
    # a turn-up typed without its kick (as an older recorder wrote it): Enter is refused
    session._change((*session.entries, TurnUp(card=card)))
    outcome = session.type("")
    assert not outcome.accepted and outcome.finding is not None
    assert outcome.finding.code == "AFN406"
    assert isinstance(session.entries[-2], Call) and session.entries[-2].kind is CallKind.RUNS


@pytest.mark.parametrize(("rules", "players", "tie"), [
    ("hoffmann1909", TWO, [("S", "game", None)]),  # Hoffmann: the elder scores a tie
    ("trinidad14", FOUR, []),  # Trinidad: nobody
])
def test_a_game_tie_differs_from_a_game_forgotten_and_resumes(
        tmp_path: Path, rules: str, players: dict[str, str],
        tie: list[tuple[str, str, int | None]]) -> None:
    path = tmp_path / "tie.afn"
    with RecordFile(path) as record:
        session = results_session(rules, players, record=record)
        session.save()
        feed(session, ["n", "h n", "g ="])
        assert session.type("g s").message.startswith("refused: the Game is written already")
    text = path.read_text(encoding="utf-8")
    assert "{ Game tied }" in text
    deal = parse(text).games[0].deals[0]
    assert deal.results is not None
    assert [(a.seat.letter, a.item.value, a.points) for a in deal.results.awards
            if a.item.value == "game"] == tie
    with RecordFile(path) as record:
        opened = inspect(path, record)
        assert isinstance(opened, Resume)
        again = opened.session
        assert isinstance(again.entries[-1], GameTied)
        assert again.entries == session.entries
        feed(again, ["", "y"])
    assert "{ Game tied }" in path.read_text(encoding="utf-8")
    game = parse(path.read_text(encoding="utf-8")).games[0]
    # (the next deal has begun, empty: AFN314 until that is a note, elsewhere in issue 37)
    assert [d.code for d in check(game).diagnostics if d.is_error] in ([], ["AFN314"])


# -- a claim is the whole deal ---------------------------------------------------------------


def test_a_claim_starts_from_the_scorers_items_and_one_item_is_one_dispute() -> None:
    session = results_session("trinidad14", FOUR)
    feed(session, ["n", "k 3", "h e", "l e", "j n", "g n", ""])
    draft = session.claim_start()
    assert items_text(draft.awards) == "N kick 3 jack game  E high low"
    assert draft.answer() == "y"  # nothing changed: the other side agrees
    claimed = session.claim_edit(draft, "j e")  # EW say they won the Jack
    assert isinstance(claimed, ClaimDraft)
    assert items_text(claimed.awards) == "N kick 3 game  E jack high low"
    assert "(the scorer's: N kick 3 jack game  E high low)" in claimed.prompt()
    feed(session, [claimed.answer()])
    disputes = [d for d in session.disputes() if d.code == "AFN401"]
    assert len(disputes) == 1 and "Jack" in disputes[0].message


def test_editing_a_claim_replaces_the_items_a_deal_has_one_of() -> None:
    n, s = Seat.NORTH, Seat.SOUTH
    scorer = (Award(n, ClaimItem.HIGH), Award(s, ClaimItem.LOW), Award(n, ClaimItem.JACK),
              Award(s, ClaimItem.GIFT))
    draft = ClaimDraft(scorer, scorer, dealer=n, elder=s)

    def edited(words: str) -> str:
        changed = Session.claim_edit(draft, words)
        assert isinstance(changed, ClaimDraft), changed
        return items_text(changed.awards)

    assert edited("h s") == "S high low gift  N jack"
    assert edited("x s") == "N high  S low hangjack gift"  # the one Jack of trumps
    assert edited("k 2") == "N high jack kick 2  S low gift"  # a kick is added, the dealer's
    assert edited("t") == "N high jack  S low gift"  # the elder's gift, in its place
    assert edited("t e") == "N high jack  S low gift  E gift"  # three players: two gifts
    assert edited("l -") == "N high jack  S gift"  # taken out: nobody
    assert edited("j -") == "N high  S low gift"
    assert isinstance(Session.claim_edit(draft, "h q"), str)  # not a seat: asked again
    twice = draft.give(ClaimItem.LOW, n).give(ClaimItem.HIGH, s)
    assert items_text(twice.awards) == "S high gift  N low jack"
    back = twice.back()
    assert back is not None and back.awards == draft.give(ClaimItem.LOW, n).awards
    first = back.back()
    assert first is not None and first.awards == scorer and not first.changed
    assert first.back() is None


def test_the_claim_typed_by_keys_in_the_app_is_one_dispute(tmp_path: Path) -> None:
    path = tmp_path / "claim.afn"
    start_file(path, (*new_tags(players=TWO, date="2026.12.07"),
                      Tag(name="Entry", value="results")))
    keys = ["n", "enter", "h", "n", "l", "s", "j", "n", "g", "s", "enter", "c", "j", "s",
            "enter"]

    async def scenario() -> None:
        async with recorder(path) as (screen, _pilot):
            session = screen.session
            assert session is not None
            await send_keys(screen, keys, until=lambda: session.expect().phase is
                            Phase.RESULTS and len(session.judgement().game.deals) == 2)

    asyncio.run(scenario())
    game = parse(path.read_text(encoding="utf-8")).games[0]
    claim = game.deals[0].claim
    assert claim is not None
    assert sorted((a.seat.letter, a.item.value) for a in claim.awards) == [
        ("N", "high"), ("S", "game"), ("S", "jack"), ("S", "low")]
    assert [d.code for d in check(game).diagnostics if d.code == "AFN401"] == ["AFN401"]


def test_a_penalty_point_takes_the_rules_value_or_the_points_typed() -> None:
    session = results_session()
    feed(session, ["n", "p s", "h n", ""])
    assert awards(session) == [("S", "penalty", None), ("N", "high", None)]
    scores = dict(replay(parse(session.text()).games[0]).scores)
    assert scores == {"N": 1, "S": 1}
    other = results_session()
    feed(other, ["n", "p n 2"])
    assert awards(other) == [("N", "penalty", 2)]


def test_a_game_tie_typed_as_a_correction_is_scored_as_the_rules_score_a_tie() -> None:
    session = results_session()  # Hoffmann: the elder's Game
    feed(session, ["n", "h n", "g n"])
    assert session.correct(2, "g =").accepted
    assert awards(session) == [("N", "high", None), ("S", "game", None)]


def test_a_turn_up_is_typed_after_u_with_or_without_spaces() -> None:
    session = results_session()
    feed(session, ["n", "u4s", "b", "r", "u j d"])
    turned = [e for e in session.entries if isinstance(e, TurnUp)]
    assert [str(t.card) for t in turned] == ["4S", "JD"]
    assert not session.type("u").accepted  # no card: said, not taken


def test_the_new_keys_through_the_screen(tmp_path: Path) -> None:
    path = tmp_path / "keys.afn"
    start_file(path, (*new_tags(players=TWO, date="2026.12.07"),
                      Tag(name="Entry", value="results")))
    keys = ["n", "enter", "u", "4", "s", "enter", "b", "t", "h", "n", "g", "=", "enter", "y"]

    async def scenario() -> None:
        async with recorder(path) as (screen, _pilot):
            session = screen.session
            assert session is not None
            await send_keys(screen, keys, until=lambda: len(session.judgement().game.deals)
                            == 2)

    asyncio.run(scenario())
    text = path.read_text(encoding="utf-8")
    deal = parse(text).games[0].deals[0]
    assert [f"{c.seat.letter} {c.kind.value}" for c in deal.calls] == ["S begs", "N gives"]
    assert deal.results is not None
    assert sorted((a.seat.letter, a.item.value) for a in deal.results.awards) == [
        ("N", "high"), ("S", "game"), ("S", "gift")]
    assert "{ Game tied }" in text
