"""The viewer shows what ``allfours check`` shows (issue 22): the root, its hint, and how
many findings are folded under it, for a two-player game with North's card left out of
trick 3."""

from __future__ import annotations

import asyncio
from pathlib import Path

from allfours_notation.checking import check_text
from allfours_notation.checking.causes import follow_text, roots_first
from allfours_notation.viewer.widgets.lists import DiagnosticList
from tests.diagnostics.test_one_door import missing_card_game
from tests.viewer.viewer_helpers import loaded, shown


def test_the_viewer_shows_afn221_with_its_hint_and_the_folded_count(tmp_path: Path) -> None:
    text = missing_card_game()
    path = tmp_path / "missing.afn"
    path.write_text(text, encoding="utf-8")
    (group,) = [g for g in roots_first(check_text(text).games[0].diagnostics)
                if g.root.is_error]  # what check prints: one root, the rest under it
    assert group.root.code == "AFN221" and group.root.hint and group.consequences

    async def scenario() -> None:
        async with loaded(path) as (app, pilot):
            listed = app.query_one(DiagnosticList)
            lines = [listed.line_text(row).plain for row in range(listed.line_count)]
            row = next(i for i, d in enumerate(listed.diagnostics) if d.code == "AFN221")
            assert lines[row].startswith("AFN221") and follow_text(group) in lines[row]
            followers = [line for line in lines if line.startswith("  ↳ ")]
            assert len(followers) == len(group.consequences)
            listed.focus()
            await pilot.pause()
            for _ in range(row):
                await pilot.press("down")
            await pilot.pause()
            detail = " ".join(shown(app, "#detail-message").split())
            assert "AFN221" in detail and f"hint: {group.root.hint}" in detail

    asyncio.run(scenario())
