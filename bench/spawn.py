"""Run a command from a small process and report its wall time and peak memory.

``python -m bench.spawn CMD ARGS...`` prints one JSON line: ``wall_s``,
``peak_rss_mb`` and ``returncode`` of CMD.

Why a go-between: on Linux a child's peak RSS (``ru_maxrss``) counts the
memory of the process it was forked from until it calls exec, so a child of
the benchmark (which holds whole corpora) would report the benchmark's memory.
Forked from this small interpreter instead, the figure is the command's own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


def main(argv: list[str]) -> int:
    start = time.perf_counter()
    process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    print(json.dumps({
        "wall_s": wall,
        "peak_rss_mb": usage.ru_maxrss / 1024,  # kilobytes on Linux
        "returncode": os.waitstatus_to_exitcode(status),
    }))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
