"""The web table in a real browser (Debian's Chromium) over the real application, through the playground
page: on a phone (390×844, touch) and a desktop (1280×800). Games are opened with the start panel and played
only by tapping the cards and tiles themselves (and the large buttons for bids and other choices)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Page, expect

from tests.browser_support import chromium, screenshot
from tests.webapp_support import serve_playground

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.usefixtures("fast_taps")]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
SHOTS = Path(__file__).resolve().parent.parent / ".screenshots"

# the page is ready for the next tap: my turn and nothing in flight, a result to dismiss, or the game's end
READY = """() => {
  const r = document.querySelector('#webtable');
  if (!r || !r.dataset.table) return false;
  const sheet = r.querySelector('.wt-sheet');
  if (sheet && !sheet.hidden) return true;
  if (r.dataset.finished === 'yes') return true;
  return r.dataset.turn === 'mine' && !r.classList.contains('busy');
}"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    async with chromium() as b:
        yield b


@pytest_asyncio.fixture(loop_scope="module")
async def site(tmp_path: Path):
    # no pause after a round: these tests play whole games (the pause has its own tests, test_app_rounds and
    # test_playground_rounds); the web table's sheet card still shows at each round's end
    served = await serve_playground(tmp_path)  # as python -m bot serves the playground
    yield served.app, served.url
    await served.close()
    await served.app.close()


async def new_page(browser: Browser, device: dict) -> Page:
    context = await browser.new_context(**device)
    return await context.new_page()


async def open_table(page: Page, url: str, game: str, seats: int, room: str, name: str = "Anna", people=0) -> None:
    """The start panel (in its tab on a phone): the game, the seats, computers beside me, and go."""
    await page.goto(f"{url}?name={name}&lang=en#{room}")
    await expect(page.locator("#status")).to_have_text("connected")
    if await page.locator("#tabs").is_visible():
        await page.locator("#tabs [data-tab=start]").click()
    await page.select_option("#game", game)
    await page.select_option("#seats", str(seats))
    for seat in range(2, seats + 1):
        await page.select_option(f"[name=seat{seat}]", "person" if seat <= 1 + people else "easy")
    await page.locator("#start-button").click()


async def tap(page: Page, locator) -> None:
    if await page.evaluate("() => matchMedia('(pointer: coarse)').matches"):
        await locator.tap()
    else:
        await locator.click()


async def version(page: Page) -> int:
    return int(await page.locator("#webtable").get_attribute("data-version") or -1)


async def moved_on(page: Page, before: int) -> None:
    await page.wait_for_function(
        "v => { const r = document.querySelector('#webtable'); return Number(r.dataset.version) !== v || "
        "r.dataset.finished === 'yes'; }",
        arg=before,
        timeout=20000,
    )


async def choose(page: Page, *, highest: bool) -> None:
    """A choice that is not a card: the highest (or lowest) value offered, else the first button."""
    box = page.locator("#webtable .wt-choices")
    stepper = box.locator(".wt-stepper")
    if await stepper.count():
        if highest:
            plus = stepper.locator(".wt-step").last
            while await plus.is_enabled():
                await tap(page, plus)
        await tap(page, stepper.locator(".primary"))
        return
    values = box.locator("button.primary[data-payload]")
    if await values.count():
        await tap(page, values.last if highest else values.first)
        return
    await tap(page, box.locator("button[data-payload]").first)


async def play_turn(page: Page, *, highest_bid: bool = False) -> str:
    """One move of mine by tapping: a playable card or tile (then its end or recipient), else a button."""
    before = await version(page)
    hit = page.locator("#webtable .wt-hit.playable")
    offered = page.locator("#webtable .wt-choices button[data-payload]")
    await expect(hit.or_(offered).first).to_be_attached()  # the frame of my turn is drawn
    if await hit.count():
        await tap(page, hit.first)
        ask = page.locator("#webtable .wt-choices .wt-ask")
        if await ask.count():  # several actions for this card or tile: the end, or whom to give it
            await tap(page, page.locator("#webtable .wt-choices button[data-payload]").first)
        kind = "card"
    else:
        await choose(page, highest=highest_bid)
        kind = "button"
    await moved_on(page, before)
    return kind


async def wait_ready(page: Page) -> str:
    await page.wait_for_function(READY, timeout=30000)
    sheet = page.locator("#webtable .wt-sheet")
    if await sheet.is_visible():
        return "sheet"
    return "over" if await page.locator("#webtable").get_attribute("data-finished") == "yes" else "turn"


