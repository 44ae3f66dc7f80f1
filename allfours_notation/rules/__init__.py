"""Deprecated: the referee now lives in ``allfours_notation.referee`` (issue 22).

Only ``rules/engine.py`` (the table) is still here while it is split by phase.  The names
this package used to export (``resolve_options``, ``replay``, ``check_game``, …) still
work for one release, each with a DeprecationWarning; import them from
``allfours_notation.referee`` instead.  The warning is raised when a name is used, not when
the package is imported, because importing ``allfours_notation.rules.engine`` runs this
file too.
"""

from __future__ import annotations

import warnings
from typing import Any

# The referee first: its modules import the engine here, and the engine imports them;
# loading the referee package before the engine keeps that order whichever is asked first.
from .. import referee as _referee


def __getattr__(name: str) -> Any:
    if name in _referee.__all__:
        warnings.warn(f"allfours_notation.rules.{name} is deprecated: import it from "
                      "allfours_notation.referee", DeprecationWarning, stacklevel=2)
        return getattr(_referee, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
