"""``@frozen`` makes what ``@dataclass(frozen=True, slots=True)`` makes (issue 27): every
case here is run on a class made each way and must come out the same."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
import re
from collections.abc import Callable
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any

import pytest

from allfours_notation.frozen import frozen


def _standard(cls: type | None = None, /, **options: bool) -> Any:
    made = dataclass(frozen=True, slots=True, **options)
    return made if cls is None else made(cls)


def _classes(make: Callable[..., Any]) -> dict[str, Any]:
    """The same class bodies, decorated by ``make``."""

    @make
    class Plain:
        """Positional fields, a default, a factory, fields left out of eq and repr."""

        number: int
        text: str = "a"
        items: list[int] = field(default_factory=list, compare=False)
        note: int | None = field(default=None, repr=False)

    @make(kw_only=True)
    class Base:
        """A base of keyword-only fields."""

        leading: tuple[str, ...] = ()
        span: object = field(default=None, compare=False, repr=False)

    @make(kw_only=True)
    class Child(Base):
        """Fields added to a base's."""

        name: str
        value: str = "v"

    @make(order=True)
    class Ordered:
        """Ordered on its fields."""

        first: int
        second: int

    @make
    class One:
        """One field: compared and hashed as a one-tuple."""

        value: object

    @make
    class Empty:
        """No fields at all."""

    @make
    class OwnEquality:
        """Writes __eq__ and no __hash__: the dataclass's hash still comes."""

        value: int

        def __eq__(self, other: object) -> bool:
            return True

    return {"Plain": Plain, "Child": Child, "Ordered": Ordered, "One": One, "Empty": Empty,
            "OwnEquality": OwnEquality}


STANDARD, FROZEN = _classes(_standard), _classes(frozen)
# pickle finds the classes by module and name
globals().update({f"_{name}_standard": cls for name, cls in STANDARD.items()})
globals().update({f"_{name}_frozen": cls for name, cls in FROZEN.items()})
for _name, _cls in [*STANDARD.items(), *FROZEN.items()]:
    _cls.__qualname__ = next(key for key, value in globals().items() if value is _cls)


def _errors(action: Callable[[], object]) -> str:
    try:
        return repr(action())
    except Exception as error:  # the message is what is compared, less the class's path
        message = re.sub(r"[\w.<>]*__init__", "__init__", str(error))
        return f"{type(error).__name__}: {message}"


def _behaviour(classes: dict[str, Any]) -> list[object]:
    plain, child, ordered, one, empty, own = (classes[name] for name in (
        "Plain", "Child", "Ordered", "One", "Empty", "OwnEquality"))
    first, same, other = plain(1), plain(1, "a", [2]), plain(2, text="b", note=3)
    made_child = child(name="x", span=5)
    seen: list[object] = [
        repr(first).partition("(")[2], repr(other).partition("(")[2],
        first == same, first == other, first != other, hash(first) == hash(same),
        hash(first) == hash((1, "a", None)), plain.__slots__, plain.__match_args__,
        hasattr(first, "__dict__"), _errors(lambda: setattr(first, "number", 3)),
        _errors(lambda: delattr(first, "number")),
        pickle.loads(pickle.dumps(other)) == other, copy.deepcopy(other) == other,
        repr(dataclasses.replace(other, number=5)).partition("(")[2], dataclasses.asdict(other),
        [f.name for f in dataclasses.fields(plain)], dataclasses.is_dataclass(plain),
        _errors(lambda: plain()), _errors(lambda: plain(1, 2, 3, 4, 5)),
        _errors(lambda: plain(1, nothing=2)),
        repr(made_child).partition("(")[2], made_child == child(name="x"),
        hash(made_child) == hash(child(name="x")), child.__match_args__,
        _errors(lambda: child("x")), pickle.loads(pickle.dumps(made_child)).span,
        [(o.first, o.second) for o in sorted([ordered(2, 1), ordered(1, 5), ordered(1, 2)])],
        ordered(1, 2) < ordered(1, 3), ordered(1, 2) >= ordered(1, 2),
        _errors(lambda: ordered(1, 2) < 3),
        one(float("nan")) == one(float("nan")), hash(one(5)) == hash((5,)),
        empty() == empty(), hash(empty()) == hash(()), own(1) == own(2),
        hash(own(1)) == hash((1,)), plain.__init__.__annotations__,
        plain.__init__.__qualname__.split(".")[-1], plain.__doc__,
    ]
    return seen


