"""``python -m bench.replay_pages``: a replay page's cost in instructions, and proof that a
speed-up left the pages as they were (issue 38).

Two commands:

* ``hashes``: every replay page of the samples and of generated games of the four
  profiles (hands written or not, offences, packs, plays without seat labels), made as
  the event site makes them (``check_with_changes``, then ``events.replays.render``),
  hashed; prints the number of pages and one digest of them all, and with ``--out`` writes
  one line per page (its name, its hash, its findings' hash) to compare before and after;
* ``cost STAGE``: a fixed workload to run under ``valgrind --tool=cachegrind``, the first
  ``--games`` games (30) of the events bench's pool taken to a stage: ``parse`` (the games
  generated and parsed: the floor), ``check`` (and checked, as for the game's facts),
  ``stepping`` (``check_with_changes``: the referee's replay a page is made from) or
  ``page`` (and the page rendered).  A stage's instructions less the stage before's,
  divided by the games, is that stage's cost a game; the cycle collector is paused, as
  the site makes its pages.

Instructions do not move with the machine's load, where CPU seconds do: compile the
modules first (``python -m compileall -q allfours_notation``) and set
``PYTHONHASHSEED=0``, so that both sides of a comparison run the same code the same way::

    python -m bench.replay_pages hashes --out before.txt
    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no \\
        python -m bench.replay_pages cost stepping
"""

from __future__ import annotations

import argparse
import hashlib
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

from allfours_notation.checking import check, check_with_changes
from allfours_notation.checking.parsing import parse
from allfours_notation.collector import cyclic_gc_paused
from allfours_notation.events.replays import render
from allfours_notation.generate import Knobs, generate_game, profile_options, write_afn

from .events import KNOBS

ROOT = Path(__file__).resolve().parent.parent
PROFILES = ("hoffmann1909", "english10", "foster", "trinidad14")
# hands written or not, offences a later card proves, a pack's order and plays without
# seat labels, and the events bench's own (no hands, comments or glyphs)
VARIETY = (Knobs(), Knobs(hands=0.0), Knobs(offences=0.3, bad_calls=0.3, unseen=0.2, hands=0.3),
           Knobs(pack=0.5, discards=0.2, seat_labels=0.3, offences=0.2, hands=0.0), KNOBS)
STAGES = ("parse", "check", "stepping", "page")


def records(per_knobs: int = 6) -> Iterator[tuple[str, str]]:
    """The samples' texts, then generated games' (``per_knobs`` a profile and knobs),
    each with its name: the same on every run."""
    for path in sorted((ROOT / "samples").glob("*.afn")):
        yield path.name, path.read_text(encoding="utf-8")
    for profile in PROFILES:
        rng = random.Random(f"replay-pages-{profile}")
        options = profile_options(profile)
        for number, knobs in enumerate(VARIETY):
            for index in range(per_knobs):
                game = generate_game(rng, options, knobs, profile=profile)
                yield (f"{profile}-{number}-{index}",
                       "% AFN 1\n" + write_afn(game, version_line=False))


def page_hashes(texts: Iterator[tuple[str, str]]) -> tuple[str, list[str]]:
    """The digest of every page made of ``texts`` and one line per game: its name, its
    page's hash (or ``none``, no page) and its findings' hash."""
    whole = hashlib.sha256()
    lines = []
    for name, text in texts:
        for game in parse(text, filename=name).games:
            if game.broken:
                continue
            with cyclic_gc_paused():
                checked, changes = check_with_changes(game)
            found = hashlib.sha256(repr(checked.diagnostics).encode()).hexdigest()[:12]
            if changes is None or checked.replay is None:
                lines.append(f"{name}#{game.index} none {found}")
                continue
            page = render(game, checked.replay, changes, text, name, None).encode("utf-8")
            whole.update(page)
            lines.append(f"{name}#{game.index} {hashlib.sha256(page).hexdigest()[:16]} {found}")
    return whole.hexdigest(), lines


def workload(stage: str, games: int = 30) -> int:
    """The first ``games`` games of the events bench's pool taken to ``stage``; how many
    were."""
    rng = random.Random(38)  # as bench.events.write_event draws its pool
    options = profile_options("trinidad14")
    pool = [generate_game(rng, options, KNOBS, profile="trinidad14") for _ in range(games)]
    text = "% AFN 1\n" + "\n".join(write_afn(game, version_line=False) for game in pool)
    with cyclic_gc_paused():  # as the site makes its pages
        parsed = parse(text).games
        for game in parsed:
            if stage == "check":
                check(game)
            elif stage == "stepping":
                check_with_changes(game)
            elif stage == "page":
                checked, changes = check_with_changes(game)
                assert checked.replay is not None and changes is not None
                render(game, checked.replay, changes, text, "pool.afn", None)
    return len(parsed)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replay_pages")
    commands = parser.add_subparsers(dest="command", required=True)
    hashes = commands.add_parser("hashes", help="hash every page of the samples and of "
                                 "generated games")
    hashes.add_argument("--out", type=Path, help="write one line per page here")
    cost = commands.add_parser("cost", help="a fixed workload for cachegrind")
    cost.add_argument("stage", choices=STAGES)
    cost.add_argument("--games", type=int, default=30)
    args = parser.parse_args(argv)
    if args.command == "hashes":
        digest, lines = page_hashes(records())
        if args.out is not None:
            args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        print(f"{sum(' none ' not in line for line in lines)} pages {digest}")
    else:
        print(f"{workload(args.stage, args.games)} games to {args.stage}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
