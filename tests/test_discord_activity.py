"""The web table as a Discord Activity, in Chromium at 390×844: a fake Discord client frame (a page that hosts the
Activity in an iframe and answers the Embedded App SDK's messages as the Discord client does: the handshake's READY,
AUTHORIZE with a code, AUTHENTICATE) over the fake Discord's REST (the code exchange, the user, the instance) and
the real application with the Discord adapter. Two people in one instance play a Kozel round by tapping; a third is
a spectator; a forged instance, a forged code, a user not in the instance and a page claiming another channel are
refused. The table's "Open the table" launches the Activity, and the entry-point command is synced."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp import ClientSession, web
from PIL import Image
from playwright.async_api import Browser, Page, expect

from bot.app import create_application
from bot.config import Settings
from bot.webapp import install
from bot.webapp.activity import DiscordActivity
from testkit.discord_support import running
from testkit.fake_discord import APPLICATION_ID, CHANNEL_ID, GUILD_ID, OTHER_CHANNEL_ID, FakeDiscord, FakeUser
from tests.browser_support import chromium

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.usefixtures("fast_taps")]

ANN = FakeUser(951_001, "ann")
BOB = FakeUser(951_002, "bob", locale="ru")
CARL = FakeUser(951_003, "carl")
DAVE = FakeUser(951_004, "dave")
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
SHOTS = Path(__file__).resolve().parent.parent / ".screenshots"
ACTIVITY_URL = "https://cards.example.org"

# The Discord client around an Activity: it frames the page with the query Discord adds and answers the SDK's
# RPC frames (postMessage [opcode, payload]); CONFIG names the code it hands out and the user it authenticates.
HOST = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>html,body{margin:0;height:100%}iframe{border:0;width:100%;height:100%;display:block}</style></head>
<body><iframe id="activity" allow="autoplay"></iframe><script>
const CONFIG = __CONFIG__;
window.__rpc = [];
const frame = document.getElementById("activity");
const reply = (payload) => frame.contentWindow.postMessage([1, payload], "*");
window.addEventListener("message", (event) => {
  if (event.source !== frame.contentWindow || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  if (opcode === 0) {
    window.__rpc.push(["HANDSHAKE", payload.client_id, payload.frame_id]);
    reply({ cmd: "DISPATCH", evt: "READY", nonce: null,
      data: { v: 1, config: { api_endpoint: "//discord.com/api", environment: "production" } } });
    return;
  }
  if (opcode !== 1) return;
  window.__rpc.push([payload.cmd]);
  let data = null;
  if (payload.cmd === "AUTHORIZE") data = { code: CONFIG.code };
  if (payload.cmd === "AUTHENTICATE") data = {
    access_token: payload.args.access_token, scopes: ["identify"], expires: "2030-01-01T00:00:00.000Z",
    user: { id: CONFIG.user.id, username: CONFIG.user.name, discriminator: "0", avatar: null, public_flags: 0 },
    application: { id: CONFIG.client_id, name: "tablebot", description: "", icon: null },
  };
  reply({ cmd: payload.cmd, evt: null, nonce: payload.nonce, data });
});
frame.src = CONFIG.src;
</script></body></html>"""


def settings(path: Path) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        database_url=f"sqlite+aiosqlite:///{path}",
        data_dir=path.parent,
        computer_pause=0,
        round_pause=0,
        tick_interval=0,
        discord_bot_token="fake-token",
        discord_client_id=str(APPLICATION_ID),
        discord_client_secret="fake-client-secret",
        discord_activity_url=ACTIVITY_URL,
    )


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with chromium() as b:
        yield b


