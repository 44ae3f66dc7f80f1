"""Analysis of the play with every hand seen ("double dummy"): par, and which card cost
what.  See ``docs/analysis.md``."""

from .solver import Layout, Solver, SolveTimeout, Stats

__all__ = ["Layout", "SolveTimeout", "Solver", "Stats"]
