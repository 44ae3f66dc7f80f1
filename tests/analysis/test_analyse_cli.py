"""``allfours analyse``: the text, the JSON, the annotated record, the cache, the time
limit and ``-j``."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from allfours_notation.checking.parsing import parse
from allfours_notation.cli import main

ROOT = Path(__file__).resolve().parents[2]
TWO = str(ROOT / "samples" / "two-player-to-seven.afn")
ANNOTATED = str(ROOT / "samples" / "annotated.afn")
TRINIDAD = str(ROOT / "samples" / "four-handed-trinidad.afn")


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("ALLFOURS_CACHE_DIR", str(folder))
    return folder


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().out


def test_a_lost_game_is_flagged_with_its_reason_and_the_card_that_kept_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["analyse", TWO, "--deal", "2"], capsys)
    assert code == 0
    assert "all the hands (double dummy)" in out
    assert "deal 2: par N 1, S 2 (S +1); actual N 2, S 1" in out
    assert "trick 4  S:9C ?   S:9C lost Game (N 1 v S 17 with S:TC)" in out
    assert "fixed by the deal: High to S; Low to N · as recorded: gift 1 to N" in out


def test_json_gives_par_actual_and_every_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["analyse", TWO, "--deal", "2", "--json", "--line"], capsys)
    assert code == 0
    data = json.loads(out)
    assert data["label"] == "all hands seen (double dummy)"
    deal = data["games"][0]["deals"][0]
    assert (deal["par"], deal["par_value"], deal["actual"]) == ({"N": 1, "S": 2}, -1,
                                                                 {"N": 2, "S": 1})
    assert len(deal["cards"]) == 12 and deal["checked"]
    flagged = [c for c in deal["cards"] if c["loss"]]
    assert [(c["trick"], c["seat"], c["card"], c["glyph"], c["better"]) for c in flagged] == \
        [(4, "S", "9C", "?", "TC")]
    card = flagged[0]
    assert card["before"] - card["after"] == card["loss"] == 2
    assert card["better_after"] == card["before"]
    assert deal["line"].split()[0] == deal["best_line"][0] == "N:7C"


def test_annotate_writes_glyphs_and_reasons_but_keeps_a_human_glyph(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["analyse", TWO, "--annotate"], capsys)
    assert code == 0
    assert "4. N:7C S:9C? { S:9C lost Game (N 1 v S 17 with S:TC); all hands seen }" in out
    assert not parse(out).diagnostics
    # already annotated: nothing more is written
    again = tmp_path / "again.afn"
    again.write_text(out, encoding="utf-8")
    assert run(["analyse", str(again), "--annotate"], capsys)[1] == out
    # a glyph written by a person stays, with no comment added
    human = tmp_path / "human.afn"
    human.write_text(Path(TWO).read_text(encoding="utf-8").replace("S:9C", "S:9C!", 1),
                     encoding="utf-8")
    code, kept = run(["analyse", str(human), "--annotate"], capsys)
    assert code == 0
    assert "S:9C!" in kept and "S:9C lost Game" not in kept


def test_the_cache_is_used_the_second_time(private_cache: Path,
                                           capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    first = run(["analyse", TWO], capsys)[1]
    with sqlite3.connect(private_cache / "analysis.sqlite") as db:
        assert db.execute("SELECT count(*) FROM analyses").fetchone()[0] == 4

    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("solved again")

    monkeypatch.setattr("allfours_notation.cli.analyse.analyse_deal", refuse)
    assert run(["analyse", TWO], capsys)[1] == first


def test_a_long_deal_not_solved_in_time_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(["analyse", TRINIDAD, "--deal", "1", "--time-limit", "0.05",
                     "--no-cache"], capsys)
    assert code == 0
    assert "deal 1: not solved in 0.05 s; actual NS 3, EW 1" in out


@pytest.mark.xdist_group("forkserver")  # one forkserver per run (test_parallel_check.py)
def test_parallel_output_is_the_serial_output(capsys: pytest.CaptureFixture[str]) -> None:
    serial = run(["analyse", TWO, ANNOTATED, "--no-cache"], capsys)[1]
    assert run(["analyse", "-j", "2", TWO, ANNOTATED, "--no-cache"], capsys)[1] == serial


def test_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", TWO, "--after", "3"]) == 2
    with pytest.raises(SystemExit):
        main(["analyse", TWO, "--time-limit", "0"])
    capsys.readouterr()


def test_stats_shows_points_lost_per_deal_once_analysed(
        capsys: pytest.CaptureFixture[str]) -> None:
    run(["stats", TWO], capsys)
    assert "accuracy" not in capsys.readouterr().out
    assert "accuracy" not in run(["stats", TWO], capsys)[1]
    run(["analyse", TWO], capsys)
    code, out = run(["stats", "--json", TWO], capsys)
    assert code == 0
    rows = {row["name"]: row for row in json.loads(out)["accuracy"]}
    # deal 2: South's 9C lost Game (one point changed hands); nothing else was lost
    assert rows["Ben Charles"] == {"name": "Ben Charles", "deals": 4, "points_lost": 1,
                                   "flagged": 1, "lost_per_deal": 0.25}
    assert rows["Ann Baptiste"]["points_lost"] == 0
    assert "lost per deal" in run(["stats", TWO], capsys)[1]


def test_the_html_page_shows_par_and_flags_only_when_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import re

    plain, analysed = tmp_path / "plain.html", tmp_path / "analysed.html"
    assert main(["html", TWO, "-o", str(plain)]) == 0
    assert main(["html", TWO, "--analyse", "-o", str(analysed)]) == 0
    capsys.readouterr()

    def data(path: Path) -> dict[str, object]:
        found = re.search(r'id="replay-data">(.*?)</script>', path.read_text(encoding="utf-8"))
        assert found is not None
        return dict(json.loads(found.group(1)))

    assert "analysis" not in data(plain)
    page = data(analysed)
    analysis = page["analysis"]
    assert isinstance(analysis, dict)
    assert analysis["label"] == "all hands seen (double dummy)"
    deal = analysis["deals"]["2"]
    assert deal["par"] == [["N", 1], ["S", 2]] and deal["actual"] == [["N", 2], ["S", 1]]
    [flag] = deal["flags"]
    assert flag["glyph"] == "?" and flag["text"].startswith("4. S:9C lost Game")
    steps = page["steps"]
    assert isinstance(steps, dict)
    assert steps["text"][flag["step"]] == "S plays 9C"  # the page marks the flag at that card
