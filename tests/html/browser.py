"""Headless Chromium for the page tests, driven by Selenium (Debian's chromium and
chromium-driver; see docs/development.md)."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from selenium.webdriver.remote.webdriver import WebDriver

CHROMIUM_FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage",
)


def chromium_paths() -> tuple[str, str] | None:
    """(browser, driver) when both are installed, else ``None``."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    driver = shutil.which("chromedriver")
    return (browser, driver) if browser and driver else None


@contextmanager
def chromium(width: int = 1280, height: int = 800) -> Iterator[WebDriver]:
    """One headless browser with a fresh profile, closed (and its profile removed) after."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    paths = chromium_paths()
    if paths is None:
        raise RuntimeError("chromium and chromedriver are not installed")
    browser, driver = paths
    with tempfile.TemporaryDirectory(prefix="afn-chromium-") as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = browser
        for flag in CHROMIUM_FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={profile}")
        options.add_argument(f"--window-size={width},{height}")
        session = webdriver.Chrome(options=options, service=Service(executable_path=driver))
        try:
            yield session
        finally:
            session.quit()


def screenshot(page: str, out: str, width: int, height: int, presses: int = 0) -> None:
    """Save a PNG of ``page`` at ``width``×``height`` CSS pixels after ``presses`` → keys
    (the phone picture of docs/commands.md is made this way)."""
    from pathlib import Path

    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    with chromium(width, height) as browser:
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        browser.get(Path(page).resolve().as_uri())
        if presses:
            browser.find_element(By.TAG_NAME, "body").send_keys(Keys.ARROW_RIGHT * presses)
        browser.save_screenshot(out)


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tests.html.browser",
                                     description="Screenshot a replay page in headless Chromium.")
    parser.add_argument("page")
    parser.add_argument("out")
    parser.add_argument("--size", default="360x740", help="WIDTHxHEIGHT in CSS pixels")
    parser.add_argument("--right", type=int, default=0, help="press → this many times first")
    args = parser.parse_args()
    width, height = (int(n) for n in args.size.split("x"))
    screenshot(args.page, args.out, width, height, args.right)


if __name__ == "__main__":
    main()
