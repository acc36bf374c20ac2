"""The playground page in a real browser (headless Chromium), with a recording stand-in application:
typing commands, pressing buttons, the private pane, notices, the language switch, the start panel and
reconnecting after a restart."""

from __future__ import annotations

import re

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, expect

from bot.playground import PlaygroundPort, start_site
from tests.browser_support import chromium, screenshot
from tests.playground_support import STALE, StandIn

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    async with chromium() as b:
        yield b


@pytest_asyncio.fixture(loop_scope="module")
async def page(browser: Browser):
    context = await browser.new_context(viewport={"width": 1400, "height": 900})
    yield await context.new_page()
    await context.close()


@pytest_asyncio.fixture(loop_scope="module")
async def site():
    app = StandIn()
    port = PlaygroundPort(edit_interval=0.02)
    app.attach(port)
    runner, url = await start_site(app, port, "127.0.0.1", 0)
    yield app, url
    await port.close()
    await runner.cleanup()


async def test_a_tab_plays_through_buttons_and_switches_language(site, page: Page, tmp_path):
    app, url = site
    await page.goto(url + "?room=kitchen&name=Anna&lang=en")
    await expect(page.locator("#status")).to_have_text("connected")
    group = page.locator("[data-box=group]")
    private = page.locator("[data-box=private]")

    await group.locator("input").fill("/new thousand")
    await group.locator("input").press("Enter")
    lobby = group.locator("li.bot").last
    await expect(lobby.locator(".text")).to_contain_text("a table for 3 is open")
    await expect(lobby.locator(".text")).to_contain_text("1. Anna")
    for _ in range(2):
        await page.locator("[data-box=group] li.bot").last.get_by_role("button", name="+ normal").click()
        await expect(page.locator("[data-box=group] .row > .pending")).to_have_count(0)
    await expect(group.locator("li.bot").last.locator(".text")).to_contain_text("3. computer (normal)")
    await group.locator("li.bot").last.get_by_role("button", name="Start").click()
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

    await table.get_by_role("button", name="Move").click()
    await expect(page.locator(".toast").last).to_have_text("Moved")
    await expect(group.locator("li.bot").last.locator(".text")).to_have_text("Table in kitchen: 1 moves")
    assert await group.locator("li.bot").count() == 2  # the lobby, and the table edited in place

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
    # my language is mine: only a private /lang goes out; the room's language is left alone
    await expect(private.locator("li.said").last).to_have_text("Anna/lang ru")
    langs = [(c.chat is None, c.args, c.user.language) for c in app.commands if c.name == "lang"]
    assert langs == [(True, "ru", "ru")]
    assert not await group.locator("li.said", has_text="/lang").count()
    await screenshot(page, str(tmp_path / "standin.png"))


async def test_a_press_shows_it_waits_until_answered_also_when_its_message_is_drawn_again(site, page: Page):
    """A tap on a hand whose message is redrawn before the answer (as a move redraws the hand) keeps its button
    marked as waiting: the player sees his tap is still on its way, and a second tap is not sent. The mark goes
    with the answer."""
    app, url = site
    await page.goto(url + "?room=study&name=Boris&lang=en")
    await expect(page.locator("#status")).to_have_text("connected")
    group = page.locator("[data-box=group]")
    await group.locator("input").fill("/new deberts")
    await group.locator("input").press("Enter")
    await group.locator("li.bot").last.get_by_role("button", name="+ easy").click()
    await expect(group.locator("li.bot").last.locator(".text")).to_contain_text("2. computer (easy)")
    await group.locator("li.bot").last.get_by_role("button", name="Start").click()
    await group.locator("li.bot").last.get_by_role("button", name="Show my hand").click()
    hand = page.locator("[data-box=private] li.bot").last
    await expect(hand.locator(".text")).to_have_text("Boris's hand")

    app.released.clear()
    await hand.get_by_role("button", name="Think").click()
    await expect(hand.locator(".text")).to_have_text("Boris's hand (thinking)")  # drawn again: a new button
    think = hand.get_by_role("button", name="Think")
    await expect(think).to_have_class(re.compile("pending"))
    await think.click(force=True)  # a second tap while waiting sends nothing
    assert sum(p.payload == "t" for p in app.presses) == 1
    app.released.set()
    await expect(page.locator(".toast").last).to_have_text("Thought")
    await expect(think).not_to_have_class(re.compile("pending"))
    assert sum(p.payload == "t" for p in app.presses) == 1


