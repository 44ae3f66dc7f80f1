"""How much code a newcomer reads to follow one finding from a file's text to the screen.

    python -m bench.reading_path                       # samples/revoke.afn
    python -m bench.reading_path samples/annotated.afn --functions

Runs ``allfours check -j 1 FILE`` once to warm it up (the grammar's table loaded), then
once more with a profiler hook that notes every function of the package that runs, and
counts their lines (from the ``def`` to the function's last line; comprehensions and
nested functions are inside their function's lines and not counted again).  That is
the reading path of docs/architecture.md measured rather than estimated: the code that
runs, not the files it sits in.  Imports are left out (a module's top level is
declarations, read with the function that uses them).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from types import CodeType, FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "allfours_notation"


def functions_run(argv: Sequence[str]) -> dict[tuple[str, str], CodeType]:
    """Every function of the package that ``allfours ARGV`` runs (module path, name)."""
    from allfours_notation.cli import main

    seen: dict[tuple[str, str], CodeType] = {}
    marker = f"/{PACKAGE}/"

    def note(frame: FrameType, event: str, arg: Any) -> None:
        code = frame.f_code
        if event == "call" and marker in code.co_filename and code.co_name != "<module>":
            module = code.co_filename.split(marker, 1)[1]
            seen.setdefault((module, code.co_qualname), code)

    with contextlib.redirect_stdout(io.StringIO()):
        main(list(argv))  # warm: the grammar's table, the lazy imports
        sys.setprofile(note)
        try:
            main(list(argv))
        finally:
            sys.setprofile(None)
    return seen


def length(code: CodeType) -> int:
    """Lines from a function's ``def`` to its last line of code."""
    lines = [line for _, _, line in code.co_lines() if line]
    return max(lines) - code.co_firstlineno + 1 if lines else 0


def _nested(qualname: str) -> bool:
    """Whether ``qualname`` lies inside a function (a nested function, a lambda, a
    comprehension): its lines are counted with the function around it."""
    return "<locals>" in qualname or qualname.rsplit(".", 1)[-1].startswith("<")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.reading_path",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default=str(ROOT / "samples" / "revoke.afn"))
    parser.add_argument("--functions", action="store_true", help="list every function too")
    args = parser.parse_args(argv)
    seen = functions_run(["check", "-j", "1", args.file])
    lines: Counter[str] = Counter()
    count: Counter[str] = Counter()
    listed: list[tuple[str, str, int]] = []
    for (module, name), code in sorted(seen.items()):
        if _nested(name):
            continue
        lines[module] += length(code)
        count[module] += 1
        listed.append((module, name, length(code)))
    print(f"allfours check {Path(args.file).name}: {sum(count.values())} functions of "
          f"{len(count)} modules run, {sum(lines.values()):,} lines")
    print("| module | functions | lines |\n|---|---:|---:|")
    for module, total in lines.most_common():
        print(f"| `{module}` | {count[module]} | {total} |")
    if args.functions:
        for module, name, size in listed:
            print(f"{size:5}  {module}: {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
