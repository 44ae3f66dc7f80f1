"""Deprecated: ``allfours_notation.causes`` is now ``allfours_notation.checking.causes`` (issue 22).

A thin re-export for one release; nothing in the repository imports it (a test holds that).
"""

from __future__ import annotations

import warnings
from typing import Any

from .checking import causes as _new

warnings.warn("allfours_notation.causes is deprecated: import allfours_notation.checking.causes",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    return getattr(_new, name)
