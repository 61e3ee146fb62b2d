"""Fixtures shared by test modules."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[object]:
    """One Playwright driver for the whole run: its sync API runs an event loop, and a second
    driver started while the first lives fails, so every browser test module launches its
    Chromium from this one."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need the "
                                   "playwright package (the system Chromium is used)")
    driver = sync_api.sync_playwright().start()
    yield driver
    driver.stop()
