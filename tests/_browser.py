"""A real headless Chromium for the tests of pages (the replay viewer, web play): Debian's ``chromium`` driven by
Playwright through the system browser's executable path (no browser download).

``chromium_page()`` is a context manager that yields a fresh Playwright page and closes the browser after. Where
no browser is installed the test is skipped, unless ``WILDWEST_REQUIRE_BROWSER=1`` (set by ``.ci/run``), where it
fails: CI must not pass by skipping the browser. ``console_errors(page)`` collects the page's console errors and
uncaught exceptions from the moment it is called. Screenshots are kept as test artifacts in ``ARTIFACTS``
(``$WILDWEST_ARTIFACTS``, default ``test-artifacts/`` at the repository root, ignored by git).
"""

from __future__ import annotations

import contextlib
import os
import shutil

import pytest

from pathlib import Path

BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome")
ARTIFACTS = Path(os.environ.get("WILDWEST_ARTIFACTS") or Path(__file__).resolve().parent.parent / "test-artifacts")
ARTIFACTS.mkdir(parents=True, exist_ok=True)


def chromium_path() -> str | None:
    """The system Chromium's executable, or None ($WILDWEST_CHROMIUM first, then the PATH)."""
    explicit = os.environ.get("WILDWEST_CHROMIUM")
    if explicit:
        return explicit
    for name in BROWSER_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def _missing(reason: str):
    if os.environ.get("WILDWEST_REQUIRE_BROWSER") == "1":
        pytest.fail(f"{reason} (WILDWEST_REQUIRE_BROWSER=1: a real browser is required)")
    pytest.skip(reason)


@contextlib.contextmanager
def chromium_page(width: int = 1400, height: int = 1000):
    """A new page of a headless system Chromium, ``width`` x ``height`` CSS pixels."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("playwright is not installed (pip install -e '.[dev]')")
    path = chromium_path()
    if path is None:
        _missing("no Chromium on this machine (apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, headless=True,
                                             args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            page = browser.new_page(viewport={"width": width, "height": height})
            yield page
        finally:
            browser.close()


def console_errors(page) -> list[str]:
    """A list that fills with the page's console errors and uncaught exceptions (read it at the end of a test)."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors
