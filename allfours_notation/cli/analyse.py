"""``allfours analyse``: par and a card-by-card check of every deal, all hands seen."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from rich.console import Console
from rich.markup import escape

from ..archive.parallel import WorkerPool, cpu_count
from ..cards import Card
from ..checking.analysis.annotate import annotate_game
from ..checking.analysis.data import AnalysisCache, deal_digest, to_json
from ..checking.analysis.deals import PlayedDeal, played_deals
from ..checking.analysis.report import (
    CAVEAT,
    DEFAULT_TIME_LIMIT,
    LABEL,
    DealAnalyser,
    DealAnalysis,
    analyse_deal,
)
from ..checking.analysis.single_dummy import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    DecisionVerdict,
    SingleDummyDeal,
    assemble,
    discards_named,
    judge,
    single_dummy_json,
    single_dummy_lines,
    to_judge,
)
from ..checking.analysis.solver import SolveTimeout
from ..checking.parsing import parse
from ..frozen import frozen
from ..guard import guarded
from ..reading.records import Game
from ..referee.replay import replay
from ..referee.state import GameReplay
from ..visible import for_markup, for_stdout
from ..writing.formatter import format_result
from .inputs import InputError, console, expanded_or_fail, fail, read_afn
from .rules import add_rules_arguments, options_for, rules_overrides
from .score import positive

NAME = "analyse"
HELP = "par and a card-by-card check of each deal, all hands seen (double dummy)"
DESCRIPTION = """\
Solve every played deal of each FILE exactly, with all the hands seen ("double
dummy"): the par (the points each side makes of the Jack, Low where it goes to
the trick winner, and Game when everyone plays best from the first lead), the
result actually made, and each card that lowered its side's value, by how much
and why, with a card that kept it:

  trick 3  N:KD ?   N:KD lost Game (NS 24 v EW 18 with N:QD)

Two sides (two players, or four in partnerships): the value is a side's points
minus the other's; a point that changes hands moves it by 2, and the flags count
the points that changed hands: ? for one, ?? for two or more (a hanged Jack is
?? ).  Three players: each seat's guaranteed points with the other two against
it; ? for one point lost, ?? for two or more.  High, and Low where it goes to
its holder, are fixed by the deal; turn-ups and gifts are as recorded.

Every verdict sees all the hands: a player who could not know a card is not
called careless for missing a line only the hidden cards allowed.

A deal is solved within --time-limit seconds (default 5, for the par and the
card check together); a deal not solved in time says so ("not solved in 5 s"),
never a guess.  Results are cached by a digest of the deal and the rules (see
docs/analysis.md; --no-cache skips the cache).

  --line            the best line of play (from the first lead, or --after N cards)
  --json            the analyses as JSON data
  --annotate        print the file with the flags written as glyphs (?, ??) on
                    the cards that have none, the reason in a comment beside it,
                    in canonical form; a glyph already written is never changed
  -j N              analyse N deals at a time (folders of many games)
  --single-dummy    also judge each card on what its player could know: --samples
                    K deals of the hidden cards drawn from those consistent with
                    what the player saw (own hand, turn-ups, the cards played and
                    what they prove), the same deals for every legal card, each
                    solved; a card is flagged when its mean loss is at least a point
                    and more than two standard errors; the double-dummy flag beside
                    it and the flags that change listed (--seed S: the same verdicts
                    for the same seed)

exit status: 0 analysed, 1 some game could not be read or analysed, 2 unreadable
input or bad options.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="AFN files or folders (every .afn file under them); '-' reads stdin")
    add_rules_arguments(parser)
    parser.add_argument("--game", type=positive, metavar="N", help="only game N of each file")
    parser.add_argument("--deal", type=positive, metavar="N", help="only deal N of each game")
    form = parser.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print the analyses as JSON")
    form.add_argument("--annotate", action="store_true",
                      help="print the file with the flags written in as glyphs and comments")
    parser.add_argument("--line", action="store_true",
                        help="print the best line of play of each deal")
    parser.add_argument("--after", type=int, default=0, metavar="N",
                        help="with --line: from the position after the first N cards played")
    parser.add_argument("--time-limit", type=_seconds, default=DEFAULT_TIME_LIMIT, metavar="S",
                        help=f"seconds per deal (default {DEFAULT_TIME_LIMIT:g})")
    parser.add_argument("-j", "--jobs", type=positive, default=1, metavar="N",
                        help=f"deals analysed at a time (this machine has {cpu_count()} cores)")
    parser.add_argument("--no-cache", action="store_true",
                        help="neither read nor write the cache of analyses")
    parser.add_argument("--single-dummy", action="store_true",
                        help="also judge each card on what its player could see (sampled)")
    parser.add_argument("--samples", type=_samples, default=DEFAULT_SAMPLES, metavar="K",
                        help=f"with --single-dummy: worlds per decision (default "
                             f"{DEFAULT_SAMPLES})")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="S",
                        help=f"with --single-dummy: the sampling seed (default {DEFAULT_SEED})")


