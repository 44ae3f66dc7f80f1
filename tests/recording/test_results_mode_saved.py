"""The mode of each deal is written in the file (issue 37): a game switched to results
(Ctrl+T) comes back in results mode after a quit or a kill, at the same prompt."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

from allfours_notation.checking import check
from allfours_notation.checking.parsing import parse
from allfours_notation.recording.entries import Phase
from allfours_notation.recording.opening import Resume, inspect, new_tags
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from tests.recording.helpers import feed

TWO = {"North": "Ann", "South": "Ben"}

# A child that records a card deal, switches to results (Ctrl+T) at the next deal, enters
# an item, says so on stdout and waits to be killed.
_CHILD = """
import sys
from pathlib import Path
from allfours_notation.recording.opening import new_tags
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
record = RecordFile(Path(sys.argv[1]))
record.acquire()
session = Session(new_tags(players={"North": "Ann", "South": "Ben"}, date="2026.12.07"),
                  record=record)
session.save()
for line in sys.argv[2:]:
    if line == "ctrl+t":
        outcome = session.set_mode(not session.results_mode)
    else:
        outcome = session.type(line)
    assert outcome.accepted, (line, outcome.message)
print(session.expect().text, flush=True)
sys.stdin.read()
"""

CARD_DEAL = ["n", "s js 9h 8h 7c 6d 5d", "n 9c 8c 7d 3h 2h 2d", "4s", "s", "js", "2d",
             "9h", "3h", "8h", "2h", "7c", "8c", "9c", "5d", "7d", "6d", "y", ""]


def _killed_after(path: Path, lines: list[str]) -> str:
    """Run the child over ``lines``, SIGKILL it once it has said its prompt; the prompt."""
    with subprocess.Popen([sys.executable, "-c", _CHILD, str(path), *lines],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None
        prompt = child.stdout.readline().strip()
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert child.returncode == -signal.SIGKILL
    return prompt


def _resumed(path: Path) -> Session:
    with RecordFile(path) as record:
        opened = inspect(path, record)
    assert isinstance(opened, Resume)
    return opened.session


def test_a_kill_after_ctrl_t_resumes_in_results_mode_at_the_same_prompt(
        tmp_path: Path) -> None:
    path = tmp_path / "killed.afn"
    # switched before the deal has anything: the deal is empty, the header says the mode
    prompt = _killed_after(path, [*CARD_DEAL, "ctrl+t"])
    assert "by results" in prompt
    session = _resumed(path)
    assert session.results_mode
    assert session.expect().phase is Phase.RESULTS
    assert session.expect().text == prompt
    assert '[Entry "results"]' in path.read_text(encoding="utf-8")
    # and with an item typed
    path.unlink()
    prompt = _killed_after(path, [*CARD_DEAL, "ctrl+t", "h n"])
    session = _resumed(path)
    assert session.expect().phase is Phase.RESULTS and session.expect().text == prompt


def test_switching_back_to_cards_is_written_too(tmp_path: Path) -> None:
    path = tmp_path / "back.afn"
    tags = new_tags(players=TWO, date="2026.12.07")
    with RecordFile(path) as record:
        session = Session(tags, record=record)
        assert session.set_mode(True).accepted
        feed(session, ["n", "h n", "l s", "", "y"])
        assert session.set_mode(False).accepted
        assert session.expect().phase is Phase.TURN
    assert '[Entry "cards"]' in path.read_text(encoding="utf-8")
    again = _resumed(path)  # deal 2 had only its dealer, not written: proposed again
    assert not again.results_mode and again.expect().phase is Phase.DEALER
    assert "deal 2: S deals (Enter)" in again.expect().text
    game = parse(path.read_text(encoding="utf-8")).games[0]
    assert [d.code for d in check(game).diagnostics if d.code.startswith("AFN1")] == []


def test_killed_after_the_other_sides_y_resumes_at_the_next_deal_not_at_y(
        tmp_path: Path) -> None:
    """Issue 37: the agreement is written (``{ agreed }`` after the total), so a results
    game killed right after ``y`` resumes at the next deal's items, the same prompt; the
    next deal, with only its dealer, is not in the file, which checks clean."""
    path = tmp_path / "agreed.afn"
    prompt = _killed_after(path, ["ctrl+t", "n", "h n", "l s", "g s", "", "y"])
    assert prompt.startswith("deal 2 by results, S deals")
    text = path.read_text(encoding="utf-8")
    assert "{ agreed }" in text and "deal 2" not in text
    game = parse(text).games[0]
    assert [d.code for d in check(game).diagnostics if d.is_error] == []
    with RecordFile(path) as record:
        opened = inspect(path, record)
        assert isinstance(opened, Resume)
        session = opened.session
        assert session.results_mode and session.expect().phase is Phase.RESULTS
        assert session.expect().text == prompt
        feed(session, ["h s"])  # deal 2 is written with its first item, the note moves on
    text = path.read_text(encoding="utf-8")
    assert "deal 2 dealer S" in text and "{ agreed }" not in text


def test_undo_of_y_takes_back_the_deal_the_recorder_began_and_the_note(
        tmp_path: Path) -> None:
    path = tmp_path / "undo.afn"
    with RecordFile(path) as record:
        session = Session(new_tags(players=TWO, date="2026.12.07"), record=record)
        assert session.set_mode(True).accepted
        feed(session, ["n", "h n", "l s", "", "y"])
        assert "{ agreed }" in path.read_text(encoding="utf-8")
        assert session.undo().accepted
        assert session.expect().phase is Phase.CONFIRM
        assert "{ agreed }" not in path.read_text(encoding="utf-8")


def test_the_first_dealer_is_asked_among_the_tables_seats() -> None:
    two = Session(new_tags(players=TWO, date="2026.12.07"))
    assert two.expect().text == "who deals the first deal? type N or S"
    three = Session(new_tags(players={"North": "A", "East": "B", "South": "C"},
                             date="2026.12.07"))
    assert three.expect().text == "who deals the first deal? type N, E or S"


def test_a_deals_first_entry_typed_with_no_dealer_begins_the_proposed_dealers_deal(
        tmp_path: Path) -> None:
    path = tmp_path / "first.afn"
    with RecordFile(path) as record:
        session = Session(new_tags(players=TWO, date="2026.12.07"), record=record)
        feed(session, CARD_DEAL[:-1])  # deal 1 agreed; deal 2 is S's
        refused = session.type("zz")
        assert not refused.accepted and session.expect().phase is Phase.DEALER
        assert session.type("5h").accepted  # the turn-up: S deals it
        assert "deal 2 dealer S\n  turn 5H" in path.read_text(encoding="utf-8")
        assert session.undo().accepted  # one undo: the turn-up and the dealer
        assert session.expect().phase is Phase.DEALER
