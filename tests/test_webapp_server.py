"""The web table's server through real HTTP and WebSockets on 127.0.0.1 over the real application: Telegram's
initData check, sessions, what each socket receives (a hand only on its owner's), presses checked like chat
buttons, the page's headers, and a move stored by another worker reaching an open page."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import aiohttp
import pytest

from bot import tablepass
from bot.app import create_application
from bot.port import Chat, Press
from bot.webapp.auth import Session, Sessions, telegram_user
from bot.webapp.seatview import offered
from core.base import Action
from core.kozel.tiles import TILES
from renderers.demo.positions import find
from renderers.hand import hand_boxes, hand_image
from tests.webapp_support import (
    TOKEN,
    init_data,
    new_app,
    open_game,
    open_page,
    person,
    serve_webapp,
    session_for,
    settings_for,
)

REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
ANNA = {"id": 4242, "first_name": "Anna", "last_name": "K", "language_code": "ru", "username": "anna"}


@pytest.fixture
async def site(tmp_path: Path):
    app = await new_app(tmp_path)
    s = await serve_webapp(app, poll_interval=0.05)
    yield s
    await s.close()
    await app.close()


async def post_session(url: str, authorization: str | None, body: dict | None = None) -> tuple[int, dict]:
    headers = {} if authorization is None else {"Authorization": authorization}
    async with (
        aiohttp.ClientSession() as http,
        http.post(url + "/app/api/session", headers=headers, json=body or {}) as res,
    ):
        return res.status, await res.json()


async def test_a_valid_init_data_opens_the_table_it_names_and_anything_else_is_refused(site):
    rec = await open_game(site.app, "den", person("Boris"), "kozel", 2)
    ticket = tablepass.make(tablepass.key_of(TOKEN), rec.id)  # the pass the bot's links carry
    good = init_data(ANNA, start_param=ticket)
    status, body = await post_session(site.url, "tma " + good)
    assert status == 200 and body["table"] == rec.id
    async with aiohttp.ClientSession() as http:
        page = await open_page(http, site.url, body["session"])
        frame = await page.wait(lambda f: f.get("type") == "table")
        assert frame["table"] == rec.id and frame["seat"] is None and frame["hand"] is None and frame["actions"] == []
        await page.close()
    # the same person as in the chat: platform telegram, the Telegram id as a string, the name and language
    launch = telegram_user(TOKEN, good)
    assert (launch.user.platform, launch.user.id, launch.user.name, launch.user.language) == (
        "telegram",
        "4242",
        "Anna K",
        "ru",
    )
    # the table may also come from the page's address (a web_app button opens /app/?t=<table>)
    status, body = await post_session(site.url, "tma " + init_data(ANNA), {"table": ticket})
    assert status == 200 and body["table"] == rec.id
    # a table number alone, or a pass signed by another bot, opens nothing: nobody watches a chat's game by counting
    other = tablepass.make(tablepass.key_of("654321:ANOTHER-bot-token"), rec.id)
    for guessed in (f"t{rec.id}", other, ticket[:-1] + ("A" if ticket[-1] != "A" else "B"), f"t{rec.id}-"):
        for how in ({"start_param": guessed}, {"body": {"table": guessed}}):
            data = init_data(ANNA, start_param=how.get("start_param"))
            status, body = await post_session(site.url, "tma " + data, how.get("body"))
            assert (status, body) == (404, {"error": "no_table"}), (guessed, how)

    tampered = good.replace("Anna", "Mallory")
    two_days_old = init_data(ANNA, auth_date=int(time.time()) - 2 * 24 * 3600, start_param=ticket)
    foreign = init_data(ANNA, token="654321:ANOTHER-bot-token", start_param=ticket)
    refused = {
        "tampered user": ("tma " + tampered, "bad_signature"),
        "another bot's token": ("tma " + foreign, "bad_signature"),
        "two days old": ("tma " + two_days_old, "expired"),
        "garbage": ("tma %%%=&&==;;", "bad_signature"),
        "empty": ("tma ", "empty"),
        "no header": (None, "no_init_data"),
        "another scheme": ("Bearer " + good, "no_init_data"),
    }
    for case, (header, code) in refused.items():
        status, body = await post_session(site.url, header)
        assert (status, body) == (401, {"error": code}), case
    assert await site.app.storage.user("telegram", "4242", "Anna K") is not None  # (created only now, by this line)


async def test_a_forged_or_missing_session_opens_nothing(site):
    await open_game(site.app, "den", person("Boris"), "kozel", 2)
    forged = Sessions(b"not the server's secret").issue(Session(person("Boris"), (), "den"))
    async with aiohttp.ClientSession() as http:
        for hello in ({"type": "hello", "session": forged}, {"type": "hello"}, {"type": "press", "payload": "a.1.1.x"}):
            ws = await http.ws_connect(site.url + "/app/ws")
            await ws.send_json(hello)
            first = await ws.receive_json()
            assert first["type"] == "error" and first["code"] == "no_session"
            closing = await ws.receive()
            assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            await ws.close()


async def test_each_socket_gets_only_its_own_hand_and_a_spectator_none(site):
    anna, boris = person("Anna"), person("Boris")
    rec = await open_game(site.app, "den", anna, "thousand", 3, people=(boris,))
    async with aiohttp.ClientSession() as http:
        pages = {
            name: await open_page(http, site.url, await session_for(http, site.url, name, "den"))
            for name in ("Anna", "Boris", "Chen")
        }
        # play a few moves from the pages so that several frames reach every socket
        for _ in range(4):
            for name in ("Anna", "Boris"):
                frame = await pages[name].wait(lambda f: f.get("type") == "table")
                frame = pages[name].last_table()
                if frame["your_turn"]:
                    passes = [a for a in frame["actions"] if a["type"] == "pass"] or frame["actions"]
                    answer = await pages[name].press(passes[0]["payload"])
                    assert answer["type"] == "answer"
                    await site.app.idle()
        await asyncio.sleep(0.2)
        state = (await site.app.live(await site.app.storage.table(rec.id))).state
        seats = {"Anna": 0, "Boris": 1}
        hands: dict[str, dict[int, set[str]]] = {}
        for name, page in pages.items():
            frames = page.tables()
            assert frames, name
            for f in frames:
                if name == "Chen":
                    assert f["seat"] is None and f["hand"] is None and f["actions"] == []
                    assert all("hand" not in i for i in f.get("actions", []))
                    continue
                assert f["seat"] == seats[name]
                hands.setdefault(name, {})[f["version"]] = {i["key"] for i in f["hand"]["items"]}
            if name != "Chen":  # the newest frame shows the seat's own hand as the game holds it
                assert hands[name][max(hands[name])] == set(state.view(seats[name])["hand"])
        for version in set(hands["Anna"]) & set(hands["Boris"]):  # never one card in both players' frames
            assert not hands["Anna"][version] & hands["Boris"][version]
        for name in seats:  # not one picture address of another player's hand
            raw = json.dumps(pages[name].frames)
            for other in [n for n in seats if n != name]:
                for f in pages[other].tables():
                    assert f["hand"]["picture"] not in raw
        for page in pages.values():
            await page.close()


async def test_a_press_from_a_page_is_checked_like_a_chat_button(site):
    anna, boris = person("Anna"), person("Boris")
    rec = await open_game(site.app, "den", anna, "kozel", 2, people=(boris,))
    async with aiohttp.ClientSession() as http:
        a = await open_page(http, site.url, await session_for(http, site.url, "Anna", "den"))
        b = await open_page(http, site.url, await session_for(http, site.url, "Boris", "den"))
        chen = await open_page(http, site.url, await session_for(http, site.url, "Chen", "den"))
        fa = await a.wait(lambda f: f.get("type") == "table")
        await b.wait(lambda f: f.get("type") == "table")
        mover, waiter = (a, b) if fa["your_turn"] else (b, a)
        frame = mover.last_table()
        version = frame["version"]
        legal = frame["actions"][0]["payload"]

        # a spectator pressing the player's own payload, a player out of turn, a stale version, a move of
        # another table, a malformed payload: a notice (or a refusal) each, and the table does not move
        assert (await chen.press(legal))["text"] == "You are not playing at this table."
        assert (await waiter.press(legal))["text"] in ("It is not your turn.", "That move is not allowed now.")
        code = legal.split(".", 3)[3]
        stale = f"a.{rec.id}.{version + 7}.{code}"  # not the version the table is at
        got = await mover.press(stale)
        assert got.get("text") == "This button is out of date: the game has moved on.", (got, stale, legal)
        other = f"a.{rec.id + 1}.{version}.{code}"
        refused = {"type": "answer", "req": mover.req + 1, "text": "This button is not valid.", "alert": True}
        assert (await mover.press(other)) == {**refused, "refused": "bad_button"}
        assert (await mover.press("a.x.y"))["text"] == "This button is not valid."
        held = {item["key"] for item in frame["hand"]["items"]}
        absent = next(tile for tile in reversed(TILES) if tile not in held)
        forged = f"a.{rec.id}.{version}.{Action(frame['seat'], 'play', tile=absent, end='left').code()}"
        assert (await mover.press(forged))["text"] == "That move is not allowed now."  # a tile he does not hold
        assert (await site.app.storage.table(rec.id)).version == version

        answer = await mover.press(legal)
        assert answer["type"] == "answer" and answer["text"] is None
        for page in (a, b, chen):
            await page.wait(lambda f: f.get("type") == "table" and f["version"] > version)
        for page in (a, b, chen):
            await page.close()


async def test_the_page_has_a_strict_content_security_policy_and_refuses_other_sites(site):
    async with aiohttp.ClientSession() as http:
        async with http.get(site.url + "/app/") as res:
            assert res.status == 200 and "text/html" in res.headers["Content-Type"]
            csp = res.headers["Content-Security-Policy"]
            assert "default-src 'none'" in csp and "script-src 'self' https://telegram.org" in csp
            assert "'unsafe-inline'" not in csp
        async with http.get(site.url + "/app/static/table.js") as res:
            assert res.status == 200 and "javascript" in res.headers["Content-Type"]
        async with http.get(site.url + "/app/static/../auth.py") as res:
            assert res.status == 404
        async with http.get(site.url + "/app/pic/not-a-token") as res:
            assert res.status == 403 and (await res.json())["error"] == "bad_signature"
        with pytest.raises(aiohttp.WSServerHandshakeError) as e:
            await http.ws_connect(site.url + "/app/ws", headers={"Origin": "https://evil.example"})
        assert e.value.status == 403
        async with http.post(
            site.url + "/app/api/session", headers={"Authorization": "playground", "Origin": "https://evil.example"}
        ) as res:
            assert res.status == 403


@pytest.mark.parametrize("how", ["polling the database", "Redis pub/sub"])
async def test_a_move_stored_by_another_worker_reaches_an_open_page(tmp_path: Path, how: str):
    first = await new_app(tmp_path)
    second = await create_application(settings_for(tmp_path))
    # with Redis the poll is too slow to be what delivers the move within the wait below
    poll, redis_url = (0.05, None) if how.startswith("polling") else (3600.0, REDIS_URL)
    site = await serve_webapp(first, poll_interval=poll, redis_url=redis_url)
    other = await serve_webapp(second, poll_interval=poll, redis_url=redis_url)
    await asyncio.sleep(0.2)  # both workers subscribed
    try:
        anna = person("Anna")
        rec = await open_game(first, "den", anna, "kozel", 2, people=(person("Boris"),))
        async with aiohttp.ClientSession() as http:
            page = await open_page(http, site.url, await session_for(http, site.url, "Chen", "den"))
            frame = await page.wait(lambda f: f.get("type") == "table")
            fresh = await second.storage.table(rec.id)
            live = await second.live(fresh)
            seat = live.state.to_act
            user = fresh.seats[seat].user
            action = live.state.legal_actions(seat)[0]
            payload = f"a.{rec.id}.{fresh.version}.{action.code()}"
            await second.press(Press(second.ctx.user_value(user), Chat("playground", "den", title="den"), payload))
            moved = await page.wait(lambda f: f.get("type") == "table" and f["version"] > frame["version"])
            assert moved["version"] == fresh.version + 1
            await page.close()
    finally:
        await other.close()
        await site.close()
        await second.close()
        await first.close()


@pytest.mark.parametrize(
    "game,players,moment", [("thousand", 3, "play"), ("kozel", 2, "start"), ("deberts", 2, "play")]
)
def test_the_rectangles_of_the_hand_are_the_cards_in_the_hand_picture(game, players, moment):
    state = find(game, players, only=(moment,))[moment]
    view = state.view(state.to_act)
    picture = hand_image(view)
    boxes = hand_boxes(view)
    assert len(boxes) == len(view["hand"])
    lefts = [b[0] for _, b in boxes]
    assert lefts == sorted(lefts)
    for (_, (x0, y0, x1, y1)), (_, nxt) in zip(boxes, boxes[1:] + [(None, (10**6, 0, 0, 0))]):
        assert 0 <= x0 < x1 <= picture.width and 0 <= y0 < y1 <= picture.height
        assert x1 <= nxt[0]  # a card's visible part ends where the next begins
    # the middle of every box is a card or tile, not the felt around it
    felt = picture.getpixel((2, 2))
    for _, (x0, y0, x1, y1) in boxes:
        assert picture.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)) != felt


async def test_a_frame_drawn_before_a_newer_one_went_out_is_not_sent_after_it(site, monkeypatch):
    """Two refreshes of one page can race (a poll drawing the old table while the move's own refresh sends the
    new one): the older frame must not follow the newer one and roll the page back (it made a round's sheet show
    again over the next turn)."""
    from bot.webapp import hub as hub_module
    from bot.webapp.server import WEBTABLE_KEY

    anna, boris = person("Anna"), person("Boris")
    rec = await open_game(site.app, "den", anna, "kozel", 2, people=(boris,))
    hub = site.runner.app[WEBTABLE_KEY].hub
    async with aiohttp.ClientSession() as http:
        a = await open_page(http, site.url, await session_for(http, site.url, "Anna", "den"))
        b = await open_page(http, site.url, await session_for(http, site.url, "Boris", "den"))
        fa = await a.wait(lambda f: f.get("type") == "table")
        await b.wait(lambda f: f.get("type") == "table")
        old = await site.app.storage.table(rec.id)
        watcher = next(w for w in hub.watchers if w.user.name == "Anna")
        build, held, drawn = hub_module.seatview.build, asyncio.Event(), asyncio.Event()

        async def slow_build(**kw):
            frame = await build(**kw)
            if kw["rec"].version == old.version and kw["seat"] == watcher.seat:
                drawn.set()
                await held.wait()  # drawn from the old table; the move's refresh overtakes it
            return frame

        monkeypatch.setattr(hub_module.seatview, "build", slow_build)
        late = asyncio.create_task(hub.refresh(watcher, force=True, known=old))
        await asyncio.wait_for(drawn.wait(), 10)
        mover = a if fa["your_turn"] else b
        answer = await mover.press(mover.last_table()["actions"][0]["payload"])
        assert answer["type"] == "answer"
        await a.wait(lambda f: f.get("type") == "table" and f["version"] > old.version)
        held.set()
        await late
        await asyncio.sleep(0.3)  # what the late refresh would send has arrived by now
        versions = [f["version"] for f in a.tables()]
        newer = next(i for i, v in enumerate(versions) if v > old.version)
        assert all(v > old.version for v in versions[newer:]), versions  # never rolled back
        for page in (a, b):
            await page.close()


# ------------------------------------------------------------------------------------------------------------
# No question with one possible answer (issue 32 point 5): a Kozel tile whose two ends lead to the same game (the
# round's first tile, or both ends showing one number) is one choice on the page, as on the chat's keyboard; the
# core's legal actions keep both ends.


async def test_the_first_tile_of_a_round_is_one_choice_on_the_page(site):
    rec = await open_game(site.app, "den", person("Anna"), "kozel", 2, people=(person("Boris"),))
    state = (await site.app.live(rec)).state
    mover = state.view(None)["to_act"]
    legal = [Action.from_json(a) for a in state.view(mover)["legal"]]
    assert {a.end for a in legal} == {"left", "right"} and len({a.tile for a in legal}) == 1  # the core: both ends
    async with aiohttp.ClientSession() as http:
        page = await open_page(http, site.url, await session_for(http, site.url, ("Anna", "Boris")[mover], "den"))
        frame = await page.wait(lambda f: f.get("type") == "table" and f["your_turn"])
        plays = [a for a in frame["actions"] if a["type"] == "play"]
        assert len(plays) == 1
        assert "end" not in plays[0]["label"] and plays[0]["label"] == legal[0].tile.replace("-", "|")
        answer = await page.press(plays[0]["payload"])
        assert answer["type"] == "answer" and answer["text"] is None  # the one choice plays the tile
        await page.wait(lambda f: f.get("type") == "table" and f["version"] > frame["version"])
        await page.close()


def test_equal_ends_offer_a_tile_once_and_different_ends_ask_which():
    both = [Action(0, "play", tile="3-5", end="left"), Action(0, "play", tile="3-5", end="right")]
    legal = [a.to_json() for a in both]
    same = {"game": "kozel", "seat": 0, "hand": ["3-5", "0-1"], "ends": {"left": 5, "right": 5}, "legal": legal}
    assert [a.end for a in offered(same, both)] == ["left"]
    differ = dict(same, ends={"left": 5, "right": 3})
    assert [a.end for a in offered(differ, both)] == ["left", "right"]
