"""The shape of one row of the analysis cache: what :func:`~.data.to_json` writes, checked
before :func:`~.data.from_json` reads it.

The cache is a file on disk: anything may be in it (an older toolkit's rows, a torn
write, a hand edit, another program's).  A row is used only if every field has the
type and the range the report needs (a two-sided deal has two sides, a card is a card,
a seat a seat, every text printable); anything else is not a row of ours, and the deal
is solved again (and its row replaced).  :func:`valid_row` never raises, whatever the
value.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, TypeGuard

from ...cards import Seat, parse_card
from ...reading.records import ClaimItem

__all__ = ["valid_row"]

Check = Callable[[Any], bool]
_SEATS = frozenset(seat.letter for seat in Seat)
_ITEMS = frozenset(item.value for item in ClaimItem)
_BIGGEST = 2 ** 53  # far past any count of points, cards or nodes, and exact as a float
_LONGEST_TEXT = 10_000


def _integer(value: Any) -> bool:
    return type(value) is int and -_BIGGEST < value < _BIGGEST


def _number(value: Any) -> bool:
    return type(value) in (int, float) and math.isfinite(value) and 0 <= value < _BIGGEST


def _boolean(value: Any) -> bool:
    return type(value) is bool


def _text(value: Any) -> bool:
    """Printable text: it is printed on a terminal and written into a record."""
    return type(value) is str and len(value) <= _LONGEST_TEXT and value.isprintable()


def _comment_text(value: Any) -> bool:
    """Text written into a ``{ comment }`` of a record: no brace may close it early."""
    return _text(value) and "{" not in value and "}" not in value


def _seat(value: Any) -> bool:
    return type(value) is str and value in _SEATS


def _card(value: Any) -> bool:
    return type(value) is str and len(value) <= 3 and parse_card(value) is not None


def _play(value: Any) -> bool:
    if type(value) is not str or ":" not in value:
        return False
    seat, name = value.split(":", 1)
    return _seat(seat) and _card(name)


def _optional(check: Check) -> Check:
    return lambda value: value is None or check(value)


def _list_of(check: Check) -> Check:
    return lambda value: type(value) is list and all(check(item) for item in value)


def _points_by_side(value: Any) -> bool:
    return type(value) is dict and all(_text(k) and _integer(v) for k, v in value.items())


def _fields(shape: Mapping[str, Check]) -> Check:
    """A JSON object with every field of ``shape`` (more are allowed), each passing its
    check."""
    return lambda value: type(value) is dict and all(
        name in value and check(value[name]) for name, check in shape.items())


_POINT = _fields({
    "side": _text, "seat": _optional(_seat), "points": _integer, "reason": _text,
    "item": lambda value: type(value) is str and value in _ITEMS,
})
_VERDICT = _fields({
    "index": _integer, "trick": _integer, "seat": _seat, "card": _card, "legal": _boolean,
    "before": _integer, "after": _integer, "loss": _integer, "points_lost": _integer,
    "better": _optional(_card), "better_after": _optional(_integer),
    "reason": _comment_text,
})
_ROW = _fields({
    "deal": _integer, "label": _text, "solved": _boolean, "note": _text,
    "sides": _list_of(_text), "par": _points_by_side, "par_value": _optional(_integer),
    "actual": _points_by_side, "actual_items": _list_of(_POINT), "fixed": _list_of(_POINT),
    "recorded": _list_of(_POINT),
    "best_line": _list_of(_play), "checked": _boolean, "seconds": _number,
    "nodes": _integer, "time_limit": _optional(_number), "cards": _list_of(_VERDICT),
})


def valid_row(data: Any) -> TypeGuard[dict[str, Any]]:
    """Whether ``data`` (decoded JSON) is a row :func:`~.data.from_json` may read and the
    report may print: every field of :func:`~.data.to_json`, of its type, and two or
    three sides where there are any (the report pairs two sides, or lists three)."""
    return bool(_ROW(data)) and len(data["sides"]) in (0, 2, 3)
