"""Every step of every sample renders: the table, the score and the notes, in every view.

Every step's table and score are built (the viewer's own code, where a step of an
unusual kind could fail); Rich lays out and prints one step of each kind, in each view
(all hands, or kibitzing a seat) and each alphabet, per game, and the last step, whose
score is then checked in the output.  Printing every step (some 2,400) cost four
fifths of this test's time and laid out only more of the same shapes of Rich tables
and texts (no markup is parsed: every piece is a :class:`rich.text.Text`).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from allfours_notation import scan_headers
from allfours_notation.viewer.loader import check_path, read_text
from allfours_notation.viewer.model import Library
from allfours_notation.viewer.widgets.panels import score_renderable
from allfours_notation.viewer.widgets.table import table_renderable

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.afn"))


@pytest.mark.skipif(not SAMPLES, reason="no samples/ in this checkout")
@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_every_step_of_every_sample_renders(path: Path) -> None:
    check_path(path)
    text = read_text(path)
    library = Library(path.name, text)
    library.add(scan_headers(text))
    console = Console(width=74, file=io.StringIO(), color_system=None)
    for position in range(len(library)):
        entry = library.entry(position)
        assert entry.steps or entry.has_errors  # a game with no step says why
        views = (None, *entry.game.seats)
        printed: set[object] = set()
        for step in entry.steps:
            kibitz = views[step.index % len(views)]
            unicode = step.index % 2 == 0
            table = table_renderable(step.state, entry.game, kibitz=kibitz, unicode=unicode)
            score = score_renderable(entry.replay, step)
            entry.notes_at(step)
            shape = (step.kind, kibitz is None, unicode)
            if shape not in printed or step is entry.steps[-1]:
                printed.add(shape)
                console.print(table)
                console.print(score)
        out = console.file.getvalue()  # type: ignore[attr-defined]
        if entry.steps:
            last = entry.steps[-1].state
            assert all(f"{side} {points}" in out for side, points in last.scores)
