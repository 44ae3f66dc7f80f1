"""The director's page of ``allfours serve EVENT.toml --all-rounds`` in Debian's headless
Chromium, at 390×844 (touch) and at a desktop's width: every table's state grouped by
round and match, a table not reporting, a dispute on a deal the table has since left and
the ruling entered on the page (written ``director scored …`` into that deal, the later
deal scored again), and the rounds' match sheets and standings.  Screenshots are saved
in the test's folder (docs/serve-director*.png are these, copied by hand)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from allfours_notation.events.eventfile import read_event_file
from allfours_notation.venue.event import event_tables, write_missing
from tests.html.browser import chromium, chromium_paths

from .test_serve_browser import phone
from .test_serve_event import EVENT

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

pytestmark = [pytest.mark.skipif(chromium_paths() is None,
                                 reason="chromium and chromedriver are not installed"),
              pytest.mark.xdist_group("chromium")]

ROOT = Path(__file__).resolve().parents[2]
THREE_TABLES = EVENT.replace('"Cy", "Dee"]', '"Cy", "Dee", "Eve", "Flo"]') \
    .replace('"Gus", "Hal"]', '"Gus", "Hal", "Ike", "Jo"]').replace("tables = 2", "tables = 3")
TWO_ROUNDS = THREE_TABLES + '\n[[round]]\nname = "2"\nmatch = [{ home = "Couva", away = ' \
    '"Arima", tables = 1 }]\n'
TABLE = "round 1 Arima v Couva table "


def post(link: str, number: int, line: str) -> None:
    data = json.dumps({"phone": "phone-director", "number": number, "line": line}).encode()
    request = urllib.request.Request(link + "entry", data=data,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert json.load(response)["outcome"]["accepted"]


def test_the_directors_page_rules_on_a_dispute(tmp_path: Path) -> None:
    pytest.importorskip("selenium")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    (tmp_path / "EVENT.toml").write_text(TWO_ROUNDS)
    (tmp_path / "games").mkdir()
    event = read_event_file(tmp_path / "EVENT.toml").event
    assert event is not None
    third = event_tables(event, tmp_path / "games", "1")[2]
    write_missing([third])  # table 3's file, last written an hour ago: not reporting
    an_hour_ago = third.path.stat().st_mtime - 3600
    os.utime(third.path, (an_hour_ago, an_hour_ago))
    process = subprocess.Popen([sys.executable, "-m", "allfours_notation", "serve",
                                str(tmp_path / "EVENT.toml"), "--all-rounds", "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               cwd=ROOT)
    try:
        assert process.stdout is not None
        links: dict[str, str] = {}
        while "director" not in links:
            line = process.stdout.readline()
            assert line, process.stderr.read() if process.stderr else ""
            if line.startswith(("table ", "director")):
                name, link = line.split(": ", 1)
                links["director" if name.startswith("director") else
                      name.removeprefix("table ")] = link.strip()
        # table 1: the other side claims Low in deal 1, and the table plays deal 2
        for number, line in enumerate(["n", "h e", "l n", "", "claim E high low",
                                       "h w", "l s", "", "y"], start=1):
            post(links[TABLE + "1"], number, line)
        for number, line in enumerate(["e", "k 1", "h s"], start=1):
            post(links[TABLE + "2"], number, line)
        with chromium(390, 844) as browser:
            phone(browser)
            wait = WebDriverWait(browser, 30)
            browser.get(links["director"])
            wait.until(lambda b: "1 not reporting" in b.find_element(By.ID, "summary").text
                       and "1 waiting for a ruling" in b.find_element(By.ID, "summary").text)
            wait.until(lambda b: "Standings" in b.find_element(By.ID, "standings").text or
                       "Division" in b.find_element(By.ID, "standings").text)
            rounds = [g.text for g in browser.find_elements(By.CSS_SELECTOR, ".round-name")]
            assert rounds == ["Round 1", "Round 2"]
            assert [m.text for m in browser.find_elements(By.CSS_SELECTOR, ".match-name")] \
                == ["Arima v Couva", "Couva v Arima"]
            cards = browser.find_elements(By.CSS_SELECTOR, ".table-card")
            assert len(cards) == 4 and cards[0].find_element(By.CSS_SELECTOR, ".name").text \
                == "table 1"
            assert "not reporting" in cards[2].text and "dispute" in cards[0].text
            assert "deal 1: Low claimed by EW" in cards[0].text
            assert "NS 2\nEW 2" in cards[0].text and "deal 3" in cards[0].text
            assert cards[0].find_element(By.CSS_SELECTOR, ".later").is_displayed()
            assert [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#links a")] == \
                ["The tables' links and QR codes", "round 1", "round 2"]
            check_sizes(browser)
            browser.save_screenshot(str(tmp_path / "serve-director-phone.png"))
            form = cards[0].find_element(By.CSS_SELECTOR, "input")
            form.send_keys("E high low")
            cards[0].find_element(By.CSS_SELECTOR, ".rule button").click()
            wait.until(lambda b: "director's ruling: E high E low (deal 1, which the table "
                       "has left); the score is now NS 1 EW 3 (was NS 2 EW 2)" in
                       b.find_element(By.ID, "status").text)
            wait.until(lambda b: "0 waiting for a ruling" in
                       b.find_element(By.ID, "summary").text)
            wait.until(lambda b: "NS 1\nEW 3" in
                       b.find_elements(By.CSS_SELECTOR, ".table-card")[0].text)
            browser.save_screenshot(str(tmp_path / "serve-director-ruled-phone.png"))
        text = (tmp_path / "games" / "round1-arima-couva-t1.afn").read_text()
        assert "director scored E high low" in text.split("deal 2 dealer")[0]
        assert "total N 1 E 3" in text.split("deal 2 dealer")[1]
        with chromium(1280, 1100) as desktop:
            desktop.get(links["director"])
            WebDriverWait(desktop, 30).until(
                lambda b: "Division" in b.find_element(By.ID, "standings").text)
            desktop.save_screenshot(str(tmp_path / "serve-director.png"))
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=20)


def check_sizes(browser: WebDriver) -> None:
    """Tap targets at least 44 px high, text at least 16 px, no page wider than the phone."""
    sizes = browser.execute_script(
        "return [...document.querySelectorAll('button, input, select')]"
        ".filter(b => b.offsetParent)"
        ".map(b => [b.offsetHeight, parseFloat(getComputedStyle(b).fontSize)])")
    assert sizes and all(height >= 44 and font >= 16 for height, font in sizes)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
