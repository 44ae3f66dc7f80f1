"""Analysis of the play with every hand seen ("double dummy"): par, and which card cost
what.  See ``docs/analysis.md``."""

from .data import AnalysisCache, deal_digest, from_json, to_json
from .deals import PlayedDeal, played_deals
from .report import CAVEAT, LABEL, CardVerdict, DealAnalysis, analyse_deal, analyse_game
from .solver import Layout, Solver, SolveTimeout, Stats

__all__ = ["CAVEAT", "LABEL", "AnalysisCache", "CardVerdict", "DealAnalysis", "Layout",
           "PlayedDeal", "SolveTimeout", "Solver", "Stats", "analyse_deal", "analyse_game",
           "deal_digest", "from_json", "played_deals", "to_json"]
