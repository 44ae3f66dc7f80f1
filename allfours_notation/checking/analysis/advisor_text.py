"""The advisor's answer in words: what ``allfours advise`` prints, the viewer's advice
panel and the replay page show."""

from __future__ import annotations

import math

from .advisor import ADVISOR_CAVEAT, Advice, Estimate

__all__ = ["advice_lines", "advice_text"]


def _estimate(value: Estimate, *, percent: bool) -> str:
    if math.isnan(value.mean):
        return "not solved"
    scale = 100 if percent else 1
    se = "" if math.isnan(value.se) else f" ± {value.se * scale:.{1 if percent else 2}f}"
    unit = "%" if percent else ""
    return f"{value.mean * scale:.{1 if percent else 2}f}{unit}{se}"


def advice_text(advice: Advice) -> str:
    """The advice in words, as ``allfours advise`` prints it (and the viewer shows it)."""
    return "\n".join(advice_lines(advice))


def advice_lines(advice: Advice) -> list[str]:
    """:func:`advice_text` line by line, short enough for a side panel of the viewer: per
    option a line of the advised side's chance of winning (with K) and one of each side's
    expected points."""
    pos = advice.position
    lines = [f"{pos.seat.letter} ({pos.role}) holds {' '.join(str(c) for c in pos.hand)}; "
             f"turn-up {pos.turnup}; score "
             f"{', '.join(f'{side} {points}' for side, points in pos.scores)}; "
             f"target {pos.options.target}"]
    if advice.decided is not None:
        lines.append(f"the turn-up decides the game: {advice.decided} is out; nothing to choose")
        return lines
    side = pos.side
    for option in advice.options:
        win = dict(option.win)[side]
        mark = "  <- best" if option.option == advice.best else ""
        lines.append(f"{option.option + ':':<7} {side} wins {_estimate(win, percent=True)} "
                     f"(K={win.samples}){mark}")
        points = ", ".join(f"{s} {_estimate(e, percent=False)}" for s, e in option.points)
        lines.append(f"        points {points}")
        notes = []
        if option.answers:
            notes.append("the dealer " + ", ".join(f"{word} in {n}" for word, n in option.answers))
        if option.unsolved:
            notes.append(f"{option.unsolved} deal(s) not solved in time, left out")
        if notes:
            lines.append("        " + "; ".join(notes))
    lines.append(f"{ADVISOR_CAVEAT}; seed {advice.seed}, dealer's samples "
                 f"{advice.dealer_samples}, later deals {advice.later}")
    return lines
