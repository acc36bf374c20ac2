"""The playground page in a real browser (headless Chromium), with a recording stand-in application:
typing commands, pressing buttons, the private pane, notices, the language switch and the start panel."""

from __future__ import annotations

import pytest
from playwright.async_api import expect

from bot.playground import PlaygroundPort, start_site
from tests.browser_support import chromium, screenshot
from tests.playground_support import STALE, StandIn


@pytest.fixture
async def site():
    app = StandIn()
    port = PlaygroundPort(edit_interval=0.02)
    app.attach(port)
    runner, url = await start_site(app, port, "127.0.0.1", 0)
    yield app, url
    await port.close()
    await runner.cleanup()


async def test_a_tab_plays_through_buttons_and_switches_language(site, tmp_path):
    app, url = site
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 1400, "height": 900})
        await page.goto(url + "?room=kitchen&name=Anna&lang=en")
        await expect(page.locator("#status")).to_have_text("connected")
        group = page.locator("[data-box=group]")
        private = page.locator("[data-box=private]")

        await group.locator("input").fill("/new thousand")
        await group.locator("input").press("Enter")
        table = group.locator("li.bot").last
        await expect(table.locator(".text")).to_have_text("Table in kitchen: 0 moves")
        await expect(table.locator("img")).to_have_js_property("complete", True)
        assert await table.locator("img").evaluate("img => img.naturalWidth") == 240
        assert app.commands[-1].args == "thousand" and app.commands[-1].user.name == "Anna"
        await expect(group.locator("li.said.mine")).to_have_text("Anna/new thousand")

        await table.get_by_role("button", name="Show my hand").click()
        hand = private.locator("li.bot").last
        await expect(hand.locator(".text")).to_have_text("Anna's hand")
        assert await hand.locator("img").evaluate("img => img.complete && img.naturalWidth") == 240

        old_move = table.get_by_role("button", name="Move")
        await old_move.click()
        await expect(page.locator(".toast").last).to_have_text("Moved")
        await expect(group.locator("li.bot").last.locator(".text")).to_have_text("Table in kitchen: 1 moves")
        assert await group.locator("li.bot").count() == 1  # the same message, edited in place

        # a forged press from the page's console gets the same notice and changes nothing
        await page.evaluate(
            """() => state.ws.send(JSON.stringify({type: "press", req: 999,
                  message: document.querySelector("[data-box=group] li.bot").dataset.id, payload: "m.0"}))"""
        )
        await expect(page.locator(".toast").last).to_have_text(STALE)
        assert app.moves["kitchen"] == 1
        await group.locator("input").fill("/dance")
        await group.locator("input").press("Enter")
        await expect(page.locator(".toast.error").last).to_contain_text("Unknown command")

        await page.select_option("#lang", "ru")
        await expect(page.locator("[data-t=start_title]")).to_have_text("Начать игру")
        await expect(page.locator("#status")).to_have_text("на связи")
        await expect(group.locator("li.said").last).to_have_text("Anna/lang ru")
        assert app.commands[-1].name == "lang" and app.commands[-1].args == "ru"
        assert app.commands[-1].user.language == "ru"
        await screenshot(page, str(tmp_path / "standin.png"))


async def test_start_panel_sends_the_commands_a_chat_user_would_type(site):
    app, url = site
    async with chromium() as browser:
        page = await browser.new_page(viewport={"width": 1400, "height": 900})
        await page.goto(url + "?room=den&name=Boris&lang=en")
        await expect(page.locator("#status")).to_have_text("connected")
        await page.select_option("#game", "kozel")
        await page.select_option("#seats", "4")
        await expect(page.locator("#seat-list select")).to_have_count(3)
        await page.select_option("[name=seat2]", "strong")
        await page.select_option("[name=seat4]", "person")
        await page.locator("details.options summary").click()
        await page.select_option("[name=fish]", '"one"')
        await page.select_option("#table-lang", "uk")
        await page.locator("#start-button").click()
        await expect(page.locator("[data-box=group] li.bot")).to_have_count(2)
        lines = [(c.name, c.args) for c in app.commands]
        assert lines == [("lang", "uk"), ("new", "kozel players=4 computers=strong,normal fish=one")]