@pytest.mark.parametrize("device", ["phone", "desktop"])
async def test_a_kozel_against_the_computer_played_to_the_end_by_tapping_tiles(site, browser, device, tmp_path):
    app, url = site
    page = await new_page(browser, PHONE if device == "phone" else DESKTOP)
    await open_table(page, url, "kozel", 2, room=f"k{device}")
    await expect(page.locator("#webtable .wt-hand-pic")).to_be_visible(timeout=20000)
    refused = taps = sheets = 0
    for _ in range(600):
        state = await wait_ready(page)
        if state == "sheet":
            sheets += 1
            if sheets == 1:
                await shoot(page, f"webapp-kozel-result-{device}.png")
            await tap(page, page.locator("#webtable .wt-dismiss"))
            await expect(page.locator("#webtable .wt-sheet")).to_be_hidden()
            if await page.locator("#webtable").get_attribute("data-finished") == "yes":
                break
            continue
        if state == "over":
            break
        await expect(page).to_have_title(re.compile("^● Your turn"))  # the page's title says it is my turn
        dead = page.locator("#webtable .wt-hit:not(.playable)")
        if not refused and await dead.count():
            # a tile that does not fit: the page says why and nothing changes
            before = await version(page)
            await tap(page, dead.first)
            why = page.locator("#webtable .wt-note.why").last
            await expect(why).to_be_visible()
            assert (await why.text_content()).strip()
            await page.wait_for_timeout(300)
            assert await version(page) == before
            refused += 1
        if taps == 3:
            if device == "phone":
                await check_one_screen(page)
            await shoot(page, f"webapp-kozel-{device}.png")
        await play_turn(page)
        taps += 1
    assert await page.locator("#webtable").get_attribute("data-finished") == "yes"
    assert taps >= 5 and refused == 1 and sheets >= 1
    await shoot(page, f"webapp-kozel-over-{device}.png")
    hand_left = await page.locator("#webtable .wt-hit").count()
    assert await page.locator("#webtable .wt-hand").is_visible() == (hand_left > 0)  # never an empty hand frame
    await page.context.close()


async def shoot(page: Page, name: str) -> None:
    """A screenshot kept in .screenshots/ (looked at by people), checked to be a real picture."""
    SHOTS.mkdir(exist_ok=True)
    if page.viewport_size["width"] >= 800:
        await screenshot(page, str(SHOTS / name))
    else:
        await page.screenshot(path=str(SHOTS / name))


async def check_one_screen(page: Page) -> None:
    """The table (with its scores and last trick), the latest lines and the hand on one screen, no scrolling."""
    height = page.viewport_size["height"]
    for part in (".wt-pic", ".wt-lines", ".wt-prompt", ".wt-hand-pic"):
        box = await page.locator(f"#webtable {part}").bounding_box()
        assert box is not None and box["height"] > 0, part
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (part, box)
    scroll = await page.evaluate("() => document.scrollingElement.scrollHeight - innerHeight")
    assert scroll <= 0
    pic = await page.locator("#webtable .wt-pic").bounding_box()
    hand = await page.locator("#webtable .wt-hand-pic").bounding_box()
    assert pic["width"] >= 340 and hand["width"] >= 300  # the width of the phone, not a thumbnail
    assert hand["y"] > pic["y"]  # my hand under the table


async def test_a_thousand_through_bidding_talon_gives_and_a_trick_by_tapping_cards(site, browser):
    """Three players (two computers): I bid as high as I may until I win a bidding, take the talon, give a card
    to each opponent, name the contract and play a whole trick, all by tapping."""
    app, url = site
    page = await new_page(browser, PHONE)
    await open_table(page, url, "thousand", 3, room="thousand")
    await expect(page.locator("#webtable .wt-hand-pic")).to_be_visible(timeout=20000)
    seen: list[str] = []
    for _ in range(300):
        state = await wait_ready(page)
        if state == "sheet":
            await tap(page, page.locator("#webtable .wt-dismiss"))
            continue
        assert state == "turn"
        table_id = int(await page.locator("#webtable").get_attribute("data-table"))
        rec = await app.storage.table(table_id)
        view = (await app.live(rec)).state.view(0)
        phase = view["phase"]
        if phase == "give" and "give" not in seen:
            await shoot(page, "webapp-thousand-give-phone.png")
            await check_one_screen(page)
        seen.append(phase)
        if phase == "play" and "give" in seen and sum(view["tricks_taken"]) >= 1 and not view["trick"]:
            break  # a whole trick has been played after my gives
        await play_turn(page, highest_bid=phase == "bidding")
    assert {"bidding", "give", "contract", "play"} <= set(seen), seen
    gives = [p for p in seen if p == "give"]
    assert len(gives) >= 2  # one card to each opponent, each a tap on the card and one on whom
    await page.context.close()


