"""The web table as a Telegram Mini App game screen, in Chromium at 390×844 with a fake ``Telegram.WebApp`` object
in the page (the real ``telegram-web-app.js`` is replaced by a recorder): full screen asked for on a phone, the
safe areas kept clear, vertical swipes off, haptics on my turn and on a refused tap, the Back button closing the
round's sheet, and **Invite** sharing a message the (fake) Bot API prepared with the table's link. An older client
and a plain browser get the page without any of these calls failing it. Over the real application, the Telegram
adapter and the fake Bot API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import pytest_asyncio
from aiohttp import ClientSession, web
from PIL import Image
from playwright.async_api import Page, expect

from bot import tablepass
from bot.webapp import install
from testkit.fake_bot_api import TOKEN, FakeBotAPI
from testkit.telegram_players import Player
from tests.browser_support import chromium
from tests.telegram_bot_support import LiveBot
from tests.telegram_support import KITCHEN
from tests.webapp_support import init_data

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.usefixtures("fast_taps")]

BASE = "https://cards.example.org"
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
SHOTS = Path(__file__).resolve().parent.parent / ".screenshots"
TELEGRAM_JS = "https://telegram.org/js/telegram-web-app.js"

# A stand-in for telegram-web-app.js: the Web App object of a client of `version` on `platform`, recording every
# call in window.__tg. Methods a client of that version lacks are absent, as in a real older client.
FAKE_WEBAPP = """
(() => {
  const cfg = %s;
  const calls = (window.__tg = []);
  const rec = (name) => (...args) => { calls.push([name, ...args.filter((a) => typeof a !== "function")]); };
  const newer = (v) => cfg.version.split(".").map(Number) >= v.split(".").map(Number)
    && Number(cfg.version.split(".")[0]) * 100 + Number(cfg.version.split(".")[1]) >=
       Number(v.split(".")[0]) * 100 + Number(v.split(".")[1]);
  const app = {
    initData: cfg.initData, initDataUnsafe: { start_param: cfg.startParam }, version: cfg.version,
    platform: cfg.platform, themeParams: {},
    isVersionAtLeast: newer,
    ready: rec("ready"), expand: rec("expand"),
    onEvent: (name) => calls.push(["onEvent", name]),
  };
  if (newer("6.1")) {
    app.HapticFeedback = { notificationOccurred: rec("haptic"), impactOccurred: rec("impact") };
    app.BackButton = { show: rec("back.show"), hide: rec("back.hide"), onClick: (cb) => { window.__back = cb; } };
  }
  if (newer("7.7")) app.disableVerticalSwipes = rec("disableVerticalSwipes");
  if (newer("8.0")) {
    app.requestFullscreen = rec("requestFullscreen");
    app.shareMessage = rec("shareMessage");
    app.safeAreaInset = { top: 47, bottom: 34, left: 0, right: 0 };
    app.contentSafeAreaInset = { top: 46, bottom: 0, left: 0, right: 0 };
  }
  window.Telegram = { WebApp: app };
})();
"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    async with chromium() as b:
        yield b