MAX_SAMPLES = 100_000


def _samples(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 2 <= value <= MAX_SAMPLES:
        raise argparse.ArgumentTypeError(
            f"{text}: give from 2 to {MAX_SAMPLES:,} samples (one has no standard error)")
    return value


MAX_TIME_LIMIT = 86_400


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value <= MAX_TIME_LIMIT:  # NaN too
        raise argparse.ArgumentTypeError(
            f"{text}: give a number of seconds above 0 and at most {MAX_TIME_LIMIT:,} (a day)")
    return value


@frozen
class _Job:
    """One deal handed to a worker process to solve."""

    played: PlayedDeal
    digest: str
    time_limit: float


def _solve(job: _Job) -> DealAnalysis:
    """One deal's analysis (module level: handed to worker processes by name)."""
    return analyse_deal(job.played, time_limit=job.time_limit)


@frozen
class _Decision:
    """One card decision handed to a worker process to judge single dummy."""

    played: PlayedDeal
    index: int
    digest: str
    samples: int
    seed: int
    time_limit: float
    also_seen: tuple[Card, ...]  # the deal's discards named aloud


def _judge(job: _Decision) -> tuple[DecisionVerdict | None, float]:
    """One decision's single-dummy verdict and the seconds it took (seeded by the seed,
    the deal's digest and the card's place: the same whichever worker judges it)."""
    start = time.perf_counter()
    verdict = judge(job.played, job.index, samples=job.samples, seed=job.seed,
                    deal_key=job.digest, time_limit=job.time_limit, also_seen=job.also_seen)
    return verdict, time.perf_counter() - start


def _single_dummy(game: Game, deals: Sequence[PlayedDeal], analyses: Sequence[DealAnalysis],
                  pool: WorkerPool, args: argparse.Namespace) -> list[SingleDummyDeal | None]:
    """Every deal's single-dummy verdicts, a decision per job (so that ``-j`` helps one
    deal too), put together per deal."""
    jobs = [_Decision(d, index, deal_digest(d), args.samples, args.seed, args.time_limit,
                      discards_named(game, d.number))
            for d, a in zip(deals, analyses, strict=True) for index in to_judge(d, a)]
    judged = iter(pool.map(_judge, jobs, batch=1))
    out: list[SingleDummyDeal | None] = []
    for played, analysis in zip(deals, analyses, strict=True):
        results = [next(judged) for _ in to_judge(played, analysis)]
        out.append(assemble(played, analysis, [verdict for verdict, _ in results],
                            samples=args.samples, seed=args.seed,
                            seconds=sum(seconds for _, seconds in results),
                            time_limit=args.time_limit))
    return out


def run(args: argparse.Namespace) -> int:
    chosen = rules_overrides(args)
    if isinstance(chosen, int):
        return chosen
    if args.after and not args.line:
        return fail("--after goes with --line")
    if args.after < 0:
        return fail("--after: give a number of cards from 0")
    if args.single_dummy and args.annotate:
        return fail("--single-dummy goes with the text or --json, not --annotate")
    profile, overrides, house = chosen
    out = console()
    names, unreadable = expanded_or_fail(args.files)
    status = 2 if unreadable else 0
    cache = None if args.no_cache else AnalysisCache()
    games_json: list[dict[str, object]] = []
    # The caveat heads the first analysis printed: not a file that cannot be read.
    caveat_due = not args.json and not args.annotate
    with WorkerPool(args.jobs) as pool, _Progress(enabled=not args.json and not args.annotate
                                                  and sys.stderr.isatty()) as progress:
        for name in names:
            try:
                source = read_afn(name)
            except InputError as error:
                fail(str(error))
                status = 2
                continue
            if caveat_due:
                out.print(f"[dim]{escape(CAVEAT[0].upper() + CAVEAT[1:])}.[/]")
                caveat_due = False
            result = parse(source.data, filename=source.name)
            annotated: list[Game] = []
            for game in result.games:
                selected = args.game is None or game.index == args.game
                if not selected or game.broken:
                    annotated.append(game)
                    if selected and game.broken:
                        status = max(status, 1)
                        if not args.json and not args.annotate:
                            out.print(f"[bold red]{for_markup(name)}: game {game.index} cannot be "
                                      "analysed (syntax error; see 'allfours check')[/]")
                    continue
                replayed = _replayed(game, profile, overrides, house)
                if replayed is None:
                    status = max(status, 1)
                    annotated.append(game)
                    continue
                deals = [d for d in played_deals(replayed)
                         if args.deal is None or d.number == args.deal]
                if args.deal is not None and not deals:
                    fail(f"{name}: game {game.index} has no deal {args.deal}")
                    status = 2
                    annotated.append(game)
                    continue
                analyses = list(_analyses(deals, cache, pool, args.time_limit, progress))
                sampled: list[SingleDummyDeal | None] = [None] * len(deals)
                if args.single_dummy:
                    sampled = _single_dummy(game, deals, analyses, pool, args)
                if args.annotate:
                    annotated.append(annotate_game(game, replayed, analyses))
                elif args.json:
                    games_json.append(_game_json(name, game, deals, analyses, sampled, args))
                else:
                    _print_game(out, name, game, deals, analyses, sampled, args)
            if args.annotate:
                sys.stdout.write(for_stdout(format_result(replace(result,
                                                                  games=tuple(annotated)))))
    if cache is not None:
        cache.close()
    if args.json:
        sys.stdout.write(for_stdout(json.dumps({"label": LABEL, "caveat": CAVEAT,
                                                "games": games_json}, indent=2,
                                               ensure_ascii=False) + "\n"))
    return status


def _replayed(game: Game, profile: str | None, overrides: dict[str, str],
              house: object) -> GameReplay | None:
    def work() -> GameReplay | None:
        options, _ = options_for(game, profile, overrides, house)  # type: ignore[arg-type]
        return replay(game, options, record_states=False)

    return guarded(work, lambda _: None, doing="replaying this game for analysis",
                   file=game.source, at=game.span, game=game.index)


def _analyses(deals: Sequence[PlayedDeal], cache: AnalysisCache | None, pool: WorkerPool,
              time_limit: float, progress: _Progress) -> Iterator[DealAnalysis]:
    jobs = [_Job(d, deal_digest(d), time_limit) for d in deals]
    found: dict[int, DealAnalysis] = {}
    todo: list[_Job] = []
    for k, job in enumerate(jobs):
        stored = cache.get(job.digest) if cache is not None else None
        if stored is not None:
            found[k] = stored
        else:
            todo.append(job)
    progress.add(len(jobs))
    progress.advance(len(found))
    solved = iter(pool.map(_solve, todo, batch=1))
    for k, job in enumerate(jobs):
        if k in found:
            yield found[k]
            continue
        analysis = next(solved)
        progress.advance(1)
        if cache is not None:
            cache.put(job.digest, analysis, time_limit)
        yield analysis


PROGRESS_FROM = 200  # deals to analyse before a progress bar is worth showing (a long run)


class _Progress:
    """Deals analysed so far, on standard error when it is a terminal, once there are
    enough of them to wait for."""

    def __init__(self, *, enabled: bool) -> None:
        self.enabled = enabled
        self._progress: Any = None
        self._task: Any = None
        self._total = 0
        self._done = 0

    def __enter__(self) -> _Progress:
        return self

    def add(self, count: int) -> None:
        self._total += count
        if self._progress is None and self.enabled and self._total >= PROGRESS_FROM:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            self._progress = Progress(TextColumn("analysing deals"), BarColumn(),
                                      MofNCompleteColumn(), TimeRemainingColumn(),
                                      console=Console(stderr=True, emoji=False), transient=True)
            self._progress.start()
            self._task = self._progress.add_task("deals", total=self._total,
                                                 completed=self._done)
        elif self._progress is not None:
            self._progress.update(self._task, total=self._total)

    def advance(self, count: int) -> None:
        self._done += count
        if self._progress is not None and count:
            self._progress.advance(self._task, count)

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()


# --- text ---------------------------------------------------------------------------------


def _points_text(pairs: Sequence[tuple[str, int]]) -> str:
    return ", ".join(f"{side} {points}" for side, points in pairs) or "-"


def _print_game(out: Console, name: str, game: Game, deals: Sequence[PlayedDeal],
                analyses: Sequence[DealAnalysis], sampled: Sequence[SingleDummyDeal | None],
                args: argparse.Namespace) -> None:
    event = game.tag("Event")
    out.print(f"[bold]{for_markup(name)}: game {game.index}"
              + (f" ({for_markup(event)})" if event else "") + "[/]")
    for played, analysis, single in zip(deals, analyses, sampled, strict=True):
        for line in deal_lines(analysis):
            out.print(escape(line), highlight=False)
        if single is not None and played.layout is not None:
            for line in single_dummy_lines(single):
                out.print(escape(line), highlight=False)
        if args.line and analysis.solved and played.layout is not None:
            out.print(escape(_line_text(played, args.after, args.time_limit)), highlight=False)


def deal_lines(analysis: DealAnalysis) -> list[str]:
    """The text of one deal's analysis, line by line."""
    head = f"  deal {analysis.number}"
    if not analysis.sides:
        return [f"{head}: not analysed: {analysis.note}"]
    lines = []
    fixed = "; ".join(f"{p.item.value.capitalize()} to {p.side}" for p in analysis.fixed)
    recorded = "; ".join(f"{p.item.value} {p.points} to {p.side}" for p in analysis.recorded)
    settled = " · ".join(x for x in (f"fixed by the deal: {fixed}" if fixed else "",
                                     f"as recorded: {recorded}" if recorded else "") if x)
    if not analysis.solved:
        lines.append(f"{head}: {analysis.note}; actual {_points_text(analysis.actual)}")
        if settled:
            lines.append(f"    {settled}")
        return lines
    if analysis.two_sides:
        first, second = analysis.sides
        value = analysis.par_value or 0
        margin = f"{first if value > 0 else second} +{abs(value)}" if value else "level"
        par = f"par {_points_text(analysis.par)} ({margin})"
    else:
        par = f"par (each seat's guarantee) {_points_text(analysis.par)}"
    lines.append(f"{head}: {par}; actual {_points_text(analysis.actual)}")
    if settled:
        lines.append(f"    {settled}")
    flagged = [v for v in analysis.cards if v.loss > 0 or not v.legal]
    for verdict in flagged:
        glyph = verdict.glyph or ""
        lines.append(f"    trick {verdict.trick}  {verdict.seat.letter}:{verdict.card} "
                     f"{glyph:<2}  {verdict.reason}")
    if analysis.checked and not flagged:
        lines.append("    every card kept its side's value")
    if analysis.note:
        lines.append(f"    {analysis.note}")
    return lines


def _line_text(played: PlayedDeal, after: int, time_limit: float) -> str:
    assert played.layout is not None
    analyser = DealAnalyser(played.layout)
    start = played.line[:after]
    mover = None
    if after:
        solver = next(iter(analyser.solvers.values()))
        solver.set_position(start)
        mover = solver.to_move()
    try:
        best = analyser.best_line(mover or played.layout.elder, start,
                                  time.perf_counter() + time_limit)
    except SolveTimeout:
        return f"    best line: not solved in {time_limit:g} s"
    where = f"after {after} cards" if after else "from the first lead"
    return f"    best line {where}: " + " ".join(f"{s.letter}:{c}" for s, c in best)


def _game_json(name: str, game: Game, deals: Sequence[PlayedDeal],
               analyses: Sequence[DealAnalysis], sampled: Sequence[SingleDummyDeal | None],
               args: argparse.Namespace) -> dict[str, object]:
    out = []
    for played, analysis, single in zip(deals, analyses, sampled, strict=True):
        data = to_json(analysis, args.time_limit)
        if single is not None:
            data["single_dummy"] = single_dummy_json(single)
        if args.line and analysis.solved and played.layout is not None:
            data["line"] = _line_text(played, args.after, args.time_limit).split(": ", 1)[1]
        out.append(data)
    return {"file": name, "game": game.index, "event": game.tag("Event"), "deals": out}
