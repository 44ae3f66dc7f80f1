"""``allfours html``: one game as a self-contained HTML replay page.

The page needs no server and no network: its script, stylesheet, replay data and the
game's own AFN are all inside the one file, so it can be mailed or put on a phone.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from ..checking.parsing import parse_indexed
from ..diagnostics import sort_key
from ..reading.headers import scan_headers
from ..reading.source import decode
from ..visible import for_stdout, visible
from .inputs import InputError, console, fail, read_afn

if TYPE_CHECKING:
    from ..checking.analysis import DealAnalysis
    from ..checking.analysis.single_dummy import SingleDummyDeal
    from ..referee.replay import GameReplay

NAME = "html"
HELP = "write one game as a self-contained HTML replay page"
DESCRIPTION = """\
Write game N of FILE as one HTML file that replays it in any browser, offline: the
table with every hand, the trick, the turn-up and trumps, the score and the points
of each deal with their reasons, step buttons, the arrow keys of the terminal viewer
(→/← card, ↓/↑ trick, PgDn/PgUp deal, Home/End), a slider over the steps, a link to
each deal, light and dark schemes.  The game's AFN is embedded: the page is also the
record.  --analyse solves every deal with all hands seen (as 'allfours analyse' does)
and shows the par and the flagged cards of each deal; with --single-dummy also each
card judged on what its player could know (--samples K worlds a decision, --seed S),
the double-dummy flag beside it.  --advice shows at each stand, beg, gift and run
what 'allfours advise' would have said there (from the caller's hand as dealt, when
the record has it; --advice-samples deals each, default 20, the dealer answering a
beg from 2 of his own; seconds a call, so only when asked).

The page is written whole (a temporary file beside it, then renamed; a symbolic
link is written through).  Without -o, an existing page of that name is replaced
only with --force.

examples:
  allfours html club.afn -o replay.html
  allfours html club.afn --game 3 -o game3.html
  allfours html club.afn -o - > replay.html

exit status: 0 page written, 1 page written but the game has errors (listed on the
page and on stderr) or the game cannot be read (no page), 2 usage error or
unreadable input.
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE", help="an AFN file; '-' reads stdin")
    parser.add_argument("--game", type=int, metavar="N",
                        help="the game to replay (1-based; default 1)")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="where to write the page; '-' is stdout (default: FILE's name "
                        "with .html, or -gameN.html with --game)")
    parser.add_argument("--analyse", action="store_true",
                        help="show each deal's par and flagged cards, all hands seen "
                        "(double dummy)")
    parser.add_argument("--time-limit", type=float, default=5.0, metavar="S",
                        help="with --analyse: seconds per deal (default 5)")
    parser.add_argument("--single-dummy", action="store_true",
                        help="with --analyse: also each card judged on what its player "
                        "could know (sampled, hidden hands unknown)")
    parser.add_argument("--samples", type=int, default=100, metavar="K",
                        help="with --single-dummy: worlds per decision (default 100)")
    parser.add_argument("--seed", type=int, default=1, metavar="S",
                        help="with --single-dummy or --advice: the sampling seed (default 1)")
    parser.add_argument("--advice", action="store_true",
                        help="show at each call what the advisor would have said there")
    parser.add_argument("--advice-samples", type=int, default=20, metavar="K",
                        help="with --advice: sampled deals per option (default 20)")
    parser.add_argument("--force", action="store_true",
                        help="replace an existing page of the default name (without -o)")


def default_output(name: str, game: int, chosen: bool) -> str:
    stem = Path(name).stem if name != "-" else "replay"
    return f"{stem}-game{game}.html" if chosen else f"{stem}.html"


