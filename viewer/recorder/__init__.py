"""The live recorder (``allfours record``): the record mode of the viewer's app, a
Textual front end to :class:`allfours_notation.recording.Session`.

``screen.py`` (the record mode: keys and drawing), ``form.py`` (the tags of a new
game), ``widgets.py`` (entries, points, the legal cards offered), ``help.py``,
``recorder.tcss`` (loaded by the app with the viewer's stylesheet).  No rule is
known here: the session judges every entry.
"""

from __future__ import annotations

__all__ = ["RecorderScreen", "ReviewRequested", "StartForm"]

from .form import StartForm
from .screen import RecorderScreen, ReviewRequested
