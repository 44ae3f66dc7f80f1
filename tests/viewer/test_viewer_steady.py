"""The panels redrawn at every step (viewer/widgets/steady.py) look as Textual's own
Static would draw them, and are laid out again whenever their height changes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import cast

import pytest
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.visual import RichVisual, Visual
from textual.widget import Widget
from textual.widgets import Static

from allfours_notation.viewer.app import ViewerApp
from allfours_notation.viewer.widgets.panels import ScorePanel
from allfours_notation.viewer.widgets.steady import DrawnOnce
from allfours_notation.viewer.widgets.table import TableView
from tests.viewer.viewer_helpers import FOUR, loaded
from tests.waiting import holds

# A long test (about 2 s), collected near the end of the suite: as a group of its own it
# is handed out with the groups, first (tests/xdist_groups.py), not last, where a worker
# would run it alone while the others have finished.
pytestmark = pytest.mark.xdist_group("viewer-steady")

# The panels drawn once per step, and their least heights (viewer.tcss, borders included).
MIN_HEIGHTS: dict[type[Static], int] = {TableView: 14, ScorePanel: 8}


def drawn(widget: Widget, visual: Visual) -> list[list[tuple[object, ...]]]:
    """The segments of ``visual`` drawn in ``widget`` at its width, line by line."""
    strips: list[Strip] = Visual.to_strips(widget, visual, widget.content_size.width, None,
                                           widget.visual_style)
    return [[tuple(segment) for segment in strip] for strip in strips]


def tall_as(app: ViewerApp, wanted: dict[str, int]) -> Callable[[], bool]:
    """Whether each panel is as many lines tall as ``wanted`` says (by class name)."""
    return lambda: wanted == {kind.__name__: app.query_one(kind).region.height
                              for kind in MIN_HEIGHTS}


def test_every_step_is_drawn_as_textual_draws_it_at_the_height_it_needs() -> None:
    async def scenario() -> None:
        async with loaded(FOUR) as (app, pilot):
            assert app.entry is not None
            for index in range(len(app.entry.steps)):
                # The step shown as its key shows it (the keys are tested elsewhere), without
                # Pilot's 40 ms of looking for an idle app after each of some 60 keys.
                app.go(index)
                wanted: dict[str, int] = {}
                for kind, least in MIN_HEIGHTS.items():
                    panel = app.query_one(kind)
                    visual = panel.visual
                    assert isinstance(visual, DrawnOnce)
                    textual = RichVisual(panel, visual.renderable)
                    assert drawn(panel, visual) == drawn(panel, textual), (index, kind)
                    width, rules = panel.content_size.width, cast(RulesMap, panel.styles)
                    lines = textual.get_height(rules, width)
                    assert visual.get_height(rules, width) == lines
                    wanted[kind.__name__] = max(least, lines + 2)
                await holds(tall_as(app, wanted),
                            f"the panels at step {index} to be {wanted} lines tall")
            await pilot.pause()

    asyncio.run(scenario())