def run(args: argparse.Namespace) -> int:
    chosen = args.game is not None
    args.game = args.game if chosen else 1
    if args.game < 1:
        return fail(f"--game {args.game}: games are numbered from 1")
    try:
        source = read_afn(args.file)
    except InputError as error:
        return fail(str(error))
    text, _ = decode(source.data, source.name)
    headers = scan_headers(text)
    if not headers:
        return fail(f"{source.name}: no games found")
    if args.game > len(headers):
        count = len(headers)
        return fail(f"--game {args.game}: {source.name} has {count} game{'s' * (count != 1)}")
    if args.single_dummy and not args.analyse:
        return fail("--single-dummy goes with --analyse")
    if not 2 <= args.samples <= 100_000:
        return fail(f"--samples {args.samples}: give from 2 to 100,000")
    header = headers[args.game - 1]
    game = parse_indexed(text, header, filename=source.name)
    err = console(stderr=True)
    if game.broken:
        for diagnostic in game.diagnostics:
            err.print(diagnostic.render(text), markup=False)
        err.print(f"allfours: game {args.game} cannot be replayed: it could not be read; "
                  "no page written", markup=False)
        return 1

    from ..referee.replay import replay_changes
    from ..writing.html_replay import render_page, replay_data

    # each step as what it changed: the page's data without whole states (issue 38)
    replayed, changes = replay_changes(game)
    found = tuple(sorted({*game.diagnostics, *replayed.diagnostics}, key=sort_key))
    analyses = _analyses(replayed, args.time_limit) if args.analyse else ()
    sampled = _sampled(replayed, analyses, args) if args.single_dummy else ()
    advice = None
    if args.advice:
        if args.advice_samples < 1:
            return fail(f"AFN706: --advice-samples: give at least 1 ({args.advice_samples} given)")
        from ..checking.analysis.advisor_calls import advice_at_calls

        advice = advice_at_calls(replayed, changes, samples=args.advice_samples, seed=args.seed)
    page = render_page(replay_data(replayed, found, analyses, changes=changes,
                                   single_dummy=sampled, advice=advice),
                       text[header.start:header.end].strip() + "\n",
                       filename=Path(source.name).name)
    out = args.output or default_output(source.name, args.game, chosen)
    if out == "-":
        sys.stdout.write(for_stdout(page))
    else:
        from ..safe_write import OutputRefused, replace_file, stage

        try:
            if args.output is None and not args.force:
                with stage(out, overwrite=False) as stream:  # never silently over a page
                    stream.write(page.encode("utf-8"))
            else:
                replace_file(out, page.encode("utf-8"))
        except OutputRefused as error:
            return fail(str(error))
        except OSError as error:
            return fail(f"{out}: cannot write: {error.strerror or error}")
        err.print(visible(f"wrote {out} (game {args.game}, {len(changes)} steps)"),
                  markup=False)
    errors = [d for d in found if d.is_error]
    for diagnostic in errors:
        err.print(visible(diagnostic.headline()), markup=False)
    return 1 if errors else 0


def _analyses(replayed: GameReplay, time_limit: float) -> list[DealAnalysis]:
    """Every deal solved (or taken from the cache), as ``allfours analyse`` does."""
    from ..checking.analysis import AnalysisCache, analyse_deal, deal_digest, played_deals

    cache = AnalysisCache()
    out = []
    for played in played_deals(replayed):
        digest = deal_digest(played)
        analysis = cache.get(digest)
        if analysis is None:
            analysis = analyse_deal(played, time_limit=time_limit)
            cache.put(digest, analysis, time_limit)
        out.append(analysis)
    cache.close()
    return out


def _sampled(replayed: GameReplay, analyses: Sequence[DealAnalysis],
             args: argparse.Namespace) -> list[SingleDummyDeal]:
    """Every deal's single-dummy verdicts, seeded as ``allfours analyse`` seeds them (the
    same verdicts for the same seed and deal)."""
    from ..checking.analysis import deal_digest, played_deals
    from ..checking.analysis.single_dummy import discards_named, single_dummy_deal

    by_number = {a.number: a for a in analyses}
    return [single_dummy_deal(played, by_number.get(played.number), samples=args.samples,
                              seed=args.seed, deal_key=deal_digest(played),
                              time_limit=args.time_limit,
                              also_seen=discards_named(replayed.game, played.number))
            for played in played_deals(replayed)]
