"""``allfours event site --advice``: each replay page carries what the advisor would have
said at each call; without the flag nothing is advised and the pages keep their names."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path

import pytest

from allfours_notation.checking.analysis import advisor_calls
from allfours_notation.events.assemble import assemble
from allfours_notation.events.eventfile import read_event_text
from allfours_notation.events.games import read_folder
from allfours_notation.events.prizes import prize_list
from allfours_notation.events.report import EventReport
from allfours_notation.events.site import site_pages
from allfours_notation.events.standings import standings
from tests.events.test_assemble import EVENT, games, write


def report_of(tmp_path: Path) -> EventReport:
    event = read_event_text(EVENT.format(rule="games", target=3, games=2)).event
    assert event is not None
    write(tmp_path, "t1.afn", games(1, 2, 1))
    assembled = assemble(event, read_folder(tmp_path, event.given_rules))
    return EventReport(event, assembled, standings(event, assembled),
                       prize_list(event, assembled))


def replays(pages: dict[str, str | None]) -> dict[str, dict[str, object]]:
    found = {}
    for name, page in pages.items():
        if name.startswith("game-") and page is not None:
            data = re.search(r'id="replay-data">(.*?)</script>', page, re.S)
            assert data is not None
            found[name] = json.loads(data.group(1))
    return found


def test_the_replay_pages_carry_the_advice_only_when_asked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the wiring is under test, not the advisor: its sampled deals' play cut short
    quick = functools.partial(advisor_calls.advice_at_calls, dealer_samples=1, later=2,
                              time_limit=0.05)
    monkeypatch.setattr(advisor_calls, "advice_at_calls", quick)
    report = report_of(tmp_path)
    plain = replays(site_pages(report))
    assert plain and all("advice" not in data for data in plain.values())
    advised = replays(site_pages(report, advice_samples=1))
    assert set(advised).isdisjoint(plain)  # a page with advice is another page
    lines = [line for data in advised.values()
             for said in data["advice"].values() for line in said]  # type: ignore[attr-defined]
    assert any("the advisor:" in line for line in lines)
    assert any("(K=1)" in line for line in lines)
