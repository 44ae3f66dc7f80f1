"""The viewer's advice panel (key 8): at a call of the replayed game (a stand or beg, a
gift or a run), what ``allfours advise`` would have said there.

Nothing is computed until the panel is shown on a call; then the call is advised in a
worker thread (a few seconds) and kept for the session.  The advice is built from the
caller's hand as dealt, the turn-up and the score before the deal (the advisor samples
everything else), so it is hidden while kibitzing, which would show the caller's hand.
The recorder never shows it: it is the replay view's panel only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .messages import AdviceReady
from .widgets.advice import AdvicePanel

if TYPE_CHECKING:
    from allfours_notation.checking.analysis.advisor_calls import CallPoint

    from .app import ViewerApp

# Fewer deals than ``allfours advise`` (100), a shorter limit a deal: an answer in tens of
# seconds at worst (a two-handed call, keep_all: about 30 s of CPU), in a worker
VIEWER_SAMPLES = 20
VIEWER_DEALER_SAMPLES = 2
VIEWER_LATER = 32
VIEWER_TIME_LIMIT = 0.5


def calls_of(app: ViewerApp) -> dict[int, CallPoint]:
    """The calls of the game on screen by step (found once per game)."""
    entry = app.entry
    key = app.game_position
    if entry is None or key is None:
        return {}
    found = app.advice_calls.get(key)
    if found is None:
        from allfours_notation.checking.analysis.advisor_calls import call_points

        found = app.advice_calls[key] = {p.step: p for p in call_points(entry.replay)}
    return found


def show_advice(app: ViewerApp) -> None:
    """The advice at the current step, advised first if need be (in a worker)."""
    panel = app.query_one(AdvicePanel)
    entry = app.entry
    if entry is None or not entry.steps or app.game_position is None:
        panel.show_nothing("No game to advise on.")
        return
    if app.kibitz is not None:
        panel.show_nothing("Hidden while kibitzing: the advice reads the caller's hand.")
        return
    calls = calls_of(app)
    point = calls.get(app.step)
    if point is None:
        steps = sorted(calls)
        later = [s for s in steps if s > app.step]
        where = f" (the next at step {later[0] + 1})" if later else ""
        panel.show_nothing("Step to a call — a stand, a beg, a gift or a run — to see what "
                           f"the advisor would have said there{where}.")
        return
    if point.position is None:
        panel.show_nothing(f"{point.seat.letter} {point.call.value}: no advice, "
                           f"{point.why_not}.")
        return
    key = (app.game_position, point.step)
    lines = app.advice_found.get(key)
    if lines is None:
        panel.show_waiting(f"{point.seat.letter}'s call in deal {point.deal}")
        if app.advising != key:
            app.advising = key
            advise_in_worker(app, point, key, app.generation)
        return
    panel.show(lines)


def advise_in_worker(app: ViewerApp, point: CallPoint, key: tuple[int, int],
                     generation: int) -> None:
    def work() -> None:
        from allfours_notation.checking.analysis.advisor import advise
        from allfours_notation.checking.analysis.advisor_text import advice_lines

        assert point.position is not None
        advice = advise(point.position, samples=VIEWER_SAMPLES, seed=0,
                        dealer_samples=VIEWER_DEALER_SAMPLES, later=VIEWER_LATER,
                        time_limit=VIEWER_TIME_LIMIT)
        lines = [f"{point.seat.letter} {point.call.value}; the advisor:",
                 *advice_lines(advice)]
        app.post_message(AdviceReady(generation, key, lines))

    app.run_worker(work, thread=True, exclusive=True, group="advice")


def advice_ready(app: ViewerApp, message: AdviceReady) -> None:
    if message.generation != app.generation:
        return
    app.advice_found[message.key] = message.lines
    if app.advising == message.key:
        app.advising = None
    if app.panel == "advice":
        show_advice(app)
