"""The language server's memory bound: past a documented size it refuses, in one
diagnostic, instead of keeping every game's records; and no path of it parses a game
past the input limits (issue 16)."""

from __future__ import annotations

import pytest

from allfours_notation.limits import LIMIT_CODE, MAX_EDITOR_CHARS, MAX_EDITOR_GAMES
from allfours_notation.lsp import completion, document, features
from allfours_notation.lsp.document import Analyzer
from allfours_notation.reading import parser

GAME = "deal 1 dealer N\nturn 2H\nN:JS S:2S\nend\n"


def test_a_document_over_the_size_limit_gets_one_diagnostic_and_no_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    text = "% AFN 1\n" + GAME * 20
    monkeypatch.setattr(document, "MAX_EDITOR_CHARS", len(text) - 1)
    analyzer = Analyzer()
    refused = analyzer.analyse(text)
    assert refused.games == () and refused.refused is not None
    (only,) = refused.diagnostics()
    assert (only.code, only.line, only.column) == (LIMIT_CODE, 1, 1)
    assert f"{len(text):,} characters" in only.message
    assert features.format_document(refused).refusals == (refused.refused,)
    assert features.hover(refused, 3, 1) is None and features.symbols(refused) == []
    monkeypatch.setattr(document, "MAX_EDITOR_CHARS", len(text))  # at the limit: analysed
    analysed = analyzer.analyse(text)
    assert len(analysed.games) == 20 and analysed.refused is None


def test_a_document_over_the_game_limit_is_refused_and_forgets_its_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    analyzer = Analyzer()
    assert len(analyzer.analyse("% AFN 1\n" + GAME * 5).games) == 5
    monkeypatch.setattr(document, "MAX_EDITOR_GAMES", 5)
    refused = analyzer.analyse("% AFN 1\n" + GAME * 6)
    assert refused.games == () and "6 games" in refused.diagnostics()[0].message
    assert analyzer._placed == () and analyzer._cache == {}  # nothing held from before


def test_the_limits_are_documented_figures() -> None:
    assert MAX_EDITOR_CHARS == 4 * 1024 * 1024 and MAX_EDITOR_GAMES == 20_000


def test_completion_reads_a_game_past_the_deal_limit_no_further(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parser, "MAX_DEALS_PER_GAME", 2)
    deals = "".join(f"deal {n} dealer N\nturn 2H\nN:JS S:2S\n" for n in (1, 2, 3))
    for count, over in ((2, False), (3, True)):
        text = "% AFN 1\n" + "".join(deals.splitlines(keepends=True)[: 3 * count])
        analysis = Analyzer().analyse(text)
        spot = features.spot_at(analysis, 3 * count, 9)  # at the end of the last play line
        assert spot is not None
        relative = analysis.lines.offset(3 * count, 9) - spot.placed.piece.start
        body = spot.placed.analysis.body[:relative]
        assert (completion._table_at(spot.placed, body) is None) is over
