"""Peak memory of the viewer, the recorder and the language server on a large file.

    python -m bench.memory                      # 100 MB and just under 256 MiB
    python -m bench.memory --sizes 100 --tools viewer lsp
    python -m bench.memory --code path/to/other/checkout   # "before": another tree
    python -m bench.memory --shapes                 # every adversarial shape, 10 MiB
    python -m bench.memory --shapes long-scored-line --shape-size 1

The file is well-formed generated games (the cached bench corpus, repeated).  Each
tool runs in a child process, without its screen, doing what it does with a file:

* ``viewer``: read and index the file as the viewer does, show 300 games spread
  over it (each parsed and replayed with its steps) and mark 2,000 more as the
  background check does; the figure is the peak RSS and how many parsed games
  the viewer still holds at the end.
* ``recorder``: open the file to record into it (every game checked, the last one
  resumed or a new one proposed).
* ``lsp``: the language server opening the document (its line index and its
  analysis, which past the editor limits is a refusal).

With ``--shapes``, every shape of ``fuzz/shapes.py`` (and well-formed games) is
measured instead, at ``--shape-size`` MiB (10 by default): ``check`` (``allfours check
--quiet -j 1 FILE``: all the work in one process) and the language server opening the
shape cut to just under its document limit (4 MiB); each row gives the peak RSS and
its ratio to the input's size (issue 41's target: at most 15x for ``check``).

Peak RSS is the child's own high-water mark (``VmHWM``; ``wait4``'s figure would count
this process's size at the fork, which Linux carries across exec); an address-space
limit (``--memory``) turns a tool that would eat the machine into a "memory" row.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from fuzz.shapes import SHAPES

from .hostile import well_formed

MB = 1_000_000
SIZES = {"10": 10 * MB, "100": 100 * MB, "256": 256 * 1024 * 1024 - 4096}

_TOOLS = {
    "viewer": """
from viewer.loader import read_text, index_in_batches
from viewer.model import Library, check_mark
text = read_text(PATH)
library = Library(PATH, text)
for batch in index_in_batches(text):
    library.add(batch.headers)
