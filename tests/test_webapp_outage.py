"""The web table through an outage: the server stopped with pages open (it exits at once, its sockets closed
first) and started again on the same port and SQLite file (the page comes back by itself and plays on, no reload).
Real Chromium, at 390×844 with touch and at 1280×800."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket

import aiohttp
import pytest
import pytest_asyncio
from playwright.async_api import expect

from bot import tablepass
from bot.playground import PlaygroundPort
from bot.storage import Storage
from bot.webapp import serve
from tests.browser_support import chromium
from tests.test_bot_start import read_until, start_bot
from tests.test_webapp_browser import (
    DESKTOP,
    PHONE,
    READY,
    new_page,
    open_table,
    play_turn,
    shoot,
    tap,
)
from tests.webapp_support import (
    TOKEN,
    init_data,
    new_app,
    open_game,
    open_page,
    person,
    serve_playground,
    settings_for,
)

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.usefixtures("fast_taps")]

ONLINE = "() => document.querySelector('#webtable').dataset.online === 'yes'"


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    async with chromium() as b:
        yield b


@pytest.mark.parametrize("device", ["phone", "desktop"])
async def test_ctrl_c_with_a_game_open_in_a_page_exits_at_once(browser, device, tmp_path):
    """A game against the computer open in a page (both its sockets: the playground's and the web table's):
    SIGINT ends the process within 5 s, cleanly, and the moves played are in the database."""
    proc = start_bot({"DATA_DIR": str(tmp_path), "ROUND_PAUSE": "0"}, "--port", "0")
    try:
        lines = await asyncio.to_thread(read_until, proc, "playground: open http://127.0.0.1:")
        url = lines[-1].split("open ", 1)[1].split()[0].rstrip("/")
        page = await new_page(browser, PHONE if device == "phone" else DESKTOP)
        await open_table(page, url, "kozel", 2, room="quit")
        await page.wait_for_function(READY, timeout=30000)
        await page.wait_for_function(ONLINE)
        version = int(await page.locator("#webtable").get_attribute("data-version"))
        proc.send_signal(signal.SIGINT)
        code = await asyncio.to_thread(proc.wait, 5)  # today: 36-45 s with a page open, 0.1 s without
        assert code == 0, proc.stderr.read()
        # the page knows the server is gone and says so
        await expect(page.locator("#webtable .wt-status")).to_have_text("offline, reconnecting…")
        await page.context.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in proc.stderr.read()
    # nothing lost: the moves shown are stored
    storage = await Storage.open(f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}", data_dir=tmp_path)
    try:
        (rec,) = await storage.playing_tables()
        assert rec.version >= version
    finally:
        await storage.close()


async def test_the_mini_app_server_stops_at_once_with_pages_open(tmp_path):
    """The web table's own server (``bot.webapp.serve``, the Telegram Mini App): cancelled with a page that
    watches a table and a socket that never said hello, it closes both ("going away") and returns within 5 s."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        number = s.getsockname()[1]
    settings = settings_for(tmp_path, telegram_bot_token=TOKEN, webapp_url="https://cards.example.org")
    settings = settings.model_copy(update={"webapp_host": "127.0.0.1", "webapp_port": number})
    app = await new_app(tmp_path)
    app.attach(PlaygroundPort(edit_interval=0.01))
    rec = await open_game(app, "den", person("Anna"), "kozel", 2)
    ticket = tablepass.make(tablepass.key_of(TOKEN), rec.id)
    launch = init_data({"id": 4242, "first_name": "Anna"}, start_param=ticket)
    server = asyncio.create_task(serve(app, settings))
    url = f"http://127.0.0.1:{number}"
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(100):  # until it listens
                with contextlib.suppress(aiohttp.ClientConnectionError):
                    async with http.get(url + "/app/"):
                        break
                await asyncio.sleep(0.05)
            silent = await http.ws_connect(url + "/app/ws")
            headers = {"Authorization": "tma " + launch}
            async with http.post(url + "/app/api/session", headers=headers, json={}) as res:
                page = await open_page(http, url, (await res.json())["session"])
            await page.wait(lambda f: f.get("type") == "table")
            server.cancel()
            done, _ = await asyncio.wait([server], timeout=5)  # today: 60 s (aiohttp's shutdown timeout)
            assert server in done, "the server still waits for its pages"
            await page.close()
            assert (await silent.receive()).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            assert page.ws.close_code == aiohttp.WSCloseCode.GOING_AWAY
    finally:
        server.cancel()
        await app.close()


async def stop(site) -> None:
    await site.close()
    await site.app.close()


@pytest.mark.parametrize("device", ["phone", "desktop"])
async def test_the_table_comes_back_by_itself_after_a_server_restart_and_plays_on(browser, device, tmp_path):
    site = await serve_playground(tmp_path)
    url = site.url
    number = int(url.rsplit(":", 1)[1])
    page = await new_page(browser, PHONE if device == "phone" else DESKTOP)
    try:
        await open_table(page, url, "kozel", 2, room=f"back{device}")
        await page.wait_for_function(READY, timeout=30000)
        await play_turn(page)
        await page.wait_for_function(READY, timeout=30000)
        await page.evaluate("() => { window.notReloaded = true; }")
        before = int(await page.locator("#webtable").get_attribute("data-version"))

        await stop(site)
        table = page.locator("#webtable")
        await expect(table.locator(".wt-status")).to_have_text("offline, reconnecting…")
        await expect(table).to_have_attribute("data-online", "no")
        # a tap while the server is away says so and changes nothing (the note shows for 3 s: on a busy machine it
        # may be gone before a look at the page, so the notices the table gave are collected as they come)
        await page.evaluate(
            "() => { window.notes = []; document.querySelector('#webtable')"
            ".addEventListener('wt-notice', (e) => window.notes.push(e.detail.text)); }"
        )
        await tap(page, table.locator(".wt-hit.playable").first)
        await page.wait_for_function("() => window.notes.includes('offline, reconnecting…')")
        await page.wait_for_timeout(3000)  # a few failed attempts of the session request and the socket
        await shoot(page, f"webapp-offline-{device}.png")

        site = await serve_playground(tmp_path, number)
        await expect(table).to_have_attribute("data-online", "yes", timeout=30000)
        await page.wait_for_function(READY, timeout=30000)
        assert int(await table.get_attribute("data-version")) == before  # the same table, the same turn
        kind = await play_turn(page)  # a tap after the restart plays a move
        assert kind in ("card", "button")
        assert (
            int(await table.get_attribute("data-version")) > before
            or await table.get_attribute("data-finished") == "yes"
        )
        assert await page.evaluate("() => window.notReloaded === true")
        await expect(page.locator("#status")).to_have_text("connected")
    finally:
        await page.context.close()
        await stop(site)