async def test_two_people_see_only_their_own_hands_and_a_spectator_none(site, browser):
    app, url = site
    anna = await new_page(browser, PHONE)
    boris = await new_page(browser, DESKTOP)
    chen = await new_page(browser, PHONE)
    await boris.goto(f"{url}?name=Boris&lang=en#duo")
    await expect(boris.locator("#status")).to_have_text("connected")
    await open_table(anna, url, "thousand", 3, room="duo", people=1)
    join = boris.locator("[data-box=group] button[data-payload^='j.']").last
    await join.click()
    await anna.locator("#tabs [data-tab=group]").click()
    lobby = anna.locator("[data-box=group] li.bot", has_text="a table for 3").last
    await expect(lobby).to_contain_text("Boris")
    if "All seats taken" not in await lobby.text_content():  # the panel may not have added the computer yet
        await lobby.locator("button[data-payload$='.easy']").click()
        await expect(lobby).to_contain_text("All seats taken")
    await lobby.locator("button[data-payload^='s.']").click()
    for page in (anna, boris):
        await expect(page.locator("#webtable .wt-hand-pic")).to_be_visible(timeout=20000)
    await chen.goto(f"{url}?name=Chen&lang=en#duo")
    await expect(chen.locator("#webtable .wt-pic")).to_be_visible(timeout=20000)

    table_id = int(await anna.locator("#webtable").get_attribute("data-table"))
    state = (await app.live(await app.storage.table(table_id))).state
    rec = await app.storage.table(table_id)
    seats = {s.user.name: s.seat for s in rec.seats if s.user is not None}
    for page, name in ((anna, "Anna"), (boris, "Boris")):
        keys = await page.locator("#webtable .wt-hit").evaluate_all("els => els.map(e => e.dataset.key)")
        assert sorted(keys) == sorted(state.view(seats[name])["hand"])
        assert await page.locator("#webtable").get_attribute("data-seat") == str(seats[name])
    anna_pic = await anna.locator("#webtable .wt-hand-pic").get_attribute("src")
    boris_pic = await boris.locator("#webtable .wt-hand-pic").get_attribute("src")
    assert anna_pic != boris_pic
    # the spectator: the table, no hand, no choices, told so
    await expect(chen.locator("#webtable .wt-hand")).to_be_hidden()
    assert await chen.locator("#webtable .wt-hit, #webtable .wt-choices button").count() == 0
    await expect(chen.locator("#webtable .wt-prompt")).to_have_text("You are watching: no hand, no choices.")
    await shoot(chen, "webapp-spectator-phone.png")
    # whoever is to bid does it by a tap; the other page and the spectator see the table move on
    before = await version(chen)
    mover = anna if await anna.locator("#webtable").get_attribute("data-turn") == "mine" else boris
    await expect(mover.locator("#webtable").first).to_have_attribute("data-turn", "mine")
    await play_turn(mover)
    await moved_on(chen, before)
    for page in (anna, boris, chen):
        await page.context.close()


async def test_the_playground_on_a_phone_start_panel_room_talk_and_turn(site, browser):
    app, url = site
    page = await new_page(browser, PHONE)
    await page.goto(f"{url}?name=Dana&lang=en#porch")
    await expect(page.locator("#status")).to_have_text("connected")
    assert page.url.endswith("#porch") and await page.locator("#room").input_value() == "porch"
    await expect(page.locator("#room-link")).to_have_text("#porch")
    # the start panel: every control on screen (scrolled to) and of a size a thumb can use
    await page.locator("#tabs [data-tab=start]").click()
    for control in ("#room", "#name", "#lang", "#game", "#seats", "[name=seat2]", "#table-lang", "#start-button"):
        el = page.locator(control)
        await el.scroll_into_view_if_needed()
        box = await el.bounding_box()
        assert box is not None and box["height"] >= 24 and box["width"] >= 80, control
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844 - 48, control  # above the tab bar
    await shoot(page, "webapp-start-phone.png")
    # plain text in the group box is table talk; a command starts with "/"
    await page.locator("#tabs [data-tab=group]").click()
    box = page.locator("[data-box=group] input")
    await box.fill("good luck everyone")
    await box.press("Enter")
    await expect(page.locator("[data-box=group] li.said.talk").last).to_have_text("Danagood luck everyone")
    await box.fill("/help")
    await box.press("Enter")
    await expect(page.locator("[data-box=group] li.bot").last).to_contain_text("/new")
    # "new room" moves to a fresh room whose address can be shared
    await page.locator("#new-room").click()
    await page.wait_for_function("() => location.hash.length > 1 && location.hash !== '#porch'")
    room = (await page.evaluate("() => location.hash")).lstrip("#")
    await expect(page.locator("#room-link")).to_have_text(f"#{room}")
    assert await page.locator("[data-box=group] li.said").count() == 0
    # a game there: the Table tab opens by itself and the title says when it is my turn
    await open_table(page, url, "kozel", 2, room=room, name="Dana")
    await expect(page.locator("#webtable .wt-hand-pic")).to_be_visible(timeout=20000)
    await expect(page.locator("#tabs [data-tab=table]")).to_have_class("active")
    await page.wait_for_function(READY)
    await expect(page).to_have_title(re.compile("^● Your turn · Kozel #"))
    await page.context.close()