count = len(library)
for position in range(0, count, max(1, count // 300)):
    library.entry(position)
for position in range(0, count, max(1, count // 2000)):
    check_mark(text, library.headers[position], PATH)
held = getattr(library, "kept", None)
held = len(library._entries) if held is None else held
print(f"{count} games indexed, {held} parsed games held")
""",
    "recorder": """
from pathlib import Path
from allfours_notation.recording.opening import inspect
opened = inspect(Path(PATH))
print(type(opened).__name__)
""",
    "lsp": """
from allfours_notation.lsp.document import Analyzer, LineIndex
text = open(PATH, encoding="utf-8").read()
lines = LineIndex.of(text)  # the server's buffer index, kept edit by edit
analysis = Analyzer().analyse(text)
refused = getattr(analysis, "refused", None)
print(f"{len(analysis.games)} games analysed" + (f"; refused: {refused}" if refused else ""))
""",
    "check": """
from allfours_notation.cli import main
status = main(["check", "--quiet", "-j", "1", PATH])
print(f"exit {status}")
""",
}


# The child's own peak: its VmHWM, the high-water mark of the memory of the program it
# runs.  ``wait4``'s ru_maxrss is not that: Linux keeps the high-water mark across exec,
# so a child started from this process reports at least this process's size when it
# forked (the shape's text it just made and wrote; tens of MB).
_PEAK_MARK = "peak KiB:"
_OWN_PEAK = """
for _line in open("/proc/self/status", encoding="ascii"):
    if _line.startswith("VmHWM:"):
        print("peak KiB:", _line.split()[1])
"""


def run_tool(tool: str, path: Path, code: Path, memory_mb: int) -> tuple[float, float, str]:
    """(peak RSS MB, CPU seconds, what the tool said or how it ended)."""
    def limit() -> None:
        size = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))

    env = {**os.environ, "PYTHONPATH": str(code)}
    script = f"PATH = {str(path)!r}\n" + _TOOLS[tool] + _OWN_PEAK
    child = subprocess.Popen([sys.executable, "-c", script], cwd=code, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limit)
    _, status, usage = os.wait4(child.pid, 0)
    out = (child.stdout.read() if child.stdout else b"").decode().strip()
    err = (child.stderr.read() if child.stderr else b"").decode()
    peak = usage.ru_maxrss / 1024
    said, _, own = out.rpartition(_PEAK_MARK)
    if own.strip().isdigit():
        out, peak = said.strip(), int(own) / 1024
    if os.waitstatus_to_exitcode(status) != 0:
        out = "memory" if "MemoryError" in err else f"failed: {err.strip().splitlines()[-1:]}"
    return peak, usage.ru_utime + usage.ru_stime, out


MIB = 1024 * 1024


def measure_shapes(names: list[str], size: int, code: Path, memory_mb: int) -> None:
    """The table of docs/reliability.md: per shape, ``check``'s peak RSS on ``size`` bytes
    and the language server's on the shape cut to just under its document limit."""
    from allfours_notation.limits import MAX_EDITOR_CHARS

    print("| shape | check: input | peak RSS | ratio | language server: input | peak RSS "
          "| ratio |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as folder:
        for name in names:
            text = well_formed(size) if name == "well-formed" else SHAPES[name](size)
            row = [name]
            for tool, cut in (("check", size), ("lsp", MAX_EDITOR_CHARS - 64 * 1024)):
                part = text if len(text) <= cut else _cut(text, cut)
                path = Path(folder) / f"{name}-{tool}.afn"
                path.write_text(part, encoding="utf-8")
                megabytes = path.stat().st_size / MIB
                rss, _, said = run_tool(tool, path, code, memory_mb)
                shown = f"{rss:.0f} MB" if not said.startswith(("failed", "memory")) else said
                row += [f"{megabytes:.1f} MiB", shown, f"{rss / megabytes:.1f}x"]
                path.unlink()
            print("| " + " | ".join(row) + " |", flush=True)


def _cut(text: str, size: int) -> str:
    """``text`` cut to about ``size`` characters at a line's end (an unfinished last
    line would be a different shape), or at ``size`` in a shape of one long line."""
    end = text.rfind("\n", 0, size)
    return text[: end + 1] if end > size // 2 else text[:size]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.memory", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", nargs="+", choices=sorted(SIZES), default=["100", "256"],
                        help="10: 10 MB; 100: 100 MB; 256: just under the 256 MiB file limit")
    parser.add_argument("--tools", nargs="+", choices=sorted(_TOOLS),
                        default=["viewer", "recorder", "lsp"])
    parser.add_argument("--code", type=Path, default=Path(__file__).resolve().parent.parent,
                        help="the source tree to measure (default: this one)")
    parser.add_argument("--memory", type=int, default=4000, help="address-space limit, MB")
    parser.add_argument("--shapes", nargs="*", metavar="SHAPE",
                        help="measure check and the language server on these shapes of "
                        "fuzz/shapes.py (none named: every shape and well-formed games)")
    parser.add_argument("--shape-size", type=float, default=10.0, metavar="MIB",
                        help="with --shapes: the size of each shape's file (default 10 MiB)")
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()[0]:.1f}")
    if args.shapes is not None:
        unknown = sorted(set(args.shapes) - {"well-formed", *SHAPES})
        if unknown:
            parser.error(f"no such shape: {', '.join(unknown)}")
        measure_shapes(args.shapes or ["well-formed", *SHAPES], int(args.shape_size * MIB),
                       args.code.resolve(), args.memory)
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        return 0
    print("| tool | file | peak RSS | CPU s | outcome |")
    print("|---|---:|---:|---:|---|")
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            path = Path(folder) / f"games-{size}.afn"
            path.write_text(well_formed(SIZES[size]), encoding="utf-8")
            megabytes = path.stat().st_size / MB
            for tool in args.tools:
                rss, cpu, said = run_tool(tool, path, args.code.resolve(), args.memory)
                print(f"| {tool} | {megabytes:.0f} MB | {rss:.0f} MB | {cpu:.0f} | {said} |",
                      flush=True)
            path.unlink()
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
