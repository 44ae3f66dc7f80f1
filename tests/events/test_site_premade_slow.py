"""The whole club sample's site (12 tables, 72 games) made with the reading's pages is the
site made without them, byte for byte: the long run of test_site_premade.py's check,
whose default-suite representatives are two of the sample's tables and six generated
games (this one made and compared every page twice: about 2.5 s of CPU)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.events.test_site_premade import SAMPLES, both_ways


def test_the_sample_clubs_site_is_the_same_with_the_readings_pages(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(SAMPLES / "club")
    before, after, used = both_ways(Path("."), Path("games"))
    assert after == before
    assert used == sum(1 for page in before if page.startswith("game-")) > 0
