"""A deal recorded by its results (``scored …``) is shown by its items, not a table."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from allfours_notation import parse_file, replay
from allfours_notation.viewer.widgets.table import table_renderable

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "club-results.afn"


def shown(renderable: object) -> str:
    console = Console(width=80, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_table_of_a_results_deal_lists_what_each_side_took() -> None:
    game = parse_file(SAMPLE).games[0]
    replayed = replay(game)
    last = replayed.deals[0]
    state = replayed.steps[last.last_step].state
    text = shown(table_renderable(state, game, kibitz=None, unicode=True))
    assert "recorded by its results" in text
    for line in ("NS  the turn-up  +2", "EW  High         +1", "NS  Game         +1"):
        assert line in text
    assert "Score NS 4  EW 2" in text
    assert "To move" not in text and "Tricks won" not in text
