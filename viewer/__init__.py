"""The terminal replay viewer: a Textual app over the replayer's per-step states.

Layout by role: ``app.py`` (the App and its key bindings), ``screens/`` (help, go-to and
open dialogs), ``widgets/`` (table, lists and panels), ``messages.py`` (messages between
them), ``viewer.tcss`` (all styling).  ``model.py`` and ``loader.py`` hold no Textual code:
the file index, lazily parsed and replayed games, and the navigation between steps.

The viewer holds no rule logic: it shows the
:class:`allfours_notation.referee.replay.TableState` of each step as the replayer computed it.
"""

from __future__ import annotations

__all__ = ["run_viewer"]


def run_viewer(path: str, *, game: int = 1, deal: int | None = None, trick: int | None = None,
               seat: str | None = None, unicode: bool | None = None) -> int:
    """Run the app on ``path`` (already checked to be a readable AFN file) until it quits."""
    from .app import Start, ViewerApp

    app = ViewerApp(path, Start(game=game, deal=deal, trick=trick, seat=seat), unicode=unicode)
    app.run()
    return app.return_code or 0
