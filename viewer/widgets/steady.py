"""Panels redrawn at every step at the cost of one Rich render and no screen layout.

A :class:`textual.widgets.Static` given a Rich renderable renders it again each time
Textual asks for its height (at every layout of the screen) and each time it paints,
and by default every update lays the whole screen out again.  A step of the viewer
changes what the table, the score and the notes say, but seldom how tall they are:
:class:`SteadyStatic` lays the screen out only when the height changes, and
:class:`DrawnOnce` renders the renderable once per width for both questions;
:class:`SteadyHeader` shows the title of each step without a layout either.  At
160×48 a key cost about 72 ms of CPU before, two whole-screen layouts and the card
table rendered two or three times among them.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.segment import Segment
from rich.text import Text
from textual.app import ComposeResult
from textual.css.styles import RulesMap
from textual.geometry import Size
from textual.render import measure
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual, VisualType
from textual.widget import Widget
from textual.widgets import Header, Static

# Not exported by textual.widgets: the title is the one part of the header replaced here.
from textual.widgets._header import HeaderTitle


class DrawnOnce(Visual):
    """A Rich renderable as Textual's own wrapper draws it, rendered once per width.

    The lines are those of :class:`textual.visual.RichVisual`: rendered without
    highlighting at the content width, cut into lines, the widget's base style under
    each segment's own.  They do not depend on the height offered (true of the tables,
    groups and alignments of the panels here); the panels hold no links.
    """

    def __init__(self, widget: Widget, renderable: RenderableType) -> None:
        self.widget = widget
        self.renderable = renderable
        self.drawn: tuple[int, list[list[Segment]]] | None = None  # (width, lines)

    def __rich__(self) -> RenderableType:
        """What it draws, so that it prints as before (``console.print(widget.content)``)."""
        return self.renderable

    def lines(self, width: int) -> list[list[Segment]]:
        """The lines at ``width`` cells: rendered at the first call for that width."""
        if self.drawn is None or self.drawn[0] != width:
            app = self.widget.app
            options = app.console_options.update(highlight=False, width=width)
            segments = app.console.render(self.renderable, options)
            lines = Segment.split_and_crop_lines(segments, width, include_new_lines=False,
                                                 pad=False)
            self.drawn = (width, list(lines))
        return self.drawn[1]

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return measure(self.widget.app.console, self.renderable, container_width,
                       container_width=container_width)

    def get_height(self, rules: RulesMap, width: int) -> int:
        return len(self.lines(width))

    def render_strips(self, width: int, height: int | None, style: Style,
                      options: RenderOptions) -> list[Strip]:
        lines = self.lines(width)[:height]
        base = style.rich_style
        if not base:
            return [Strip(line) for line in lines]
        under = base.__add__
        return [Strip([Segment(text, under(own), None) for text, own, _ in line])
                for line in lines]


class SteadyStatic(Static):
    """A :class:`Static` whose :meth:`show` lays the screen out only when it must."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        # (width, height) of the content as the last layout asked it: what the screen's
        # arrangement holds, whatever has been shown since.
        self.laid_out: tuple[int, int] | None = None

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """Textual's answer, noted as the one the layout now holds."""
        height = super().get_content_height(container, viewport, width)
        self.laid_out = (width, height)
        return height

    def show(self, content: RenderableType) -> None:
        """Show ``content`` (a :class:`Text` as Static shows it, anything else drawn once).
        The screen is laid out again only when the content's height differs from the one
        the last layout gave it, or the panel was never laid out at its width; a hidden
        panel is laid out when it is shown (a change of ``display`` lays out)."""
        self.update(content if isinstance(content, Text) else DrawnOnce(self, content),
                    layout=False)
        if not self.display:
            return
        width = self.content_size.width
        if not width or self.laid_out != (width, self.height_at(width)):
            self.refresh(layout=True)

    def height_at(self, width: int) -> int:
        """The content's height at ``width`` (kept by Textual for the next layout), not
        noted as laid out."""
        return super().get_content_height(self.container_size, self.screen.size, width)


class SteadyTitle(HeaderTitle):
    """The header's title, one line whatever it says: a new one lays nothing out."""

    def update(self, content: VisualType = "", *, layout: bool = False) -> None:
        super().update(content, layout=False)


class SteadyHeader(Header):
    """Textual's header, but its title changes (at every step: game, deal, trick, step)
    repaint the title only, where Textual's lay the whole screen out again."""

    def compose(self) -> ComposeResult:
        for widget in super().compose():
            yield SteadyTitle() if isinstance(widget, HeaderTitle) else widget
