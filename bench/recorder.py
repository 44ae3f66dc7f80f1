"""``python -m bench.recorder``: what recording costs a scorer and the machine.

* keystrokes per card and per deal, for typical two- and four-handed deals (the
  generator's games typed as the recorder reads them; hands unknown: every card
  typed, ``js`` + Enter; hands known: every card chosen by its place among the
  legal cards, a digit + Enter: an Enter alone records no card);
* time from a keystroke (the Enter that submits an entry) to the updated screen,
  under Textual's Pilot at 80×24: median and 95th percentile;
* time to resume a file of about 500 deals whose last game is unfinished
  (read, check, rebuild the session): median of several runs.

Figures depend on the machine and its load; compare runs taken together.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from allfours_notation.checking.parsing import parse
from allfours_notation.generate import Knobs, generate_corpus, generate_games
from allfours_notation.reading.records import Game, Play, Tag
from allfours_notation.recording.entries import Phase
from allfours_notation.recording.opening import Resume, inspect
from allfours_notation.recording.script import (
    lines_of_game,
    results_keys,
    results_lines_of_game,
)
from allfours_notation.recording.session import Session
from allfours_notation.recording.storage import RecordFile
from allfours_notation.referee import replay
from allfours_notation.referee.profiles import PROFILES
from allfours_notation.writing.formatter import format_game


def _games(players: int, hands: float, n: int) -> list[Game]:
    profile = "trinidad14" if players == 4 else "hoffmann1909"
    return list(generate_games(seed=players, n_games=n, profile=profile, players=players,
                               knobs=Knobs(hands=hands, comments=0.0, glyphs=0.0)))


def keystrokes(players: int, hands_known: bool, n_games: int = 10) -> dict[str, float]:
    """Keys per card and per deal, typing every line of ``n_games`` games."""
    cards = card_keys = deal_keys = deals = 0
    for game in _games(players, 1.0 if hands_known else 0.0, n_games):
        session = Session(game.tags)
        for line in lines_of_game(game):
            expecting = session.expect()
            typed = line
            if expecting.phase is Phase.DEALER and expecting.default is not None and \
                    line.upper() == expecting.default.letter:
                typed = ""  # Enter takes the proposed dealer
            if hands_known and expecting.phase is Phase.PLAY and expecting.offered:
                offered = [str(c).lower() for c in expecting.offered]
                if line in offered and offered.index(line) < 9:
                    typed = str(offered.index(line) + 1)  # never Enter alone: a choice
            outcome = session.type(typed if typed or expecting.phase is not Phase.PLAY
                                   else line)
            if outcome.confirm:
                session.confirm()
            keys = 1 if expecting.phase is Phase.CONFIRM and typed == "y" else len(typed) + 1
            deal_keys += keys
            if isinstance(session.entries[-1], Play) and expecting.phase is Phase.PLAY:
                cards += 1
                card_keys += keys
        deals += len(game.deals)
    return {"keys_per_card": card_keys / cards, "keys_per_deal": deal_keys / deals,
            "deals": deals, "cards": cards}


def results_keystrokes(players: int, n_games: int = 10) -> dict[str, float]:
    """Keys per deal in results mode (issue 25): the generator's games typed as their
    computed results, one key per item and side, Enter, ``y``; with a dispute, ``c``,
    the other side's items by the same keys and Enter instead of ``y``.  The first
    deal's dealer (typed once per game) is left out: later deals begin by themselves."""
    profile = "trinidad14" if players == 4 else "hoffmann1909"
    options = PROFILES[profile].options
    plain = disputed = deals = 0
    for game in _games(players, 0.0, n_games):
        lines = results_lines_of_game(game, replay(game))[1:]
        session = Session((*game.tags, Tag(name="Entry", value="results")))
        session.type(game.deals[0].dealer.letter)
        per_deal = 0
        for line in lines:
            keys = results_keys(line, options, players)
            outcome = session.type(line)
            assert outcome.accepted, (line, outcome.message)
            per_deal += len(keys)
            if line == "y":
                deals += 1
                plain += per_deal
                items = per_deal - 2  # the item keys, without Enter and y
                disputed += items + 1 + 1 + items + 1  # Enter, c, the claim, Enter
                per_deal = 0
    return {"keys_per_deal": plain / deals, "keys_per_disputed_deal": disputed / deals,
            "deals": deals}


