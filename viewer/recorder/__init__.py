"""The live recorder (``allfours record``): a Textual front end to
:class:`allfours_notation.recording.Session`, reusing the viewer's table widget.

``app.py`` (the App, keys and drawing), ``form.py`` (the tags of a new game),
``widgets.py`` (entries, points, the legal cards offered), ``help.py``,
``recorder.tcss``.  No rule is known here: the session judges every entry.
"""

from __future__ import annotations

__all__ = ["RecorderApp", "StartForm"]

from .app import RecorderApp
from .form import StartForm