def test_frozen_records_behave_as_frozen_slotted_dataclasses() -> None:
    assert _behaviour(FROZEN) == _behaviour(STANDARD)


def test_the_signature_is_the_dataclass_one_before_and_after_the_first_record() -> None:
    frozen_base: Any = FROZEN["Child"]
    standard_base: Any = STANDARD["Child"]

    @frozen(kw_only=True)
    class Fresh(frozen_base):  # type: ignore[misc]
        """Nothing made of it before its signature is asked."""

        extra: int = 0

    @_standard(kw_only=True)
    class Standard(standard_base):  # type: ignore[misc]
        """The same, by dataclass."""

        extra: int = 0

    wanted = str(inspect.signature(Standard))
    assert str(inspect.signature(Fresh)) == wanted
    Fresh(name="x")
    assert str(inspect.signature(Fresh)) == wanted


def test_init_is_compiled_at_the_first_record_made_not_on_definition() -> None:
    @frozen
    class Late:
        """Made once below."""

        value: int

    assert not hasattr(Late.__dict__["__init__"], "__code__")  # nothing compiled yet
    assert Late(3).value == 3
    assert Late.__init__.__code__.co_filename == "<string>"  # the one dataclass would write
    assert Late(4).value == 4


def test_a_record_needs_a_docstring() -> None:
    with pytest.raises(TypeError, match="docstring"):
        @frozen
        class Bare:
            value: int


def test_defaults_before_non_defaults_fail_on_definition_as_in_dataclass() -> None:
    with pytest.raises(TypeError, match="non-default argument 'second'"):
        @frozen
        class Wrong:
            """A default, then none."""

            first: int = 0
            second: int  # type: ignore[misc]  # mypy sees it too


def test_the_frozen_guards_are_not_overwritten() -> None:
    with pytest.raises(TypeError, match="__setattr__"):
        @frozen
        class Guarded:
            """Writes its own guard."""

            value: int

            def __setattr__(self, name: str, value: object) -> None:
                pass


def test_a_frozen_record_refuses_assignment() -> None:
    record = FROZEN["Plain"](1)
    with pytest.raises(FrozenInstanceError):
        record.number = 2


def test_what_frozen_does_not_make_is_refused_on_definition() -> None:
    """A ``__post_init__``, a field left out of ``__init__`` and an ``InitVar`` would be
    honoured by ``dataclass`` and ignored by ``@frozen``'s ``__init__``: refused, never
    made quietly wrong."""
    with pytest.raises(TypeError, match="__post_init__"):
        @frozen
        class Checked:
            """Checks itself after init."""

            value: int

            def __post_init__(self) -> None:
                pass

    with pytest.raises(TypeError, match="derived"):
        @frozen
        class Derived:
            """One field made, not given."""

            value: int
            derived: int = field(init=False, default=0)

    with pytest.raises(TypeError, match="seed"):
        @frozen
        class Seeded:
            """An init-only value."""

            value: int
            seed: dataclasses.InitVar[int]


def test_a_record_of_three_fields_or_more_is_made_as_its_draft() -> None:
    """From three fields a record's ``__init__`` fills its draft and makes it the record
    (issue 38): the record is of its own class, equal and shown as it should be, frozen,
    its defaults and factories applied, copied as before; a plain subclass that inherits
    the ``__init__`` keeps its own class (it is filled through the slots' descriptors)."""
    from allfours_notation.frozen import draft_of

    @frozen
    class Wide:
        """Four fields, a default and a factory."""

        first: int
        second: str
        third: tuple[int, ...] = ()
        fourth: list[int] = field(default_factory=list)

    made = Wide(1, "a")
    assert type(made) is Wide and type(made) is not draft_of(Wide)
    assert (made.first, made.second, made.third, made.fourth) == (1, "a", (), [])
    assert made == Wide(1, "a", (), []) and made != Wide(2, "a")
    assert repr(made).endswith("Wide(first=1, second='a', third=(), fourth=[])")
    assert Wide(1, "a").fourth is not made.fourth  # a fresh list each time
    with pytest.raises(FrozenInstanceError):
        made.first = 2  # type: ignore[misc]
    assert copy.deepcopy(made) == made and type(copy.copy(made)) is Wide

    class Narrower(Wide):
        """A plain subclass: Wide's __init__, its own class kept."""

        __slots__ = ()

    sub = Narrower(3, "b", (4,))
    assert type(sub) is Narrower and (sub.first, sub.second, sub.third) == (3, "b", (4,))
    with pytest.raises(FrozenInstanceError):
        sub.second = "c"  # type: ignore[misc]