@pytest_asyncio.fixture(loop_scope="module")
async def game(tmp_path: Path):
    """Ann's Kozel for two against the computer in the group, opened with the chat's buttons; the web table's
    server over the same application on 127.0.0.1. Yields (api, url, table pass, ann)."""
    api = FakeBotAPI()
    await api.start()
    api.add_group(KITCHEN, "Kitchen")
    bot = await LiveBot(api, tmp_path / "bot.sqlite3", webapp_url=BASE, telegram_webapp_name="table").start()
    web_app = web.Application()
    install(web_app, bot.app, bot_token=TOKEN)
    runner = web.AppRunner(web_app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    url = f"http://127.0.0.1:{runner.addresses[0][1]}"
    try:
        ann = Player(api, api.add_user(11, "Ann"), bot.settle)
        await ann.say(KITCHEN, "/new kozel 2")
        for label in ("🤖", "Start"):
            lobby = next(s for s in reversed(api.visible(KITCHEN)) if any("Start" in b["text"] for b in s.buttons()))
            await ann.press_label(lobby, label)
        await bot.settle()
        yield api, url, tablepass.make(tablepass.key_of(TOKEN), 1), ann
    finally:
        await runner.cleanup()
        await bot.stop()
        await api.stop()


async def mini_app(browser, url: str, ticket: str, *, version: str | None, platform: str = "ios") -> Page:
    """The page as Telegram opens it for Ann: initData signed by the bot's token, the table's pass as the start
    parameter; ``version`` None is a plain browser (no Web App object; initData in the address's hash)."""
    context = await browser.new_context(**PHONE)
    page = await context.new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    data = init_data({"id": 11, "first_name": "Ann", "language_code": "en"}, token=TOKEN, start_param=ticket)
    if version is None:
        await page.route(TELEGRAM_JS, lambda route: route.abort())
        await page.goto(f"{url}/app/?t={ticket}#tgWebAppData={data.replace('&', '%26').replace('=', '%3D')}")
    else:
        cfg = {"initData": data, "startParam": ticket, "version": version, "platform": platform}
        body = FAKE_WEBAPP % json.dumps(cfg)
        await page.route(TELEGRAM_JS, lambda route: route.fulfill(body=body, content_type="text/javascript"))
        await page.goto(f"{url}/app/")
    await expect(page.locator("#table .wt-hand-pic")).to_be_visible(timeout=20000)
    return page


async def calls(page: Page) -> list[list]:
    return await page.evaluate("() => window.__tg")


async def shoot(page: Page, name: str) -> None:
    """A phone screenshot kept in .screenshots/ (looked at by people), decoded to check it is a picture."""
    SHOTS.mkdir(exist_ok=True)
    await page.screenshot(path=str(SHOTS / name))
    with Image.open(SHOTS / name) as picture:
        assert picture.size == (780, 1688)


async def saw(page: Page, call: list) -> None:
    """Wait until the Web App object was called so (name and arguments)."""
    await page.wait_for_function(
        "c => window.__tg.some(x => JSON.stringify(x) === JSON.stringify(c))", arg=call, timeout=20000
    )


async def tap(page: Page, locator) -> None:
    await locator.tap()


async def play_until_sheet(page: Page) -> None:
    """Tap playable tiles (and the first end offered) until the round's sheet shows."""
    root = page.locator("#table")
    for _ in range(80):
        await page.wait_for_function(
            "() => { const r = document.querySelector('#table'); const s = r.querySelector('.wt-sheet');"
            " return (s && !s.hidden) || (r.dataset.turn === 'mine' && !r.classList.contains('busy')); }",
            timeout=30000,
        )
        if await page.locator("#table .wt-sheet").is_visible():
            return
        before = await root.get_attribute("data-version")
        hit = page.locator("#table .wt-hit.playable")
        offered = page.locator("#table .wt-choices button[data-payload]")
        await expect(hit.or_(offered).first).to_be_attached()
        if await hit.count():
            await tap(page, hit.first)
            if await page.locator("#table .wt-choices .wt-ask").count():
                await tap(page, offered.first)
        else:
            await tap(page, offered.first)
        await page.wait_for_function(
            "v => { const r = document.querySelector('#table'); const s = r.querySelector('.wt-sheet');"
            " return r.dataset.version !== v || (s && !s.hidden); }",
            arg=before,
            timeout=20000,
        )
    raise AssertionError("no round's sheet after 80 taps")


async def test_a_full_screen_game_with_haptics_back_button_and_invite(game, browser):
    api, url, ticket, _ann = game
    page = await mini_app(browser, url, ticket, version="8.0")
    seen = await calls(page)
    assert ["requestFullscreen"] in seen and ["disableVerticalSwipes"] in seen
    assert ["onEvent", "safeAreaChanged"] in seen and ["onEvent", "contentSafeAreaChanged"] in seen
    # the notch and Telegram's own buttons in full screen stay clear: 47 + 46 px above, 34 px below
    padding = await page.evaluate(
        "() => { const s = getComputedStyle(document.querySelector('#table'));"
        " return [s.paddingTop, s.paddingBottom]; }"
    )
    assert padding == ["93px", "34px"]

    # my turn: a success buzz; a tile that does not fit: an error buzz (and the page says why)
    await page.wait_for_function("() => document.querySelector('#table').dataset.turn === 'mine'", timeout=20000)
    await saw(page, ["haptic", "success"])
    dead = page.locator("#table .wt-hit:not(.playable)")
    if await dead.count():
        await tap(page, dead.first)
        await expect(page.locator("#table .wt-note.why").last).to_be_visible()
        await saw(page, ["haptic", "error"])
    await shoot(page, "miniapp-fullscreen-phone.png")

    # Invite: the bot prepares a message with the table's direct link, the page opens Telegram's share dialog
    await tap(page, page.locator("#table .wt-invite"))
    await saw(page, ["shareMessage", "prep1"])
    prepared = api.prepared["prep1"]
    assert prepared["user_id"] == 11
    assert prepared["result"]["input_message_content"]["message_text"] == (
        "Ann invites you to a game of Kozel: open the table and take a seat."
    )
    buttons = [b for row in prepared["result"]["reply_markup"]["inline_keyboard"] for b in row]
    assert buttons == [{"text": "🃏 Open the table", "url": f"https://t.me/{api.username}/table?startapp={ticket}"}]

    # the round's sheet: the Back button shows, and pressing it closes the sheet
    await play_until_sheet(page)
    await saw(page, ["back.show"])
    await shoot(page, "miniapp-sheet-phone.png")
    await page.evaluate("() => window.__back()")
    await expect(page.locator("#table .wt-sheet")).to_be_hidden()
    await saw(page, ["back.hide"])
    assert page.errors == []
    await page.context.close()


@pytest.mark.parametrize("client", ["Telegram 6.0", "a plain browser"])
async def test_an_older_client_and_a_plain_browser_play_without_the_new_calls(game, browser, client):
    _api, url, ticket, _ann = game
    page = await mini_app(browser, url, ticket, version="6.0" if client.startswith("Telegram") else None)
    await page.wait_for_function("() => document.querySelector('#table').dataset.turn === 'mine'", timeout=20000)
    before = await page.locator("#table").get_attribute("data-version")
    hit = page.locator("#table .wt-hit.playable")
    await tap(page, hit.first)
    if await page.locator("#table .wt-choices .wt-ask").count():
        await tap(page, page.locator("#table .wt-choices button[data-payload]").first)
    await page.wait_for_function(
        "v => document.querySelector('#table').dataset.version !== v", arg=before, timeout=20000
    )
    assert await page.locator("#table .wt-invite").count() == 0  # no share dialog to open
    if client.startswith("Telegram"):
        names = {c[0] for c in await calls(page)}
        assert {"ready", "expand"} <= names
        assert not names & {"requestFullscreen", "disableVerticalSwipes", "haptic", "shareMessage"}
    assert page.errors == []
    await page.context.close()


async def test_the_invite_endpoint_refuses_a_forged_session_and_a_platform_that_cannot_share(game):
    _api, url, ticket, _ann = game
    async with ClientSession() as http:
        forged = await http.post(f"{url}/app/api/invite", headers={"Authorization": "session x.y"})
        assert forged.status == 401 and (await forged.json()) == {"error": "no_session"}
        none = await http.post(f"{url}/app/api/invite")
        assert none.status == 401
        cross = await http.post(
            f"{url}/app/api/invite", headers={"Authorization": "session x.y", "Origin": "https://evil.example"}
        )
        assert cross.status == 403
        data = init_data({"id": 11, "first_name": "Ann"}, token=TOKEN, start_param=ticket)
        got = await http.post(f"{url}/app/api/session", headers={"Authorization": f"tma {data}"}, json={})
        token = (await got.json())["session"]
        ok = await http.post(f"{url}/app/api/invite", headers={"Authorization": f"session {token}"})
        assert ok.status == 200 and (await ok.json())["id"].startswith("prep")
