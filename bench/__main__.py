"""``python -m bench``: run the benchmarks, print a Markdown table, write JSON.

Usage, from the repository root::

    python -m bench                    # full run (a few minutes), JSON to bench/out/latest.json
    python -m bench --quick            # smoke run (under a minute)
    python -m bench --out run.json     # JSON somewhere else
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from . import report as report_module
from .run import Config, run


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Benchmark AFN reading, checking and formatting against a regex floor "
        "and against python-chess and endplay on files of equal size.",
    )
    parser.add_argument("--quick", action="store_true",
                        help="small corpus, 3 repeats, no 100k-deal file: a smoke run")
    parser.add_argument("--out", type=Path, default=None,
                        help="write the JSON report here (default: bench/out/latest.json)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="timed runs per measurement (default 5; 3 with --quick)")
    parser.add_argument("--seed", type=int, default=None, help="corpus seed")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    config = Config.quick_config() if args.quick else Config()
    if args.repeats is not None:
        config = replace(config, repeats=max(1, args.repeats))
    if args.seed is not None:
        config = replace(config, seed=args.seed)
    out = args.out or config.out_dir / "latest.json"

    def log(message: str) -> None:
        print(f"… {message}", file=sys.stderr, flush=True)

    result = run(config, log)
    sys.stdout.write(report_module.markdown(result))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report_module.dumps(result), encoding="utf-8")
    print(f"JSON written to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
