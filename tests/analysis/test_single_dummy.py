"""Single-dummy verdicts: equal to double dummy when nothing is hidden, converging as the
samples grow, the same for the same seed (in one process or in workers), and shown by
``allfours analyse --single-dummy`` beside the double-dummy flags."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from allfours_notation.cards import Card
from allfours_notation.checking.analysis import Solver, analyse_deal
from allfours_notation.checking.analysis.deals import PlayedDeal
from allfours_notation.checking.analysis.information import PACK, information_at
from allfours_notation.checking.analysis.single_dummy import (
    SingleDummyDeal,
    decide,
    estimates_of,
    single_dummy_deal,
)
from allfours_notation.cli import main
from allfours_notation.reading.records import Game
from allfours_notation.reading.table import side_of

from .cases import generated_deals

ROOT = Path(__file__).resolve().parents[2]
TWO = str(ROOT / "samples" / "two-player-to-seven.afn")


@cache
def _deals() -> tuple[PlayedDeal, ...]:
    return tuple(generated_deals(21, "hoffmann1909", 2, 4))


def _everything_seen(played: PlayedDeal) -> list[Card]:
    assert played.layout is not None
    held = {c for _, cards in played.layout.hands for c in cards}
    return [c for c in PACK if c not in held]


def test_with_nothing_hidden_single_dummy_is_double_dummy() -> None:
    """Two hands and every card outside them seen: one world, the real one.  Every
    decision's values are the solver's, its best card keeps double dummy's value, and
    the flags are double dummy's, glyph for glyph."""
    decisions = 0
    flagged = 0
    for played in _deals():
        layout = played.layout
        assert layout is not None
        dd = analyse_deal(played, time_limit=None)
        sd = single_dummy_deal(played, dd, samples=3, seed=5, deal_key="x",
                               also_seen=_everything_seen(played))
        by_index = {v.index: v for v in dd.cards}
        solver = Solver(layout)
        for d in sd.decisions:
            decisions += 1
            verdict = by_index[d.index]
            assert d.worlds == 1
            assert d.flagged == (verdict.glyph is not None)
            assert d.glyph == verdict.glyph
            assert d.loss == verdict.points_lost
            assert d.loss_error == 0
            sign = 1 if side_of(d.seat, layout.seats) == layout.sides[0] else -1
            for estimate in d.estimates:
                solver.set_position((*played.line[:d.index], (d.seat, estimate.card)))
                assert estimate.mean == sign * solver.value()
            assert d.estimates[0].mean == verdict.before
            flagged += d.flagged
        assert not sd.changed
    assert decisions > 10 and flagged >= 1


def test_the_standard_error_falls_as_one_over_root_k() -> None:
    """A decision of a fixed deal whose cards' values vary from world to world: four
    times the samples, half the standard error (summed over its cards)."""
    played = _deals()[1]
    assert played.layout is not None
    information = information_at(played.layout, played.line, 2, played.result.turnups)
    played_before = {c for _, c in information.prefix}
    candidates = [c for c in information.own if c not in played_before][:3]
    errors = {}
    for samples in (25, 100):
        values, _ = decide(information, candidates, samples, random.Random(samples))
        estimates = estimates_of(values, two_sides=True)
        errors[samples] = sum(e.error for e in estimates)
    assert errors[25] > 0
    assert 1.4 < errors[25] / errors[100] < 2.9  # 2 expected: four times the samples


def _same(a: SingleDummyDeal, b: SingleDummyDeal) -> bool:
    return replace(a, seconds=0.0) == replace(b, seconds=0.0)


def test_the_same_seed_gives_the_same_verdicts_and_another_seed_other_values() -> None:
    played = _deals()[1]
    first = single_dummy_deal(played, None, samples=6, seed=7, deal_key="d")
    again = single_dummy_deal(played, None, samples=6, seed=7, deal_key="d")
    other = single_dummy_deal(played, None, samples=6, seed=8, deal_key="d")
    assert first.decisions and _same(first, again)
    assert [d.estimates for d in first.decisions] != [d.estimates for d in other.decisions]
    assert "not compared" in first.note and not first.changed


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("ALLFOURS_CACHE_DIR", str(folder))
    return folder


