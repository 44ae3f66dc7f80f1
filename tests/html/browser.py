"""Headless Chromium for the page tests, driven by Selenium (Debian's chromium and
chromium-driver; see the README's development section)."""

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
