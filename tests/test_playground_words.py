"""The playground page in the reader's language (issue 32 point 5): a new tab's own name is "Guest 1234" in
English, "Гость 1234" in Russian, "Гість 1234" in Ukrainian — the page's language, not always English."""

from __future__ import annotations

import re

import pytest
import pytest_asyncio
from playwright.async_api import Browser, expect

from bot.playground import PlaygroundPort, start_site
from tests.browser_support import chromium
from tests.playground_support import StandIn

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    async with chromium() as b:
        yield b


@pytest_asyncio.fixture(loop_scope="module")
async def site():
    app = StandIn()
    port = PlaygroundPort(edit_interval=0.02)
    app.attach(port)
    runner, url = await start_site(app, port, "127.0.0.1", 0)
    yield url
    await port.close()
    await runner.cleanup()


@pytest.mark.parametrize("lang, guest", [("en", "Guest"), ("ru", "Гость"), ("uk", "Гість")])
async def test_a_new_tab_is_named_a_guest_in_the_pages_language(site, browser: Browser, lang: str, guest: str):
    context = await browser.new_context(viewport={"width": 390, "height": 844})
    page = await context.new_page()
    await page.goto(site + f"?room=kitchen&lang={lang}")
    await expect(page.locator("#status")).not_to_have_text("")
    await expect(page.locator("#name")).to_have_value(re.compile(rf"^{guest} \d{{4}}$"))
    await context.close()
