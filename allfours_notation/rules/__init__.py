"""Deprecated: the referee now lives in ``allfours_notation.referee`` (issue 22), its table
(once ``rules/engine.py``) in ``allfours_notation.referee.deal``.

The names this package used to export (``resolve_options``, ``replay``, ``check_game``, …)
still work for one release, each with a DeprecationWarning when it is used; import them
from ``allfours_notation.referee`` instead.
"""

from __future__ import annotations

import warnings
from typing import Any

from .. import referee as _referee


def __getattr__(name: str) -> Any:
    if name in _referee.__all__:
        warnings.warn(f"allfours_notation.rules.{name} is deprecated: import it from "
                      "allfours_notation.referee", DeprecationWarning, stacklevel=2)
        return getattr(_referee, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
