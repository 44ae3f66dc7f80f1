"""Claims and totals in the record against the computed score (AFN4xx)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..diagnostics import Diagnostic

if TYPE_CHECKING:
    from .replay import GameReplay


def find_disputes(result: GameReplay) -> list[Diagnostic]:
    """Every claimed item, running total and result that disagrees with the replay."""
    return []
