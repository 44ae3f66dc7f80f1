"""Drafts: the referee's records that a replay page makes by the thousand, filled in by
plain attribute stores and only then made the immutable record they are.

A ``@frozen`` record (:mod:`..frozen`) refuses assignment, so its ``__init__`` fills each
slot through the slot's descriptor, a call of 700 to 1,000 instructions a field: a
``Point`` (five fields) and the ``ItemStatus`` made of it (six) cost about 12,000
instructions together.  The items "if the deal ended now" make such a pair at about a
hundred steps of every game a replay page shows (Game's point again at nearly every
trick's end, issue 38).  A draft is a subclass with the same slots and ``object``'s own
``__setattr__``: its stores are CPython's specialised slot stores, a few dozen
instructions each, and setting its ``__class__`` to the record's (the layouts are the
same, so CPython allows it) makes it the very record ``__init__`` would have made.
Nothing else ever sees a draft.  (The reading makes its records the same way, for the
same reason, with drafts of its own: the floors do not share this helper.)
"""

from __future__ import annotations

from typing import Any


def draft_of(kind: type) -> type:
    """A draft of the record class ``kind`` (see the module's docstring)."""
    return type(f"_Draft{kind.__name__}", (kind,), {
        "__slots__": (), "__doc__": f"A {kind.__name__} being filled in (see draft_of).",
        # both set back to object's, so that the type's attribute store is the generic
        # one CPython specialises (one of the two left Python's keeps both in Python)
        "__setattr__": object.__setattr__, "__delattr__": object.__delattr__})


# A draft is made with object.__new__ (read once, as a global) and typed Any while it is
# filled in.
new_draft: Any = object.__new__
