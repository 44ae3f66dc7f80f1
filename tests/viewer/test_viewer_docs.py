"""docs/commands.md says of the viewer what the app's bindings do (issue 37: the page
listed panels 1-6 when the app had 1-7, and sent Tab where it does not go)."""

from __future__ import annotations

import re
from pathlib import Path

from allfours_notation.viewer.app import PANEL_KEYS, ViewerApp

COMMANDS = Path(__file__).resolve().parents[2] / "docs" / "commands.md"


def viewer_section() -> str:
    text = COMMANDS.read_text(encoding="utf-8")
    return text.split("## Replay viewer", 1)[1].split("\n## ", 1)[0]


def test_the_key_table_names_every_panel_key_of_the_app() -> None:
    section = viewer_section()
    last = PANEL_KEYS[-1][0]
    row = next(line for line in section.splitlines() if line.startswith("| 1 – "))
    assert row.startswith(f"| 1 – {last} |")
    for key, _, title in PANEL_KEYS:
        assert re.search(rf"\b{key} [^,|]*\b{title.lower()}\b", row), (key, title)
    assert f"keys 1–{last} choose which" in section
    bound = {binding.key for binding in ViewerApp.BINDINGS if not isinstance(binding, tuple)}
    assert {key for key, _, _ in PANEL_KEYS} <= bound


def test_the_page_sends_the_reader_to_the_lists_by_their_keys() -> None:
    # Tab does not reach the diagnostics list below 120 columns; its key does, at any size
    section = " ".join(viewer_section().split())
    key = {name: key for key, name, _ in PANEL_KEYS}
    assert f"Keys {key['games']}, {key['steps']} and {key['diagnostics']} bring the game " \
        "list, the steps or the diagnostics list forward and focus it, at any size" in section
    assert "Tab moves between the game list, the steps and the diagnostics;" not in section
