"""The web table served by two workers: two real applications with their web table servers on one PostgreSQL
database and one Redis, behind a test balancer that sends a page's WebSocket to worker A and its picture fetches to
worker B. Every picture an A-page is given is served by B (drawn there from the stored table), moves made on either
worker reach the pages of both, and a picture address is refused when forged, for another seat, or expired."""

from __future__ import annotations

import io
import time
from pathlib import Path

import aiohttp
import pytest
from PIL import Image

from bot.app import create_application
from bot.config import Settings
from bot.webapp.pictures import PREFIX, Spec
from bot.webapp.server import WEBTABLE_KEY
from testkit.cluster_support import REDIS_URL, drop_pg_database, fresh_pg_database, redis_available
from tests.storage_support import PG_SKIP, PG_URL
from tests.webapp_support import SplitBalancer, open_game, open_page, person, serve_webapp, session_for

pytestmark = pytest.mark.skipif(not PG_URL, reason=PG_SKIP)

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
