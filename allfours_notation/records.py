"""Deprecated: ``allfours_notation.records`` is now ``allfours_notation.reading.records``
(issue 22).

A thin re-export for one release; nothing in the repository imports it (a test holds that).
"""

from __future__ import annotations

import warnings
from typing import Any

from .reading import records as _new

warnings.warn("allfours_notation.records is deprecated: import allfours_notation.reading.records",
              DeprecationWarning, stacklevel=2)


def __getattr__(name: str) -> Any:
    return getattr(_new, name)
