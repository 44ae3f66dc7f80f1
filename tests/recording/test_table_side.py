"""Table-side faults of issue 25: undo across a resume, the one-key y/n question, the
form seating the profile's table, the first run named run 1, help only for ``?`` alone."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual import events
from textual.widgets._footer import FooterKey

from allfours_notation.cards import Card, Rank, Seat, Suit
from allfours_notation.checking.parsing import parse
from allfours_notation.reading.records import Hand, Play
from allfours_notation.recording.entries import Phase
from allfours_notation.recording.opening import Resume, inspect
from allfours_notation.recording.referee import findings, is_unfinished
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from allfours_notation.viewer.recorder.widgets import EntryList
from tests.recording.app_helpers import (
    keys,
    recorder,
    rows_made_again,
    send_keys,
    shown,
    status,
    type_line,
)
from tests.recording.helpers import REVOKE_LINES, TWO_TAGS, feed, file_problems, start_file
from tests.waiting import until

LINES = ["n", "4s", "s", "js", "2d", "9h", "3h"]


def resumed(path: Path, record: RecordFile) -> Session:
    opened = inspect(path, record)
    assert isinstance(opened, Resume)
    return opened.session


def test_undo_after_a_resume_goes_back_to_the_start_and_forward_again(tmp_path: Path) -> None:
    path = tmp_path / "undo.afn"
    with RecordFile(path) as record:
        feed(Session(TWO_TAGS, record=record), LINES)
    recorded = path.read_text(encoding="utf-8")
    with RecordFile(path) as record:
        session = resumed(path, record)  # a new session: no history of its own
        assert len(session.entries) == len(LINES)
        for left in range(len(LINES) - 1, -1, -1):
            assert session.undo().accepted
            assert len(session.entries) == left
            assert len(parse(path.read_text(encoding="utf-8")).games[0].deals) == \
                (1 if left > 1 else 0)  # the file follows (a deal of a dealer alone: unwritten)
        assert not session.undo().accepted  # the start of the game
        for _ in LINES:
            assert session.redo().accepted
    assert path.read_text(encoding="utf-8") == recorded


def test_the_y_n_question_takes_one_key_and_a_card_is_not_an_answer(tmp_path: Path) -> None:
    path = tmp_path / "revoke.afn"
    start_file(path)

    async def scenario() -> None:
        async with recorder(path) as (screen, pilot):
            for line in [*REVOKE_LINES[:5], "7c", "8c", "3h", "5d"]:  # S revokes
                await type_line(pilot, line)
            assert "Record it? (y/n)" in status(screen)
            session = screen.session
            assert session is not None
            entries = len(session.entries)
            taken = screen.lines_taken
            await send_keys(screen, ["8", "s"], until=lambda: "question stands" in
                            status(screen))
            assert screen.confirming and len(session.entries) == entries  # asked again
            await send_keys(screen, ["y"], until=lambda: screen.lines_taken > taken)
            assert not screen.confirming
            assert len(session.entries) == entries + 1  # the revoke, recorded by one key
            assert isinstance(session.entries[-1], Play)
            assert session.entries[-1].card.rank.value == 5  # the 5D, nothing else taken

    asyncio.run(scenario())


def test_the_form_seats_four_for_trinidad14(tmp_path: Path) -> None:
    path = tmp_path / "four.afn"

    async def scenario() -> None:
        async with recorder(path, size=(80, 24)) as (screen, pilot):
            # typed in one go, as fast as keys come: the rules seat four players, the
            # mode is chosen (r: results), and every name lands in its own field
            # (issue 37: 'Di' of the Site landed in the Event, the names after the rules
            # were lost while the form was rebuilt for four)
            for key in [*keys("Club night"), "enter", *keys("Diego Martin"), "enter",
                        "enter", *"trinidad14", "enter", *"Ann", "enter", *"Cal", "enter",
                        *"Ben", "enter", *"Dee", "enter", "r", "enter"]:
                screen.app.post_message(events.Key(key, " " if key == "space" else
                                                   "\r" if key == "enter" else key))
            form = screen.app.screen
            await until(pilot, lambda: form.focused is not None and
                        form.focused.id == "field-Score", "the last field reached")
            ids = [widget.id for widget in form.query("FormField") if widget.display]
            assert "field-East" in ids and "field-West" in ids
            await pilot.press("enter")
            await until(pilot, lambda: screen.session is not None, "the game started")
            assert screen.session is not None
            assert len(screen.session.seats) == 4 and screen.session.results_mode

    asyncio.run(scenario())
    text = path.read_text(encoding="utf-8")
    assert '[Event "Club night"]' in text and '[Site "Diego Martin"]' in text
    assert '[North "Ann"]' in text and '[East "Cal"]' in text and '[South "Ben"]' in text
    assert '[West "Dee"]' in text and '[Entry "results"]' in text


def test_the_form_offers_the_mode_as_a_choice(tmp_path: Path) -> None:
    """Cards or results is chosen (c, r, ←/→), not typed over 'cards'."""
    from textual.widgets import RadioSet

    path = tmp_path / "two.afn"

    async def scenario() -> None:
        async with recorder(path) as (screen, pilot):
            form = screen.app.screen
            await pilot.press(*["enter"] * 6)  # Event … South: to the mode
            choice = form.query_one("#field-Entry", RadioSet)
            await until(pilot, lambda: form.focused is choice, "the mode reached")
            await pilot.press("right")
            await until(pilot, lambda: choice.pressed_button is not None and
                        str(choice.pressed_button.label) == "results", "results chosen")
            await pilot.press("c")
            await until(pilot, lambda: choice.pressed_button is not None and
                        str(choice.pressed_button.label) == "cards", "cards chosen")
            await pilot.press("enter", "enter")
            await until(pilot, lambda: screen.session is not None, "the game started")
            assert screen.session is not None and not screen.session.results_mode
            assert "type N or S" in shown(screen, "#rec-expect")  # two seats: N or S

    asyncio.run(scenario())


def test_the_first_run_is_run_1() -> None:
    session = Session(TWO_TAGS)
    feed(session, ["n", "4s", "b", "r"])
    expecting = session.expect()
    assert expecting.phase is Phase.RUN_TURN and expecting.text.startswith("run 1:")


def test_glyphs_are_recorded_and_only_a_lone_question_mark_asks_for_help(
        tmp_path: Path) -> None:
    path = tmp_path / "glyphs.afn"
    start_file(path)

    async def scenario() -> None:
        async with recorder(path) as (screen, pilot):
            for line in ["n", "4s", "s", "js", "??"]:
                await type_line(pilot, line)
            assert "noted on" in status(screen)
            assert "Help" not in type(screen.app.screen).__name__
            await type_line(pilot, "?")
            await pilot.pause()
            assert type(screen.app.screen).__name__ == "RecorderHelp"
            assert shown(screen, "#rec-expect")

    asyncio.run(scenario())
    deal = parse(path.read_text(encoding="utf-8")).games[0].deals[0]
    assert deal.tricks[0].plays[0].glyph is not None and deal.tricks[0].plays[0].glyph.value \
        == "??"


def test_undoing_a_correction_leaves_no_stale_marks() -> None:
    session = Session(TWO_TAGS)
    feed(session, LINES)
    assert session.correct(3, "9h").accepted  # js → 9h: the later cards no longer stand
    assert session.flags
    assert session.undo().accepted
    assert session.flags == {}


def test_the_completed_trick_stays_until_the_next_card_and_enter_plays_a_last_card(
        tmp_path: Path) -> None:
    """One recorder, one deal: the completed trick stays on the table until the next card;
    later, Enter alone plays the last card of a known hand, and only that."""
    path = tmp_path / "last.afn"
    start_file(path)
    later = ["3h", "8h", "2h", "7c", "9c", "8c"]  # N wins trick 4, leads 8c

    async def scenario() -> None:
        async with recorder(path) as (screen, pilot):
            for line in REVOKE_LINES[:6]:  # S leads JS
                await type_line(pilot, line)
            table = shown(screen, "#rec-table")
            assert "S:J♠" in table and "won by" not in table
            await type_line(pilot, "2d")  # N follows: the trick is complete
            table = shown(screen, "#rec-table")
            assert "S:J♠" in table and "N:2♦" in table, table
            assert "won by S" in table, table
            await type_line(pilot, "9h")  # the next card clears it
            table = shown(screen, "#rec-table")
            assert "J♠" not in table and "won by" not in table, table
            assert "9♥" in table, table
            for line in later:
                await type_line(pilot, line)
            session = screen.session
            assert session is not None
            assert "Enter plays it" not in shown(screen, "#rec-offered")
            await type_line(pilot, "")  # S holds 6d 5d: no card is chosen for the scorer
            assert "which card?" in status(screen)
            await type_line(pilot, "6d")
            assert "Enter plays it" in shown(screen, "#rec-offered")  # N holds 7d alone
            await type_line(pilot, "")
            last = session.entries[-1]
            assert isinstance(last, Play) and str(last.card).lower() == "7d", last
            await type_line(pilot, "")  # and S's 5d
            last = session.entries[-1]
            assert isinstance(last, Play) and str(last.card).lower() == "5d", last
            assert session.expect().phase is not Phase.PLAY  # the deal is played out

    asyncio.run(scenario())


def test_enter_on_the_proposed_dealer_gives_no_numbering_warning() -> None:
    session = Session(TWO_TAGS)
    deal = [*REVOKE_LINES[:5], "js", "2d", "9h", "3h", "8h", "2h", "7c", "9c", "8c", "6d",
            "7d", "5d", "y"]  # a whole deal, agreed by the other side
    feed(session, deal)
    expecting = session.expect()
    assert expecting.phase is Phase.DEALER and expecting.default is not None
    outcome = session.type("")  # Enter: the proposed dealer deals deal 2
    assert outcome.accepted and outcome.finding is None, outcome
    assert "numbered" not in outcome.message
    assert session.expect().phase is Phase.TURN  # deal 2 is under way
    assert all("numbered" not in d.message for d in session.judgement().diagnostics)


def test_a_hand_typed_after_play_has_begun_is_refused_in_words() -> None:
    session = Session(TWO_TAGS)
    feed(session, [*REVOKE_LINES[:5], "js"])  # trick 1 under way
    for line in ["n 9c 8c 7d 3h 2h 2d", "N: 9c 8c 7d"]:
        outcome = session.type(line)
        assert not outcome.accepted
        assert "play has begun" in outcome.message and "not a card" not in outcome.message, \
            outcome.message
    assert "not a card" in session.type("zz").message  # a mistyped card is still named so
    assert len(session.entries) == 6


def test_a_partial_hand_before_play_is_refused_saying_how_to_complete_it() -> None:
    session = Session(TWO_TAGS)
    feed(session, ["n"])
    outcome = session.type("s js 9h 8h")
    assert not outcome.accepted and "3 cards" in outcome.message and "??" in outcome.message, \
        outcome.message
    assert len(session.entries) == 1
    feed(session, ["s js 9h 8h ?? ?? ??"])  # completed with cards not known: taken
    assert len(session.entries) == 2


def test_a_partial_hand_after_the_turn_up_is_refused_saying_what_to_type() -> None:
    session = Session(TWO_TAGS)
    feed(session, ["n", "4s"])  # turned up: a hand as dealt may still come, whole
    for line in ["s js 9h", "s js 9h 8h 7c 6d 5d 4d"]:
        outcome = session.type(line)
        assert not outcome.accepted, line
        assert "a hand is dealt 6" in outcome.message and "S js 9h ?? ?? ?? ??" in \
            outcome.message and "play has begun" not in outcome.message, outcome.message
    feed(session, ["s", "s js 9h 8h 7c ?? ??"])  # after the stand, before the first card
    assert isinstance(session.entries[-1], Hand)
    outcome = session.type("n 9c 8c")
    assert not outcome.accepted and "N's hand has 2 cards" in outcome.message, outcome.message
    feed(session, ["n 9c 8c 7d 3h 2h 2d", "js"])
    assert "1. S:JS" in session.text() and "S JS 9H 8H 7C ?? ??" in session.text()
    assert "play has begun" in session.type("n 9c 8c 7d 3h 2h 2d").message



def test_an_entry_is_judged_by_the_tables_answer_to_its_event() -> None:
    """The refusal is the table's answer to the card itself (Table.apply), not a
    difference between two whole lists (issue 22)."""
    session = Session(TWO_TAGS)
    feed(session, REVOKE_LINES[:5])
    card = Play(card=Card(Suit.DIAMONDS, Rank.TWO), seat=Seat.SOUTH)  # dealt to N
    after = session.judgement((*session.entries, card))
    answer = after.answers[-1]
    assert answer.event is card
    said = findings(session.judgement(), after)
    assert [d.code for d in answer.diagnostics] == ["AFN301"]
    assert said[0] == answer.diagnostics[0] and "dealt to N" in said[0].message
    # the rest only say the deal is not finished (the close's answer, the structure's)
    assert all(is_unfinished(d, after.unfinished) for d in said[1:])
    outcome = session.add(card)
    assert not outcome.accepted and outcome.message == f"refused: {said[0].message}"
    assert len(session.entries) == 5


def test_insert_a_card_left_out_and_delete_an_extra_one_in_a_correction(
        tmp_path: Path) -> None:
    """Ctrl+E, i: a card left out goes in before the entry chosen and the later cards
    follow the turn again; d deletes an extra entry; an insertion that would make a later
    entry illegal is refused in words; the file checks clean and undo still works."""
    path = tmp_path / "insert.afn"
    start_file(path)

    async def scenario() -> None:
        async with recorder(path) as (screen, pilot):
            # N's 2D of trick 1 left out: 9H went to N, 3H to S, 8H to N
            for line in ["n", "4s", "s", "js", "9h", "3h", "8h"]:
                await type_line(pilot, line)
            session = screen.session
            assert session is not None
            await pilot.press("ctrl+e", "up", "up", "i")  # before entry 5 (9H)
            assert "Inserting before entry 5" in shown(screen, "#rec-expect")
            await type_line(pilot, "3h")  # 3H comes later: refused, nothing changes
            assert status(screen).startswith("refused: entry 6 (S plays 3H) would then be "
                                             "invalid: 3H is played twice"), status(screen)
            assert len(session.entries) == 7
            await pilot.press("ctrl+e", "up", "up", "i")
            await type_line(pilot, "2d")
            assert status(screen).startswith("inserted before entry 5: N plays 2D")
            assert "1. S:JS N:2D\n  2. S:9H N:3H\n  3. S:8H" in path.read_text("utf-8")
            assert "2. S plays 9H" in screen.query_one(EntryList).rows[5].plain
            await type_line(pilot, "5c")  # an extra card, typed by mistake
            await pilot.press("ctrl+e", "d")  # the cursor stands on the last entry
            assert status(screen).startswith("deleted entry 9: N plays 5C"), status(screen)
            assert len(session.entries) == 8 and "5C" not in path.read_text("utf-8")
            assert file_problems(path) == []
            await pilot.press("ctrl+z")  # the deletion undone
            assert "N:5C" in path.read_text("utf-8")

    asyncio.run(scenario())
    assert file_problems(path) == []


def test_the_entries_list_numbers_the_tricks_a_penalty_is_written_where_typed_then_ctrl_q(
        tmp_path: Path) -> None:
    """One recorder for the three, from the same seven lines: the entries list numbers
    the tricks; a penalty typed after trick 2 is written there and its value shown; then
    Ctrl+Q shows in the footer among its first two keys (it fits at 80 columns) and
    quits."""
    path = tmp_path / "penalty.afn"
    start_file(path)

    async def scenario() -> None:
        async with recorder(path) as (screen, pilot):
            for line in LINES:
                await type_line(pilot, line)
            rows = [row.plain for row in screen.query_one(EntryList).rows]
            assert rows[-1].endswith("2. N plays 3H") and rows[-4].endswith("1. S plays JS")
            await type_line(pilot, "penalty n revoke")  # after trick 2
            assert status(screen) == "penalty N revoke: S 1 (counted when the deal ends)"
            rows = [row.plain for row in screen.query_one(EntryList).rows]
            assert rows[-1].endswith("penalty N revoke → S 1"), rows[-1]
            assert rows_made_again(screen)
            await type_line(pilot, "8h")  # trick 3 goes on after it
            assert rows_made_again(screen)
            text = path.read_text("utf-8")
            assert "  2. S:9H N:3H\n  penalty N revoke\n  3. S:8H\n" in text, text
            assert "Penalty" in shown(screen, "#rec-points-body")
            # Ctrl+Q shows in the footer first, and quits
            keys_shown: list[FooterKey] = []

            def footer_filled() -> bool:
                keys_shown[:] = list(screen.query(FooterKey))
                return bool(keys_shown)

            await until(pilot, footer_filled, "the footer's keys")
            shown_keys = [(key.key, key.description) for key in keys_shown]
            assert ("ctrl+q", "Quit") in shown_keys[:2], shown_keys  # it fits at 80 columns
            await pilot.press("ctrl+q")
            await until(pilot, lambda: screen.app.return_code is not None, "the app to quit")

    asyncio.run(scenario())
    assert file_problems(path) == []
