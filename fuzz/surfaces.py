"""``python -m fuzz.surfaces --minutes N``: the long run over the surfaces of issue 23.

Three targets, in turn, until the time is up (no extra dependency: plain random
inputs from a seeded generator):

* ``writers`` — :func:`fuzz.writers.fault_round`: random bytes written over a file
  (alone or hard-linked) on a disk failing at random (ENOSPC, EIO, EDQUOT, short
  writes); and, every 50th round, a process SIGKILLed at a random call of the write
  (:func:`fuzz.writers.run_killed`); every 5th, a leftover planted beside a file
  (:func:`fuzz.writers.planted_round`: never acted on);
* ``framing`` — :func:`fuzz.framing.run_one`: a stream of good and malformed LSP
  frames through the server's reading loop; every request answered;
* ``recorder`` — :func:`fuzz.recorder_line.fuzz_session`: random entry lines typed
  into a recording (scripted input), the file checked after each.

The figures (inputs and failures per target) are printed and saved in
``fuzz/out/surfaces-last-run.json``; a failure's details go beside it.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from .framing import run_one
from .recorder_line import fuzz_session
from .writers import fault_round, planted_round, run_killed

OUT = Path(__file__).resolve().parent / "out"


TARGETS = ("writers", "kills", "planted", "framing", "recorder_lines")


def campaign(seconds: float, seed: int) -> dict[str, dict[str, object]]:
    rng = random.Random(seed)
    inputs = dict.fromkeys(TARGETS, 0)
    failures = dict.fromkeys(TARGETS, 0)
    examples: dict[str, list[str]] = {name: [] for name in TARGETS}

    def failed(name: str, detail: str) -> None:
        failures[name] += 1
        if len(examples[name]) < 10:
            examples[name].append(detail[:500])

    def count(name: str, number: int = 1) -> None:
        inputs[name] += number

    end = time.monotonic() + seconds
    round_number = 0
    with tempfile.TemporaryDirectory() as temporary:
        base = Path(temporary)
        while time.monotonic() < end:
            round_number += 1
            folder = base / "w"
            folder.mkdir(exist_ok=True)
            problem = fault_round(rng, folder)
            count("writers")
            if problem:
                failed("writers", problem)
            if round_number % 50 == 1:
                killed = base / f"k{round_number}"
                killed.mkdir()
                try:
                    run_killed(killed, kills=4, links=rng.choice([1, 2]), rng=rng)
                except AssertionError as error:
                    failed("kills", str(error))
                count("kills", 4)
            if round_number % 5 == 2:
                planted = base / "p"
                planted.mkdir(exist_ok=True)
                count("planted")
                if problem := planted_round(rng, planted):
                    failed("planted", problem)
            outcome = run_one(rng)
            count("framing")
            if outcome.unanswered or outcome.wrong:
                failed("framing", f"unanswered {sorted(outcome.unanswered)}, "
                       f"wrong {outcome.wrong}")
            if round_number % 5 == 1:
                lines, problems = fuzz_session(rng, base, lines=40)
                count("recorder_lines", lines)
                for problem in problems:
                    failed("recorder_lines", problem)
    return {name: {"inputs": inputs[name], "failures": failures[name],
                   "examples": examples[name]} for name in TARGETS}


def main() -> None:
    import logging

    logging.disable(logging.CRITICAL)  # pygls logs every refused message: counted here
    parser = argparse.ArgumentParser(prog="python -m fuzz.surfaces")
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    started = time.time()
    figures = campaign(args.minutes * 60, args.seed)
    report = {"minutes": args.minutes, "seed": args.seed,
              "started": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(started)),
              "targets": figures}
    OUT.mkdir(exist_ok=True)
    (OUT / "surfaces-last-run.json").write_text(json.dumps(report, indent=2) + "\n",
                                                encoding="utf-8")
    for name, counts in figures.items():
        print(f"{name:15} inputs {counts['inputs']:>8}  failures {counts['failures']}")


if __name__ == "__main__":
    main()
