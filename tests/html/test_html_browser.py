"""The replay page in a real browser (headless Chromium, Selenium): every sample's page
is stepped to its end with → and must show the score ``allfours score`` computes; the
trick shown at several steps must be the replayer's; the page must fit a phone.

One browser serves every test of this module.  The tests skip only when Chromium and its
driver are not installed; CI installs them (``.ci/run``).
"""

from __future__ import annotations

import contextlib
import io
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from allfours_notation import parse_file, replay
from allfours_notation.cli import main
from allfours_notation.writing.html_replay.data import later_items
from tests.html.browser import chromium, chromium_paths

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

SAMPLES = sorted((Path(__file__).resolve().parents[2] / "samples").glob("*.afn"))

# One worker runs them all (pytest-xdist), so one browser serves every test.
pytestmark = [pytest.mark.skipif(chromium_paths() is None,
                                 reason="chromium and chromedriver are not installed"),
              pytest.mark.xdist_group("chromium")]


@pytest.fixture(scope="module")
def browser() -> Iterator[WebDriver]:
    pytest.importorskip("selenium")
    with chromium() as session:
        yield session


def first_readable(path: Path) -> int:
    return next(game.index for game in parse_file(path).games if not game.broken)


def final_scores(path: Path, game: int) -> dict[str, int]:
    """What ``allfours score --json`` says the game's totals are (the command run in this
    process: a new interpreter per sample cost more than the browser did)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["score", "--json", str(path)])
    sheets = json.loads(out.getvalue())["games"]
    sheet = next(s for s in sheets if s["game"] == game)
    scores: dict[str, int] = sheet["scores"]
    return scores


def open_page(browser: WebDriver, path: Path, game: int, out: Path) -> int:
    """Write and open the page of ``game``; the number of steps it replays."""
    main(["html", str(path), "--game", str(game), "-o", str(out)])
    browser.get(out.as_uri())
    steps: int = browser.execute_script("return window.afnReplay.steps")
    return steps


def press_right(browser: WebDriver, times: int) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    if times:
        browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT * times)


def shown_step(browser: WebDriver) -> int:
    return int(browser.execute_script("return document.body.dataset.step"))


def step_after_hashchange(browser: WebDriver, wanted: int, seconds: float = 10.0) -> int:
    """The step shown once it is ``wanted``, or when ``seconds`` have passed: a deal link
    moves the page through the ``hashchange`` event, which fires after the click returns
    (on a busy machine, after the next read of the step)."""
    deadline = time.monotonic() + seconds
    while (step := shown_step(browser)) != wanted and time.monotonic() < deadline:
        time.sleep(0.02)
    return step


def shown_scores(browser: WebDriver) -> dict[str, int]:
    from selenium.webdriver.common.by import By

    return {e.get_attribute("data-side") or "": int(e.get_attribute("data-points") or "-1")
            for e in browser.find_elements(By.CSS_SELECTOR, "#scores .side-score")}


def shown_trick(browser: WebDriver) -> list[list[str]]:
    from selenium.webdriver.common.by import By

    return [[spot.get_attribute("data-seat") or "",
             spot.find_element(By.CSS_SELECTOR, ".card").get_attribute("data-card") or ""]
            for spot in browser.find_elements(By.CSS_SELECTOR, "#trick > [data-seat]")]


@pytest.mark.parametrize("path", SAMPLES, ids=[p.stem for p in SAMPLES])
def test_right_to_the_end_shows_the_score_of_allfours_score(
        browser: WebDriver, path: Path, tmp_path: Path) -> None:
    browser.set_window_size(1280, 800)
    game = first_readable(path)
    steps = open_page(browser, path, game, tmp_path / "page.html")
    assert steps > 0
    press_right(browser, steps + 3)  # past the end: the page stays on the last step
    assert shown_step(browser) == steps - 1
    assert shown_scores(browser) == final_scores(path, game)


def test_the_trick_shown_is_the_replayers(browser: WebDriver, tmp_path: Path) -> None:
    path = next(p for p in SAMPLES if p.stem == "four-handed-trinidad")
    replayed = replay(parse_file(path).games[0])
    open_page(browser, path, 1, tmp_path / "page.html")
    checked = 0
    position = 0
    for index in (9, 10, 12, 13, 40, 120, len(replayed.steps) - 1):
        press_right(browser, index - position)
        position = index
        assert shown_step(browser) == index
        wanted = [[seat.letter, str(card)] for seat, card in replayed.steps[index].state.trick]
        assert shown_trick(browser) == wanted
        checked += bool(wanted)
    assert checked >= 3  # the steps chosen do show cards on the table


# Every step's hands as the page draws them: per seat, the cards (a legal one marked "+")
# and the backs of the cards not seen; and the lines under "Points in deal".
READ_TABLE = """
const out = [];
for (let i = 0; i < window.afnReplay.steps; i++) {
  window.afnReplay.go(i);
  const hands = {};
  for (const seat of document.querySelectorAll("#table .seat")) {
    hands[seat.dataset.seat] = [...seat.querySelectorAll(".hand .card")].map((c) =>
      c.classList.contains("back") ? "#"
        : c.dataset.card + (c.classList.contains("legal") ? "+" : ""));
  }
  out.push([hands, [...document.querySelectorAll("#points li")].map((li) => li.textContent)]);
}
return out;
"""


@pytest.mark.parametrize("stem", ["four-handed-trinidad", "three-handed"])
def test_every_steps_hands_and_points_are_the_replayers(browser: WebDriver, stem: str,
                                                        tmp_path: Path) -> None:
    """The page carries each step's changes only and rebuilds the table from the step
    before: at every step the hands, the legal cards and the points are the referee's."""
    path = next(p for p in SAMPLES if p.stem == stem)
    replayed = replay(parse_file(path).games[0])
    open_page(browser, path, 1, tmp_path / "page.html")
    shown = browser.execute_script(READ_TABLE)
    assert len(shown) == len(replayed.steps)
    for index, (step, (hands, points)) in enumerate(zip(replayed.steps, shown, strict=True)):
        state = step.state
        wanted = {seat.letter: [str(card) + ("+" if seat is state.to_move and card in state.legal
                                             else "") for card in held]
                  + ["#"] * state.unknown_count(seat) for seat, held in state.hands}
        assert hands == wanted, index
        assert len(points) == max(1, len(state.deal_points) + len(later_items(state))), index
        for point in state.deal_points:
            assert any(line.startswith(f"{point.side} {point.item.value} {point.points}")
                       for line in points), index


