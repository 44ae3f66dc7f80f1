"""The table page's card-by-card mode and the next game in Debian's headless Chromium at
390×844 with touch emulation: the mode switched to cards, a dealer, a hand, the turn-up,
the calls and cards tapped on the grid (the legal cards the server sent highlighted),
a card the referee refuses showing its reason, a revoke recorded once confirmed, two
cards tapped with the network cut (sent once each, in order, when it is back); then a
game ended and the next one started from the phone.  Screenshots are saved in the
test's folder (docs/serve-cards.png and docs/serve-next-game.png are these, copied by
hand)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.html.browser import chromium, chromium_paths

from .serving import HEADER, game_file
from .test_serve_browser import network, phone
from .test_serve_process import serving

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

pytestmark = [pytest.mark.skipif(chromium_paths() is None,
                                 reason="chromium and chromedriver are not installed"),
              pytest.mark.xdist_group("chromium")]

# North–South need one point: the first deal's High ends the game
NEAR_THE_END = HEADER.replace('[Result "*"]', '[Result "*"]\n[Score "NS 13 EW 0"]')


class Page:
    """The phone's page, tapped as a player taps it."""

    def __init__(self, browser: WebDriver) -> None:
        from selenium.webdriver.support.ui import WebDriverWait

        self.browser = browser
        self.wait = WebDriverWait(browser, 30)

    def text(self, css: str) -> str:
        from selenium.webdriver.common.by import By

        return str(self.browser.find_element(By.CSS_SELECTOR, css).text)

    def shown(self, css: str) -> bool:
        from selenium.webdriver.common.by import By

        return bool(self.browser.find_element(By.CSS_SELECTOR, css).is_displayed())

    def tap(self, css: str) -> None:
        from selenium.webdriver.common.by import By

        self.wait.until(lambda b: self.shown(css))
        self.browser.find_element(By.CSS_SELECTOR, css).click()

    def settled(self) -> None:  # every entry answered
        self.wait.until(lambda b: self.text("#net") == "online")

    def enter(self, css: str) -> None:
        self.tap(css)
        self.settled()

    def sizes_ok(self) -> bool:
        """Every button shown at least 44 px high and wide, its text at least 16 px."""
        sizes = self.browser.execute_script(
            "return [...document.querySelectorAll('button')].filter(b => b.offsetParent)"
            ".map(b => [b.offsetHeight, b.offsetWidth, "
            "parseFloat(getComputedStyle(b).fontSize)])")
        return bool(sizes) and all(h >= 44 and w >= 44 and font >= 16
                                   for h, w, font in sizes)