def _json(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    for deal in data["games"][0]["deals"]:
        deal["single_dummy"]["seconds"] = 0
        deal.pop("seconds", None)
    return data  # type: ignore[no-any-return]


@pytest.mark.xdist_group("forkserver")  # one forkserver per run (test_parallel_check.py)
def test_analyse_single_dummy_text_json_and_workers(capsys: pytest.CaptureFixture[str]) -> None:
    """Deal 2 of the two-player sample: double dummy flags S:9C (the ten of clubs
    would have won Game with every hand seen); on what South could know the ten is
    better by about half a point on average, less than a point: not flagged, and listed
    as a flag that changes."""
    args = ["analyse", TWO, "--deal", "2", "--single-dummy", "--samples", "16", "--seed", "3"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "single dummy: 16 samples, hidden hands unknown (seed 3):" in out
    assert "trick 4  S:9C     not flagged: loses" in out
    assert "double dummy ? · 16 samples, hidden hands unknown" in out
    assert "flags that change: S:9C (trick 4) double dummy ? -> single dummy none" in out
    serial = _json([*args, "--json"], capsys)
    single = serial["games"][0]["deals"][0]["single_dummy"]
    assert single["label"] == "single dummy: 16 samples, hidden hands unknown"
    assert single["changed"] == [{"trick": 4, "seat": "S", "card": "9C",
                                  "single_dummy": None, "double_dummy": "?"}]
    nine = next(d for d in single["decisions"] if d["card"] == "9C")
    assert nine["best"] == "TC" and 0 < nine["loss"] < 1 and not nine["flagged"]
    assert _json([*args, "--json", "-j", "2"], capsys) == serial


def test_single_dummy_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["analyse", TWO, "--single-dummy", "--samples", "1"])
    assert "one has no standard error" in capsys.readouterr().err
    assert main(["analyse", TWO, "--single-dummy", "--annotate"]) == 2


def test_the_replay_page_shows_single_dummy_beside_double_dummy(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The page's data for deal 2: S:9C with both flags, at the step that plays it."""
    from allfours_notation.checking.analysis import deal_digest, played_deals
    from allfours_notation.referee.replay import replay
    from allfours_notation.writing.html_replay import replay_data

    game = parse_file_games(TWO)[0]
    replayed = replay(game)
    played = next(d for d in played_deals(replayed) if d.number == 2)
    dd = analyse_deal(played, time_limit=None)
    sd = single_dummy_deal(played, dd, samples=8, seed=3, deal_key=deal_digest(played))
    data = replay_data(replayed, (), [dd], single_dummy=[sd])
    entry = data["analysis"]["deals"]["2"]["single_dummy"]
    assert entry["label"] == "single dummy: 8 samples, hidden hands unknown"
    (flag,) = entry["flags"]
    assert flag["double_dummy"] == "?" and flag["glyph"] is None
    assert flag["step"] == data["analysis"]["deals"]["2"]["flags"][0]["step"]
    assert flag["text"].startswith("4. S:9C loses ")
    assert main(["html", TWO, "--single-dummy", "-o", "-"]) == 2
    assert "--single-dummy goes with --analyse" in capsys.readouterr().err


def parse_file_games(path: str) -> list[Game]:
    from allfours_notation.checking.parsing import parse

    return list(parse(Path(path).read_text(), filename=path).games)


def test_three_players_are_judged_by_their_own_guarantee() -> None:
    """Three players: each value is the deciding seat's guaranteed points (never below
    nothing, never above the Jack, Low and Game a play can win), the best card first."""
    played = generated_deals(6, "hoffmann1909", 3, 1)[0]
    sd = single_dummy_deal(played, None, samples=2, seed=2, deal_key="three")
    assert sd.decisions
    for d in sd.decisions:
        means = [e.mean for e in d.estimates]
        assert all(0 <= m <= 4 for m in means)
        assert means[0] == max(means) and d.estimates[0].loss == 0
        assert d.loss == next(e.loss for e in d.estimates if e.card == d.card)


def test_a_deal_double_dummy_did_not_solve_is_not_sampled() -> None:
    played = _deals()[0]
    dd = analyse_deal(played, time_limit=None)
    sd = single_dummy_deal(played, replace(dd, solved=False), samples=2, seed=1)
    assert sd.decisions == () and "not sampled: double dummy did not solve" in sd.note
    assert single_dummy_deal(played, dd, samples=2, seed=1).decisions
