"""The lean lexer loop against Lark's own, token by token, on whole corpora.

    python -m bench.lexer_check [FILE ...]

With no FILE: every bench corpus in ``bench/out`` (``afn-*.afn``).  Each game of
each file is read by two Lark parsers built alike, one with the lean loop of
``allfours_notation.reading.lexer`` and one without; their token streams (type, text,
offsets, lines, columns, what the lexer callbacks saw) and the way each parse
ended (the error, where, what was expected) must be equal.  Prints the games and
tokens compared and the first difference; exits 1 if there is one.  The suite runs
the same comparison on the samples, generated and mutated texts
(``tests/parser/test_fast_lexer.py``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.lexer_check",
                                     description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("files", nargs="*", type=Path,
                        help="AFN files (default: every afn-*.afn corpus in bench/out)")
    args = parser.parse_args(argv)
    from tests.parser.lexer_streams import StreamReader, game_bodies

    from .corpus import OUT_DIR

    files = args.files or sorted(OUT_DIR.glob("afn-*.afn"))
    if not files:
        print(f"no corpus in {OUT_DIR}: run python -m bench first, or name files")
        return 2
    lean, plain = StreamReader(lean=True), StreamReader(lean=False)
    if not lean.lean:
        print("this Lark does not take the lean loop: nothing to compare")
        return 0
    failed = False
    for path in files:
        start = time.perf_counter()
        text = path.read_text(encoding="utf-8", errors="replace")
        games = tokens = errors = 0
        for body in game_bodies(text)[:-1]:  # each game (the whole file is one big error)
            mine, lark = lean.stream(body), plain.stream(body)
            games += 1
            tokens += len(lark) - 1
            errors += lark[-1] != "parsed"
            if mine != lark:
                print(f"{path.name}: game {games} differs:\n  lean {mine}\n  Lark {lark}")
                failed = True
                break
        print(f"{path.name}: {games:,} games, {tokens:,} tokens and callback calls, "
              f"{errors:,} syntax errors: {'DIFFERENT' if failed else 'identical'} "
              f"({time.perf_counter() - start:.0f} s)")
        if failed:
            break
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
