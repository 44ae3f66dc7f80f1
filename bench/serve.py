"""``python -m bench.serve``: ``allfours serve`` under a club night's load.

Simulated tables, each entering a deal's results and the other side's agreement
(``h n``, ``l e``, ``j s``, ``g =``, the deal done, ``y``: six entries) once every
``--every`` seconds, each entry numbered as the page numbers them and sent again
after a connection error, as the page does.  Reported: the time from an entry sent
to its answer (median, 99th percentile, the longest), the entries acknowledged, the
server's memory (resident set, sampled every few seconds: at the start, at two
minutes and at the end, and the most), and, from the files afterwards, entries lost
(a deal acknowledged that the file lacks) and doubled (a deal written twice).
``--kill-at S`` SIGKILLs the server S seconds in and starts it again on the same
files (new links, found by table name), while the tables keep sending.  The game's
target is 99 (``--target``): 30 deals (ten minutes) never reach it, so each table's
one game grows all night; ``--target 14`` ends a game every 7 deals, and the table
begins the next (``next game``, then its dealer), as a club's tables do.

The simulated phones are one process, one event loop, one aiohttp session, on the
same cores as the server: they run at a lower priority (``--nice``, 10 by default;
the server, started and restarted from a thread of normal priority, keeps it), so
that the figure is the server's answer rather than the phones' own queue.  Figures
depend on the machine and its load (the load average is printed): compare runs
taken together.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

HEADER = """% AFN 1
[Event "Bench night"]
[Site "Bench"]
[Date "2026.12.07"]
[Rules "trinidad14"]
[North "A"]
[East "B"]
[South "C"]
[West "D"]
[Result "*"]
[Target "99"]
[Entry "results"]
end
"""
DEAL = ("h n", "l e", "j s", "g =", "", "y")  # NS 2 EW 1 a deal: 30 deals stay under 99


class Server:
    """``allfours serve`` over the files, and each table's link by its name."""

    def __init__(self, files: list[Path]) -> None:
        self.files = files
        self.links: dict[str, str] = {}
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "allfours_notation", "serve", *map(str, self.files),
             "--port", "0"], stdout=subprocess.PIPE, text=True)
        assert self.process.stdout is not None
        links = {}
        for line in self.process.stdout:
            found = re.match(r"table (\S+): (\S+)", line)
            if found:
                links[found.group(1)] = found.group(2)
            if line.startswith("director"):
                break
        self.links = links

    def rss_kb(self) -> int | None:
        """The server's resident set, or None while it is down (killed, starting)."""
        process = self.process
        if process is None or process.poll() is not None:
            return None
        try:
            status = Path(f"/proc/{process.pid}/status").read_text()
        except OSError:
            return None
        found = re.search(r"VmRSS:\s+(\d+)", status)
        return int(found.group(1)) if found else None

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            self.process.wait(timeout=60)


@dataclass
class Tally:
    """A table's deals as its phone saw them answered."""

    begun: int = 0  # deals with an entry answered
    whole: int = 0  # deals whose every entry was answered
    games: int = 1


async def table(name: str, server: Server, session: aiohttp.ClientSession, every: float,
                until: float, times: list[float], waits: list[float], tally: Tally) -> None:
    """One table: the dealer, then a deal every ``every`` seconds until ``until``; a
    game over (``--target``), the next game and its dealer.  ``times``: each entry's
    answer, from its last sending; ``waits``: from its first (a kill's downtime and the
    sendings again in it included)."""
    number = 0
    phone = f"bench-{name}"

    async def send(line: str) -> dict[str, Any]:
        nonlocal number
        number += 1
        first = time.perf_counter()
        while True:
            sent = time.perf_counter()
            with contextlib.suppress(TimeoutError, aiohttp.ClientError, ConnectionError):
                # (the server down: the same entry is sent again, as the page does)
                async with session.post(server.links[name] + "entry", json={
                        "phone": phone, "number": number, "line": line}) as response:
                    body = await response.json()
                    if response.status == 200:
                        times.append(time.perf_counter() - sent)
                        waits.append(time.perf_counter() - first)
                        if not body.get("replayed") and not body["outcome"]["accepted"]:
                            raise RuntimeError(f"{name}: {line!r} refused: "
                                               f"{body['outcome']['message']}")
                        return dict(body["state"])
                    if response.status != 429:
                        raise RuntimeError(f"{name}: {response.status} {body}")
            await asyncio.sleep(0.5)

    await asyncio.sleep(random.uniform(0, every))
    await send("n")
    while time.monotonic() + every < until:
        started = time.monotonic()
        for position, line in enumerate(DEAL):
            state = await send(line)
            tally.begun += position == 0
            if state["phase"] == "over":  # the game won (at Jack, or the deal's end)
                break
        tally.whole += 1
        if state["phase"] == "over":
            await send("next game")
            await send("n")
            tally.games += 1
        await asyncio.sleep(max(0.0, every - (time.monotonic() - started)))


SAMPLE_EVERY = 5.0  # seconds between samples of the server's memory


async def sample_memory(server: Server, memory: list[tuple[float, int]],
                        start: float) -> None:
    """The server's resident set every few seconds (none while it is down)."""
    while True:
        rss = server.rss_kb()
        if rss is not None:
            memory.append((time.monotonic() - start, rss))
        await asyncio.sleep(SAMPLE_EVERY)


