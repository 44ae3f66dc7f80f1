"""``allfours event site``: every page links only to pages of the site, names are escaped,
the replay pages are the games', and the command writes the folder."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from allfours_notation.cli import main
from allfours_notation.events.assemble import assemble
from allfours_notation.events.eventfile import read_event_text
from allfours_notation.events.games import read_folder
from allfours_notation.events.prizes import prize_list
from allfours_notation.events.report import EventReport
from allfours_notation.events.site import site_pages
from allfours_notation.events.standings import standings
from tests.events.test_assemble import EVENT, games, write


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)


def links_of(page: str) -> list[str]:
    parser = Links()
    parser.feed(page)
    return parser.links


def small_site(tmp_path: Path, *, name: str = "Small night", replays: bool = True,
               ) -> dict[str, str]:
    """Every page of a small event's site (none of them on disk yet, so all made)."""
    text = EVENT.format(rule="games", target=3, games=2).replace('"Small night"', f'"{name}"')
    text += '[[prize]]\nkind = "most_bullseyes"\n'
    event = read_event_text(text).event
    assert event is not None
    write(tmp_path, "t1.afn", games(1, 2, 1))
    write(tmp_path, "t2.afn", games(2, 2, 2))
    assembled = assemble(event, read_folder(tmp_path, event.given_rules))
    report = EventReport(event, assembled, standings(event, assembled),
                         prize_list(event, assembled))
    pages = site_pages(report, replays=replays)
    return {name: page for name, page in pages.items() if page is not None}


def test_every_link_of_every_page_resolves_within_the_site(tmp_path: Path) -> None:
    pages = small_site(tmp_path)
    assert {"index.html", "style.css", "prizes.html", "ratings.html", "match-1.html",
            "team-1.html", "team-2.html"} <= set(pages)
    assert len([p for p in pages if p.startswith("game-")]) == 4
    seen = set()
    for name, page in pages.items():
        if not name.endswith(".html") or name.startswith("game-"):
            continue
        for link in links_of(page):
            assert "://" not in link and not link.startswith("/"), (name, link)
            assert link.split("#")[0] in pages, (name, link)
            seen.add(link)
    assert {p for p in pages if p.startswith("game-")} <= seen  # each replay is linked


def test_the_replay_pages_share_one_script_and_stylesheet(tmp_path: Path) -> None:
    pages = small_site(tmp_path)
    replays = [page for name, page in pages.items() if name.startswith("game-")]
    assert pages["replay.js"].startswith("// The replay page's script")
    assert "@media" in pages["replay.css"]
    for page in replays:  # each carries its game's data and record, not the script
        assert links_of(page) == ["replay.css", "#", "replay.js"]
        assert 'id="replay-data"' in page and "function drawSeat" not in page
    (tmp_path / "plain").mkdir()
    assert "replay.js" not in small_site(tmp_path / "plain", replays=False)


def test_the_pages_show_the_event_and_are_made_for_phones_and_print(tmp_path: Path) -> None:
    pages = small_site(tmp_path, replays=False)
    assert not [p for p in pages if p.startswith("game-")]
    index = pages["index.html"]
    assert 'name="viewport" content="width=device-width' in index
    assert "Division A" in index and "Ranked by bullseyes_for" in index
    assert '<a href="match-1.html">Red v Blue</a>' in index
    assert "@media print" in pages["style.css"] and "overflow-x: auto" in pages["style.css"]
    assert "Table 2" in pages["match-1.html"] and "most bullseyes" in pages["prizes.html"]
    assert "Ann &amp; Ben" in pages["team-1.html"]


def test_text_from_the_records_is_escaped(tmp_path: Path) -> None:
    pages = small_site(tmp_path, name="<script>alert(1)</script> night", replays=False)
    for page in pages.values():
        assert "<script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt; night" in pages["index.html"]


def test_the_command_writes_the_folder(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    event = tmp_path / "EVENT.toml"
    event.write_text(EVENT.format(rule="games", target=3, games=2), encoding="utf-8")
    write(tmp_path / "games", "t1.afn", games(1, 2, 1))
    write(tmp_path / "games", "t2.afn", games(2, 2, 2))
    assert main(["event", "site", str(event)]) == 2
    assert "-o DIR" in capsys.readouterr().err
    out = tmp_path / "site"
    assert main(["event", "site", str(event), "-o", str(out), "--no-replays"]) == 0
    assert "11 files written" in capsys.readouterr().err  # 7 and a page per pair
    assert (out / "index.html").is_file() and (out / "style.css").is_file()
    assert main(["event", "site", str(event), "-o", str(out)]) == 0
    assert "17 files written" in capsys.readouterr().err  # 4 replays, replay.js and .css
    replays = sorted(out.glob("game-*.html"))
    assert len(replays) == 4
    replay = replays[0].read_text(encoding="utf-8")
    assert re.search(r"<title>[^<]*</title>", replay) and "[HomeTeam &quot;Red&quot;]" in (
        replay.replace('"', "&quot;"))
    # built again after one table's file changed: only its two games' pages are made anew
    write(tmp_path / "games", "t2.afn", games(3, 2, 2))
    assert main(["event", "site", str(event), "-o", str(out)]) == 0
    assert capsys.readouterr().err == f"15 files written to {out}, 2 replay pages kept, 2 removed\n"
    assert len(list(out.glob("game-*.html"))) == 4


def test_each_pair_has_its_page_linked_from_its_team_page(tmp_path: Path) -> None:
    pages = small_site(tmp_path)
    pair_pages = sorted(name for name in pages if name.startswith("pair-"))
    assert len(pair_pages) == 4  # two pairs a team
    linked = {link for name in ("team-1.html", "team-2.html") for link in links_of(pages[name])}
    assert set(pair_pages) <= linked
    for name in pair_pages:
        page = pages[name]
        links = links_of(page)
        assert sum(link.startswith("game-") for link in links) == 2  # its table's two games
        assert any(link.startswith("match-") for link in links)
        assert any(link.startswith("team-") for link in links)
    first = pages["pair-1.html"]
    assert "<h1>Ann &amp; Ben</h1>" in first and "Eli &amp; Fay" in first  # its opponents
