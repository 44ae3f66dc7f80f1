"""The language server and the two additions to AFN of issue 38: a deal's clock time
(``deal 3 dealer N at 20:41``) and its count for Game (``count N 31 S 18``) completed,
explained on hover and coloured as semantic tokens."""

from __future__ import annotations

from pathlib import Path

import pytest

from allfours_notation.lsp import completion as completing
from allfours_notation.lsp import features
from allfours_notation.lsp.completion import completion
from allfours_notation.lsp.document import Analyzer
from allfours_notation.lsp.tokens import TOKEN_TYPES, spans

ROOT = Path(__file__).resolve().parents[2]
LINES = (ROOT / "samples" / "club-night.afn").read_text(encoding="utf-8").split("\n")
TOTAL, DEAL_2 = 25, 27  # 0-based lines of the sample's first game (see test_completion)


def labels(lines: list[str], line: int, typed: str) -> list[str]:
    text = "\n".join([*lines[:line], typed, *lines[line + 1:]])
    return [item.label for item in completion(Analyzer().analyse(text), line, len(typed))]


def test_the_deal_line_offers_at_and_the_time_now(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(completing, "clock_now", lambda: "20:41")
    assert labels(LINES, DEAL_2, "deal 2 dealer S ") == ["at"]
    assert labels(LINES, DEAL_2, "deal 2 dealer S at ") == ["20:41"]
    assert completing.clock_now() == "20:41"


def test_the_time_now_is_a_time_of_day() -> None:
    hours, minutes = completing.clock_now().split(":")
    assert 0 <= int(hours) <= 23 and 0 <= int(minutes) <= 59 and len(minutes) == 2


def test_count_is_offered_on_a_new_line_and_completed_with_the_cards_pips() -> None:
    """Deal 1 of the sample: N took Game; the count the cards give is offered by seat."""
    assert "count" in labels(LINES, TOTAL, "  ")
    assert labels(LINES, TOTAL, "  count ") == ["N", "S"]
    north = labels(LINES, TOTAL, "  count N ")
    assert len(north) == 1 and north[0].isdigit()
    south = labels(LINES, TOTAL, f"  count N {north[0]} S ")
    assert len(south) == 1 and int(north[0]) > int(south[0])  # North's Game
    assert labels(LINES, TOTAL, f"  count N {north[0]} ") == ["S"]


def test_the_deal_hover_shows_the_time_and_the_count() -> None:
    lines = list(LINES)
    lines[12] = lines[12] + " at 19:45"
    analysis = Analyzer().analyse("\n".join(lines))
    hover = features.hover(analysis, 12, 1)
    assert hover is not None
    text = hover.contents.value  # type: ignore[union-attr]
    assert "began at 19:45" in text and "count for Game: N " in text


def test_semantic_tokens_colour_the_time_as_a_number_and_count_as_a_keyword() -> None:
    text = "deal 3 dealer N at 20:41\n  count N 31 S 18\n"
    found = {(line, column): TOKEN_TYPES[kind] for line, column, _, kind in spans(text)}
    assert found[(0, 16)] == "keyword" and found[(0, 19)] == "number"
    assert found[(1, 2)] == "keyword" and found[(1, 10)] == "number"
