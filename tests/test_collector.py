"""allfours_notation.collector: the one place that pauses the cycle collector."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from allfours_notation import collector
from allfours_notation.collector import cyclic_gc_paused, frozen_when_done


@pytest.fixture(autouse=True)
def collector_restored(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Each test starts with nothing frozen (the suite's set-up freezes what collection made,
    tests/conftest.py), nor seen frozen by the module, and leaves the collector as it found
    it, frozen heap included."""
    monkeypatch.setattr(collector, "_frozen_seen", False)
    was_enabled = gc.isenabled()
    was_frozen = gc.get_freeze_count() > 0
    gc.unfreeze()
    yield
    gc.unfreeze()
    if was_frozen:
        gc.freeze()
    if was_enabled:
        gc.enable()
    else:
        gc.disable()


def test_a_block_runs_paused_and_the_collector_runs_again_after() -> None:
    gc.enable()
    with cyclic_gc_paused() as pausing:
        assert pausing and not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_runs_again_after_a_block_that_failed() -> None:
    gc.enable()
    with pytest.raises(ValueError), cyclic_gc_paused():
        raise ValueError
    assert gc.isenabled()


def test_a_caller_s_pause_is_kept_inside_and_after() -> None:
    gc.disable()
    with cyclic_gc_paused() as pausing:
        assert not pausing and not gc.isenabled()
    assert not gc.isenabled()


def test_what_the_block_made_is_frozen_when_it_is_done() -> None:
    gc.enable()
    with frozen_when_done():
        assert not gc.isenabled()
        made = [[index] for index in range(1_000)]
    assert gc.isenabled() and gc.get_freeze_count() >= len(made)


def test_nothing_is_frozen_where_the_caller_paused_or_froze_the_collector() -> None:
    gc.disable()
    with frozen_when_done():
        pass
    assert gc.get_freeze_count() == 0 and not gc.isenabled()
    gc.enable()
    gc.freeze()
    frozen_before = gc.get_freeze_count()
    with frozen_when_done():
        assert gc.isenabled()  # left alone: the caller froze the heap already
        kept = [[index] for index in range(1_000)]
    assert gc.get_freeze_count() == frozen_before and kept


def test_a_frozen_heap_once_seen_is_not_counted_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """Counting the frozen objects walks them all: after the first block froze the heap,
    the next blocks do not count them (a test process holds some 200,000)."""
    gc.enable()
    with frozen_when_done():
        pass
    assert gc.get_freeze_count() > 0

    def counted() -> int:
        raise AssertionError("the frozen objects were counted again")

    monkeypatch.setattr(gc, "get_freeze_count", counted)
    with frozen_when_done():
        assert gc.isenabled()  # left alone: frozen already
