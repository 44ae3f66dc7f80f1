"""A replay of one game as one self-contained HTML page (``allfours html``).

The page holds everything it needs inline: the steps of the replay as JSON (from the
public replay API, :func:`replay_data`), a small script that draws the table from them,
the stylesheet with a light and a dark scheme, and the AFN text of the game itself, so
the page is also the record.  It loads nothing from a network and runs from a file on a
phone.  Nothing here imports Textual.
"""

from __future__ import annotations

from .data import replay_data
from .page import render_page

__all__ = ["render_page", "replay_data"]