def test_keys_slider_and_deal_links(browser: WebDriver, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    path = next(p for p in SAMPLES if p.stem == "four-handed-trinidad")
    replayed = replay(parse_file(path).games[0])
    open_page(browser, path, 1, tmp_path / "page.html")
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.PAGE_DOWN)
    assert shown_step(browser) == replayed.deals[1].first_step
    body.send_keys(Keys.END)
    assert shown_step(browser) == replayed.deals[1].last_step
    body.send_keys(Keys.HOME, Keys.ARROW_DOWN)
    after = shown_step(browser)
    assert replayed.steps[after].kind.value == "trick_end"
    browser.find_element(By.CSS_SELECTOR, "#deal-links a[data-deal='3']").click()
    assert step_after_hashchange(browser, replayed.deals[2].first_step) == \
        replayed.deals[2].first_step
    browser.execute_script(
        "const s = document.getElementById('slider'); s.value = '5';"
        "s.dispatchEvent(new Event('input'));")
    assert shown_step(browser) == 5
    browser.find_element(By.ID, "next").click()
    assert shown_step(browser) == 6
    record = browser.find_element(By.ID, "afn").get_attribute("textContent") or ""
    assert '[Event "San Fernando' in record


@pytest.mark.parametrize("stem", ["four-handed-trinidad", "three-handed"])
@pytest.mark.parametrize(("width", "height"), [(360, 740), (1280, 800)])
def test_the_page_fits_phone_and_desktop(browser: WebDriver, tmp_path: Path,
                                        width: int, height: int, stem: str) -> None:
    path = next(p for p in SAMPLES if p.stem == stem)
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
    try:
        open_page(browser, path, 1, tmp_path / "page.html")
        press_right(browser, 12)
        inner, scrolled = browser.execute_script(
            "return [window.innerWidth, document.documentElement.scrollWidth]")
        assert inner == width
        assert scrolled <= width  # nothing runs off the side of the screen
        main_width = browser.execute_script(
            "return document.querySelector('main').getBoundingClientRect().width")
        assert main_width == width  # the page uses the whole width (no float beside it)
        shot = tmp_path / f"page-{width}x{height}.png"
        assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.mark.parametrize("stem", ["disputed-claim", "four-handed-trinidad"])
