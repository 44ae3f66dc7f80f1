"""The flags of an analysis written into the record: a glyph on each flagged card that has
none, the reason in a comment beside it.  A glyph a person wrote is never changed, and
nothing else of the record is touched."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ...reading.records import Comment, Deal, Game, Glyph, Play, Trick
from ...referee.state import GameReplay
from .report import DealAnalysis

__all__ = ["annotate_game"]

_GLYPHS = {"?": Glyph.POOR, "??": Glyph.BLUNDER}


def annotate_game(game: Game, replayed: GameReplay,
                  analyses: Sequence[DealAnalysis]) -> Game:
    """``game`` with the flags of ``analyses`` (deals matched by number) written in."""
    by_number = {a.number: a for a in analyses}
    deals = []
    for deal, result in zip(game.deals, replayed.deals, strict=False):
        analysis = by_number.get(result.number)
        deals.append(_annotated(deal, analysis) if analysis is not None else deal)
    deals.extend(game.deals[len(deals):])
    return replace(game, deals=tuple(deals))


def _annotated(deal: Deal, analysis: DealAnalysis) -> Deal:
    verdicts = {v.index: v for v in analysis.cards}
    if not any(v.glyph for v in verdicts.values()):
        return deal
    index = 0
    tricks: list[Trick] = []
    for trick in deal.tricks:
        plays: list[Play] = []
        for play in trick.plays:
            verdict = verdicts.get(index)
            index += 1
            glyph = verdict.glyph if verdict is not None else None
            if glyph is None or play.glyph is not None or verdict is None or \
                    verdict.card is not play.card:
                plays.append(play)
                continue
            note = Comment(f" {verdict.reason}; all hands seen ")
            plays.append(replace(play, glyph=_GLYPHS[glyph], trailing=(*play.trailing, note)))
        tricks.append(replace(trick, plays=tuple(plays)))
    return replace(deal, tricks=tuple(tricks))
