"""The web table served by two workers: two real applications with their web table servers on one PostgreSQL
database and one Redis, behind a test balancer that sends a page's WebSocket to worker A and its picture fetches to
worker B. Every picture an A-page is given is served by B (drawn there from the stored table), moves made on either
worker reach the pages of both, and a picture address is refused when forged, for another seat, or expired."""

from __future__ import annotations

import asyncio
import io
import json
import time
import uuid
from pathlib import Path

import aiohttp
import pytest
from PIL import Image

from bot.app import create_application
from bot.config import Settings
from bot.webapp.hub import Hub
from bot.webapp.pictures import PREFIX, Pictures, Spec
from bot.webapp.server import WEBTABLE_KEY
from testkit.cluster_support import REDIS_URL, drop_pg_database, fresh_pg_database, redis_available
from tests.storage_support import PG_SKIP, PG_URL
from tests.webapp_support import (
    SplitBalancer,
    new_app,
    open_game,
    open_page,
    person,
    serve_webapp,
    session_for,
    tap_first,
)

MOVES = 8


def pg_settings(url: str, tmp_path: Path) -> Settings:
    return Settings(_env_file=None, database_url=url, data_dir=tmp_path, computer_pause=0, tick_interval=0)


async def jpeg(http: aiohttp.ClientSession, url: str) -> bytes:
    async with http.get(url) as res:
        assert res.status == 200, (url, res.status, await res.text())
        assert res.headers["Content-Type"] == "image/jpeg"
        data = await res.read()
    Image.open(io.BytesIO(data)).verify()  # a real picture
    return data


def addresses(frame: dict) -> list[str]:
    found = [frame["picture"]]
    if frame.get("hand"):
        found.append(frame["hand"]["picture"])
    if frame.get("sheet"):
        found.append(frame["sheet"]["picture"])
    return found


@pytest.mark.skipif(not PG_URL, reason=PG_SKIP)
async def test_a_page_on_worker_a_gets_every_picture_from_worker_b_and_moves_on_either_reach_both(tmp_path: Path):
    if not await redis_available():
        pytest.skip("no Redis (REDIS_URL)")
    db = await fresh_pg_database()
    first = await create_application(pg_settings(db, tmp_path))
    await first.start()
    second = await create_application(pg_settings(db, tmp_path))
    await second.start()
    # polling too slow to matter: a move on one worker reaches the other's pages through Redis
    a = await serve_webapp(first, poll_interval=3600, redis_url=REDIS_URL)
    b = await serve_webapp(second, poll_interval=3600, redis_url=REDIS_URL)
    balancer = SplitBalancer(socket_to=a.url, rest_to=b.url)
    await balancer.start()
    try:
        anna, boris = person("Anna"), person("Boris")
        rec = await open_game(first, "den", anna, "kozel", 2, people=(boris,))
        async with aiohttp.ClientSession() as http:
            # Anna's page: its socket on A (through the balancer), its pictures from B; Boris's page on B
            page_a = await open_page(http, balancer.url, await session_for(http, balancer.url, "Anna", "den"))
            page_b = await open_page(http, b.url, await session_for(http, b.url, "Boris", "den"))
            version = rec.version
            fetched = 0
            for _ in range(MOVES):
                fa = await page_a.wait(lambda f, v=version: f.get("type") == "table" and f["version"] == v)
                fb = await page_b.wait(lambda f, v=version: f.get("type") == "table" and f["version"] == v)
                assert fa["hand"] and fb["hand"] and fa["seat"] != fb["seat"]
                for url in addresses(fa):
                    # served by B, which never built this page's frames: the same picture A drew
                    assert await jpeg(http, balancer.url + url) == await jpeg(http, a.url + url)
                    fetched += 1
                assert fa["hand"]["picture"] not in {u for f in page_b.tables() for u in addresses(f)}
                mover = page_a if fa["your_turn"] else page_b  # Anna's move is made on A, Boris's on B
                answer = await mover.press(mover.last_table()["actions"][0]["payload"])
                assert answer["type"] == "answer" and not answer.get("alert")
                version += 1
            await page_a.wait(lambda f: f.get("type") == "table" and f["version"] == version)
            await page_b.wait(lambda f: f.get("type") == "table" and f["version"] == version)
            assert balancer.seen[(b.url, "pic")] == fetched and (a.url, "pic") not in balancer.seen
            assert balancer.seen[(a.url, "ws")] == 1

            # refused: another seat's hand (the signature names the seat), a tampered address, an expired one
            hand = page_a.last_table()["hand"]["picture"]
            kind, table, ver, seat, lang, style, expires, sig = hand[len(PREFIX) :].split(".")
            other_seat = str(1 - int(seat))
            for bad in (
                f"{PREFIX}{kind}.{table}.{ver}.{other_seat}.{lang}.{style}.{expires}.{sig}",
                f"{PREFIX}{kind}.{table}.{ver}.{seat}.{lang}.{style}.{int(expires) + 3600}.{sig}",
                hand[:-2] + ("AA" if not hand.endswith("AA") else "BB"),
            ):
                async with http.get(balancer.url + bad) as res:
                    assert res.status == 403 and (await res.json())["error"] == "bad_signature"
                    assert "image" not in res.headers["Content-Type"]
            hub_b = b.runner.app[WEBTABLE_KEY].hub
            spec = Spec("hand", rec.id, version, int(seat), lang, style)
            old = hub_b.pictures.address(spec, now=time.time() - 3 * 3600)
            async with http.get(balancer.url + old) as res:
                assert res.status == 403 and (await res.json())["error"] == "expired"
            future = hub_b.pictures.address(Spec("hand", rec.id, version + 5, int(seat), lang, style))
            async with http.get(balancer.url + future) as res:
                assert res.status == 404  # well signed, but that version is not stored: nothing is drawn
            for page in (page_a, page_b):
                await page.close()
    finally:
        await balancer.stop()
        await a.close()
        await b.close()
        await first.close()
        await second.close()
        await drop_pg_database(db)