def test_the_score_sheet_reads_on_a_phone(browser: WebDriver, tmp_path: Path,
                                          stem: str) -> None:
    """``score --format html`` at 390 px (a phone held upright): drawn at that width,
    not shrunk from a desktop's; nothing wider than the screen; text at a reading size."""
    path = next(p for p in SAMPLES if p.stem == stem)
    page = tmp_path / "sheet.html"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["score", "--format", "html", str(path)])
    page.write_text(out.getvalue(), encoding="utf-8")
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        browser.get(page.as_uri())
        inner, scrolled, widest, smallest = browser.execute_script("""
            const cells = [...document.querySelectorAll('body *')];
            return [window.innerWidth, document.documentElement.scrollWidth,
                    Math.max(...cells.map(e => e.getBoundingClientRect().right)),
                    Math.min(...[...document.querySelectorAll('td, p')].map(
                        e => parseFloat(getComputedStyle(e).fontSize)))];""")
        assert inner == 390  # the viewport tag: the page is laid out at the phone's width
        assert scrolled <= 390 and widest <= 390  # nothing runs off the side
        assert smallest >= 14  # readable without zooming
        shot = tmp_path / "sheet-390.png"
        assert browser.save_screenshot(str(shot)) and shot.stat().st_size > 10_000
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_dark_and_light_schemes(browser: WebDriver, tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    path = next(p for p in SAMPLES if p.stem == "two-player-to-seven")

    def background() -> str:
        value: str = browser.execute_script(
            "return getComputedStyle(document.body).backgroundColor")
        return value

    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {
        "features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    try:
        open_page(browser, path, 1, tmp_path / "page.html")
        browser.execute_script("localStorage.removeItem('afn-scheme')")
        browser.refresh()
        assert browser.execute_script("return document.documentElement.className") == "dark"
        dark = background()
        browser.find_element(By.ID, "scheme").click()  # the person prefers light
        assert browser.execute_script("return document.documentElement.className") == ""
        assert background() != dark
        assert browser.execute_script("return localStorage.getItem('afn-scheme')") == "light"
        # and the page remembers it.  Chromium hands a page's storage writes to the
        # browser process asynchronously, so a reload straight after the click may start
        # before the write has landed: give it a few reloads, a page that forgets fails all.
        remembered = ""
        for _ in range(10):
            browser.refresh()
            remembered = browser.execute_script("return document.documentElement.className")
            if remembered == "":
                break
            time.sleep(0.2)
        assert remembered == ""
    finally:
        browser.execute_script("localStorage.removeItem('afn-scheme')")
        browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})


def test_a_results_deal_shows_its_items_instead_of_a_table(browser: WebDriver,
                                                            tmp_path: Path) -> None:
    from selenium.webdriver.common.by import By

    sample = next(path for path in SAMPLES if path.name == "club-results.afn")
    steps = open_page(browser, sample, 1, tmp_path / "results.html")
    press_right(browser, steps - 1)
    assert shown_step(browser) == steps - 1
    box = browser.find_element(By.ID, "results")
    assert "recorded by its results" in box.text
    assert "NS high +1" in box.text  # deal 5: N-S go out on High
    assert not browser.find_elements(By.CSS_SELECTOR, "#table .hand")


