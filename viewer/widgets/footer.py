"""The key footer of every screen: Textual's own, rebuilt only when its keys change.

Textual's :class:`~textual.widgets.Footer` rebuilds all its keys (two dozen widgets, each
styled) every time the screen says its bindings may have changed: on every focus change,
every screen pushed or resumed, and once per notice when several come before the next
refresh.  At the start of the viewer that was three rebuilds, at the start of the
recorder (its form, then its screen) fifteen, each showing the same keys as before; they
were about a fifth of the CPU it took to start.  This footer asks the same question the
rebuild would (which keys, enabled or not, with which labels and tooltips) and rebuilds
only when the answer differs from what it shows, at most once per refresh; and its keys
are styled once, not twice (see :meth:`KeyFooter.compose`).
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer
from textual.widgets._footer import FooterKey  # not exported by textual.widgets

# What a footer shows: per binding, the binding, whether it is enabled, its tooltip and
# how its key is written; then whether the command palette's key is offered.
Shown = tuple[tuple[tuple[Binding, bool, str, str], ...], bool, bool]


class KeyFooter(Footer):
    """A :class:`~textual.widgets.Footer` that keeps its keys while they stay the same."""

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(compact=compact)
        self._shown: Shown | None = None  # what the last rebuild showed
        self._rebuild_pending = False

    def compose(self) -> ComposeResult:
        """Textual's keys, born compact when the footer is: each key would otherwise be
        styled once plain and once more when its ``compact`` setting, bound to the
        footer's, gives it the class ``-compact`` as it mounts."""
        for widget in super().compose():
            if self.compact and isinstance(widget, FooterKey):
                widget.add_class("-compact", update=False)
            yield widget

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Textual's hook: rebuild after the next refresh, once, if the keys differ then."""
        self._bindings_ready = True
        if not screen.app.app_focus:
            return
        if self.is_attached and screen is self.screen and not self._rebuild_pending:
            self._rebuild_pending = True
            self.call_after_refresh(self._rebuild_if_changed)

    def shown(self) -> Shown:
        """Everything :meth:`Footer.compose` reads to choose and label its keys."""
        app = self.app
        keys = tuple((binding, enabled, tooltip, app.get_key_display(binding))
                     for _, binding, enabled, tooltip in self.screen.active_bindings.values())
        return keys, self.show_command_palette, app.ENABLE_COMMAND_PALETTE

    async def _rebuild_if_changed(self) -> None:
        self._rebuild_pending = False  # a change from here on asks for a rebuild of its own
        if not self.is_attached:
            return
        shown = self.shown()
        if shown == self._shown:
            return
        self._shown = shown
        await self.recompose()
