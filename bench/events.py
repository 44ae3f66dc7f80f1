"""``python -m bench.events``: the event layer at the scale of a world cup.

An event of 42 teams in six divisions, one round of 21 matches over 200 tables, 25 games a
table (5,000 games), written as one AFN file per table; the games are a pool of generated
trinidad14 games, each re-tagged with its place (refereeing costs the same whatever the
tags).  Measured in this process, on one core, in CPU seconds (``time.process_time``):

* the site built cold (an empty cache of game facts): every file read and refereed, the
  standings, prizes and ratings, every page but the games' replay pages;
* the site built again after one table's file changed: the files read again (the cache's
  misses, which must be 1) and the time;
* the replay pages, per game, over the first four tables (their cost for 5,000 games
  follows), and that site built again after one game changed.

The target (issue 38): the site of 5,000 games in at most 30 s of CPU on one core, and a
rebuild after one changed game reading only that game.  The load average is printed: on a
shared machine it says how far the figures can be trusted.

Usage, from the repository root::

    python -m bench.events           # 5,000 games (a few minutes on a busy machine)
    python -m bench.events --quick   # 8 teams, 20 tables, 200 games: a smoke run

``--cost N`` is a workload for ``valgrind --tool=cachegrind``: the site of 8 teams, 20
tables and N games built once, cold, with every replay page; with ``--generate-only`` the
games are only generated and written, the floor to subtract.  Instructions do not move with
the machine's load, where CPU seconds do (compile the modules first and set
``PYTHONHASHSEED=0``)::

    PYTHONHASHSEED=0 valgrind --tool=cachegrind --cache-sim=no \\
        python -m bench.events --cost 400
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from allfours_notation.events.cache import FactsCache
from allfours_notation.events.eventfile import read_event_file
from allfours_notation.events.games import read_folder
from allfours_notation.events.report import build_report
from allfours_notation.events.site import site_pages
from allfours_notation.generate import Knobs, generate_game, profile_options, write_afn
from allfours_notation.reading.records import Game, Tag

POOL = 100
KNOBS = Knobs(comments=0.0, glyphs=0.0, hands=0.0)


def write_event(folder: Path, teams: int, tables: int, games: int) -> list[Path]:
    """The event file and one game file per table; the files, in table order."""
    rng = random.Random(38)
    options = profile_options("trinidad14")
    pool = [generate_game(rng, options, KNOBS, profile="trinidad14") for _ in range(POOL)]
    matches = teams // 2
    per_match = [tables // matches + (index < tables % matches) for index in range(matches)]
    seats = 2 * max(per_match)
    lines = ['[event]\nname = "Bench cup"\nrules = "trinidad14"\n',
             f'[match]\nrule = "games"\ngames = {games // tables}\n']
    for team in range(teams):
        players = ", ".join(f'"T{team} P{seat}"' for seat in range(seats))
        lines.append(f'[[team]]\nname = "T{team}"\ndivision = "{"ABCDEF"[team % 6]}"\n'
                     f"players = [{players}]\n")
    (folder / "EVENT.toml").write_text("\n".join(lines), encoding="utf-8")
    files = []
    (folder / "games").mkdir()
    for match, count in enumerate(per_match):
        home, away = 2 * match, 2 * match + 1
        for table in range(1, count + 1):
            made = [tagged(rng.choice(pool), home, away, table, index)
                    for index in range(1, games // tables + 1)]
            path = folder / "games" / f"m{match:02d}-t{table:02d}.afn"
            path.write_text("% AFN 1\n" + "\n".join(write_afn(g, version_line=False)
                                                    for g in made), encoding="utf-8")
            files.append(path)
    return files


def tagged(game: Game, home: int, away: int, table: int, index: int) -> Game:
    names = {"North": f"T{home} P{2 * table - 2}", "South": f"T{home} P{2 * table - 1}",
             "East": f"T{away} P{2 * table - 2}", "West": f"T{away} P{2 * table - 1}"}
    tags = [Tag(name="Rules", value="trinidad14"), Tag(name="Table", value=str(table)),
            Tag(name="HomeTeam", value=f"T{home}"), Tag(name="AwayTeam", value=f"T{away}"),
            *(Tag(name=seat, value=name) for seat, name in names.items()),
            Tag(name="Result", value=game.tag("Result") or "*")]
    return replace(game, tags=tuple(tags), index=index)


def note(path: Path) -> None:
    """One game of the file changed: a comment written before its first deal."""
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("deal 1 ", "{ a note added after the match }\ndeal 1 ", 1),
                    encoding="utf-8")


def build(folder: Path, cache: FactsCache, *, replays: bool = False,
          out: Path | None = None) -> tuple[float, int]:
    """CPU seconds to build the site and the pages made; with ``out``, the pages are
    written there and a replay page already there is kept (as ``event site`` does)."""
    start = time.process_time()
    event = read_event_file(folder / "EVENT.toml").event
    assert event is not None
    kept = frozenset(path.name for path in out.glob("game-*.html")) if out else frozenset()
    read = read_folder(folder / "games", event.given_rules, cache=cache, pages=replays,
                       kept=kept)
    report = build_report(event, read)
    pages = site_pages(report, replays=replays, root=None,
                       existing=(lambda name: (out / name).is_file()) if out else None,
                       premade=read.pages)
    made = {name: page for name, page in pages.items() if page is not None}
    if out is not None:
        for name, page in made.items():
            (out / name).write_text(page, encoding="utf-8")
    return time.process_time() - start, len(made)


def whole_site(folder: Path, files: list[Path]) -> None:
    """The whole site with its replay pages, written, from an empty cache and an empty
    folder; then again after one game changed."""
    cache = FactsCache(folder / "whole.sqlite")
    out = folder / "whole-site"
    out.mkdir()
    cold, pages = build(folder, cache, replays=True, out=out)
    print(f"whole site with its replay pages, cold: {cold:.2f} s CPU, {pages} files written")
    note(files[1])
    again, made = build(folder, cache, replays=True, out=out)
    cache.close()
    print(f"built again after one game changed: {again:.2f} s CPU, {made} files written")


def cost_workload(games: int, *, build_site: bool) -> int:
    """The site of ``games`` games with every replay page, built once from an empty cache
    (or, without ``build_site``, the games only written): for counting instructions."""
    with tempfile.TemporaryDirectory(prefix="afn-bench-events-cost-") as scratch:
        folder = Path(scratch)
        write_event(folder, 8, 20, games)
        if build_site:
            cache = FactsCache(folder / "cache.sqlite")
            out = folder / "site"
            out.mkdir()
            _, pages = build(folder, cache, replays=True, out=out)
            cache.close()
            print(f"{games} games: {pages} files written")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.events")
    parser.add_argument("--quick", action="store_true", help="200 games: a smoke run")
    parser.add_argument("--whole", action="store_true",
                        help="also build the whole site with every replay page, cold, then "
                             "again after one game changed (minutes)")
    parser.add_argument("--cost", type=int, metavar="N",
                        help="a cachegrind workload: the site of N games (8 teams, 20 "
                             "tables) built once, cold, with every replay page")
    parser.add_argument("--generate-only", action="store_true",
                        help="with --cost: only generate and write the games (the floor)")
    args = parser.parse_args(argv)
    if args.cost is not None:
        return cost_workload(args.cost, build_site=not args.generate_only)
    teams, tables, games = (8, 20, 200) if args.quick else (42, 200, 5000)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory(prefix="afn-bench-events-") as scratch:
        folder = Path(scratch)
        files = write_event(folder, teams, tables, games)
        cache = FactsCache(folder / "cache.sqlite")
        cold, pages = build(folder, cache)
        print(f"{teams} teams, {len(files)} tables, {games} games: site cold "
              f"{cold:.2f} s CPU ({pages} pages, no replay pages); "
              f"{cache.misses} files refereed")
        note(files[0])
        cache.hits = cache.misses = 0
        warm, _ = build(folder, cache)
        print(f"after one table's file changed: {warm:.2f} s CPU; "
              f"{cache.misses} file refereed again, {cache.hits} from the cache")
        cache.close()
        sample = folder / "sample"
        sample.mkdir()
        (sample / "games").mkdir()
        (sample / "EVENT.toml").write_text((folder / "EVENT.toml").read_text("utf-8"),
                                           encoding="utf-8")
        for path in files[:4]:
            (sample / "games" / path.name).write_text(path.read_text("utf-8"), "utf-8")
        quiet = FactsCache(folder / "sample.sqlite")
        plain, _ = build(sample, quiet)
        out = folder / "site"
        out.mkdir()
        full, _ = build(sample, quiet, replays=True, out=out)
        each = (full - plain) / (4 * games // tables)
        print(f"replay pages: {each * 1000:.1f} ms CPU a game ({4 * games // tables} games); "
              f"for {games} games about {each * games:.0f} s, the first time")
        note(sample / "games" / files[0].name)
        again, made = build(sample, quiet, replays=True, out=out)
        quiet.close()
        print(f"the same built again after one game changed: {again:.2f} s CPU, {made} pages "
              "made (that game's replay page and the site's own pages)")
        if args.whole:
            whole_site(folder, files)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
