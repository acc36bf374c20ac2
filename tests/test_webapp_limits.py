"""The limits a public web table needs, through real HTTP and WebSockets over the real application: a socket that
never says hello is closed, one person's flood of sockets and presses is refused with a notice in his language
and changes nothing while the players' frames keep arriving, and a table has at most so many pages."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import aiohttp
import pytest
from playwright.async_api import expect

from bot.app import create_application
from bot.playground import PlaygroundPort, start_site
from bot.webapp import WebTable, install
from tests.browser_support import chromium, screenshot
from tests.webapp_support import (
    new_app,
    open_game,
    open_page,
    person,
    serve_webapp,
    session_for,
    settings_for,
    tap_first,
)

SHOTS = Path(__file__).resolve().parent.parent / ".screenshots"

PER_USER, PER_TABLE = 3, 6
FLOOD = 40


@pytest.fixture
async def site(tmp_path: Path):
    app = await new_app(tmp_path)
    s = await serve_webapp(
        app, poll_interval=0.05, hello_timeout=0.5, pages_per_user=PER_USER, pages_per_table=PER_TABLE
    )
    yield s
    await s.close()
    await app.close()


async def test_a_socket_that_never_says_hello_is_closed(site):
    async with aiohttp.ClientSession() as http, http.ws_connect(site.url + "/app/ws") as ws:
        first = await ws.receive(timeout=10)
        assert first.type == aiohttp.WSMsgType.TEXT and json.loads(first.data) == {"type": "error", "code": "no_hello"}
        closing = await ws.receive(timeout=10)
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
        assert ws.closed


async def test_a_flood_of_sockets_and_presses_is_refused_while_the_players_frames_keep_arriving(site):
    anna, boris = person("Anna"), person("Boris")
    rec = await open_game(site.app, "den", anna, "kozel", 2, people=(boris,))
    async with aiohttp.ClientSession() as http:
        a = await open_page(http, site.url, await session_for(http, site.url, "Anna", "den"))
        b = await open_page(http, site.url, await session_for(http, site.url, "Boris", "den"))
        mallory = await session_for(http, site.url, "Mallory", "den", lang="ru")
        # Mallory's pages: up to the cap per person; the next ones are told why (in Russian) and closed
        pages = [await open_page(http, site.url, mallory) for _ in range(PER_USER)]
        for _ in range(2):
            ws = await http.ws_connect(site.url + "/app/ws")
            await ws.send_json({"type": "hello", "session": mallory})
            refused = json.loads((await ws.receive(timeout=10)).data)
            assert refused["type"] == "error" and refused["code"] == "too_many_pages"
            assert (
                refused["text"]
                == "Этот стол открыт у вас в слишком многих страницах: закройте одну и попробуйте снова."
            )
            assert (await ws.receive(timeout=10)).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        spectator = pages[0]
        frame = await spectator.wait(lambda f: f.get("type") == "table")
        stale = f"a.{rec.id}.{frame['version']}.x"
        # a burst of presses from one socket: beyond the rate each is answered with a notice, none is played
        for req in range(1, FLOOD + 1):
            await spectator.ws.send_json({"type": "press", "payload": stale, "req": req})
        answers = [await spectator.wait(lambda f, r=r: f.get("req") == r) for r in range(1, FLOOD + 1)]
        too_fast = [
            x for x in answers if x.get("text") == "Слишком много нажатий сразу: подождите немного и нажмите снова."
        ]
        assert too_fast and all(x["type"] == "answer" for x in too_fast)
        assert len(too_fast) < FLOOD  # the first few reached the application (and were refused there)
        assert (await site.app.storage.table(rec.id)).version == rec.version  # nothing changed
        # meanwhile the real players play on, and every page (Mallory's too) gets each new table
        version = rec.version
        for _ in range(4):
            answer = await tap_first((a, b), version)
            assert answer["type"] == "answer" and answer.get("text") != too_fast[0]["text"]
            version += 1
            for page in (a, b, *pages):
                await page.wait(lambda f, v=version: f.get("type") == "table" and f["version"] == v)
        assert (await site.app.storage.table(rec.id)).version == rec.version + 4
        # the table's cap: Anna, Boris and Mallory's three pages leave room for one more page of this room
        chen = await session_for(http, site.url, "Chen", "den")
        extra = await open_page(http, site.url, chen)
        ws = await http.ws_connect(site.url + "/app/ws")
        await ws.send_json({"type": "hello", "session": await session_for(http, site.url, "Dana", "den")})
        full = json.loads((await ws.receive(timeout=10)).data)
        assert (
            full["code"] == "too_many_pages"
            and full["text"] == "Too many people are watching this table: try again later."
        )
        await ws.close()
        # a closed page frees its place
        await extra.close()
        again = None
        for _ in range(50):  # the server notices the close on its side
            ws = await http.ws_connect(site.url + "/app/ws")
            await ws.send_json({"type": "hello", "session": chen})
            again = json.loads((await ws.receive(timeout=10)).data)
            await ws.close()
            if again["type"] == "hello":
                break
            await asyncio.sleep(0.05)
        assert again is not None and again["type"] == "hello"
        for page in (a, b, *pages):
            await page.close()


async def test_a_page_refused_for_too_many_pages_says_why_in_chromium_and_does_not_knock_again(tmp_path: Path):
    app = await create_application(settings_for(tmp_path))
    port = PlaygroundPort(edit_interval=0.02)
    app.attach(port)
    await app.start()
    tables: list[WebTable] = []
    runner, url = await start_site(
        app,
        port,
        "127.0.0.1",
        0,
        extend=lambda web_app: tables.append(install(web_app, app, trust_names=True, pages_per_user=1)),
    )
    hub = tables[0].hub
    hellos = 0
    admit = hub.admit

    async def counted(watcher):
        nonlocal hellos
        hellos += 1
        return await admit(watcher)

    hub.admit = counted  # type: ignore[method-assign]
    try:
        async with chromium() as browser:
            pages = []
            for _ in range(2):  # Anna opens the playground twice: one web table page is all she may have here
                page = await (await browser.new_context(viewport={"width": 1280, "height": 800})).new_page()
                await page.goto(f"{url}?name=Anna&lang=en#duo")
                await expect(page.locator("#status")).to_have_text("connected")
                pages.append(page)
            await expect(pages[0].locator("#webtable")).to_have_attribute("data-online", "yes")
            refused = pages[1].locator("#webtable .wt-empty")
            await expect(refused).to_have_text("This table is open in too many of your pages: close one and try again.")
            await screenshot(pages[1], str(SHOTS / "webapp-too-many-pages.png"))
            await pages[1].wait_for_timeout(2500)  # longer than the page's reconnect delay (1 s)
            assert hellos == 2  # the refused page did not come back
            assert await pages[1].locator("#webtable").get_attribute("data-online") != "yes"
    finally:
        await port.close()
        await runner.cleanup()
        await app.close()
