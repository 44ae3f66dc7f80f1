"""``allfours record`` as a person runs it (issue 37), marked ``slow``: under tmux at
80×24, a new four-handed game through the start form and a deal in results mode, every
key sent on its own; the screen shows ``Next:`` and the score whole, and the file checks
clean after the other side's ``y``, between deals.  Skipped where tmux is missing."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from allfours_notation.cli import main
from tests.recording.helpers import file_problems
from tests.waiting import looked_until

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")

# The form, then deal 1 by its results (EW High and Low, NS Jack and Game), one key at a time.
FORM = ["C", "l", "u", "b", "Enter", "Enter", "Enter", *"trinidad14", "Enter", *"Ann",
        "Enter", *"Cal", "Enter", *"Ben", "Enter", *"Dee", "Enter", "r", "Enter", "Enter"]
DEAL = ["n", "Enter", "h", "w", "l", "w", "j", "n", "g", "n", "Enter"]


class Pane:
    """A tmux session of its own (its own server socket), 80×24, running ``command``."""

    def __init__(self, socket: str, command: str) -> None:
        self.tmux = ["tmux", "-L", socket]
        subprocess.run([*self.tmux, "new-session", "-d", "-x", "80", "-y", "24", "-s", "rec",
                        command], check=True)

    def send(self, key: str) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", "rec", key], check=True)

    def screen(self) -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p", "-t", "rec"],
                              capture_output=True, text=True).stdout

    def wait(self, condition: Callable[[str], bool], what: str) -> str:
        """Look again and again until the screen shows ``what``; never a fixed sleep."""
        return looked_until(self.screen, condition, what)

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


def test_a_results_deal_typed_key_by_key_at_80x24(tmp_path: Path) -> None:
    path = tmp_path / "club.afn"
    command = (f"cd {shlex.quote(str(tmp_path))} && {shlex.quote(sys.executable)} -m "
               f"allfours_notation record {path.name}; echo RECORDER-EXITED; sleep 60")
    pane = Pane(f"afn-test-{os.getpid()}", command)
    try:
        pane.wait(lambda s: "New game" in s, "the start form")
        for key in FORM:
            pane.send(key)
        pane.wait(lambda s: "who deals the first deal? type N, E, S or W" in s, "the game")
        for key in DEAL:
            pane.send(key)
        shown = pane.wait(lambda s: "y agrees" in s, "the other side's question")
        lines = shown.splitlines()
        assert len(lines) <= 24
        assert any(line.startswith(" Next: deal 1: EW 2  NS 2, score") for line in lines), shown
        assert "Score NS 2  EW 2" in shown and "↓ more" not in shown  # no paging
        pane.send("y")
        shown = pane.wait(lambda s: "deal 2 by results, W deals" in s, "deal 2 next")
        assert "Next: deal 2 by results, W deals" in shown and "Score NS 2  EW 2" in shown
        assert file_problems(path) == []  # between deals: a whole deal, clean
        pane.send("C-q")
        pane.wait(lambda s: "RECORDER-EXITED" in s, "the recorder to quit")
    finally:
        pane.close()
    text = path.read_text(encoding="utf-8")
    assert '[Entry "results"]' in text and '[West "Dee"]' in text and "deal 2" not in text
    assert main(["check", str(path)]) == 0
