"""``allfours score``: a sheet that settles the argument (issue 9, item 4)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from allfours_notation import parse
from allfours_notation.checking.causes import explain
from allfours_notation.cli import main
from allfours_notation.referee.replay import replay
from allfours_notation.writing.sheet import AGREES, GameSheet, counting_text, game_sheet

ROOT = Path(__file__).resolve().parents[2]
DISPUTED = ROOT / "samples" / "disputed-claim.afn"
FOUR = ROOT / "samples" / "four-handed-trinidad.afn"


def _sheet(path: Path, deal: int | None = None) -> GameSheet:
    game = parse(path.read_bytes()).games[0]
    replayed = replay(game, record_states=False)
    return game_sheet(replayed, explain(replayed, replayed.diagnostics), deal=deal)


def test_game_shows_each_sides_counting_cards_and_their_pips() -> None:
    sheet = _sheet(DISPUTED)
    for deal, computed in zip(sheet.deals, parse(DISPUTED.read_bytes()).games[0].deals,
                              strict=True):
        assert computed.number == deal.number
        # every counting card of the deal is taken by exactly one side
        taken = [card for side in deal.counting for card in side.cards]
        assert len(taken) == len(set(taken))
        for side in deal.counting:
            assert side.pips == sum(card.pips for card in side.cards)
        game = next(line for line in deal.items if line.name == "Game")
        pips = dict(re.findall(r"(\w+) (\d+)", game.reason.split("(")[-1]))
        assert {s.side: s.pips for s in deal.counting} == {k: int(v) for k, v in pips.items()}
    assert counting_text(sheet.deals[0].counting) == \
        "N: K♣ K♦ K♥ J♦ J♥ = 11 · S: 10♠ A♣ A♦ A♥ = 22"


def test_every_item_shows_the_claim_beside_the_computation() -> None:
    sheet = _sheet(DISPUTED)
    deal2 = sheet.deals[1]
    verdicts = {line.name: line.claimed for line in deal2.items}
    assert verdicts == {"High": AGREES, "Low": "claimed N", "Game": AGREES}
    deal3 = sheet.deals[2]
    assert {line.name: line.claimed for line in deal3.items}["Game"] == "not claimed"
    assert sheet.deals[0].total_check == "S +1"  # wrote S 4, computed S 3
    assert sheet.deals[2].total_check == AGREES


def test_sides_are_listed_in_table_order_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", str(FOUR)]) == 0
    out = capsys.readouterr().out
    for line in out.splitlines():
        if "deal points:" in line or "counting cards:" in line:
            assert line.index("NS") < line.index("EW"), line


def test_one_deal(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--deal", "2", str(DISPUTED)]) == 1
    out = capsys.readouterr().out
    assert "\ndeal 2, dealer S" in out
    assert "\ndeal 1, dealer" not in out and "\ndeal 3, dealer" not in out
    assert "Winner: N" in out  # the game's result still counts every deal
    assert main(["score", "--deal", "9", str(DISPUTED)]) == 2
    assert "has no deal 9" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:  # a typed option value: a usage error
        main(["score", "--deal", "0", str(DISPUTED)])
    assert usage.value.code == 2 and "numbering starts at 1" in capsys.readouterr().err


def test_markdown_and_html(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--format", "markdown", str(DISPUTED)]) == 1
    markdown = capsys.readouterr().out
    assert "| item | side | points | claimed | why |" in markdown
    assert "| Low | S | +1 | claimed N |" in markdown
    assert main(["score", "--format", "html", str(DISPUTED), str(FOUR)]) == 1
    page = capsys.readouterr().out
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert page.count("<article") == 2 and "@media print" in page
    # drawn at the phone's width, not 980 px shrunk (the browser test reads it at 390)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert "@media screen and (max-width: 40em)" in page
    # self-contained: no scripts, no outside resources
    assert "<script" not in page and "http" not in page and "<link" not in page
    assert '<span class="red">10♥</span>' in page or "red" in page


def test_json_has_the_checks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--json", str(DISPUTED)]) == 1
    sheet = json.loads(capsys.readouterr().out)["games"][0]
    deal = sheet["deals"][1]
    assert {"item": "low", "side": "S", "verdict": "claimed N"} in deal["claimed"]
    assert deal["counting"]["N"]["pips"] == 9
    assert sheet["deals"][0]["total_check"] == "S +1"
    assert main(["score", "--json", "--format", "html", str(DISPUTED)]) == 2


def test_a_total_written_in_another_order_is_shown_in_table_order(tmp_path: Path) -> None:
    path = tmp_path / "order.afn"
    path.write_text(DISPUTED.read_text(encoding="utf-8").replace("total N 7 S 5", "total S 5 N 7"),
                    encoding="utf-8")
    sheet = _sheet(path)
    assert sheet.deals[2].written_total == "N 7 S 5" and sheet.deals[2].total_check == AGREES
