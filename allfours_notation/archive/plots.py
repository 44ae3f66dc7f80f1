"""Charts of a :class:`~.stats.Summary` with matplotlib (the optional ``[plots]`` extra).

One figure, three panels side by side: the score of one game deal by deal,
the items (High, Low, Jack, Game …) each player took, and the standings over
the season (wins, game after game, in date order).  matplotlib is imported only
here and only when a plot is asked for; :class:`PlotsUnavailable` says how to
install it when it is missing.
"""

from __future__ import annotations

from pathlib import Path

from .stats import GameLine, Summary

FIGURE_INCHES = (15.0, 5.0)
DPI = 100  # so a PNG is 1500 × 500 pixels
ITEMS = (("high", "High"), ("low", "Low"), ("jack", "Jack"), ("game", "Game"),
         ("hang_jack", "Hanged"), ("kicks", "Kicks"), ("gifts", "Gifts"))
MOST_PLAYERS = 10  # more would make the charts unreadable: those with most games (or wins)


class PlotsUnavailable(Exception):
    """matplotlib is not installed."""


def save_plots(summary: Summary, path: str | Path, *, game: int = 1) -> None:
    """Draw the three panels into ``path`` (PNG or SVG, by its suffix).  ``game`` is
    the place (1-based, in date order) of the game whose score progression is drawn."""
    try:
        import matplotlib
    except ImportError as error:
        raise PlotsUnavailable(
            "plots need matplotlib: pip install 'allfours-notation[plots]' "
            "(or pip install matplotlib)") from error
    matplotlib.use("Agg")  # no display needed, and the same pixels everywhere
    import matplotlib.pyplot as plt

    figure, (progress, items, season) = plt.subplots(1, 3, figsize=FIGURE_INCHES, dpi=DPI)
    try:
        lines = summary.games
        _progression(progress, lines[game - 1] if 0 < game <= len(lines) else None)
        _items(items, summary)
        _season(season, lines)
        figure.tight_layout()
        import io

        from ..safe_write import replace_file

        # written whole, through a symlink, keeping the old file's mode (safe_write)
        drawn = io.BytesIO()
        figure.savefig(drawn, dpi=DPI, metadata=_metadata(str(path)),
                       format="svg" if str(path).lower().endswith(".svg") else "png")
        replace_file(path, drawn.getvalue())
    finally:
        plt.close(figure)


def _metadata(path: str) -> dict[str, str | None]:
    # No creation date or tool version in the file: the same games draw the same bytes.
    if path.lower().endswith(".svg"):
        return {"Date": None, "Creator": None}
    return {"Software": None}


def _progression(axes: object, line: GameLine | None) -> None:
    from matplotlib.axes import Axes

    assert isinstance(axes, Axes)
    if line is None:
        axes.set_title("Score progression: no game")
        return
    for side, name in line.sides:
        values = [0] + [dict(after).get(side, 0) for after in line.progression]
        axes.step(range(len(values)), values, where="post", label=name, linewidth=2)
    axes.set_title(f"Score, deal by deal: {line.label}", fontsize=10)
    axes.set_xlabel("deal")
    axes.set_ylabel("points")
    axes.legend(fontsize=8, title=f"winner: {line.winner or 'none yet'}",
                title_fontsize=8)
    axes.grid(alpha=0.3)
    _whole_numbers(axes, both=True)


def _whole_numbers(axes: object, *, both: bool = False) -> None:
    """Deals, points and wins are counted: no tick at 2.5."""
    from matplotlib.axes import Axes
    from matplotlib.ticker import MaxNLocator

    assert isinstance(axes, Axes)
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    if both:
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))


def _items(axes: object, summary: Summary) -> None:
    from matplotlib.axes import Axes

    assert isinstance(axes, Axes)
    totals: dict[str, dict[str, float]] = {}
    for profile in summary.profiles:
        for row in profile.players:
            mine = totals.setdefault(row.name, {})
            for key, _ in (*ITEMS, ("games", "")):
                mine[key] = mine.get(key, 0) + row.get(key)
    names = sorted(totals, key=lambda n: (-totals[n]["games"], n))[:MOST_PLAYERS]
    bottom = [0.0] * len(names)
    for key, label in ITEMS:
        heights = [totals[name][key] for name in names]
        axes.bar(names, heights, bottom=bottom, label=label)
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    axes.set_title("Items taken, per player", fontsize=10)
    axes.set_ylabel("times")
    axes.tick_params(axis="x", labelrotation=30, labelsize=8)
    for tick in axes.get_xticklabels():
        tick.set_horizontalalignment("right")
    _whole_numbers(axes)
    axes.legend(fontsize=8, ncols=2)


def _season(axes: object, lines: tuple[GameLine, ...]) -> None:
    from matplotlib.axes import Axes

    assert isinstance(axes, Axes)
    names = list(dict.fromkeys(name for line in lines for _, name in line.sides))
    won = dict.fromkeys(names, 0)
    played = dict.fromkeys(names, 0)
    series: dict[str, list[int]] = {name: [] for name in names}
    for line in lines:
        for _, name in line.sides:
            played[name] += 1
            won[name] += name == line.winner
        for name in names:
            series[name].append(won[name])
    top = sorted(names, key=lambda n: (-won[n], -played[n], n))[:MOST_PLAYERS]
    for name in top:
        axes.step(range(1, len(lines) + 1), series[name], where="post", label=name)
    axes.set_title("Standings over the season (wins)", fontsize=10)
    axes.set_xlabel("game, in date order")
    axes.set_ylabel("wins")
    if top:
        axes.legend(fontsize=8)
    axes.grid(alpha=0.3)
    _whole_numbers(axes, both=True)