def test_a_deal_card_by_card_a_refused_card_and_a_revoke(tmp_path: Path) -> None:
    pytest.importorskip("selenium")
    path = game_file(tmp_path)
    with serving(path) as (_, link), chromium(390, 844) as browser:
        phone(browser)
        page = Page(browser)
        browser.get(link)
        page.wait.until(lambda b: "who deals" in page.text("#next"))
        page.enter("#mode-switch button[data-mode='cards']")
        page.wait.until(lambda b: "by their cards" in page.text("#status") or
                        "card by card" in page.text("#status"))
        assert '[Entry "cards"]' in path.read_text()
        page.enter("#dealer-pad button[data-seat='n']")
        page.wait.until(lambda b: page.shown("#cards-pad") and "turn-up" in page.text("#next"))

        # E's hand, tapped card by card on the grid, then sent whole
        page.tap("#hand-seats button[data-hand='E']")
        for card in ("2s", "3s", "4s", "5s", "6s", "7d"):
            page.tap(f"#grid button[data-card='{card}']")
        assert page.text("#cards-title") == "Hand of E: 6 of 6 cards"
        page.enter("#hand-send")
        page.wait.until(lambda b: "E holds" in page.text("#status"))
        page.enter("#grid button[data-card='4h']")  # the turn-up
        page.wait.until(lambda b: "W stands (s) or begs (b)" in page.text("#next"))
        page.enter("#calls button[data-line='stand']")
        page.enter("#grid button[data-card='js']")
        page.enter("#grid button[data-card='kh']")
        # E's hand is known: the server sends E's legal cards, the page shows them
        page.wait.until(lambda b: "E to play" in page.text("#next"))
        legal = browser.execute_script(
            "return [...document.querySelectorAll('#grid button.legal')]"
            ".map(b => b.dataset.card)")
        assert sorted(legal) == ["2s", "3s", "4s", "5s", "6s"]
        assert page.sizes_ok()
        browser.save_screenshot(str(tmp_path / "serve-cards.png"))

        # a card E does not hold: refused, with the referee's reason
        page.enter("#grid button[data-card='qh']")
        page.wait.until(lambda b: page.text("#status").startswith("refused: E plays QH"))
        assert "refused" in str(browser.find_element("id", "status").get_attribute("class"))
        browser.save_screenshot(str(tmp_path / "serve-cards-refused.png"))
        assert "QH" not in path.read_text()

        # a revoke: the referee asks, the table confirms, it is recorded once
        page.enter("#grid button[data-card='7d']")
        page.wait.until(lambda b: page.shown("#confirm-card"))
        assert "revoke" in page.text("#confirm-message")
        browser.save_screenshot(str(tmp_path / "serve-cards-revoke.png"))
        page.enter("#confirm-yes")
        page.wait.until(lambda b: "N to play" in page.text("#next"))
        page.enter("#grid button[data-card='2h']")
        record = path.read_text()
        assert "1. W:JS S:KH E:7D N:2H" in record
        assert record.count("7D") == 2  # in E's hand and played, once

        # the network cut for two cards: kept on the phone, sent once each, in order
        network(browser, offline=True)
        page.tap("#grid button[data-card='3h']")  # S won the trick: S leads
        page.tap("#grid button[data-card='2s']")  # then E (Trinidad plays to the right)
        page.wait.until(lambda b: page.text("#net").startswith("offline: 2 waiting"))
        assert "3H" not in path.read_text()
        network(browser, offline=False)
        page.wait.until(lambda b: "2. S:3H E:2S" in page.text("#record"))
        page.settled()
        assert path.read_text().count("3H") == 1 and path.read_text().count("2S") == 2

        # back to results for the next deals: written in the header
        page.enter("#mode-switch button[data-mode='results']")
        page.wait.until(lambda b: "this deal stays" in page.text("#status"))
        assert '[Entry "results"]' in path.read_text() and page.shown("#cards-pad")


def test_a_game_ended_and_the_next_started_from_the_phone(tmp_path: Path) -> None:
    pytest.importorskip("selenium")
    path = game_file(tmp_path, header=NEAR_THE_END)
    with serving(path) as (_, link), chromium(390, 844) as browser:
        phone(browser)
        page = Page(browser)
        browser.get(link)
        page.wait.until(lambda b: "who deals" in page.text("#next"))
        page.enter("#dealer-pad button[data-seat='n']")
        page.tap("#results-pad button[data-item='h']")
        page.enter("#results-pad .seats button[data-seat='n']")
        page.enter("#results-pad .ends button[data-line='']")
        page.enter("#confirm-pad button[data-line='y']")
        page.wait.until(lambda b: page.shown("#over-pad"))
        assert page.text("#next-game") == "Start game 2"
        assert page.sizes_ok()
        browser.save_screenshot(str(tmp_path / "serve-next-game.png"))
        page.enter("#next-game")
        page.wait.until(lambda b: "who deals the first deal" in page.text("#next"))
        assert page.text("#status").startswith("game 2 begins")
        assert not page.shown("#over-pad") and page.shown("#dealer-pad")
        assert not page.shown("#proposed-dealer")  # the cut: no dealer proposed
        page.enter("#dealer-pad button[data-seat='w']")
        page.wait.until(lambda b: page.text("#deal") == "· game 2 · deal 1, W deals")
        games = path.read_text().split("[Event ")
        assert len(games) == 3 and '[Result "NS"]' in games[1]
        assert '[Result "*"]' in games[2] and "Score" not in games[2]