@pytest_asyncio.fixture(loop_scope="module")
async def world(tmp_path: Path):
    """The application with the Discord adapter (the Activity on) over the fake Discord, and the web table's server
    with the Activity's sign-in, on 127.0.0.1. Yields (fake, run, url)."""
    async with FakeDiscord() as fake:
        conf = settings(tmp_path / "games.sqlite3")
        app = await create_application(conf)
        web_app = web.Application()
        install(
            web_app,
            app,
            activity=DiscordActivity(str(APPLICATION_ID), fake.client_secret, fake.token, fake.base),
        )
        runner = web.AppRunner(web_app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        try:
            async with running(fake, app, activity=True) as run:
                run.idle = app.idle
                await app.start()
                yield fake, run, f"http://127.0.0.1:{runner.addresses[0][1]}"
        finally:
            await runner.cleanup()
            await app.close()


def newest_with(fake: FakeDiscord, label: str):
    for msg in sorted(fake.channel_messages(), key=lambda m: -m.id):
        if any(label in (b.get("label") or "") for b in msg.buttons()):
            return msg
    raise AssertionError(f"no message with {label!r}")


async def press(fake: FakeDiscord, run, user: FakeUser, label: str):
    """``user`` presses the button whose label holds ``label`` on the newest channel message that has one."""
    msg = newest_with(fake, label)
    custom_id = next(b["custom_id"] for b in msg.buttons() if label in (b.get("label") or ""))
    rec = await fake.click(user, msg, custom_id)
    await run.settle(rec)
    return rec


async def kozel_for_ann_and_bob(fake: FakeDiscord, run) -> None:
    """Ann opens a Kozel for two in the channel, Bob joins, Ann starts: through slash commands and buttons."""
    await run.settle(await fake.slash(ANN, "new", {"game": "kozel", "players": 2}))
    await press(fake, run, BOB, "Join")
    await press(fake, run, ANN, "Start")


async def activity_page(browser: Browser, url: str, fake: FakeDiscord, user: FakeUser, instance: str) -> Page:
    """``user``'s Activity, as the Discord client frames it: the page at the root of the URL mapping with the
    query Discord adds; the host is served on the page's own origin (the SDK trusts its own origin)."""
    context = await browser.new_context(**PHONE)
    page = await context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    await page.route("https://telegram.org/**", lambda route: route.abort())  # Discord allows no other origin
    query = f"instance_id={instance}&frame_id=f-{user.id}&platform=mobile&guild_id={GUILD_ID}&channel_id={CHANNEL_ID}"
    config = {
        "code": fake.grant(user),
        "user": {"id": str(user.id), "name": user.name},
        "src": f"/?{query}",
        "client_id": str(APPLICATION_ID),
    }
    body = HOST.replace("__CONFIG__", json.dumps(config))
    await page.route(f"{url}/discord-client", lambda route: route.fulfill(body=body, content_type="text/html"))
    await page.goto(f"{url}/discord-client")
    return page


def activity(page: Page):
    return page.frame_locator("#activity")


async def tap(page: Page, locator) -> None:
    await locator.tap()


async def mine(frame) -> bool:
    return await frame.locator("#table").get_attribute("data-turn") == "mine"


async def test_two_people_play_a_kozel_round_in_one_instance_and_a_third_watches(world, browser):
    fake, run, url = world
    await kozel_for_ann_and_bob(fake, run)
    # the entry-point command is synced beside the slash commands; "Open the table" launches the Activity
    assert [c for c in fake.commands if c.get("type") == 4] == [
        dict(next(c for c in fake.commands if c.get("type") == 4), name="launch", handler=2)
    ]
    launch = await press(fake, run, CARL, "Open the table")
    assert launch.callback_type == 12  # LAUNCH_ACTIVITY

    instance = fake.open_activity(CHANNEL_ID, [ANN, BOB, CARL])
    pages = {u.name: await activity_page(browser, url, fake, u, instance) for u in (ANN, BOB, CARL)}
    for name in ("ann", "bob"):
        await expect(activity(pages[name]).locator("#table .wt-hand-pic")).to_be_visible(timeout=20000)
    spectator = activity(pages["carl"])
    await expect(spectator.locator("#table .wt-pic")).to_be_visible(timeout=20000)
    assert await spectator.locator("#table .wt-hand-pic").is_hidden()
    rpc = await pages["ann"].evaluate("() => window.__rpc")
    assert rpc[:3] == [["HANDSHAKE", str(APPLICATION_ID), f"f-{ANN.id}"], ["AUTHORIZE"], ["AUTHENTICATE"]]
    assert await activity(pages["bob"]).locator(".wt-prompt, .wt-status").first.text_content() is not None

    # a round by tapping, whoever's turn it is, until the round's sheet shows on both players' pages
    frames = [activity(pages["ann"]), activity(pages["bob"])]
    taps = 0
    for _ in range(120):
        if all([await f.locator("#table .wt-sheet").is_visible() for f in frames]):
            break
        turn = [f for f in frames if await mine(f) and not await f.locator("#table .wt-sheet").is_visible()]
        if not turn:
            await pages["ann"].wait_for_timeout(100)
            continue
        f = turn[0]
        before = await f.locator("#table").get_attribute("data-version")
        page = pages["ann"] if f is frames[0] else pages["bob"]
        hit = f.locator("#table .wt-hit.playable")
        offered = f.locator("#table .wt-choices button[data-payload]")
        await expect(hit.or_(offered).first).to_be_attached()
        await tap(page, hit.first if await hit.count() else offered.first)
        if await f.locator("#table .wt-choices .wt-ask").count():
            await tap(page, offered.first)
        await expect(f.locator("#table")).not_to_have_attribute("data-version", before or "", timeout=20000)
        taps += 1
        if taps == 3:
            await pages["ann"].screenshot(path=str(SHOTS / "activity-phone.png"))
    else:
        raise AssertionError("no round's sheet after 120 looks")
    assert taps >= 6
    await expect(spectator.locator("#table .wt-sheet")).to_be_visible()
    with Image.open(SHOTS / "activity-phone.png") as shot:
        assert shot.size == (780, 1688)
    for page in pages.values():
        assert page.errors == []
        await page.context.close()


async def test_forged_instances_codes_strangers_and_other_channels_are_refused(world):
    fake, _run, url = world
    instance = fake.open_activity(CHANNEL_ID, [ANN, BOB])
    cases = [
        ({"code": fake.grant(ANN), "instance_id": "i-forged"}, 404, "no_instance"),
        ({"code": "code-forged", "instance_id": instance}, 401, "bad_code"),
        ({"code": fake.grant(DAVE), "instance_id": instance}, 403, "not_in_instance"),
        ({"code": fake.grant(ANN), "instance_id": instance, "channel_id": str(OTHER_CHANNEL_ID)}, 403, "wrong_channel"),
        ({"code": "x y", "instance_id": instance}, 400, "bad_code"),
        ({"code": fake.grant(ANN), "instance_id": "../../users/@me"}, 400, "bad_instance"),
    ]
    async with ClientSession() as http:
        for body, status, code in cases:
            res = await http.post(f"{url}/app/api/activity", json=body)
            assert (res.status, await res.json()) == (status, {"error": code}), body
        res = await http.post(f"{url}/app/api/activity", json={"code": fake.grant(ANN), "instance_id": instance})
        got = await res.json()
        assert res.status == 200 and got["channel"] == str(CHANNEL_ID) and got["access_token"].startswith("tok-")
        cross = await http.post(
            f"{url}/app/api/activity",
            json={"code": "c", "instance_id": instance},
            headers={"Origin": "https://evil.example"},
        )
        assert cross.status == 403
        page = await http.get(f"{url}/?frame_id=f&instance_id={instance}", allow_redirects=False)
        assert page.status == 302 and page.headers["Location"] == f"/app/?frame_id=f&instance_id={instance}"
        html = await http.get(f"{url}/app/")
        assert (
            "https://discord.com https://*.discord.com https://*.discordsays.com"
            in html.headers["Content-Security-Policy"]
        )
        assert (await http.get(f"{url}/app/static/discord-sdk.js")).status == 200
    with contextlib.suppress(KeyError):
        fake.codes.clear()
