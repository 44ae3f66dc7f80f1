"""A saved record checks clean at every moment (issue 37): after every entry the recorder
accepts (mid-trick, between deals, at a confirmation prompt, after the deciding deal),
``allfours check`` on the file reports no error; a game still being played is notes
("in progress"), and a dispute the other side claims is a dispute (exit 3), not an error.

Only the recorder's public API is used: a :class:`Session` writing to a
:class:`RecordFile` saves after each entry, as the screen does."""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation.checking import check_text
from allfours_notation.cli import main
from allfours_notation.reading.records import Game, Tag
from allfours_notation.recording.entries import Phase
from allfours_notation.recording.opening import new_tags
from allfours_notation.recording.script import lines_of_game, results_lines_of_game
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from allfours_notation.referee import replay
from allfours_notation.referee.state import GameReplay
from tests.recording.helpers import generated

TWO = {"North": "Ann", "South": "Ben"}

# Deal 1 (N deals, S holds the lone trump JS: S 4) agreed; deal 2 (S deals, N holds JS)
# decides the game on Low from N 5, and S disputes it.
CARDS_DEAL_1 = ["n", "s js 9h 8h 7c 6d 5d", "n 9c 8c 7d 3h 2h 2d", "4s", "s", "js", "2d",
                "9h", "3h", "8h", "2h", "7c", "8c", "9c", "5d", "7d", "6d", "y"]
CARDS_DEAL_2 = ["", "n js 9h 8h 7c 6d 5d", "s 9c 8c 7d 3h 2h 2d", "4s", "s", "js", "2d",
                "9h", "3h", "8h", "2h", "7c", "8c", "9c", "5d", "7d", "6d",
                "claim s high low"]
# From N 3 S 3: deal 1 by results, S claims Jack and Game too (a mid-game dispute);
# deal 2, N takes High and Low (N 7), S disputes the deciding deal.
RESULTS_LINES = ["n", "h s", "l s", "j n", "g n", "", "claim s high low jack game",
                 "h n", "l n", "g s", "", "claim s high n low"]


def saved_after_each_entry(path: Path, tags: tuple[Tag, ...],
                           lines: list[str]) -> list[tuple[str, Phase, str]]:
    """Type ``lines`` into a session that saves to ``path``; after each accepted entry,
    the line, the phase the session then waits in and the file's text."""
    saved = []
    with RecordFile(path) as record:
        session = Session(tags, record=record)
        session.save()
        saved.append(("(the form)", session.expect().phase, path.read_text(encoding="utf-8")))
        for line in lines:
            outcome = session.type(line)
            if outcome.confirm:
                outcome = session.confirm()
            assert outcome.accepted, f"{line!r} refused: {outcome.message}"
            saved.append((line, session.expect().phase, path.read_text(encoding="utf-8")))
    return saved


def errors_of(text: str) -> list[str]:
    return [f"{d.code} {d.message}" for d in check_text(text).all_diagnostics() if d.is_error]


def walk(path: Path, tags: tuple[Tag, ...], lines: list[str]) -> list[tuple[str, Phase, str]]:
    saved = saved_after_each_entry(path, tags, lines)
    for line, phase, text in saved:
        assert errors_of(text) == [], (line, phase, text)
    return saved


def phases(saved: list[tuple[str, Phase, str]]) -> set[Phase]:
    return {phase for _, phase, _ in saved}


def test_every_saved_moment_of_a_game_in_cards_mode_checks_with_no_error(
        tmp_path: Path) -> None:
    tags = new_tags(players=TWO, date="2026.12.02", score="N 5 S 0")
    saved = walk(tmp_path / "cards.afn", tags, CARDS_DEAL_1 + CARDS_DEAL_2)
    # the moments the issue names were all saved and checked
    assert {Phase.DEALER, Phase.TURN, Phase.CALL, Phase.PLAY, Phase.CONFIRM,
            Phase.OVER} <= phases(saved)
    confirming = [text for _, phase, text in saved if phase is Phase.CONFIRM]
    assert any('[Result "*"]' in text for text in confirming)
    *_, (_, _, last) = saved
    assert '[Result "N"]' in last
    disputes = [d for d in check_text(last).all_diagnostics() if d.is_dispute]
    assert {(d.code, d.deal) for d in disputes} == {("AFN401", 2)}  # High and Low


def test_every_saved_moment_of_a_game_in_results_mode_checks_with_no_error(
        tmp_path: Path) -> None:
    tags = (*new_tags(players=TWO, date="2026.12.02", score="N 3 S 3"),
            Tag(name="Entry", value="results"))
    saved = walk(tmp_path / "results.afn", tags, RESULTS_LINES)
    assert {Phase.RESULTS, Phase.CONFIRM, Phase.OVER} <= phases(saved)
    *_, (_, phase, last) = saved
    assert phase is Phase.OVER
    disputes = [d for d in check_text(last).all_diagnostics() if d.is_dispute]
    assert {d.deal for d in disputes} == {1, 2}  # the mid-game dispute and the deciding one


def test_an_open_deal_is_a_note_in_progress(tmp_path: Path) -> None:
    tags = new_tags(players=TWO, date="2026.12.02")
    saved = saved_after_each_entry(tmp_path / "open.afn", tags, CARDS_DEAL_1[:6])
    _, phase, text = saved[-1]  # trick 1 of one card
    assert phase is Phase.PLAY
    notes = [d for d in check_text(text).all_diagnostics() if d.severity.value == "info"]
    assert {d.code for d in notes} == {"AFN204", "AFN304"}
    assert all(d.message.startswith("in progress: ") for d in notes)
    assert not any(d.code == "AFN221" for d in check_text(text).all_diagnostics())


@pytest.mark.parametrize(("upto", "status"), [(6, 0), (17, 0), (18, 0), (18 + 17, 0),
                                              (18 + 18, 3)])
def test_check_exits_0_while_recording_and_3_once_a_dispute_is_recorded(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], upto: int, status: int) -> None:
    path = tmp_path / "game.afn"
    tags = new_tags(players=TWO, date="2026.12.02", score="N 5 S 0")
    saved_after_each_entry(path, tags, (CARDS_DEAL_1 + CARDS_DEAL_2)[:upto])
    assert main(["check", str(path)]) == status
    out = capsys.readouterr().out
    assert "0 with errors" in out
    assert ("1 with disputes" in out) is (status == 3)


# Generated games typed in whole, in each mode, one profile per number of players: every
# prefix the recorder saves checks with no error (the property over all profiles
# and generated games is the recording core's; these keep the suit's cost to seconds).
GENERATED = [("hoffmann1909", 2), ("foster", 3), ("trinidad14", 4)]


def generated_game(profile: str, players: int) -> tuple[Game, GameReplay]:
    game = generated(profile, players, seed=11, target=5, beg=0.6, gift=0.4)
    return game, replay(game)


@pytest.mark.parametrize(("profile", "players"), GENERATED)
def test_every_prefix_of_a_generated_game_checks_with_no_error(
        tmp_path: Path, profile: str, players: int) -> None:
    game, replayed = generated_game(profile, players)
    cards = walk(tmp_path / "cards.afn", game.tags, lines_of_game(game))
    results_tags = (*game.tags, Tag(name="Entry", value="results"))
    results = walk(tmp_path / "results.afn", results_tags,
                   results_lines_of_game(game, replayed))
    assert Phase.OVER in phases(cards) | phases(results)
    assert len(cards) > 2 * len(game.deals) and len(results) > 2 * len(game.deals)
