"""The server keeps its analyses out of the cycle collector's walks (issue 27)."""

from __future__ import annotations

import asyncio
import gc
from pathlib import Path

from allfours_notation.lsp.document import Analyzer
from allfours_notation.lsp.heap import HeapKeeper

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


class _Cycle:
    """An object that refers to itself: garbage only the cycle collector frees."""

    def __init__(self) -> None:
        self.me = self


def test_a_settled_heap_is_frozen_and_an_idle_sweep_frees_its_cycles() -> None:
    async def session() -> tuple[int, int, int]:
        keeper = HeapKeeper(idle=0.01)
        swept = asyncio.Event()
        sweep = keeper.sweep

        def noted_sweep() -> int:
            found = sweep()
            swept.set()
            return found

        keeper.sweep = noted_sweep  # type: ignore[method-assign]
        _Cycle()  # garbage at once, but in a cycle
        keeper.settle()
        frozen = gc.get_freeze_count()
        gc.collect()  # an ordinary collection cannot see frozen garbage
        kept = _frozen_cycles()
        async with asyncio.timeout(30):
            await swept.wait()  # the idle sweep, once nothing else comes
        return frozen, kept, _frozen_cycles()

    try:
        frozen, kept, after_sweep = asyncio.run(session())
    finally:
        gc.freeze()  # the suite's state: what collection made stays frozen (conftest)
    assert frozen > 0
    assert kept == 1
    assert after_sweep == 0


def _frozen_cycles() -> int:
    """How many :class:`_Cycle` objects are still alive (frozen or not)."""
    gc.unfreeze()
    try:
        return sum(1 for thing in gc.get_objects() if isinstance(thing, _Cycle))
    finally:
        gc.freeze()


def test_a_change_postpones_the_sweep() -> None:
    async def session() -> tuple[bool, bool]:
        keeper = HeapKeeper()
        keeper.settle()
        armed = keeper.sweep_pending
        keeper.postpone()  # typing again
        return armed, keeper.sweep_pending

    try:
        assert asyncio.run(session()) == (True, False)
    finally:
        gc.freeze()


def test_analyses_leave_no_cyclic_garbage() -> None:
    """What a freeze hides is garbage in cycles; the analyses, even of broken text,
    make none, so freezing them between sweeps holds no memory back."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in sorted(SAMPLES.glob("*.afn")))

    def analyse_all() -> None:
        analyzer = Analyzer()
        analyzer.analyse(text)
        for at in range(0, len(text), max(1, len(text) // 25)):
            analyzer.analyse(text[:at] + "{" + text[at:])  # a comment left open: errors

    # Once first: the first analyses import modules lazily (the parser, the slips'
    # finder), and importing a slotted dataclass leaves its first draft of the class as
    # garbage once; run alone, this test would count that import and not the analyses.
    analyse_all()
    gc.collect()
    gc.disable()
    try:
        analyse_all()
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0