async def test_a_worker_that_never_drew_an_older_picture_draws_it_from_the_move_log(tmp_path: Path):
    """A page may ask for the picture of a version the table has already left (its frame was on the way): a worker
    without it replays the log to that version and draws the same picture the first worker drew."""
    app = await new_app(tmp_path)
    site = await serve_webapp(app, poll_interval=0.05)
    try:
        anna, boris = person("Anna"), person("Boris")
        rec = await open_game(app, "den", anna, "kozel", 2, people=(boris,))
        async with aiohttp.ClientSession() as http:
            a = await open_page(http, site.url, await session_for(http, site.url, "Anna", "den"))
            b = await open_page(http, site.url, await session_for(http, site.url, "Boris", "den"))
            first = await a.wait(lambda f: f.get("type") == "table" and f["version"] == rec.version)
            drawn = {url: await jpeg(http, site.url + url) for url in addresses(first)}
            version = rec.version
            for _ in range(3):
                await tap_first((a, b), version)
                version += 1
            # another worker: the same application's storage, its own (empty) pictures, the same key
            hub = site.runner.app[WEBTABLE_KEY].hub
            other = Hub(app, Pictures(hub.pictures.key))
            for url, data in drawn.items():
                spec = other.pictures.check(url[len(PREFIX) :])
                assert spec.version < version and not other.pictures.has(spec)
                assert await other.pictures.data(spec, other.redraw) == data
            other.pictures.close()
            for page in (a, b):
                await page.close()
    finally:
        await site.close()
        await app.close()


async def test_the_caps_count_the_pages_of_every_worker_through_redis(tmp_path: Path):
    """Behind a round-robin proxy one person's pages land on several workers: the cap per person and per table is
    for all of them together (Redis), and a page closed on one worker frees a place on another."""
    if not await redis_available():
        pytest.skip("no Redis (REDIS_URL)")
    first = await new_app(tmp_path)
    second = await new_app(tmp_path)  # the same database file: two workers
    limits = {"pages_per_user": 3, "pages_per_table": 5, "redis_url": REDIS_URL, "poll_interval": 0.05}
    a = await serve_webapp(first, **limits)
    b = await serve_webapp(second, **limits)
    room = f"den{uuid.uuid4().hex[:8]}"  # the counts live on Redis: a room and people of this run alone
    try:
        await open_game(first, room, person("Anna"), "kozel", 2, people=(person("Boris"),))
        async with aiohttp.ClientSession() as http:
            mallory = await session_for(http, a.url, f"Mallory{room}", room)
            pages = [await open_page(http, a.url, mallory), await open_page(http, a.url, mallory)]
            pages.append(await open_page(http, b.url, mallory))
            refused = await hello(http, b.url, mallory)  # B has one of hers, but she has three in all
            assert refused["code"] == "too_many_pages" and "too many of your pages" in refused["text"]
            # the table: Mallory's three and two more people's make five; a sixth is refused on either worker
            others = [
                await open_page(http, url, await session_for(http, url, f"{n}{room}", room))
                for n, url in (("Chen", a.url), ("Dana", b.url))
            ]
            full = await hello(http, a.url, await session_for(http, a.url, f"Eve{room}", room))
            assert full["code"] == "too_many_pages" and "Too many people are watching" in full["text"]
            # a page closed on A frees its place for a page on B
            await pages.pop(0).close()
            again = {}
            for _ in range(100):  # A notices the close and uncounts it on Redis
                again = await hello(http, b.url, mallory)
                if again["type"] == "hello":
                    break
                await asyncio.sleep(0.05)
            assert again["type"] == "hello"
            for page in pages + others:
                await page.close()
    finally:
        await a.close()
        await b.close()
        await first.close()
        await second.close()


async def hello(http: aiohttp.ClientSession, url: str, session: str) -> dict:
    """Open a socket, say hello, and return the first answer (the socket is closed after it)."""
    async with http.ws_connect(url + "/app/ws") as ws:
        await ws.send_json({"type": "hello", "session": session})
        return json.loads((await ws.receive(timeout=10)).data)
