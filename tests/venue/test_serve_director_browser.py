"""The director's page of ``allfours serve EVENT.toml`` in Debian's headless Chromium,
at 390×844 (touch) and at a desktop's width: every table's state, a table not reporting,
a dispute and the ruling entered on the page (written ``director scored …``), and the
round's match sheet and standings.  Screenshots are saved in the test's folder
(docs/serve-director*.png are these, copied by hand)."""

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

    (tmp_path / "EVENT.toml").write_text(THREE_TABLES)
    (tmp_path / "games").mkdir()
    event = read_event_file(tmp_path / "EVENT.toml").event
    assert event is not None
    third = event_tables(event, tmp_path / "games", "1")[2]
    write_missing([third])  # table 3's file, last written an hour ago: not reporting
    an_hour_ago = third.path.stat().st_mtime - 3600
    os.utime(third.path, (an_hour_ago, an_hour_ago))
    process = subprocess.Popen([sys.executable, "-m", "allfours_notation", "serve",
                                str(tmp_path / "EVENT.toml"), "--port", "0"],
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
                links["director" if name.startswith("director") else name[-1]] = link.strip()
        for number, line in enumerate(["n", "h e", "l n", "", "claim E high low"], start=1):
            post(links["1"], number, line)  # table 1: the other side claims Low
        for number, line in enumerate(["e", "k 1", "h s"], start=1):
            post(links["2"], number, line)
        with chromium(390, 844) as browser:
            phone(browser)
            wait = WebDriverWait(browser, 30)
            browser.get(links["director"])
            wait.until(lambda b: "1 not reporting" in b.find_element(By.ID, "summary").text
                       and "1 waiting for a ruling" in b.find_element(By.ID, "summary").text)
            wait.until(lambda b: "Standings" in b.find_element(By.ID, "standings").text or
                       "Division" in b.find_element(By.ID, "standings").text)
            cards = browser.find_elements(By.CSS_SELECTOR, ".table-card")
            assert "not reporting" in cards[2].text and "dispute" in cards[0].text
            assert "Low claimed by EW" in cards[0].text and "NS 1\nEW 1" in cards[0].text
            check_sizes(browser)
            browser.save_screenshot(str(tmp_path / "serve-director-phone.png"))
            form = cards[0].find_element(By.CSS_SELECTOR, "input")
            form.send_keys("E high low")
            cards[0].find_element(By.CSS_SELECTOR, ".rule button").click()
            wait.until(lambda b: "director's ruling: E high E low (deal 1)" in
                       b.find_element(By.ID, "status").text)
            wait.until(lambda b: "0 waiting for a ruling" in
                       b.find_element(By.ID, "summary").text)
        assert "director scored E high low" in \
            (tmp_path / "games" / "round1-arima-couva-t1.afn").read_text()
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
        "return [...document.querySelectorAll('button, input')].filter(b => b.offsetParent)"
        ".map(b => [b.offsetHeight, parseFloat(getComputedStyle(b).fontSize)])")
    assert sizes and all(height >= 44 and font >= 16 for height, font in sizes)
    assert browser.execute_script("return document.documentElement.scrollWidth") <= 390
