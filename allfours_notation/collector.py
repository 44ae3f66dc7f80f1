"""Python's cyclic garbage collector paused where it can only waste time.

The package's records are immutable trees with no reference cycles, so the cycle
collector never finds anything to free in them; yet as they pile up it walks all of
them again and again (over 40% of ``parse()``'s time on a 3 MB file; about a sixth
of ``check``'s, game by game).  Reference counting still frees everything as usual.
This module is the one place that pauses the collector, for a block
(:func:`cyclic_gc_paused`) or for a command line's imports, which it then freezes
(:func:`frozen_when_done`).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def cyclic_gc_paused() -> Iterator[bool]:
    """The collector paused for the block, and running again as soon as it ends.

    Yields whether this block paused it: a caller that had paused it already keeps it
    paused, and it stays so after the block."""
    if not gc.isenabled():
        yield False
        return
    gc.disable()
    try:
        yield True
    finally:
        gc.enable()


# Whether this module has frozen the heap, or seen it frozen, already: asking
# ``gc.get_freeze_count()`` walks every frozen object (about 30 ms of CPU with 200,000
# frozen, as in a test process after collection), which a process calling ``main()``
# again and again (a test suite, a tool) would otherwise pay on every call.
_frozen_seen = False


@contextmanager
def frozen_when_done() -> Iterator[None]:
    """The block run with the collector paused, and everything then alive frozen
    (``gc.freeze``): out of its reach for the rest of the process.

    For what lives as long as the process: importing a command and the floors under it
    makes tens of thousands of objects (modules, classes, functions, enums), and the
    collections their making set off, the full ones while the command ran and the one
    Python makes at exit walked all of them and found nothing to free: about 8% of a
    one-game check's instructions (issue 27).  Done once in a process, and not where a
    caller paused or froze the collector itself.  Once it has seen a frozen heap it does
    not ask again (see :data:`_frozen_seen`): a caller that unfreezes the heap later is
    not frozen for anew."""
    global _frozen_seen
    if _frozen_seen or gc.get_freeze_count():
        _frozen_seen = True
        yield
        return
    with cyclic_gc_paused() as pausing:
        yield
        if pausing:
            gc.freeze()
            _frozen_seen = True
