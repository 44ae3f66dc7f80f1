"""The viewer at 80×24 (issue 37): a step that does not fit is cut between words, never
in the middle of a card ('W wins trick 1 with…', not '… with A'), and nothing of the keys
behind the command palette's key shows at the footer's end."""

from __future__ import annotations

import asyncio

from rich.text import Text
from textual.widgets._footer import FooterKey

from allfours_notation.viewer.app import ViewerApp
from allfours_notation.viewer.widgets.lists import StepList, fitted
from tests.viewer.viewer_helpers import FOUR, wait_loaded


def test_a_line_too_long_is_cut_between_words() -> None:
    line = Text.assemble(("   1.1 ", "dim"), "S wins trick 1 with AD")
    assert fitted(line, 27).plain == "   1.1 S wins trick 1 with…"
    assert fitted(line, 40).plain == line.plain  # it fits: whole
    assert fitted(Text("unbroken"), 5).plain == "unbr…"  # no space: cut where it must
    assert fitted(Text("Ann Baptiste"), 9, between_words=False).plain == "Ann Bapt…"


def test_at_80x24_the_steps_list_cuts_no_card_and_the_footer_ends_clean() -> None:
    async def scenario() -> None:
        app = ViewerApp(str(FOUR), unicode=True)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_loaded(pilot)
            await pilot.press(*["right"] * 9)
            await pilot.pause()
            steps = app.query_one(StepList)
            width = steps.scrollable_content_region.width
            for row in range(steps.line_count):
                whole = steps.line_text(row).plain
                text = fitted(steps.line_text(row), width).plain
                assert text == whole or whole.startswith(text[:-1].rstrip() + " "), text
            palette = next(key for key in app.screen.query(FooterKey)
                           if key.has_class("-command-palette"))
            assert palette.region.right == 80  # docked flush: no column left after it

    asyncio.run(scenario())