@pytest.mark.parametrize("people", [0, 1])
async def test_start_panel_types_the_commands_and_presses_the_lobby_buttons(site, page: Page, people: int):
    app, url = site
    await page.goto(url + "?room=den&name=Boris&lang=en")
    await expect(page.locator("#status")).to_have_text("connected")
    await page.select_option("#game", "kozel")
    await page.select_option("#seats", "3")
    await expect(page.locator("#seat-list select")).to_have_count(2)
    await page.select_option("[name=seat2]", "strong")
    if people:
        await page.select_option("[name=seat3]", "person")
    await page.select_option("#table-lang", "uk")
    preview = "/lang uk  ·  /new kozel 3  →  + strong" + (", + normal, start" if not people else "")
    await expect(page.locator("#start-preview")).to_have_text(preview)
    await page.locator("#start-button").click()
    if people:  # a seat is left for another tab: the lobby waits for its Join
        await expect(page.locator("[data-box=group] li.bot").last).to_contain_text("2. computer (strong)")
    else:
        await expect(page.locator("[data-box=group] li.bot").last).to_contain_text("Table in den: 0 moves")
    lobby = app.lobbies["den"]
    assert [(c.name, c.args) for c in app.commands] == [("lang", "uk"), ("new", "kozel 3")]
    assert (lobby.seats, lobby.sitting, lobby.started) == (
        (3, ["Boris", "computer (strong)"], False)
        if people
        else (3, ["Boris", "computer (strong)", "computer (normal)"], True)
    )
    kinds = [p.payload.split(".")[0] for p in app.presses]  # the host sits at /new: no Join, no seats button
    assert kinds == ["c"] + ([] if people else ["c", "s"])


async def test_the_page_reconnects_after_a_restart_and_shows_the_new_server(page: Page):
    """After a restart the server's room is empty: the page reconnects and asks for the table (``table``) once."""
    app = StandIn()
    port = PlaygroundPort(edit_interval=0.02)
    app.attach(port)
    runner, url = await start_site(app, port, "127.0.0.1", 0)
    number = int(url.rsplit(":", 1)[1].strip("/"))
    await page.goto(url + "?room=kitchen&name=Anna&lang=en")
    await expect(page.locator("#status")).to_have_text("connected")
    await page.locator("[data-box=group] input").fill("/new kozel")
    await page.locator("[data-box=group] input").press("Enter")
    await expect(page.locator("[data-box=group] li.bot")).to_have_count(1)

    await port.close()
    await runner.cleanup()
    await expect(page.locator("#status")).to_have_text("offline, reconnecting…")
    again = StandIn()
    port = PlaygroundPort(edit_interval=0.02)
    again.attach(port)
    runner, _ = await start_site(again, port, "127.0.0.1", number)
    try:
        await expect(page.locator("#status")).to_have_text("connected", timeout=15000)
        # the new server's room is empty: the page asks for its table and hand again (issue 26 finding 10)
        await expect(page.locator("[data-box=group] li.bot .text")).to_have_text(["/table"])
        asked = [c for c in again.commands if c.name == "table"]
        assert len(asked) == 1 and asked[0].chat is not None and asked[0].chat.id == "kitchen"
        assert asked[0].user.id == "anna"
        await page.locator("[data-box=private] input").fill("/me")
        await page.locator("[data-box=private] input").press("Enter")
        await expect(page.locator("[data-box=private] li.bot .text")).to_have_text("You said /me ")
        assert again.commands[-1].chat is None and again.commands[-1].user.id == "anna"
    finally:
        await port.close()
        await runner.cleanup()


@pytest.mark.parametrize("lang, guest", [("en", "Guest"), ("ru", "Гость"), ("uk", "Гість")])
async def test_a_new_tab_is_named_a_guest_in_the_pages_language(site, browser: Browser, lang: str, guest: str):
    """Issue 32 point 5: a new tab is "Guest 1234", "Гость 1234", "Гість 1234": the page's language."""
    _app, url = site
    context = await browser.new_context(viewport={"width": 390, "height": 844})
    page = await context.new_page()
    await page.goto(url + f"?room=kitchen&lang={lang}")
    await expect(page.locator("#status")).not_to_have_text("")
    await expect(page.locator("#name")).to_have_value(re.compile(rf"^{guest} \d{{4}}$"))
    await context.close()