@pytest.mark.parametrize("page", ["replay", "score"])
def test_hostile_records_run_nothing_in_the_browser(browser: WebDriver, tmp_path: Path,
                                                    page: str) -> None:
    """Tags and comments holding <script>, <img onerror>, markup and escapes: no alert, no
    image, the text shown as typed (issue 23: the HTML outputs escape; here is the proof)."""
    from tests.hostile.test_hostile_outputs import HOSTILE, hostile_game

    for name in ("html", "markup", "csi", "bidi", "formula"):
        source = tmp_path / f"{name}.afn"
        source.write_text(hostile_game(HOSTILE[name]), encoding="utf-8")
        out = tmp_path / f"{name}-{page}.html"
        if page == "replay":
            steps = open_page(browser, source, 1, out)
            press_right(browser, steps)
        else:
            with contextlib.redirect_stdout(io.StringIO()) as written:
                main(["score", "--format", "html", str(source)])
            out.write_text(written.getvalue(), encoding="utf-8")
            browser.get(out.as_uri())
        # an alert() that ran would be open now, and this call would raise
        images = browser.execute_script("return document.images.length")
        assert images == 0, name
        if name == "html":
            text = browser.execute_script("return document.body.innerText")
            assert "<script>alert(1)</script>" in text


def test_nobody_is_to_move_after_the_last_trick(browser: WebDriver, tmp_path: Path) -> None:
    # issue 37: the page said "To move S" from the last trick to the deal's end
    from selenium.webdriver.common.by import By

    path = next(p for p in SAMPLES if p.stem == "two-player-to-seven")
    replayed = replay(parse_file(path).games[0])
    deal = replayed.deals[0]
    last_trick = max(i for i in range(deal.first_step, deal.last_step + 1)
                     if replayed.steps[i].kind.name == "TRICK_END")
    open_page(browser, path, 1, tmp_path / "page.html")
    press_right(browser, last_trick - 2)
    assert "To move" in browser.find_element(By.ID, "facts").text  # the last card to play
    press_right(browser, 2)
    assert shown_step(browser) == last_trick
    assert "To move" not in browser.find_element(By.ID, "facts").text


def test_a_flagged_card_takes_the_reader_to_its_step(browser: WebDriver,
                                                     tmp_path: Path) -> None:
    """``html --analyse --single-dummy``: the analysis lists the double- and the
    single-dummy flags of the deal shown; a deal with none says so; a click on a flag
    shows the step that played the card, and the flag is then marked as here."""
    from selenium.webdriver.common.by import By

    path = next(p for p in SAMPLES if p.stem == "two-player-to-seven")
    out = tmp_path / "page.html"
    assert main(["html", str(path), "--analyse", "--single-dummy", "--samples", "8",
                 "--seed", "1", "-o", str(out)]) == 0
    browser.get(out.as_uri())
    assert browser.find_element(By.ID, "flags").text == "every card kept its side's value"
    second = replay(parse_file(path).games[0]).deals[1].first_step
    browser.find_element(By.CSS_SELECTOR, "#deal-links a[data-deal='2']").click()
    assert step_after_hashchange(browser, second) == second
    flags = browser.find_elements(By.CSS_SELECTOR, "#flags li.flag")
    assert flags and "S:9C" in flags[0].text
    assert browser.find_elements(By.CSS_SELECTOR, "#single-dummy li")
    wanted = int(flags[0].get_attribute("data-step") or "-1")
    flags[0].click()
    assert shown_step(browser) == wanted
    assert "here" in (browser.find_element(By.CSS_SELECTOR, "#flags li.flag")
                      .get_attribute("class") or "")
