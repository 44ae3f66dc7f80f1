"""``allfours serve``'s table page in Debian's headless Chromium at 390×844 with touch
emulation: a whole deal in results mode and its confirmation, a refused entry showing
its reason, the network cut for two entries then restored (the file has each once, in
order), and a deal disputed (the other side's claim).  Screenshots of the phone and of a
desktop browser are saved in the test's folder (docs/serve-*.png are these, copied by
hand)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.html.browser import chromium, chromium_paths

from .serving import game_file
from .test_serve_process import serving

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

pytestmark = [pytest.mark.skipif(chromium_paths() is None,
                                 reason="chromium and chromedriver are not installed"),
              pytest.mark.xdist_group("chromium")]


def phone(browser: WebDriver) -> None:
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled",
                            {"enabled": True, "maxTouchPoints": 5})


def network(browser: WebDriver, *, offline: bool) -> None:
    browser.execute_cdp_cmd("Network.enable", {})
    browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": offline, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def test_a_deal_its_confirmation_and_the_network_cut(tmp_path: Path) -> None:
    pytest.importorskip("selenium")
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    path = game_file(tmp_path)
    with serving(path) as (_, link), chromium(390, 844) as browser:
        phone(browser)
        wait = WebDriverWait(browser, 30)

        def text(css: str) -> str:
            return str(browser.find_element(By.CSS_SELECTOR, css).text)

        def tap(css: str) -> None:
            wait.until(lambda b: b.find_element(By.CSS_SELECTOR, css).is_displayed())
            browser.find_element(By.CSS_SELECTOR, css).click()

        def settled() -> None:  # every entry answered
            wait.until(lambda b: text("#net") == "online")

        browser.get(link)
        wait.until(lambda b: "who deals" in text("#next"))
        assert browser.execute_script("return innerWidth") == 390
        tap("#dealer-pad button[data-seat='n']")
        wait.until(lambda b: "deal 1" in text("#deal"))
        tap("#kicks button[data-line='k 2']")
        for item, seat in (("h", "w"), ("l", "w"), ("j", "n"), ("g", "n")):
            tap(f"#results-pad button[data-item='{item}']")
            tap(f"#results-pad .seats button[data-seat='{seat}']")
            settled()
        tap("#results-pad .ends button[data-line='']")
        wait.until(lambda b: b.find_element(By.ID, "confirm-pad").is_displayed())
        assert text("#score") == "NS 4\nEW 2" or text("#score") == "NS 4 EW 2"
        tap("#confirm-pad button[data-line='y']")
        wait.until(lambda b: "deal 2" in text("#deal"))
        assert "scored N kick 2 jack game W high low" in path.read_text()

        # a refused entry shows the referee's reason
        for seat in ("n", "e"):
            tap("#results-pad button[data-item='h']")
            tap(f"#results-pad .seats button[data-seat='{seat}']")
            settled()
        wait.until(lambda b: text("#status").startswith("refused: High is written 2 times"))
        assert "refused" in str(browser.find_element(By.ID, "status").get_attribute("class"))

        # the network cut for two entries: kept on the phone, sent once each when back
        network(browser, offline=True)
        for item, seat in (("l", "e"), ("j", "s")):
            tap(f"#results-pad button[data-item='{item}']")
            tap(f"#results-pad .seats button[data-seat='{seat}']")
        wait.until(lambda b: text("#net").startswith("offline: 2 waiting"))
        assert "low" not in path.read_text().split("deal 2")[1]
        browser.save_screenshot(str(tmp_path / "serve-phone-offline.png"))
        network(browser, offline=False)
        wait.until(lambda b: text("#net") == "online" and "S jack" in text("#record"))
        deal = path.read_text().split("deal 2")[1]
        assert "scored N high E low S jack" in deal
        assert deal.count("low") == 1 and deal.count("jack") == 1
        browser.save_screenshot(str(tmp_path / "serve-phone.png"))
        sizes = browser.execute_script(
            "return [...document.querySelectorAll('button')].filter(b => b.offsetParent)"
            ".map(b => [b.offsetHeight, parseFloat(getComputedStyle(b).fontSize)])")
        assert sizes and all(height >= 44 and font >= 16 for height, font in sizes)

        # the deal's end: the other side disputes it (their claim, item by item)
        tap("#results-pad .ends button[data-line='']")
        tap("#claim-start")
        tap("#results-pad button[data-item='h']")
        tap("#results-pad .seats button[data-seat='e']")
        wait.until(lambda b: text("#claim-words") == "E high")
        browser.save_screenshot(str(tmp_path / "serve-phone-claim.png"))
        tap("#claim-send")
        wait.until(lambda b: "deal 3" in text("#deal"))
        assert "claim E high { computed:" in path.read_text()

    with serving(path) as (_, link), chromium(1280, 800) as desktop:
        desktop.get(link)
        WebDriverWait(desktop, 30).until(
            lambda b: "deal 3" in b.find_element(By.ID, "deal").text)
        desktop.save_screenshot(str(tmp_path / "serve-desktop.png"))
