"""The incremental referee, one event at a time: legal cards, refusals by dry run,
what comes next, undo by snapshot, offences proved by later cards, and slips."""

from __future__ import annotations

from dataclasses import replace

from allfours_notation.cards import Seat, card, cards
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Call, CallKind, Deal, Game, Play
from allfours_notation.referee import GameReplay, replay
from allfours_notation.referee.deal import DealOver, Event, GameOver, Outcome, Phase, Table
from allfours_notation.referee.profiles import resolve_options
from allfours_notation.referee.replay import deal_events

from .helpers import EXAMPLE_A, find, game_of, game_text, items, run


def with_slips(deals: str) -> GameReplay:
    """The replay of a record the parser finds slips in (a card played twice)."""
    return replay(parse(game_text(deals)).games[0])

README_DEAL = EXAMPLE_A + "  claim S high low jack game\n  total N 0 S 4\n"

# No hands written: North's revoke in trick 2 (a club on hearts) is only proved when
# North plays a heart in trick 3.
PLAY_ONLY_REVOKE = """
deal 1 dealer N
  turn 4S
  S stands
  1. S:JS N:2D
  2. S:9H N:8C
  3. S:8H N:2H
  4. S:7C N:9C
  5. N:3H S:6D
  6. N:7D S:5D
"""


def table_for(game: Game) -> Table:
    options, _ = resolve_options(game)
    return Table(game, options, keep_steps=True)


def events_of(game: Game) -> list[Event]:
    found: list[Event] = []
    for deal in game.deals:
        found.extend(deal_events(deal))
    found.append(GameOver())
    return found


def feed_until(table: Table, events: list[Event], count: int) -> list[Outcome]:
    return [table.apply(event) for event in events[:count]]


def opening_of(game: Game) -> list[Event]:
    """The deal header and its opening (hands, turn-up, calls), then the first trick."""
    deal = game.deals[0]
    return [deal, *deal.opening, deal.tricks[0]]


def test_legal_cards_for_the_player_to_move() -> None:
    game = game_of(README_DEAL)
    table = table_for(game)
    for event in opening_of(game):
        table.apply(event)
    assert table.expects().kind is Phase.PLAY and table.expects().seat is Seat.SOUTH
    assert table.legal_cards() == frozenset(cards("JS 9H 8H 7C 6D 5D"))
    table.apply(game.deals[0].tricks[0].plays[0])  # S leads JS: North must trump if he can
    assert table.expects().seat is Seat.NORTH
    assert table.legal_cards() == frozenset(cards("9C 8C 7D 3H 2H 2D"))  # no spade: any card
    second = game.deals[0].tricks[1]
    table.apply(game.deals[0].tricks[0].plays[1])
    table.apply(second)
    table.apply(second.plays[0])  # S leads 9H: North holds hearts and must follow
    assert table.legal_cards() == frozenset(cards("3H 2H"))


def test_legal_cards_unknown_while_a_hand_is_unseen() -> None:
    game = game_of(PLAY_ONLY_REVOKE)
    table = table_for(game)
    for event in opening_of(game):
        table.apply(event)
    assert table.expects().seat is Seat.SOUTH
    assert table.legal_cards() is None


def test_dry_run_refuses_with_the_reason_and_changes_nothing() -> None:
    game = game_of(README_DEAL)
    table = table_for(game)
    for event in opening_of(game):
        table.apply(event)
    before = (table.state, len(table.diagnostics), len(table.steps))
    not_held = table.check(Play(card=card("9C"), seat=Seat.SOUTH))
    assert [d.code for d in not_held] == ["AFN301"]
    assert "dealt to N" in not_held[0].message
    out_of_turn = table.check(Play(card=card("9C"), seat=Seat.NORTH))
    assert [d.code for d in out_of_turn] == ["AFN303"]
    wrong_call = table.check(Call(seat=Seat.NORTH, kind=CallKind.BEGS))
    assert {d.code for d in wrong_call} == {"AFN308"}
    assert (table.state, len(table.diagnostics), len(table.steps)) == before
    assert table.check(Play(card=card("JS"), seat=Seat.SOUTH)) == ()


