"""How often Textual's Pilot looks whether the app has gone idle, in the tests only.

Pilot waits for the app to go idle after every key it presses (twice: before and after
any animation) and in every :meth:`~textual.pilot.Pilot.pause`.  It does so in
``textual._wait.wait_for_idle``, which sleeps ``SLEEP_GRANULARITY`` seconds (1/50) at a
time and calls the app idle once the process used less than ``SLEEP_IDLE`` seconds of CPU
(1/1000, 5% of it) in one such sleep.  So every key costs at least 40 ms of wall time
however little the app has to do, and the Pilot tests spent more than a third of their
wall time asleep in these looks.

:func:`quicken` makes each look ten times shorter and keeps the ratio (2 ms, idle under
0.1 ms of CPU in it: still 5%): the app is called idle on the same criterion, only found
so sooner.  The app still runs every message it was sent before Pilot goes on (Pilot's
``_wait_for_screen`` after every key and pause sees to that, not this sleep), and the
tests wait for what they check with :mod:`tests.waiting`, never on this timing.

``textual._wait`` is Textual's private module (the names are the same from Textual 7.0,
the lowest version ``pyproject.toml`` allows, to 8.2): if it or either name is missing,
or not a number, as another version might have it, nothing is changed and Pilot waits
as Textual made it.  Nothing outside Pilot uses these names; the apps run as shipped.

``tests/conftest.py`` calls :func:`quicken` once collection is over, in every process
that runs tests: the Pilot tests' modules import Textual as they are collected, and a
run without them does not import Textual for this.
"""

from __future__ import annotations

import sys

# Textual's own values are 1/50 and 1/50 / 20.
GRANULARITY_SECONDS = 0.002
IDLE_CPU_SECONDS = GRANULARITY_SECONDS / 20


def quicken() -> bool:
    """Shorten Pilot's looks for an idle app (see the module's docstring) if Textual is
    imported; whether done."""
    wait = sys.modules.get("textual._wait")
    if wait is None:
        return False
    names = ("SLEEP_GRANULARITY", "SLEEP_IDLE")
    if not all(isinstance(getattr(wait, name, None), float) for name in names):
        return False
    # setattr: to mypy the module is a ModuleType, without these names
    setattr(wait, "SLEEP_GRANULARITY", GRANULARITY_SECONDS)  # noqa: B010
    setattr(wait, "SLEEP_IDLE", IDLE_CPU_SECONDS)  # noqa: B010
    return True
