"""Shared test helpers."""

from __future__ import annotations

from collections.abc import Iterable

from allfours_notation.diagnostics import Diagnostic


def codes(diagnostics: Iterable[Diagnostic]) -> list[str]:
    """The codes of ``diagnostics`` in order, for compact assertions."""
    return [d.code for d in diagnostics]