async def _start_times(path: Path, repeats: int) -> list[tuple[float, float]]:
    from allfours_notation.viewer.app import ViewerApp
    from allfours_notation.viewer.recorder import RecorderScreen

    runs: list[tuple[float, float]] = []
    for _ in range(repeats):
        with RecordFile(path) as record:
            started, cpu = time.perf_counter(), time.process_time()
            opened = inspect(path, record)
            assert isinstance(opened, Resume)
            screen = RecorderScreen(session=opened.session, unicode=True)
            app = ViewerApp(unicode=True, recorder=screen)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                runs.append((time.perf_counter() - started, time.process_time() - cpu))
    return runs


async def _screen_times(game: Game) -> list[float]:
    from allfours_notation.viewer.app import ViewerApp
    from allfours_notation.viewer.recorder import RecorderScreen

    session = Session(game.tags)
    screen = RecorderScreen(session=session, unicode=True)
    app = ViewerApp(unicode=True, recorder=screen)
    times = []
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        for line in lines_of_game(game):
            screen.entry_line.value = line
            started = time.perf_counter()
            await pilot.press("enter")
            await pilot.pause()
            times.append(time.perf_counter() - started)
    return times


def screen_times(players: int) -> dict[str, float]:
    game = _games(players, 0.5, 1)[0]
    times = sorted(asyncio.run(_screen_times(game)))
    return {"entries": len(times), "median_ms": 1000 * statistics.median(times),
            "p95_ms": 1000 * times[int(0.95 * (len(times) - 1))]}


def resume_time(n_deals: int = 500, repeats: int = 5) -> dict[str, float]:
    text = generate_corpus(seed=5, n_deals=n_deals, profile="hoffmann1909")
    result = parse(text)
    last = result.games[-1]
    cut = last.deals[-1]
    half = cut.__class__(number=cut.number, dealer=cut.dealer, opening=cut.opening,
                         tricks=cut.tricks[: len(cut.tricks) // 2])
    unfinished = last.__class__(tags=tuple(t if t.name != "Result" else
                                           t.__class__(name="Result", value="*")
                                           for t in last.tags),
                                deals=(*last.deals[:-1], half))
    start = last.span.start if last.span else 0
    body = text[:start].rstrip("\n") + "\n\n" + format_game(unfinished)
    deals = sum(len(g.deals) for g in result.games)
    runs: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.afn"
        path.write_text(body, encoding="utf-8")
        for _ in range(repeats):
            with RecordFile(path) as record:
                started, cpu = time.perf_counter(), time.process_time()
                opened = inspect(path, record)
                assert isinstance(opened, Resume)
                opened.session.expect()
                runs.append((time.perf_counter() - started, time.process_time() - cpu))
        started_app = asyncio.run(_start_times(path, repeats))
    return {"deals": deals, "games": len(result.games), "bytes": len(body.encode()),
            "median_s": statistics.median(wall for wall, _ in runs),
            "cpu_median_s": statistics.median(cpu for _, cpu in runs), "runs": len(runs),
            "app_median_s": statistics.median(wall for wall, _ in started_app),
            "app_cpu_median_s": statistics.median(cpu for _, cpu in started_app)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.recorder", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10, help="games per keystroke count")
    args = parser.parse_args(argv)
    for players in (2, 4):
        for known in (False, True):
            figures = keystrokes(players, known, args.games)
            print(f"{players} players, hands {'known' if known else 'unknown'}: "
                  f"{figures['keys_per_card']:.2f} keys per card, "
                  f"{figures['keys_per_deal']:.1f} keys per deal "
                  f"({figures['deals']} deals, {figures['cards']} cards)")
    for players in (2, 4):
        figures = results_keystrokes(players, args.games)
        print(f"{players} players, results mode: {figures['keys_per_deal']:.1f} keys per "
              f"deal, {figures['keys_per_disputed_deal']:.1f} with a dispute "
              f"({figures['deals']} deals)")
    for players in (2, 4):
        times = screen_times(players)
        print(f"keystroke to screen, {players} players (Pilot, 80x24): median "
              f"{times['median_ms']:.1f} ms, p95 {times['p95_ms']:.1f} ms over "
              f"{times['entries']} entries")
    resume = resume_time()
    print(f"resume a {resume['deals']}-deal file ({resume['games']} games, "
          f"{resume['bytes']} bytes): median {resume['median_s'] * 1000:.0f} ms "
          f"(CPU {resume['cpu_median_s'] * 1000:.0f} ms) of {resume['runs']} runs; the "
          f"recorder on screen from it: median {resume['app_median_s'] * 1000:.0f} ms "
          f"(CPU {resume['app_cpu_median_s'] * 1000:.0f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
