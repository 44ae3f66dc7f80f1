"""Write the parse table shipped beside the grammar, after an edit of the grammar:

    python -m allfours_notation.reading.build_table

It writes ``grammar/allfours.table.json`` of the source checkout from what Lark builds
of ``grammar/allfours.lark`` (:func:`.lark_parser.table_data`); the wheel ships it as
``allfours_notation/_grammar/allfours.table.json``.  A test fails, naming this command,
while the file does not match the grammar (``tests/parser/test_shipped_table.py``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .lalr import TABLE_FILE


def table_json() -> str:
    """The file's text as Lark's table of the current grammar makes it: JSON, one rule,
    state, lexer or terminal a line (so that a grammar edit reads as a diff)."""
    from .lark_parser import table_data

    def dumped(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    fields = []
    for key, value in table_data().items():
        if isinstance(value, list) and value:
            items = ",\n".join(f"  {dumped(item)}" for item in value)
            fields.append(f" {dumped(key)}: [\n{items}\n ]")
        elif isinstance(value, dict) and value:
            items = ",\n".join(f"  {dumped(name)}: {dumped(item)}" for name, item in value.items())
            fields.append(f" {dumped(key)}: {{\n{items}\n }}")
        else:
            fields.append(f" {dumped(key)}: {dumped(value)}")
    return "{\n" + ",\n".join(fields) + "\n}\n"


def main() -> int:
    target = Path(__file__).resolve().parents[2] / "grammar" / TABLE_FILE
    if not target.parent.is_dir():
        print(f"no grammar folder at {target.parent}: run this from a source checkout",
              file=sys.stderr)
        return 2
    target.write_text(table_json(), encoding="utf-8")
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
