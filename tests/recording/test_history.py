"""The undo history keeps each state as the change from the next: the states come back
exactly as they went in, and a long game's history stays small."""

from __future__ import annotations

import random
import sys

import pytest

from allfours_notation.recording.history import History


def test_states_come_back_in_order_as_a_list_would_give_them() -> None:
    rng = random.Random(39)
    history: History[int] = History()
    model: list[tuple[int, ...]] = []
    state: tuple[int, ...] = ()
    for _ in range(400):
        move = rng.random()
        if move < 0.6:  # a change: mostly one more entry, sometimes an earlier one replaced
            cut = len(state) if rng.random() < 0.8 else rng.randrange(len(state) + 1)
            state = (*state[:cut], rng.randrange(5))
            history.append(state)
            model.append(state)
        elif move < 0.8 and model:
            assert history.top() == model[-1]
            assert history.pop() == model.pop()
        elif move < 0.9 and len(model) >= 2:
            history.replace_top(2, state[:-1])
            model[-2:] = [state[:-1]]
        assert len(history) == len(model) and bool(history) == bool(model)
        assert list(history) == model
    history.clear()
    assert not history and list(history) == []


def test_an_empty_history_refuses_to_pop() -> None:
    history: History[int] = History()
    with pytest.raises(IndexError):
        history.pop()
    with pytest.raises(IndexError):
        history.top()


def test_a_game_of_entries_added_one_by_one_keeps_a_few_bytes_a_state() -> None:
    history: History[object] = History()
    state: tuple[object, ...] = ()
    for _ in range(1000):
        history.append(state)
        state = (*state, object())
    # kept whole, the thousand states would hold half a million references (4 MB)
    kept = sum(sys.getsizeof(own) for _, own in history._steps)
    assert kept < 100 * 1000
    assert len(history.top()) == 999
