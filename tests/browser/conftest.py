"""Fixtures for the browser tests: headless Chromium driven by Selenium.

The browser is the system's (Debian's ``chromium`` and ``chromium-driver`` packages), never one
that Selenium Manager would download. Without it these tests skip, so that the rest of the
suite needs no browser; with ``TRACKER_TEST_BROWSER=1`` (CI sets it) a missing browser is a
failure instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.remote.webdriver import WebDriver

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
REQUIRED = os.environ.get("TRACKER_TEST_BROWSER") == "1"

FLAGS = (
    "--headless=new",
    "--no-sandbox",  # as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


def _no_browser(why: str) -> None:
    if REQUIRED:
        pytest.fail(f"{why}, and TRACKER_TEST_BROWSER=1 requires the browser tests to run")
    pytest.skip(f"{why} (apt-get install chromium chromium-driver)")


@pytest.fixture(scope="session")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebDriver]:
    """One headless Chromium for the whole run, with a profile of its own."""
    missing = [str(p) for p in (CHROMIUM, CHROMEDRIVER) if not os.access(p, os.X_OK)]
    if missing:
        _no_browser(f"no browser: {' and '.join(missing)} missing")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    service = Service(executable_path=str(CHROMEDRIVER))
    browser = webdriver.Chrome(service=service, options=options)  # present but broken: an error
    browser.set_page_load_timeout(30)
    yield browser
    browser.quit()
