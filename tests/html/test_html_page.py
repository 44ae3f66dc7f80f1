"""``allfours html``: the page is one self-contained file whose data is the replay's."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from allfours_notation import parse_file, replay
from allfours_notation.cli import main
from allfours_notation.referee.replay import TableState
from allfours_notation.writing.html_replay import render_page, replay_data
from allfours_notation.writing.html_replay.data import full_states
from allfours_notation.writing.html_replay.page import script_json

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def page_data(page: str) -> dict[str, object]:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page,
                      re.S)
    assert found is not None
    data: dict[str, object] = json.loads(found.group(1))
    return data


def table_of(state: TableState) -> dict[str, object]:
    """The whole table as the page's script reads it, written out here from the
    referee's state field by field."""
    def letter(seat: object) -> object:
        return getattr(seat, "letter", None)

    counted = {(p.item, p.side, p.reason) for p in state.deal_points}
    later = [[i.side, i.item.value, i.points, "d" if i.decided else "p", i.reason]
             for i in state.items
             if i.side and i.points and (i.item, i.side, i.reason) not in counted]

    return {
        "dealer": state.dealer.letter, "elder": state.elder.letter,
        "hands": {seat.letter: [str(c) for c in held] for seat, held in state.hands},
        "unknown": {seat.letter: count for seat, count in state.unknown if count},
        "turnups": [str(c) for c in state.turnups], "trump": letter(state.trump),
        "tn": state.trick_number, "trick": [[s.letter, str(c)] for s, c in state.trick],
        "to": letter(state.to_move), "legal": sorted(str(c) for c in state.legal),
        "won": [list(p) for p in state.won], "pips": [list(p) for p in state.pips],
        "last": letter(state.last_trick_winner),
        "points": [[p.side, p.item.value, p.points, p.reason] for p in state.deal_points],
        "later": later, "scores": [list(p) for p in state.scores],
        "winner": state.winner}


def test_the_page_is_self_contained(tmp_path: Path) -> None:
    out = tmp_path / "replay.html"
    assert main(["html", str(SAMPLES / "four-handed-trinidad.afn"), "-o", str(out)]) == 0
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    # Nothing is fetched: no external script, style, image, font or frame.
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", page)
    assert "http://" not in page and "https://" not in page and "@import" not in page
    assert "prefers-color-scheme" in page and ":root.dark" in page
    # The record is embedded as written.
    assert "[Event &quot;San Fernando All Fours league, round 3&quot;]" in page


def test_the_data_are_the_replays_steps() -> None:
    result = parse_file(SAMPLES / "two-player-to-seven.afn")
    replayed = replay(result.games[0])
    data = page_data(render_page(replay_data(replayed), "x", filename="x.afn"))
    for shown, step in zip(full_states(data), replayed.steps, strict=True):
        assert shown["x"] == step.text
        assert (shown["k"], shown["d"], shown["t"]) == (step.kind.value, step.deal, step.trick)
        assert shown["dg"] == []
        # carried forward, each step's table is the whole table of that step
        assert shown["s"] == table_of(step.state)
    whole = [table_of(s.state) for s in replayed.steps]
    assert len(json.dumps([data["steps"], data["parts"], data["rows"]])) < len(json.dumps(whole))
    assert data["scores"] == [list(p) for p in replayed.scores]
    assert data["seats"] == ["N", "S"]


def test_nobody_is_to_move_after_the_last_trick() -> None:
    # before: "To move S" stood under the table from the last trick to the deal's end
    result = parse_file(SAMPLES / "two-player-to-seven.afn")
    replayed = replay(result.games[0])
    steps = full_states(page_data(render_page(replay_data(replayed), "x", filename="x.afn")))
    for deal in replayed.deals:
        shown = steps[deal.first_step:deal.last_step + 1]
        tables = [step["s"] for step in shown]
        last_trick = max(i for i, (step, table) in enumerate(zip(shown, tables, strict=True))
                         if table["tn"] and
                         step["x"].startswith(tuple(f"{s} wins trick" for s in "NESW")))
        assert [table["to"] for table in tables[last_trick:]] == \
            [None] * len(shown[last_trick:]), deal.number
        assert any(table["to"] for table in tables[:last_trick])  # during the play


def test_claim_and_total_disputes_are_shown_at_the_end_of_their_deal(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """disputed-claim.afn: deal 1's total is off (AFN402), deal 2's Low is claimed by the
    wrong seat (AFN401) and its total follows (AFN402), deal 3's Game is unclaimed
    (AFN401): each at the deal's last step, the one that shows the deal's points."""
    out = tmp_path / "page.html"
    assert main(["html", str(SAMPLES / "disputed-claim.afn"), "-o", str(out)]) == 1
    capsys.readouterr()
    data = page_data(out.read_text(encoding="utf-8"))
    replayed = replay(parse_file(SAMPLES / "disputed-claim.afn").games[0])
    steps = full_states(data)
    shown = {(index, d["code"], d["where"]) for index, step in enumerate(steps)
             for d in step["dg"] if d["code"].startswith("AFN4")}
    ends = {deal.number: deal.last_step for deal in replayed.deals}
    assert shown == {(ends[1], "AFN402", "game 1, deal 1"), (ends[2], "AFN401", "game 1, deal 2"),
                     (ends[2], "AFN402", "game 1, deal 2"), (ends[3], "AFN401", "game 1, deal 3")}
    assert all(steps[ends[n]]["k"] == "deal_end" for n in (1, 2, 3))
    problems = data["problems"]
    assert isinstance(problems, list)
    assert not [p for p in problems if p["code"].startswith("AFN4")]  # not listed twice


def test_text_from_the_record_cannot_close_the_script() -> None:
    text = script_json({"x": "</script><script>alert(1)</script> & more"})
    assert "</script>" not in text and "<" not in text and "&" not in text
    assert json.loads(text) == {"x": "</script><script>alert(1)</script> & more"}


def test_game_option_and_default_output_name(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    source = SAMPLES / "one-broken-game.afn"
    assert main(["html", str(source), "--game", "3"]) in (0, 1)
    written = tmp_path / "one-broken-game-game3.html"
    assert page_data(written.read_text(encoding="utf-8"))["game"] == 3


def test_a_game_that_cannot_be_read_gets_no_page(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    source = SAMPLES / "one-broken-game.afn"
    broken = next(g.index for g in parse_file(source).games if g.broken)
    out = tmp_path / "page.html"
    assert main(["html", str(source), "--game", str(broken), "-o", str(out)]) == 1
    assert not out.exists()
    assert "cannot be replayed" in capsys.readouterr().err


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "0"], "numbered from 1"),
    (["--game", "99"], "has 3 games"),
])
def test_usage_errors(args: list[str], message: str, tmp_path: Path,
                      capsys: pytest.CaptureFixture[str]) -> None:
    source = SAMPLES / "one-broken-game.afn"
    assert main(["html", str(source), *args, "-o", str(tmp_path / "x.html")]) == 2
    assert message in capsys.readouterr().err


def test_a_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["html", "no/such/file.afn"]) == 2
    assert "no such file" in capsys.readouterr().err


def test_the_command_says_how_many_steps_the_page_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = SAMPLES / "two-player-to-seven.afn"
    out = tmp_path / "page.html"
    assert main(["html", str(path), "-o", str(out)]) == 0
    steps = len(replay(parse_file(path).games[0]).steps)
    assert steps > 0
    assert f"(game 1, {steps} steps)" in capsys.readouterr().err
