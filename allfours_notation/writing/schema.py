"""The JSON Schema of ``allfours export``, as shipped with the package.

The schema is written once, in ``grammar/afn-records.schema.json`` beside the grammar;
the wheel carries a copy inside the package (``_grammar/``), so that an installed
``allfours export --schema`` prints the very schema its JSON follows, with no checkout
at hand.  In a source checkout (and an editable install) the file is read where it is
written.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

SCHEMA_NAME = "afn-records.schema.json"


def schema_text() -> str:
    """The schema's text, exactly as written (draft 2020-12)."""
    packaged = resources.files("allfours_notation").joinpath(f"_grammar/{SCHEMA_NAME}")
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parents[2] / "grammar" / SCHEMA_NAME
    return checkout.read_text(encoding="utf-8")


def schema() -> dict[str, Any]:
    """The schema as a JSON object, ready for a validator."""
    loaded: dict[str, Any] = json.loads(schema_text())
    return loaded
