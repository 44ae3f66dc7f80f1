"""The loop over the shipped parse table against Lark's own, token by token, on whole corpora.

    python -m bench.lexer_check [FILE ...]

With no FILE: every bench corpus in ``bench/out`` (``afn-*.afn``).  Each game of
each file is read by the loop of ``allfours_notation.reading.game_parser`` and by
Lark's own; what they read (every token's type, text, offsets, lines and columns, what
the lexer callbacks saw, the parse) must be equal, and the table's loop must hand over
to Lark exactly the games Lark raises on.  Prints the games and
tokens compared and the first difference; exits 1 if there is one.  The suite runs
the same comparison on the samples, generated and mutated texts
(``tests/parser/test_fast_lexer.py``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.lexer_check",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("files", nargs="*", type=Path,
                        help="AFN files (default: every afn-*.afn corpus in bench/out)")
    args = parser.parse_args(argv)
    from tests.parser.lexer_streams import LarkReader, TableReader, game_bodies, same

    from .corpus import OUT_DIR

    files = args.files or sorted(OUT_DIR.glob("afn-*.afn"))
    if not files:
        print(f"no corpus in {OUT_DIR}: run python -m bench first, or name files")
        return 2
    lean, plain = TableReader(), LarkReader()
    failed = False
    for path in files:
        start = time.perf_counter()
        text = path.read_text(encoding="utf-8", errors="replace")
        games = tokens = errors = 0
        for body in game_bodies(text)[:-1]:  # each game (the whole file is one big error)
            mine, lark = lean.stream(body), plain.stream(body)
            games += 1
            parsed = lark[-1][0] == "parsed"
            tokens += len(lark) - 1 + (_tokens(lark[-1][1]) if parsed else 0)
            errors += not parsed
            if not same(mine, lark):
                print(f"{path.name}: game {games} differs:\n  table {mine}\n  Lark {lark}")
                failed = True
                break
        print(f"{path.name}: {games:,} games, {tokens:,} tokens and callback calls, "
              f"{errors:,} syntax errors: {'DIFFERENT' if failed else 'identical'} "
              f"({time.perf_counter() - start:.0f} s)")
        if failed:
            break
    return 1 if failed else 0


def _tokens(shape: Any) -> int:
    """How many tokens a parse's shape holds (a token is a tuple of its facts)."""
    return 1 if isinstance(shape, tuple) else sum(map(_tokens, shape))


if __name__ == "__main__":
    sys.exit(main())
