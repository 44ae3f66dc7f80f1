"""The recording session: whole games entry by entry, refusals, confirmation, undo, correction."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import pytest

from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import CallKind, ClaimItem, Concede, Play, Redeal
from allfours_notation.recording.entries import Phase
from allfours_notation.recording.opening import new_tags
from allfours_notation.recording.referee import Judge
from allfours_notation.recording.script import lines_of_game
from allfours_notation.recording.session import Session, build_game
from allfours_notation.recording.storage import RecordFile
from allfours_notation.referee.profiles import PROFILES
from allfours_notation.referee.replay import check_game
from tests.recording.helpers import (
    REVOKE_LINES,
    TWO_TAGS,
    feed,
    file_problems,
    generated,
    same_records,
    start_file,
)

HANDS = ["n", "s js 9h 8h 7c 6d 5d", "n 9c 8c 7d 3h 2h 2d", "4s", "s"]


def two() -> Session:
    return Session(TWO_TAGS)


@pytest.mark.parametrize("profile", list(PROFILES))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_generated_game_recorded_entry_by_entry_equals_the_generator_s(
        profile: str, players: int) -> None:
    game = generated(profile, players, seed=players * 7 + len(profile), target=7, hands=0.5,
                     beg=0.6, comments=0.1, glyphs=0.05)
    session = Session(game.tags)
    feed(session, lines_of_game(game))
    assert session.over
    recorded = session.game()
    assert same_records(recorded, game)
    assert [d for d in check_game(recorded) if d.is_error] == []
    assert recorded.tag("Result") == game.tag("Result") != "*"


def test_the_games_above_cover_begs_gifts_runs_and_an_exhausted_pack() -> None:
    game = generated("trinidad14", 4, seed=22, beg=0.9, gift=0.3, hands=1.0)
    kinds = [call.kind for deal in game.deals for call in deal.calls]
    assert {CallKind.BEGS, CallKind.GIVES, CallKind.RUNS} <= set(kinds)
    assert any(isinstance(deal.ending, Redeal) for deal in game.deals)
    session = Session(game.tags)
    feed(session, lines_of_game(game))
    assert same_records(session.game(), game)


def test_the_file_on_disk_is_valid_after_every_entry(tmp_path: Path) -> None:
    path = tmp_path / "game.afn"
    game = generated("hoffmann1909", 2, seed=3, hands=0.5, beg=0.6)
    start_file(path, game.tags)
    with RecordFile(path) as record:
        session = Session(game.tags, record=record)
        for line in lines_of_game(game):
            feed(session, [line])
            assert file_problems(path) == [], line
    written = parse(path.read_text(encoding="utf-8")).games
    assert len(written) == 1 and same_records(written[0], game)


@pytest.mark.parametrize(("line", "reason"), [
    ("2d", "refused: S plays 2D, but 2D was dealt to N"),
    ("n:2d", "refused: N leads trick 1, but S should lead (the elder hand leads the first "
     "trick)"),
])
def test_a_card_not_held_or_out_of_turn_is_refused_with_the_reason(line: str,
                                                                   reason: str) -> None:
    session = two()
    feed(session, HANDS)
    outcome = session.type(line)
    assert not outcome.accepted and outcome.message == reason
    assert len(session.entries) == len(HANDS)


def test_a_card_already_played_is_refused() -> None:
    session = two()
    feed(session, [*HANDS, "js", "2d"])
    outcome = session.type("js")
    assert not outcome.accepted
    assert outcome.message == "refused: JS is played twice (first in trick 1)"


def test_a_wrong_call_is_refused() -> None:
    session = two()
    feed(session, ["n", "4s"])
    stand = session.type("n stands")
    assert stand.message == "refused: N stands, but only the elder hand (S) stands or begs"
    give = session.type("n gives")
    assert give.message == "refused: N gives, but nobody has begged"
    assert session.expect().phase is Phase.CALL


def test_an_entry_out_of_place_is_refused_with_what_comes_next() -> None:
    session = two()
    assert session.type("js").message.startswith("who deals")
    feed(session, ["n"])
    assert session.type("b").message.startswith("'b': type the turned card")
    assert session.type("claim n high").message == \
        "not now: N deals: the turn-up (hands first if known: 'S js 9h …')"


def test_a_revoke_is_recorded_once_confirmed_and_penalised() -> None:
    session = two()
    feed(session, [*HANDS[:-1], "s", "7c", "8c", "3h"])
    outcome = session.type("5d")
    assert outcome.confirm and not outcome.accepted
    assert outcome.message.startswith("revoke: S plays 5D on hearts led")
    assert outcome.message.endswith("Record it? (y/n)")
    confirmed = session.confirm()
    assert confirmed.accepted
    assert isinstance(session.entries[-1], Play)
    while session.expect().phase is Phase.PLAY:
        expecting = session.expect()
        assert session.type(str(expecting.offered[0])).accepted
    points = session.judgement().replayed.deals[0].points
    assert any(point.item is ClaimItem.PENALTY for point in points)


def test_undo_back_to_the_start_and_redo_it_all(tmp_path: Path) -> None:
    path = tmp_path / "undo.afn"
    start_file(path)
    header = path.read_text(encoding="utf-8")
    with RecordFile(path) as record:
        session = Session(TWO_TAGS, record=record)
        feed(session, [*HANDS, "js", "2d", "9h", "3h"])
        full, text = session.entries, path.read_text(encoding="utf-8")
        count = 0
        while session.undo().accepted:
            count += 1
        assert count == len(full) and session.entries == ()
        assert path.read_text(encoding="utf-8") == header
        while session.redo().accepted:
            pass
        assert session.entries == full and path.read_text(encoding="utf-8") == text


def test_a_new_entry_after_undo_drops_the_redo() -> None:
    session = two()
    feed(session, ["n", "4s"])
    session.undo()
    feed(session, ["5h"])
    assert not session.redo().accepted


def test_correcting_an_early_trick_revalidates_the_later_ones() -> None:
    session = two()
    feed(session, [*HANDS, "js", "2d", "9h", "3h", "8h", "2h"])
    north_first = len(HANDS) + 1  # N:2D in trick 1
    fine = session.correct(north_first, "7d")
    assert fine.accepted and session.flags == {}, fine.message
    assert fine.message == f"entry {north_first + 1} corrected; every later entry still stands"
    # Now N plays 3H in trick 1: the 3H N plays in trick 2 is a card played twice.
    broken = session.correct(north_first, "3h")
    assert broken.accepted
    assert broken.message == f"entry {north_first + 1} corrected; 1 later entry is now invalid"
    assert list(session.flags) == [north_first + 2]
    assert "3H is played twice" in session.flags[north_first + 2]
    assert len(session.entries) == len(HANDS) + 6  # kept, not dropped


def same_as_a_fresh_judge(session: Session) -> bool:
    """Whether the session's judgement (its judge goes on from the replays it made
    before) is what a new judge says of the same entries, replaying the deal whole."""
    kept = session.judgement()
    fresh = Judge(session.options).judge(build_game(session.tags, session.entries,
                                                    session.index))
    return (kept.answers, kept.closing, kept.structure, kept.finished, kept.diagnostics,
            kept.probed, kept.unfinished, kept.expects, kept.offered, kept.table,
            kept.replayed.deals, kept.so_far.deals) == \
        (fresh.answers, fresh.closing, fresh.structure, fresh.finished, fresh.diagnostics,
         fresh.probed, fresh.unfinished, fresh.expects, fresh.offered, fresh.table,
         fresh.replayed.deals, fresh.so_far.deals)


def test_each_judgement_is_what_a_fresh_replay_of_the_deal_says() -> None:
    """The judge feeds only the events an entry adds to the deal it replayed last: after
    entries, a refusal, a glyph and a comment, a confirmed revoke, a penalty (written
    after the plays, so a card after it is no longer the last event), a correction, an
    insertion and a deletion refused, undo and redo, every judgement is a whole
    replay's, and the text the same as a new session's of the same entries."""
    session = two()
    steps: list[Callable[[], object]] = [
        *(functools.partial(feed, session, [line]) for line in REVOKE_LINES[:6]),
        functools.partial(session.type, "9h"),  # refused: S holds it
        functools.partial(feed, session, ["2d", "!!", "{ quick }", "7c", "8c", "3h"]),
        functools.partial(feed, session, ["5d"]),  # S revokes, confirmed
        functools.partial(feed, session, ["penalty s revoke", "2h"]),
        functools.partial(session.correct, len(HANDS) + 1, "7d"),
        functools.partial(session.insert, len(HANDS) + 4, "2h"),
        functools.partial(session.delete, len(HANDS) + 4),
        session.undo, session.undo, session.redo,
        functools.partial(feed, session, ["9h"]),
    ]
    for step in steps:
        step()
        assert same_as_a_fresh_judge(session), step
        # the deals kept from one entry to the next (built, scored) are a new session's
        assert session.text() == Session(TWO_TAGS, entries=session.entries).text(), step


def test_a_correction_is_judged_like_a_new_entry() -> None:
    session = two()
    feed(session, [*HANDS, "js", "2d"])
    outcome = session.correct(len(HANDS), "2h")
    assert not outcome.accepted and "dealt to N" in outcome.message


def test_a_claim_the_players_made_is_kept_with_what_the_rules_give() -> None:
    session = two()
    feed(session, [*HANDS, "js", "2d", "9h", "3h", "8h", "2h", "7c", "8c", "9c", "5d", "7d",
                   "6d"])
    assert session.expect().phase is Phase.CONFIRM  # the other side is asked
    outcome = session.type("claim s high jack game n low")
    assert outcome.accepted
    deal = session.game().deals[0]
    assert deal.claim is not None and deal.claim.trailing
    assert "computed: S high low jack game" in deal.claim.trailing[0].text
    assert [d.code for d in session.disputes()] == ["AFN401"]


def test_a_concession_ends_the_game_for_the_other_side() -> None:
    session = two()
    feed(session, ["n", "4s", "s", "js", "2d", "n concedes"])
    assert session.over
    assert isinstance(session.game().deals[0].ending, Concede)
    assert session.game().tag("Result") == "S"


def test_an_abandoned_game_stays_unfinished() -> None:
    session = two()
    feed(session, ["n", "4s", "abandoned"])
    assert session.over and session.game().tag("Result") == "*"


def test_comments_and_glyphs_go_on_the_entry_just_made() -> None:
    session = two()
    feed(session, ["n", "{ rain coming }", "4s", "s", "js", "!!", "; bold"])
    deal = session.game().deals[0]
    assert deal.trailing[0].text == " rain coming "
    play = deal.tricks[0].plays[0]
    assert play.glyph is not None and play.glyph.value == "!!"
    assert play.trailing[0].text == " bold"


def test_the_screen_is_told_who_acts_and_the_legal_cards() -> None:
    session = two()
    feed(session, [*HANDS, "9h"])
    expecting = session.expect()
    assert expecting.actor is not None and expecting.actor.letter == "N"
    assert [str(c) for c in expecting.offered] == ["3H", "2H"]  # N must follow hearts
    assert expecting.text == "N to play to trick 1"


def test_three_players_offer_the_rotation_of_the_deal() -> None:
    tags = new_tags(event="e", site="s", players={"North": "A", "East": "B", "South": "C"})
    session = Session(tags)
    game = generated("hoffmann1909", 3, seed=5)
    first = lines_of_game(game)
    feed(session, first[:1])
    assert session.expect().phase is Phase.TURN