def test_a_card_already_played_is_the_structure_checks_to_report() -> None:
    # one rule, one place: AFN201 comes from structure.py; the table neither reports
    # it again nor offers the card, and takes it as a slip (no evidence, no capture)
    game = game_of(README_DEAL)
    table = table_for(game)
    deal = game.deals[0]
    for event in [deal, *deal.opening, deal.tricks[0], *deal.tricks[0].plays, deal.tricks[1]]:
        table.apply(event)
    legal = table.legal_cards()
    assert legal is not None and card("JS") not in legal
    assert table.check(Play(card=card("JS"), seat=Seat.SOUTH)) == ()
    twice = parse(game_text(README_DEAL.replace("2. S:9H", "2. S:JS", 1)))
    found = [d for d in twice.diagnostics if d.code == "AFN201"]
    assert [d.message for d in found] == ["JS is played twice (first in trick 1)"]


def test_expects_walks_through_a_deal_and_names_the_next_dealer() -> None:
    game = game_of(README_DEAL + "\ndeal 2 dealer S\n  turn 5H\n")
    table = table_for(game)
    assert table.expects().kind is Phase.DEAL
    deal = game.deals[0]
    table.apply(deal)
    assert (table.expects().kind, table.expects().seat) == (Phase.TURN_UP, Seat.NORTH)
    for event in deal.opening:
        table.apply(event)
    assert (table.expects().kind, table.expects().seat) == (Phase.PLAY, Seat.SOUTH)
    for trick in deal.tricks:
        table.apply(trick)
        for play in trick.plays:
            table.apply(play)
    assert table.expects().kind is Phase.CLAIM
    assert table.next_dealer is Seat.SOUTH
    table.apply(DealOver())
    assert (table.expects().kind, table.expects().seat) == (Phase.DEAL, Seat.SOUTH)
    assert table.scores == {"N": 0, "S": 4}


def test_call_expectations_beg_then_answer() -> None:
    game = game_of("deal 1 dealer N\n  turn 4S\n  S begs\n  N gives\n")
    table = table_for(game)
    deal = game.deals[0]
    table.apply(deal)
    table.apply(deal.opening[0])
    assert (table.expects().kind, table.expects().seat) == (Phase.CALL, Seat.SOUTH)
    table.apply(deal.opening[1])
    assert (table.expects().kind, table.expects().seat) == (Phase.ANSWER, Seat.NORTH)
    outcome = table.apply(deal.opening[2])
    assert [s.kind.value for s in outcome.steps] == ["call", "award"]  # the gift scores
    assert table.scores["S"] == 1


def test_undo_is_going_back_to_a_snapshot() -> None:
    game = game_of(README_DEAL)
    table = table_for(game)
    for event in opening_of(game):
        table.apply(event)
    saved = table.snapshot()
    state = table.state
    table.apply(Play(card=card("9H"), seat=Seat.SOUTH))
    table.apply(Play(card=card("3H"), seat=Seat.NORTH))
    assert table.state != state
    table = saved
    assert table.state == state
    assert table.legal_cards() == frozenset(cards("JS 9H 8H 7C 6D 5D"))
    # the snapshot is independent: playing on it leaves a second snapshot untouched
    again = table.snapshot()
    table.apply(Play(card=card("JS"), seat=Seat.SOUTH))
    assert again.state == state and table.state != state


def test_a_revoke_proved_later_is_reported_with_the_proof_at_the_revoke() -> None:
    game = game_of(PLAY_ONLY_REVOKE)
    table = table_for(game)
    outcomes = [(event, table.apply(event)) for event in events_of(game)]
    revoke_at = next(i for i, (e, _) in enumerate(outcomes)
                     if isinstance(e, Play) and e.card == card("8C"))
    assert outcomes[revoke_at][1].diagnostics == ()  # nothing proves it yet
    proving = [(e, o) for e, o in outcomes if any(d.code == "AFN306" for d in o.diagnostics)]
    assert len(proving) == 1
    event, outcome = proving[0]
    assert isinstance(event, Play) and event.card == card("2H")  # N's next heart
    [revoke] = [d for d in outcome.diagnostics if d.code == "AFN306"]
    written = outcomes[revoke_at][0]
    assert isinstance(written, Play) and written.span is not None
    assert (revoke.line, revoke.column, revoke.trick) == (written.span.line,
                                                          written.span.column, 2)
    assert "held 2H (proved when N plays it in trick 3)" in revoke.message
    # and the replay shows it at the revoking card's step
    result = replay(game)
    step = next(s for s in result.steps if s.text == "N plays 8C")
    assert revoke in step.diagnostics


