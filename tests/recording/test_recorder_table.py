"""The table as the record mode draws it at 80 columns (no app: the renderable alone)."""

from __future__ import annotations

import io

from rich.console import Console

from allfours_notation.cards import Seat
from allfours_notation.recording.script import lines_of_game
from allfours_notation.recording.session import Session
from allfours_notation.viewer.widgets.table import table_renderable
from tests.recording.helpers import feed, generated

RECORDER_TABLE_WIDTH = 40  # 80 columns less the side panel (34), the borders and padding


def test_west_s_label_keeps_clear_of_the_trick_in_the_middle() -> None:
    game = generated("trinidad14", 4, seed=1, hands=1.0)  # West deals the first deal
    assert game.deals[0].dealer is Seat.WEST
    session = Session(game.tags)
    feed(session, lines_of_game(game)[:12])  # trick 2 under way, S led
    state = session.judgement().table
    assert state is not None
    console = Console(width=RECORDER_TABLE_WIDTH, file=io.StringIO(), color_system=None,
                      record=True)
    console.print(table_renderable(state, session.game(), kibitz=None, unicode=True,
                                   compact=True))
    lines = console.export_text().splitlines()
    trick = next(line for line in lines if "Trick 2" in line)
    before = trick[: trick.index("Trick 2")]
    assert before.rstrip() != before, trick  # a gap between West's label and the trick
    assert any("dealer" in line for line in lines)
