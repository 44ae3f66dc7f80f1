"""The results site in headless Chromium at a phone's width (390 px) and a desktop's: no
page overflows sideways, every link resolves, and printing drops the navigation.  Slow
(marked in tests/conftest.py): it drives a browser."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from allfours_notation.cli import main
from tests.events.test_assemble import EVENT, games, write
from tests.html.browser import chromium, chromium_paths

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

pytestmark = [pytest.mark.skipif(chromium_paths() is None,
                                 reason="chromium and chromedriver are not installed"),
              pytest.mark.xdist_group("chromium")]


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("event")
    (root / "EVENT.toml").write_text(
        EVENT.format(rule="games", target=3, games=2).replace(
            'name = "Red"', 'name = "Red Lions of the Long Circular Road Sports Club"')
        .replace('home = "Red"', 'home = "Red Lions of the Long Circular Road Sports Club"')
        + '[[prize]]\nkind = "most_bullseyes"\n', encoding="utf-8")
    write(root / "games", "t1.afn", games(1, 2, 1, changes={
        "HomeTeam": "Red Lions of the Long Circular Road Sports Club"}))
    write(root / "games", "t2.afn", games(2, 2, 2, changes={
        "HomeTeam": "Red Lions of the Long Circular Road Sports Club"}))
    out = root / "site"
    assert main(["event", "site", str(root / "EVENT.toml"), "-o", str(out)]) == 0
    return out


@pytest.fixture(scope="module", params=[390, 1280], ids=["phone", "desktop"])
def browser(request: pytest.FixtureRequest) -> Iterator[WebDriver]:
    pytest.importorskip("selenium")
    with chromium(width=request.param, height=800) as session:
        yield session


def test_no_page_overflows_and_every_link_resolves(site: Path, browser: WebDriver) -> None:
    from selenium.webdriver.common.by import By

    pages = sorted(p for p in site.glob("*.html") if not p.name.startswith("game-"))
    assert len(pages) == 10  # index, prizes, ratings, a match, two teams, four pairs
    for page in pages:
        browser.get(page.as_uri())
        wide = browser.execute_script(
            "return document.documentElement.scrollWidth - window.innerWidth")
        assert wide <= 0, f"{page.name} overflows by {wide} px"
        for link in browser.find_elements(By.CSS_SELECTOR, "a[href]"):
            target = link.get_attribute("href") or ""
            assert target.startswith("file://"), target
            assert Path(target.removeprefix("file://").split("#")[0]).is_file(), target


def test_a_replay_page_opens_from_the_sheet(site: Path, browser: WebDriver) -> None:
    from selenium.webdriver.common.by import By

    browser.get((site / "match-1.html").as_uri())
    browser.find_element(By.CSS_SELECTOR, 'a[href^="game-"]').click()
    assert "Red Lions" in browser.page_source
    # the site's one replay.js drew the game from the page's own data, styled by replay.css
    assert browser.execute_script("return window.afnReplay.steps") > 0
    assert browser.find_elements(By.CSS_SELECTOR, "#table .seat")
    assert browser.execute_script(
        "return getComputedStyle(document.querySelector('#deal-links')).display") == "flex"


def test_printing_drops_the_navigation(site: Path, browser: WebDriver) -> None:
    browser.get((site / "index.html").as_uri())
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
    try:
        shown = browser.execute_script(
            "return getComputedStyle(document.querySelector('nav')).display")
    finally:
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})
    assert shown == "none"
