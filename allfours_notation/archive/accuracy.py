"""Points lost per deal, per player, from the analyses already in the cache: the
accuracy figure ``allfours stats`` shows once ``allfours analyse`` has been run.

Nothing is solved here: a deal is counted only if its analysis is in the cache and
every card of it was judged."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..archive.stats import player_name
from ..checking.analysis.data import AnalysisCache, deal_digest
from ..checking.analysis.deals import played_deals
from ..frozen import frozen
from ..reading.records import Game
from ..referee.state import GameReplay

__all__ = ["Accuracy", "AccuracyRow"]


@frozen
class AccuracyRow:
    """One player's accuracy over the analysed deals."""

    name: str
    deals: int  # analysed deals the player played in
    points_lost: int  # the points that changed hands by the player's cards (all hands seen)
    flagged: int  # the player's cards flagged ? or ??

    @property
    def lost_per_deal(self) -> float:
        return self.points_lost / self.deals if self.deals else 0.0

    def as_json(self) -> dict[str, object]:
        return {"name": self.name, "deals": self.deals, "points_lost": self.points_lost,
                "flagged": self.flagged, "lost_per_deal": round(self.lost_per_deal, 3)}


@dataclass
class Accuracy:
    """A tally over games; :meth:`add` each replayed game, then :meth:`rows`."""

    cache: AnalysisCache = field(default_factory=AnalysisCache)
    _tally: dict[str, list[int]] = field(default_factory=dict)

    @property
    def available(self) -> bool:
        return self.cache.path.exists()

    def add(self, game: Game, replayed: GameReplay) -> None:
        for played in played_deals(replayed):
            if played.layout is None:
                continue
            analysis = self.cache.get(deal_digest(played))
            if analysis is None or not analysis.checked:
                continue
            for seat, _ in played.layout.hands:
                tally = self._tally.setdefault(player_name(game, seat), [0, 0, 0])
                tally[0] += 1
            for verdict in analysis.cards:  # (a seat not dealt to, from a hand-edited cache)
                tally = self._tally.setdefault(player_name(game, verdict.seat), [0, 0, 0])
                tally[1] += verdict.points_lost
                tally[2] += verdict.glyph is not None

    def rows(self) -> tuple[AccuracyRow, ...]:
        return tuple(AccuracyRow(name, *counts) for name, counts in sorted(self._tally.items()))

    def close(self) -> None:
        self.cache.close()
