"""``python -m fuzz --minutes N``: the long atheris campaign (needs the ``fuzz`` extra).

Coverage-guided mutation of AFN inputs, the corpus seeded from the bundled
samples, the legal-game generator and small versions of the adversarial
shapes.  Every input goes through :func:`fuzz.target.run_input`; crashes, slow
inputs and formatter disagreements are saved under ``fuzz/out/`` (git-ignored)
and counted in ``fuzz/out/last-run.json``, written as the campaign goes and at
its end, whose figures docs/reliability.md reports.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "fuzz" / "out"


def seed_corpus(folder: Path, generated: int = 40) -> int:
    """Write the seed inputs into ``folder``; returns how many."""
    from allfours_notation.generate import Knobs, generate_game, profile_options, write_afn

    from .shapes import SHAPES

    folder.mkdir(parents=True, exist_ok=True)
    seeds = [path.read_bytes() for path in sorted((ROOT / "samples").glob("*.afn"))]
    rng = random.Random(16)
    for number in range(generated):
        profile = rng.choice(["hoffmann1909", "english10", "foster", "trinidad14"])
        players = rng.choice([2, 4])
        game = generate_game(rng, profile_options(profile, players), Knobs(), profile=profile,
                             index=number + 1)
        seeds.append(write_afn(game).encode("utf-8"))
    seeds.extend(make(300).encode("utf-8") for make in SHAPES.values())
    seeds.extend(hostile_seeds())
    for data in seeds:
        (folder / hashlib.sha1(data).hexdigest()).write_bytes(data)
    return len(seeds)


def hostile_seeds() -> list[bytes]:
    """Issue 41's inputs, under the campaign's largest input: a number of more digits than
    ``int()`` converts at each place a number is written, and claims, lines of results and
    totals of thousands of words."""
    big = "9" * 4_400
    game = ('% AFN 1\n[Event "E"]\n[Rules "trinidad14"]\n{tag}\ndeal {deal} dealer N\n'
            "  turn 6D\n  scored N kick {kick} W high\n  total N {total} W 2\n"
            "  {trick}. N:AS E:AH S:AD W:AC\nend\n")
    plain = {"tag": "", "deal": "1", "kick": "2", "total": "4", "trick": "1"}
    seeds = [game.format(**{**plain, place: big}).encode("utf-8")
             for place in ("deal", "kick", "total", "trick")]
    seeds.append(game.format(**{**plain, "tag": f'[Score "NS {big} EW 1"]'}).encode("utf-8"))
    seeds.append(game.format(**{**plain, "tag": f'[Target "{big}"]'}).encode("utf-8"))
    for line in (" N high W low" * 1_200, " N kick 3" * 1_800, " N 4 W 2" * 2_000):
        keyword = "total" if line.startswith(" N 4") else "claim" if "kick" in line else "scored"
        seeds.append(f"% AFN 1\ndeal 1 dealer N\n  {keyword}{line}\nend\n".encode())
    return seeds


class Tally:
    """Counts of the campaign, saved as JSON every few seconds and at exit."""

    def __init__(self, minutes: float) -> None:
        self.started = time.time()
        self.figures: dict[str, object] = {
            "minutes": minutes, "inputs": 0, "crashes": 0, "slow_candidates": 0, "slow": 0,
            "disagreements": 0,
            "slowest_seconds_per_10kb": 0.0, "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        }
        self.saved = 0.0

    def note(self, data: bytes, outcome: str, seconds: float, detail: str) -> None:
        figures = self.figures
        figures["inputs"] = int(str(figures["inputs"])) + 1
        per_10kb = seconds / max(1.0, len(data) / 10_000)
        figures["slowest_seconds_per_10kb"] = max(float(str(figures["slowest_seconds_per_10kb"])),
                                                 round(per_10kb, 4))
        key = {"crash": "crashes", "slow": "slow_candidates",
               "disagreement": "disagreements"}.get(outcome)
        if key is not None:
            figures[key] = int(str(figures[key])) + 1
            name = f"{outcome}-{hashlib.sha1(data).hexdigest()[:12]}"
            (OUT / f"{name}.afn").write_bytes(data)
            (OUT / f"{name}.txt").write_text(detail + "\n", encoding="utf-8")
        if time.time() - self.saved > 60:
            self.save()

    def save(self, *, final: bool = False) -> None:
        """Write the figures; at the end, first re-time the slow candidates without
        the instrumentation (``slow`` is -1 until then)."""
        self.figures["slow"] = retime(OUT) if final else -1
        self.figures["elapsed_seconds"] = round(time.time() - self.started)
        (OUT / "last-run.json").write_text(json.dumps(self.figures, indent=2) + "\n",
                                           encoding="utf-8")
        self.saved = time.time()


def retime(folder: Path) -> int:
    """How many of the slow candidates in ``folder`` are slow without the fuzzer's
    instrumentation (which makes everything several times slower): each is timed
    again, best of three, in a fresh interpreter."""
    import subprocess

    paths = sorted(str(path) for path in folder.glob("slow-*.afn"))
    if not paths:
        return 0
    code = (
        "import sys, time\n"
        "from fuzz.target import run_input, Outcome\n"
        "run_input(b'deal 1 dealer N\\nend\\n')  # warm up: the grammar is built once\n"
        "slow = 0\n"
        "for path in sys.argv[1:]:\n"
        "    data = open(path, 'rb').read()\n"
        "    verdicts = [run_input(data) for _ in range(3)]\n"
        "    slow += all(v.outcome is Outcome.SLOW for v in verdicts)\n"
        "print(slow)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, *paths], capture_output=True, text=True,
                          cwd=ROOT, check=False)
    return int(done.stdout.strip() or -1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=5.0, help="how long to run")
    parser.add_argument("--max-len", type=int, default=20_000, help="largest input, bytes")
    args = parser.parse_args(argv)
    try:
        import atheris
    except ImportError:
        print("python -m fuzz needs atheris: pip install -e '.[fuzz]'", file=sys.stderr)
        return 2
    # Instrument the package before anything imports it (the seeding does).
    with atheris.instrument_imports(include=["allfours_notation"]):
        import allfours_notation.checking.parsing
        import allfours_notation.generate
        import allfours_notation.reading.parser
        import allfours_notation.referee.replay
        import allfours_notation.writing.formatter  # noqa: F401
    OUT.mkdir(parents=True, exist_ok=True)
    corpus = OUT / "corpus"
    count = seed_corpus(corpus)
    print(f"corpus: {count} seeds in {corpus}", flush=True)

    from .target import run_input

    tally = Tally(args.minutes)
    deadline = time.time() + args.minutes * 60

    def one_input(data: bytes) -> None:
        verdict = run_input(data)
        tally.note(data, verdict.outcome.value, verdict.seconds, verdict.detail)
        if time.time() > deadline:  # libFuzzer's own exit runs no Python code: stop here
            tally.save(final=True)
            print(json.dumps(tally.figures, indent=2), flush=True)
            os._exit(0)

    atheris.Setup(
        [sys.argv[0], f"-max_total_time={int(args.minutes * 60) + 600}", f"-max_len={args.max_len}",
         # The campaign stops itself at its deadline (after re-timing the slow
         # candidates, which takes a while): libFuzzer's own timeout must not fire
         # then.  Its findings go under fuzz/out/, never the current folder.
         "-timeout=3600", "-rss_limit_mb=3000", "-print_final_stats=1",
         f"-artifact_prefix={OUT}/", str(corpus)],
        one_input,
    )
    atheris.Fuzz()
    return 0


if __name__ == "__main__":
    sys.exit(main())