def test_a_card_played_twice_is_a_slip_not_evidence_nor_a_second_capture() -> None:
    # South writes JS again in trick 4 by mistake: the trick that first took it keeps
    # it (Jack to South in trick 1), and its pips count once.
    result = with_slips("""
deal 1 dealer N
  S JS 9H 8H 7C 6D 5D
  N 9C 8C 7D 3H 2H 2D
  turn 4S
  S stands
  1. S:JS N:2D
  2. S:9H N:3H
  3. S:8H N:2H
  4. S:JS N:8C
  5. S:7C N:9C
  6. N:7D S:6D
""")
    assert [d.code for d in result.diagnostics if d.code.startswith("AFN3")] == []
    jack = [p for p in result.deals[0].points if p.item.value == "jack"]
    assert [p.reason for p in jack] == ["S won JS in trick 1"]
    game_point = next(p for p in result.deals[0].points if p.item.value == "game")
    assert "S 1)" in game_point.reason  # the Jack's one pip, counted once


def test_a_card_not_held_is_no_proof_of_a_revoke() -> None:
    # South writes N's 3H as his own in trick 2 (a slip: AFN301).  North still "holds"
    # 3H on paper, but it is on the table: his 8C on hearts later is no revoke by it.
    result = with_slips("""
deal 1 dealer N
  S JS 9H 8H 7C 6D 5D
  N 9C 8C 7D 3H 2C 2D
  turn 4S
  S stands
  1. S:JS N:2D
  2. N:9C S:3H
  3. N:7D S:6D
  4. N:2C S:7C
  5. S:8H N:8C
  6. S:9H N:3H
""")
    assert find(result, "AFN301")
    assert not find(result, "AFN306")
    assert all(p.item.value != "penalty" for p in result.deals[0].points)


REVOKE_PROVED_LATER = """
deal 1 dealer N
  S JS 9H 8H 7C 6D 5D
  N 9C 8C 7D 3H 2H 2D
  turn 4S
  S stands
  1. S:JS N:2D
  2. S:9H N:8C
  3. S:8H N:2H
  4. S:7C N:9C
  5. N:3H S:5D
  6. S:6D N:7D
"""


def test_recorded_proof_named_by_the_first_proving_card_of_the_hand() -> None:
    """Not by the one played soonest (2H): a recorder judging the deal at the revoke,
    before 2H is played, names the same card (issue 22)."""
    result = run(REVOKE_PROVED_LATER)
    [revoke] = find(result, "AFN306")
    assert "held 3H (hand as dealt)" in revoke.message  # 3H comes first in N's hand
    assert ("penalty", "S", 1) in items(result)


def test_the_recorder_and_check_name_the_same_proof_card() -> None:
    from allfours_notation.checking import check
    from allfours_notation.recording.referee import Judge

    game = game_of(REVOKE_PROVED_LATER)
    whole = [d for d in check(game).diagnostics if d.code == "AFN306"]
    deal = game.deals[0]
    at_the_revoke = replace(game, deals=(replace(deal, tricks=deal.tricks[:2]),))
    judged = Judge(resolve_options(game)[0]).judge(at_the_revoke)
    named = [d for d in judged.probed if d.code == "AFN306"]
    assert [d.message for d in named] == [d.message for d in whole]
    assert "held 3H" in named[0].message


def test_events_one_by_one_give_the_replay() -> None:
    game = game_of(PLAY_ONLY_REVOKE)
    table = table_for(game)
    seen = [d for event in events_of(game) for d in table.apply(event).diagnostics]
    result = replay(game)
    rules = [d for d in result.diagnostics if not d.code.startswith("AFN4")]
    assert sorted(map(repr, seen)) == sorted(map(repr, rules))
    assert tuple(table.scores.items()) == result.scores


def test_an_event_before_any_deal_is_reported_not_raised() -> None:
    game = game_of(README_DEAL)
    table = table_for(game)
    outcome = table.apply(Play(card=card("JS"), seat=Seat.SOUTH))
    assert [d.code for d in outcome.diagnostics] == ["AFN206"]
    assert outcome.state is None


def test_the_deal_header_alone_starts_a_deal() -> None:
    game = game_of(README_DEAL)
    table = table_for(game)
    outcome = table.apply(Deal(number=1, dealer=Seat.NORTH))
    assert outcome.diagnostics == () and outcome.state is not None
    assert outcome.state.dealer is Seat.NORTH and outcome.state.elder is Seat.SOUTH
