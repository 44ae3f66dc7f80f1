"""The faults of ``allfours analyse`` found on the way (issue 40, item 4), each as it was met.

Before: a deal that missed its time limit once was cached as "not solved" and shown so on
every later run; a deal recorded by its results was "not analysed: no card was played";
"actual" left out High and Low, so it differed from the score sheet for the same deal; a
Game lost to a tie of pips said "N 8 v S 8" without the rule that gave it; a conceded
deal was not judged at all.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from allfours_notation.checking.analysis.data import AnalysisCache
from allfours_notation.checking.analysis.deals import _unplayed, played_deals
from allfours_notation.checking.analysis.report import DealAnalysis, analyse_deal
from allfours_notation.checking.parsing import parse
from allfours_notation.cli import main
from allfours_notation.referee import replay

ROOT = Path(__file__).resolve().parents[2]
TWO = str(ROOT / "samples" / "two-player-to-seven.afn")
UNFINISHED = str(ROOT / "samples" / "unfinished.afn")
RESULTS = str(ROOT / "samples" / "club-results.afn")
TRINIDAD = str(ROOT / "samples" / "four-handed-trinidad.afn")

# The first deal of samples/unfinished.afn, conceded by South after four tricks.
CONCEDED = """\
% AFN 1
[Event "A concession"]
[Site "Mayaro"]
[Date "2026.01.03"]
[Rules "hoffmann1909"]
[North "A"]
[South "B"]
[Result "N"]

deal 1 dealer N
  S 2H KD 8D 6D QC 6C
  N 7S 6S AH 9H AD 3C
  turn 5S
  S begs
  N runs
  S 4H QD 2C  N JH 9D 7C
  turn KC
  1. S:4H N:9H
  2. N:6S S:2H
  3. N:AH S:2C
  4. S:6D N:9D
  S concedes
end
"""


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("ALLFOURS_CACHE_DIR", str(folder))
    return folder


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().out


# --- (a) a time-out is not an answer ----------------------------------------------------------

def test_a_deal_not_solved_in_time_is_solved_again_on_the_next_run(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["analyse", TRINIDAD, "--deal", "1", "--time-limit", "0.01"]
    assert "deal 1: not solved in 0.01 s" in run(args, capsys)[1]
    solved_again: list[int] = []

    def counted(played: object, **kw: object) -> DealAnalysis:
        solved_again.append(1)
        return analyse_deal(played, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr("allfours_notation.cli.analyse.analyse_deal", counted)
    run(args, capsys)
    assert solved_again == [1]  # before: the time-out was read back from the cache


def test_the_cache_keeps_only_finished_analyses(private_cache: Path) -> None:
    timed_out = DealAnalysis(1, False, "not solved in 5 s", ("N", "S"), True, (), None,
                             (("N", 0), ("S", 1)), (), (), (), (), False, 5.0, 10)
    unfinished_check = DealAnalysis(1, True, "", ("N", "S"), True, (("N", 0), ("S", 1)), -1,
                                    (("N", 0), ("S", 1)), (), (), (), (), False, 5.0, 10)
    cache = AnalysisCache(notice=None)
    cache.put("a", timed_out, 5.0)
    cache.put("b", unfinished_check, 5.0)
    assert cache.get("a") is None and cache.get("b") is None
    cache.close()


# --- (b) a deal recorded by its results -------------------------------------------------------

def test_a_deal_recorded_by_its_results_says_so_and_what_it_scored(
        capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["analyse", RESULTS, "--no-cache"], capsys)[1]
    assert "no card was played" not in out
    assert ("deal 1: not analysed: recorded by its results (kick 2 to NS, high to EW, low to "
            "EW, jack to NS, game to NS), not card by card: no play to judge") in out


def test_a_deal_redealt_before_any_card_says_why() -> None:
    """Deal 4 of the four-handed sample ends 'redeal exhausted' after a run: the reader is
    told the pack ran out, not only that no card was played; a deal with no trick and no
    ending still says that no card was played."""
    game = parse(Path(TRINIDAD).read_bytes(), filename="four-handed-trinidad.afn").games[0]
    notes = {d.number: d.why_not for d in played_deals(replay(game))}
    assert notes[4] == ("the pack ran out while running the cards and the deal was "
                        "redealt: no card was played")
    assert _unplayed(None) == "no card was played"
    assert _unplayed("redeal misdeal").startswith("a misdeal")
    assert _unplayed("something new") == ("no card was played (the record ends it: "
                                         "something new)")


# --- (c) "actual" is the score sheet's, item by item -------------------------------------------

def _sheet_items(path: str,
                 capsys: pytest.CaptureFixture[str]) -> dict[int, Counter[tuple[str, str, int]]]:
    """Per deal of the first game: the score sheet's points of High, Low, Jack and Game
    (those after the game was decided included: the sheet lists them as not scored)."""
    main(["score", "--json", path])
    deals = json.loads(capsys.readouterr().out)["games"][0]["deals"]
    return {deal["number"]: Counter((p["item"], p["side"], p["points"])
                                    for p in (*deal["points"], *deal["unscored"])
                                    if p["item"] in ("high", "low", "jack", "hangjack", "game"))
            for deal in deals}


def test_actual_agrees_with_the_score_sheet_item_by_item(
        capsys: pytest.CaptureFixture[str]) -> None:
    sheet = _sheet_items(TWO, capsys)
    code, out = run(["analyse", TWO, "--json", "--no-cache"], capsys)
    assert code == 0
    deals = json.loads(out)["games"][0]["deals"]
    assert len(deals) == 4
    for deal in deals:
        items = Counter((p["item"], p["side"], p["points"]) for p in deal["actual_items"])
        assert items == sheet[deal["deal"]], deal["deal"]
        per_side = Counter[str]()
        for _item, side, points in items.elements():
            per_side[side] += points
        assert deal["actual"] == {side: per_side[side] for side in deal["sides"]}
    text = run(["analyse", TWO, "--deal", "2", "--no-cache"], capsys)[1]
    # the sheet: High S, Low N, Game N (before: "actual N 1, S 0", High and Low left out)
    assert "deal 2: par N 1, S 2 (S +1); actual N 2, S 1" in text


# --- (d) a Game decided by a tie names its rule --------------------------------------------

def test_a_game_decided_by_a_tie_names_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    out = run(["analyse", UNFINISHED, "--game", "1", "--deal", "1", "--no-cache"], capsys)[1]
    assert ("trick 4  S:6D ?   S:6D lost Game (N 8 v S 8 with S:6C: equal pips, Game to S "
            "by game_tie=elder)") in out


# --- (e) a conceded deal is judged up to the concession -------------------------------------

def test_a_conceded_deal_is_judged_up_to_the_concession(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "conceded.afn"
    path.write_text(CONCEDED, encoding="utf-8")
    code, out = run(["analyse", str(path), "--no-cache"], capsys)
    assert code == 0
    assert "not played out" not in out
    assert "deal 1: par N 0, S 3 (S +3); actual N 0, S 0" in out
    assert "trick 1  S:4H ?   S:4H lost Game (N 4 v S 12 with S:2C)" in out
    assert "S concedes after 8 cards: judged up to the concession" in out
    data = json.loads(run(["analyse", str(path), "--json", "--no-cache"], capsys)[1])
    cards = data["games"][0]["deals"][0]["cards"]
    assert [c["index"] for c in cards] == list(range(8))
