"""Every step of every sample renders: the table, the score and the notes, in every view."""

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
        for step in entry.steps:
            kibitz = views[step.index % len(views)]
            console.print(table_renderable(step.state, entry.game, kibitz=kibitz,
                                           unicode=step.index % 2 == 0))
            console.print(score_renderable(entry.replay, step))
            entry.notes_at(step)
        out = console.file.getvalue()  # type: ignore[attr-defined]
        if entry.steps:
            last = entry.steps[-1].state
            assert all(f"{side} {points}" in out for side, points in last.scores)
