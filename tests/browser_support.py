"""Headless Chromium for the playground's browser tests (Debian's ``/usr/bin/chromium`` driven by Playwright).

Playwright cannot download its own browser here: the tests use the system's Chromium and fail, with the
reason, when it cannot be started (``.ci/run`` installs it when it is missing).
"""

from __future__ import annotations

import io
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from PIL import Image, ImageStat
from playwright.async_api import Browser, Page, async_playwright, expect

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# what a page shows is waited for up to 20 s (Playwright's default is 5 s): two test workers, a browser and the
# application's picture drawing share two cores; a page that never shows it still fails
expect.set_options(timeout=20_000)


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        try:
            browser = await pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        except Exception as e:  # the reason goes into the failure, the test is not skipped
            pytest.fail(f"cannot start Chromium at {CHROMIUM}: {e}", pytrace=False)
        try:
            yield browser
        finally:
            await browser.close()


async def screenshot(page: Page, path: str) -> Image.Image:
    """A full-page screenshot saved to ``path`` and decoded: checked to be a real picture of a page."""
    data = await page.screenshot(path=path, full_page=False)
    picture = Image.open(io.BytesIO(data))
    picture.load()
    assert picture.format == "PNG" and picture.width >= 800 and picture.height >= 500
    spread = ImageStat.Stat(picture.convert("L")).stddev[0]
    assert spread > 10, "the screenshot is blank"
    return picture
