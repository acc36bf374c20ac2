"""Hostile input gets a clear 4xx or a notice, never a traceback and a 500 (issue 33, finding 4): table passes with
Unicode digits, a malformed webhook body, a seat count in other digits; and what a worker keeps for itself: ids
that differ between containers (every one is pid 1) and a bounded, expiring memory of handled updates."""

from __future__ import annotations

import aiohttp

from bot import tablepass
from bot.telegram import coordination
from bot.telegram import flood as flood_module
from bot.telegram import runner as runner_module
from bot.telegram import webhook as webhook_module
from bot.telegram.coordination import DONE, MINE, LocalCoordinator
from bot.telegram.flood import FloodControl
from bot.telegram.runner import TelegramRunner, webhook_secret
from bot.telegram.webhook import WebhookHandler
from testkit.fake_bot_api import TOKEN, FakeBotAPI
from tests.app_support import make_world
from tests.telegram_support import RecordingApp, settings_for, webhook_worker
from tests.test_webapp_server import ANNA, post_session, site  # noqa: F401 - the fixture
from tests.webapp_support import init_data, open_game, person

HOSTILE_PASSES = ["t²", "t١٢", "t𝟙𝟚", "t¹-abc", "t" + "9" * 11, "t", "t-", "t1-" + "x" * 70, "T1", "t 1", "t1\x00"]


def test_a_pass_in_other_digits_or_malformed_opens_nothing():
    key = tablepass.key_of(TOKEN)
    for text in HOSTILE_PASSES:
        assert tablepass.check(key, text) is None, text
        assert tablepass.check(None, text) is None, text


async def test_the_web_table_answers_a_malformed_pass_with_a_4xx(site):  # noqa: F811
    await open_game(site.app, "den", person("Boris"), "kozel", 2)
    for text in HOSTILE_PASSES:
        for how in ({"start_param": text}, {"body": {"table": text}}):
            data = init_data(ANNA, start_param=how.get("start_param"))
            status, body = await post_session(site.url, "tma " + data, how.get("body"))
            assert 400 <= status < 500 and body["error"] == "no_table", (text, how, status)


async def test_a_seat_count_in_other_digits_opens_the_lobby_for_the_default_count(tmp_path):
    world = await make_world(tmp_path / "bot.sqlite3")
    try:
        await world.user("Ann").say(world.chat, "new", "kozel ²")
        assert any(b.payload.startswith("j.") for b in world.lobby().buttons())
    finally:
        await world.app.close()


async def test_a_malformed_webhook_body_is_a_400_not_a_500():
    async with webhook_worker() as (api, _, address), aiohttp.ClientSession() as http:
        secret = webhook_secret(settings_for(api), TOKEN)
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret, "Content-Type": "application/json"}
        for body in (b"{not json", b"\xff\xfe", b"", b"[1, 2]", b'{"update_id": "7"}', b"null"):
            async with http.post(address, data=body, headers=headers) as res:
                assert res.status == 400, body
        async with http.post(address, data=b"{}", headers={}) as res:
            assert res.status == 401  # no secret: refused before the body is read
        hello = {"message_id": 1, "date": 0, "chat": {"id": 7, "type": "private"}, "text": "hello"}
        async with http.post(address, json={"update_id": 5, "message": hello}, headers=headers) as res:
            assert res.status == 200  # a well-formed update still goes through


def test_two_workers_with_the_same_pid_have_different_ids(monkeypatch):
    # two containers: each process is pid 1, and the same start-up puts the same objects at the same addresses
    monkeypatch.setattr("os.getpid", lambda: 1)
    for module in (runner_module, webhook_module, flood_module):
        monkeypatch.setattr(module, "id", lambda obj: 140000000000000, raising=False)
    settings = settings_for(FakeBotAPI())
    runners = [TelegramRunner(RecordingApp(), settings) for _ in range(2)]
    coordinator = LocalCoordinator()
    handlers = [WebhookHandler(r.dp, r.bot, port=r.port, coordinator=coordinator, secret_token="s") for r in runners]
    floods = [FloodControl(coordinator) for _ in range(2)]
    assert runners[0].me != runners[1].me and handlers[0].me != handlers[1].me and floods[0]._me != floods[1]._me


async def test_the_memory_of_handled_updates_is_bounded_and_expires(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(coordination.time, "monotonic", lambda: now[0])
    local = LocalCoordinator()
    for n in range(coordination.DONE_LIMIT + 500):
        assert await local.claim(f"update:{n}", "w", 15) == MINE
        await local.finish(f"update:{n}")
    assert len(local._done) == coordination.DONE_LIMIT  # the oldest handled ones were forgotten
    newest = f"update:{coordination.DONE_LIMIT + 499}"
    assert await local.claim(newest, "w2", 15) == DONE
    now[0] += coordination.LOCAL_DONE_KEEP + 1
    assert await local.claim("update:x", "w", 15) == MINE  # one more claim sweeps what expired
    assert await local.claim(newest, "w2", 15) == MINE and not local._done
