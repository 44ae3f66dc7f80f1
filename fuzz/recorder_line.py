"""Fuzzing the recorder's entry line with scripted input.

A session records into a real file; each round types a random line: a legal card or
call, a word of the entry language, a hostile string (escapes, markup, NUL, a very
long line), a comment, or bytes of noise.  Undo and redo come in between.  After
every line: no exception, the session's text on disk (the file reads back as the
session's game), and the screen's words (the outcome's message) hold no raw control
character once shown through :func:`allfours_notation.visible.visible`.
"""

from __future__ import annotations

import random
from pathlib import Path

from allfours_notation.checking.parsing import parse
from allfours_notation.recording.opening import new_tags
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from allfours_notation.visible import HOSTILE, visible

WORDS = ["n", "s", "e", "w", "b", "g", "r", "s js 9h 8h 7c 6d 5d", "n 9c 8c 7d 3h 2h 2d",
         "4s", "js", "2d", "10h", "th", "j♠", "?", "1", "2", "9", "claim s high", "y", "no",
         "penalty n 1", "redeal", "misdeal", "abandoned", "concede s", "{a note}", ";note"]
HOSTILE_LINES = ["\x1b[2J\x1b[HALL CLEAN", "\x1b]0;pwned\x07", "\x1b]52;c;ZWNobw==\x07",
                 "[bold]Ann[/bold]", "[link=http://x]x[/link]", "\x00", "\u009b2J", "\r",
                 "\u202egnp.exe", "=HYPERLINK(\"http://x\")", "A" * 5000, "{\x1b[31m}",
                 "; \x07", "\ud800", "js\x00", "<script>alert(1)</script>"]


def random_line(rng: random.Random, offered: list[str]) -> str:
    roll = rng.random()
    if roll < 0.45 and offered:
        return rng.choice(offered)
    if roll < 0.75:
        return rng.choice(WORDS)
    if roll < 0.9:
        return rng.choice(HOSTILE_LINES)
    return "".join(chr(rng.randrange(0, 0x3000)) for _ in range(rng.randrange(1, 12)))


def fuzz_session(rng: random.Random, folder: Path, lines: int = 60) -> tuple[int, list[str]]:
    """Type ``lines`` random lines into a new recording; (lines typed, problems)."""
    path = folder / f"rec-{rng.randrange(10**9)}.afn"
    problems: list[str] = []
    tags = new_tags(event="Fuzz", site="here", date="2026.12.02",
                    players={"North": "Ann", "South": "Ben"})
    with RecordFile(path, notice=None) as record:
        session = Session(tags, record=record)
        session.save()
        for _ in range(lines):
            offered = [str(card).lower() for card in session.expect().offered]
            line = random_line(rng, offered)
            action = rng.random()
            try:
                if action < 0.05:
                    outcome = session.undo()
                elif action < 0.08:
                    outcome = session.redo()
                else:
                    outcome = session.type(line)
                    if outcome.confirm and rng.random() < 0.7:
                        outcome = session.confirm()
            except Exception as error:
                problems.append(f"after {line!r}: {type(error).__name__}: {error}")
                break
            if HOSTILE.search(visible(outcome.message)):
                problems.append(f"raw control character in {outcome.message!r}")
            on_disk = path.read_text(encoding="utf-8", errors="surrogateescape")
            if on_disk != session.text():
                problems.append(f"after {line!r}: the file is not the session's text")
                break
            games = parse(on_disk).games
            if not games or games[-1].broken:
                problems.append(f"after {line!r}: the file does not read back")
                break
    path.unlink()
    return lines, problems