async def night(server: Server, tables: int, every: float, seconds: float,
                kill_at: float | None, launcher: ThreadPoolExecutor,
                ) -> tuple[list[float], list[float], dict[str, Tally], list[tuple[float, int]]]:
    times: list[float] = []
    waits: list[float] = []
    tallies = {name: Tally() for name in list(server.links)[:tables]}
    memory: list[tuple[float, int]] = []
    start = time.monotonic()
    until = start + seconds
    sampler = asyncio.create_task(sample_memory(server, memory, start))
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector,
                                     timeout=aiohttp.ClientTimeout(total=30)) as session:
        names = list(server.links)
        work = [asyncio.create_task(table(name, server, session, every, until, times, waits,
                                           tallies[name]))
                for name in names[:tables]]
        if kill_at is not None:
            await asyncio.sleep(kill_at)
            server.kill()
            # from the launcher's thread, of normal priority: the new server keeps it
            await asyncio.get_running_loop().run_in_executor(launcher, server.start)
        await asyncio.gather(*work)
    sampler.cancel()
    rss = server.rss_kb()
    if rss is not None:
        memory.append((time.monotonic() - start, rss))
    return times, waits, tallies, memory


def at(memory: list[tuple[float, int]], second: float) -> int:
    """The server's memory (kB) sampled nearest ``second`` into the night."""
    return min(memory, key=lambda sample: abs(sample[0] - second))[1] if memory else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.serve", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--every", type=float, default=20.0, help="seconds between deals")
    parser.add_argument("--seconds", type=float, default=600.0, help="how long the night is")
    parser.add_argument("--kill-at", type=float, default=None,
                        help="SIGKILL the server this many seconds in, and start it again")
    parser.add_argument("--target", type=int, default=99,
                        help="the game's target: 99 (the default) is never reached in 10 "
                             "minutes (one game a table, growing); 14 ends a game every "
                             "7 deals and the table begins the next")
    parser.add_argument("--nice", type=int, default=10,
                        help="how much lower the simulated phones' priority is than the "
                             "server's (0: the same)")
    args = parser.parse_args(argv)
    print("load average at the start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    with tempfile.TemporaryDirectory(prefix="afn-serve-bench-") as folder:
        files = [Path(folder) / f"t{n:03}.afn" for n in range(1, args.tables + 1)]
        for path in files:
            path.write_text(HEADER.replace('"99"', f'"{args.target}"'), encoding="utf-8")
        server = Server(files)
        server.start()
        # the server (re)started from this thread's priority, the phones in a thread of
        # their own at a lower one (a thread's priority is its own on Linux)
        launcher = ThreadPoolExecutor(1, thread_name_prefix="launcher")
        launcher.submit(lambda: None).result()

        def phones() -> tuple[list[float], list[float], dict[str, Tally],
                              list[tuple[float, int]]]:
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), args.nice)
            return asyncio.run(night(server, args.tables, args.every, args.seconds,
                                     args.kill_at, launcher))

        try:
            with ThreadPoolExecutor(1, thread_name_prefix="phones") as lowered:
                times, waits, tallies, memory = lowered.submit(phones).result()
        finally:
            server.stop()
            launcher.shutdown()
        lost = doubled = 0
        for path in files:
            tally = tallies.get(path.stem, Tally())
            # every deal begins "h n": one "scored N high" a deal in the file, every game
            written = path.read_text(encoding="utf-8").count("scored N high")
            lost += max(0, tally.whole - written)
            doubled += max(0, written - tally.begun)
    times.sort()
    p99 = times[max(0, int(len(times) * 0.99) - 1)] if times else 0.0
    print(f"tables {args.tables}, a deal every {args.every:g} s for {args.seconds:g} s"
          + (f", SIGKILL at {args.kill_at:g} s" if args.kill_at is not None else "")
          + f"; games to {args.target} ({sum(t.games for t in tallies.values())} played"
            f"); the phones at nice {args.nice}")
    print(f"entries acknowledged {len(times)}; answer p50 "
          f"{1000 * statistics.median(times) if times else 0:.0f} ms, p99 {1000 * p99:.0f} ms,"
          f" max {1000 * (times[-1] if times else 0):.0f} ms")
    if args.kill_at is not None:
        print(f"the longest wait from an entry's first sending to its answer (the restart "
              f"included): {max(waits, default=0):.1f} s")
    print(f"deals lost {lost}, doubled {doubled}")
    def new(second: float) -> str:  # a sample of the server started again after the kill
        return " (restarted)" if args.kill_at is not None and args.kill_at < second else ""

    print(f"server memory (RSS): start {at(memory, 0) / 1024:.1f} MB, 2 min "
          f"{at(memory, 120) / 1024:.1f} MB{new(120)}, end "
          f"{at(memory, args.seconds) / 1024:.1f} MB{new(args.seconds)}, most "
          f"{max((m for _, m in memory), default=0) / 1024:.1f} MB")
    minutes = ", ".join(f"{at(memory, 60 * m) / 1024:.0f}"
                        for m in range(int(args.seconds // 60) + 1))
    print(f"server memory each minute from the start: {minutes} MB")
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    return 1 if lost or doubled else 0


if __name__ == "__main__":
    raise SystemExit(main())
