"""``@frozen``: a frozen, slotted dataclass that costs little to define (issue 27).

``@frozen`` makes a class what ``@dataclass(frozen=True, slots=True)`` makes it: the
same slots and fields (``dataclasses.fields``, ``replace``, ``asdict`` and
``is_dataclass`` see a dataclass), the same ``__init__`` signature and defaults, the
same ``__repr__``, equality and hash (over the fields compared, as tuples), ordering
with ``order=True``, ``FrozenInstanceError`` on assignment, pickling, ``__match_args__``.
Methods written in the class body are kept, as ``dataclass`` keeps them.  Two small
differences: a record must have a docstring (``dataclass`` would make one from the
signature, which is compiled later here), and assigning a name that is not a field
raises ``FrozenInstanceError`` too, where 3.11's slotted dataclass raised a TypeError.

What differs is the price of the definition.  CPython 3.11's ``dataclass`` writes the
source of six methods per frozen class and compiles each, about 0.6 ms a class: a
quarter of a one-game ``allfours check``'s instructions (634 -> 472 M) went on the 50
records it imports.  Here the field collection and the slots are still the standard
library's (``dataclass`` with nothing to generate), equality, hash, order, repr and the
frozen guards are shared functions over the class's field names, and ``__init__``,
the one method called hundreds of thousands of times per file, is compiled as
``dataclass`` writes it, with its speed or better (a record of three fields or more is
filled in as its draft, :func:`draft_of`), but when the class is first instantiated
through it rather than on import: many records of the package are only ever built by
their modules' factories (``reading.records.make_play``...).

``dataclass_transform`` tells type checkers the decorator makes frozen dataclasses
(mypy checks the fields, the constructor and assignments as for ``@dataclass``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import MISSING, FrozenInstanceError
from operator import attrgetter
from types import MethodType
from typing import Any, TypeVar, cast, dataclass_transform, overload

_C = TypeVar("_C", bound=type)


@overload
def frozen(cls: _C, /) -> _C: ...


@overload
def frozen(*, kw_only: bool = False, order: bool = False,
           init: bool = True) -> Callable[[_C], _C]: ...


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, dataclasses.Field))
def frozen(cls: _C | None = None, /, *, kw_only: bool = False, order: bool = False,
           init: bool = True) -> _C | Callable[[_C], _C]:
    """``@dataclass(frozen=True, slots=True, kw_only=…, order=…, init=…)``, defined cheaply
    (see the module's docstring).  ``init=False``: the class writes its own ``__init__``."""

    def wrap(cls: _C) -> _C:
        return cast(_C, _frozen_class(cls, kw_only=kw_only, order=order, init=init))

    return wrap if cls is None else wrap(cls)


def _frozen_class(cls: type, *, kw_only: bool, order: bool, init: bool) -> type:
    if not cls.__doc__:  # dataclass would make one from the signature, compiled later here
        raise TypeError(f"@frozen class {cls.__qualname__} needs a docstring")
    own = dict(cls.__dict__)
    # The standard library collects the fields (bases, kw_only, defaults) and makes the
    # slotted class; asked for no method, it compiles none.
    made: type[Any] = dataclasses.dataclass(init=False, repr=False, eq=False, kw_only=kw_only,
                                            slots=True)(cls)
    every = dataclasses.fields(made)
    _refuse_what_is_not_made(made, every)
    if init:
        _check_defaults_last(made, every)
    key = _key_of(tuple(f.name for f in every if f.compare))
    shown = tuple(f.name for f in every if f.repr)
    names = frozenset(f.name for f in every)

    def __setattr__(self: Any, name: str, value: object) -> None:
        if type(self) is made or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(made, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is made or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(made, self).__delattr__(name)

    def __repr__(self: object) -> str:
        shown_fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{type(self).__qualname__}({shown_fields})"

    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented

    def __hash__(self: object) -> int:
        return hash(key(self))

    methods: dict[str, Callable[..., Any]] = {
        "__setattr__": __setattr__, "__delattr__": __delattr__, "__repr__": __repr__,
        "__eq__": __eq__}
    if init and "__init__" not in own:
        made.__init__ = _InitOnFirstCall(made)
    if order:
        methods.update(_ordering(key))
    for name in ("__setattr__", "__delattr__", *(_ORDERING if order else ())):
        if name in own:
            raise TypeError(f"cannot overwrite attribute {name} in class {cls.__name__}")
    # A frozen dataclass is hashed on its compared fields unless the body wrote a hash
    # (a body that writes __eq__ alone leaves __hash__ None, which does not count).
    written_hash = own.get("__hash__", MISSING)
    if written_hash is MISSING or (written_hash is None and "__eq__" in own):
        own.pop("__hash__", None)
        methods["__hash__"] = __hash__
    for name, method in methods.items():
        if name not in own:
            method.__qualname__ = f"{made.__qualname__}.{name}"
            setattr(made, name, method)
    # Pickling and copying fill the slots past the frozen guards.
    for name, method in (("__getstate__", _getstate), ("__setstate__", _setstate)):
        if name not in own:
            setattr(made, name, method)
    return made


def _key_of(names: tuple[str, ...]) -> Callable[[object], tuple[Any, ...]]:
    """The fields ``names`` of a record as one tuple: what ``dataclass`` compares and
    hashes (a one-field record is hashed as a one-tuple, like theirs)."""
    if len(names) > 1:
        return attrgetter(*names)  # a tuple already, made in C
    if names:
        get = attrgetter(names[0])
        return lambda record: (get(record),)
    return lambda record: ()


def _ordering(key: Callable[[object], tuple[Any, ...]]) -> dict[str, Callable[..., Any]]:
    """``order=True``'s four comparisons: the compared fields as tuples, records of one
    class only."""

    def __lt__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return key(self) < key(other)
        return NotImplemented

    def __le__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return key(self) <= key(other)
        return NotImplemented

    def __gt__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return key(self) > key(other)
        return NotImplemented

    def __ge__(self: object, other: object) -> bool:
        if other.__class__ is self.__class__:
            return key(self) >= key(other)
        return NotImplemented

    return dict(zip(_ORDERING, (__lt__, __le__, __gt__, __ge__), strict=True))


_ORDERING = ("__lt__", "__le__", "__gt__", "__ge__")


def _getstate(self: object) -> list[Any]:
    """Pickling: the fields' values in order (a frozen record has no ``__dict__``)."""
    return [getattr(self, f.name) for f in dataclasses.fields(self)]  # type: ignore[arg-type]


def _setstate(self: object, state: list[Any]) -> None:
    """Unpickling: the fields set past the frozen guard."""
    for field, value in zip(dataclasses.fields(self), state, strict=True):  # type: ignore[arg-type]
        object.__setattr__(self, field.name, value)


def _refuse_what_is_not_made(cls: type, every: tuple[dataclasses.Field[Any], ...]) -> None:
    """Refuse, on definition, what ``dataclass`` would honour and ``@frozen`` does not make:
    a ``__post_init__`` (its ``__init__`` never calls one), an ``InitVar`` pseudo-field and
    a field left out of ``__init__`` (``field(init=False)``).  A record that needs them is
    written with ``@dataclass(frozen=True, slots=True)``; it is never quietly made wrong."""
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"@frozen class {cls.__qualname__} has a __post_init__, which "
                        "@frozen does not call: use @dataclass(frozen=True, slots=True)")
    init_vars = [name for name, kind in getattr(cls, "__annotations__", {}).items()
                 if "InitVar" in str(kind)]
    left_out = [f.name for f in every if not f.init]
    if init_vars or left_out:
        raise TypeError(f"@frozen class {cls.__qualname__}: {', '.join(init_vars + left_out)} "
                        "not a plain __init__ parameter, which @frozen does not make: "
                        "use @dataclass(frozen=True, slots=True)")


def _check_defaults_last(cls: type, every: tuple[dataclasses.Field[Any], ...]) -> None:
    """``dataclass``'s check, made on definition although ``__init__`` is compiled later."""
    defaulted = False
    for f in every:
        if f.kw_only:
            continue
        if f.default is not MISSING or f.default_factory is not MISSING:
            defaulted = True
        elif defaulted:
            raise TypeError(f"non-default argument {f.name!r} follows default argument "
                            f"in {cls.__qualname__}")


class _InitOnFirstCall:
    """A record class's ``__init__`` until its first call, which compiles the class's own
    (:func:`_compiled_init`), puts it in its place and runs it: a record only ever made
    by a factory compiles none.  ``__wrapped__`` is the compiled one, made when first
    asked, so ``inspect.signature`` shows the dataclass's parameters before any record
    is made too."""

    __slots__ = ("cls",)

    def __init__(self, cls: type) -> None:
        self.cls = cls

    def __get__(self, record: object, owner: type | None = None) -> Any:
        return self if record is None else MethodType(self, record)

    def __call__(self, record: object, *args: Any, **kwargs: Any) -> None:
        self.__wrapped__(record, *args, **kwargs)

    @property
    def __wrapped__(self) -> Callable[..., None]:
        compiled = _compiled_init(self.cls)
        type.__setattr__(self.cls, "__init__", compiled)
        return compiled


_drafts: dict[type, type] = {}


def draft_of(kind: type) -> type:
    """The draft of the immutable record class ``kind`` (made once): the same slots,
    filled in by plain attribute stores, then made a ``kind`` by setting its
    ``__class__`` (the layouts are the same, so CPython allows it).  Nothing else ever
    sees a draft.

    Why: a frozen record refuses assignment, so its slots were filled through each
    slot's descriptor (``__set__``), a call of several hundred instructions a slot; a
    draft's stores are CPython's specialised slot stores, a few dozen instructions each,
    and the two changes of class cost about what two or three descriptor calls did
    (issue 38).  A draft is typed ``Any`` while it is filled in, and returned as the
    record without ``typing.cast``, which is a call at run time."""
    found = _drafts.get(kind)
    if found is None:
        found = _drafts[kind] = type(f"_Draft{kind.__name__}", (kind,), {
            "__slots__": (), "__doc__": f"A {kind.__name__} being filled in (see draft_of).",
            # both set back to object's, so that the type's attribute store is the generic
            # one CPython specialises (one of the two left Python's keeps both in Python)
            "__setattr__": object.__setattr__, "__delattr__": object.__delattr__})
    return found


# A record's class changed past its frozen guard (the first of an __init__'s two changes).
_SET_CLASS = cast(Any, object.__dict__["__class__"]).__set__
# From this many fields a record's __init__ fills a draft: below, the two changes of
# class cost more than the descriptor calls they save.
_DRAFTED_FROM = 3


def _compiled_init(cls: type) -> Callable[..., None]:
    """The ``__init__`` ``dataclass`` would write for the frozen, slotted ``cls``: every
    field a parameter in field order (the keyword-only ones last, after ``*``), a default
    factory called when its parameter is left out.  A record of three fields or more is
    filled in as its draft (:func:`draft_of`: a replay page makes tens of thousands of
    records, issue 38), a smaller one (and a record of a subclass that inherits this
    ``__init__``) through each slot's descriptor (what ``object.__setattr__`` calls,
    without looking the name up)."""
    every = dataclasses.fields(cls)
    names: dict[str, Any] = {"__dataclass_builtins_object__": object,
                             "__dataclass_HAS_DEFAULT_FACTORY__": _HAS_DEFAULT_FACTORY,
                             "__dataclass_cls__": cls, "__dataclass_set_class__": _SET_CLASS}
    positional: list[str] = []
    keyword: list[str] = []
    body: list[str] = []
    drafted: list[str] = []
    for f in every:
        if f.default_factory is not MISSING:
            names[f"__dataclass_factory_{f.name}__"] = f.default_factory
            parameter = f"{f.name}=__dataclass_HAS_DEFAULT_FACTORY__"
            value = (f"__dataclass_factory_{f.name}__() "
                     f"if {f.name} is __dataclass_HAS_DEFAULT_FACTORY__ else {f.name}")
        elif f.default is not MISSING:
            names[f"__dataclass_dflt_{f.name}__"] = f.default
            parameter = f"{f.name}=__dataclass_dflt_{f.name}__"
            value = f.name
        else:
            parameter = value = f.name
        (keyword if f.kw_only else positional).append(parameter)
        # the field's slot filled through its descriptor, past the frozen guard, as
        # object.__setattr__ does, in half its instructions (no name looked up)
        names[f"__slot_{f.name}__"] = getattr(cls, f.name).__set__
        body.append(f"  __slot_{f.name}__(self,{value})")
        drafted.append(f"    self.{f.name}={value}")
    if len(every) >= _DRAFTED_FROM:
        names["__dataclass_draft__"] = draft_of(cls)
        body = ["  if self.__class__ is __dataclass_cls__:",
                "    __dataclass_set_class__(self,__dataclass_draft__)", *drafted,
                "    self.__class__=__dataclass_cls__",
                "  else:", *(f"  {line}" for line in body)]
    parameters = ["self", *positional, *(["*", *keyword] if keyword else [])]
    source = (f"def __init__({', '.join(parameters)}):\n"
              + ("\n".join(body) if body else "  pass") + "\n")
    exec(source, names)
    init: Callable[..., None] = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__annotations__ = {**{f.name: f.type for f in every}, "return": None}
    return init


class _HasDefaultFactory:
    """The default of a parameter whose field has a default factory, as in ``dataclass``."""

    def __repr__(self) -> str:
        return "<factory>"


_HAS_DEFAULT_FACTORY = _HasDefaultFactory()
