"""The web table's layout in Chromium over the real application: the "last moves" box shows the newest lines
whole (a wrapped line never hides the newest one) and takes the height the table picture leaves, on a phone
(390×844, touch) and a desktop (1280×800)."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Page, expect

from bot import messages
from tests.browser_support import chromium
from tests.test_webapp_browser import (
    DESKTOP,
    PHONE,
    new_page,
    open_table,
    play_turn,
    shoot,
    tap,
    wait_ready,
)
from tests.webapp_support import serve_playground

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.usefixtures("fast_taps")]

LONG_NAME = "Anastasia Konstantinopolskaya"  # her lines wrap on a phone

PAINTED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"  # as seen
BOXES = """() => {
  const box = document.querySelector('#webtable .wt-lines').getBoundingClientRect();
  const lines = [...document.querySelectorAll('#webtable .wt-line')];
  const shown = lines.filter((e) => !e.hidden);
  const rect = (e) => { const r = e.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, height: r.height}; };
  return {
    box: {top: box.top, bottom: box.bottom},
    newest: lines.length ? {text: lines[lines.length - 1].textContent, hidden: lines[lines.length - 1].hidden,
                            ...rect(lines[lines.length - 1])} : null,
    shown: shown.map(rect),
    hidden: lines.length - shown.length,
    // the height the newest hidden line would take (shown for a moment, in the box's width): it did not fit
    nextHeight: (() => {
      const h = lines.filter((e) => e.hidden).pop();
      if (!h) return 0;
      h.hidden = false;
      const height = h.getBoundingClientRect().height;
      h.hidden = true;
      return height;
    })(),
    lineHeight: parseFloat(getComputedStyle(document.querySelector('#webtable .wt-lines')).lineHeight),
    pic: rect(document.querySelector('#webtable .wt-pic')),
  };
}"""


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def browser():
    async with chromium() as b:
        yield b


@pytest_asyncio.fixture(loop_scope="module")
async def site(tmp_path: Path):
    served = await serve_playground(tmp_path)
    yield served.app, served.url
    await served.close()
    await served.app.close()


async def newest_line(app, page: Page) -> str:
    """The newest sentence of the table at the version the page shows, as the application tells it."""
    root = page.locator("#webtable")
    rec = await app.storage.table(int(await root.get_attribute("data-table")))
    assert rec.version == int(await root.get_attribute("data-version"))
    live = await app.live(rec)
    return messages.sentences(rec.game, live.recent, "en", app.publishing.names(rec, "en"))[-1]


@pytest.mark.parametrize("device", ["phone", "desktop"])
async def test_the_newest_line_is_always_shown_whole_and_the_lines_fill_the_room_left(site, browser, device):
    app, url = site
    page = await new_page(browser, PHONE if device == "phone" else DESKTOP)
    await open_table(page, url, "kozel", 2, room=f"lines{device}", name=LONG_NAME)
    await expect(page.locator("#webtable .wt-hand-pic")).to_be_visible(timeout=20000)
    wrapped = full = turns = 0
    for _ in range(60):
        state = await wait_ready(page)
        if state == "sheet":
            await tap(page, page.locator("#webtable .wt-dismiss"))
            continue
        if state == "over" or turns == 14:
            break
        await page.evaluate(PAINTED)
        m = await page.evaluate(BOXES)
        newest = m["newest"]
        assert newest is not None and not newest["hidden"]
        # the newest line lies whole inside the visible lines box, and it is the table's newest sentence
        assert m["box"]["top"] - 0.5 <= newest["top"] and newest["bottom"] <= m["box"]["bottom"] + 0.5, m
        assert newest["text"] == await newest_line(app, page)
        # every line shown is whole: none reaches above the box
        assert all(r["top"] >= m["box"]["top"] - 0.5 for r in m["shown"]), m
        wrapped += any(r["height"] > 1.5 * m["lineHeight"] for r in m["shown"])
        if m["hidden"]:  # more lines than room: the box starts right under the table, no empty band
            full += 1
            assert m["box"]["top"] - m["pic"]["bottom"] < 10, m
            # the room left above is less than the older line that did not fit (a wrapped one may take 3 or 4)
            assert m["shown"][0]["top"] - m["box"]["top"] < m["nextHeight"], m
        if device == "phone":
            await whole_turn_on_one_screen(page)
        if turns == 4:
            await shoot(page, f"webapp-lines-{device}.png")
        await play_turn(page)
        turns += 1
    assert turns >= 8
    if device == "phone":
        assert wrapped and full  # the case of the report: wrapped lines, more of them than room
    await page.context.close()


async def whole_turn_on_one_screen(page: Page) -> None:
    """The table, the lines, the prompt, the choices and the hand above the tab bar, nothing to scroll."""
    bottom = (await page.locator("#tabs").bounding_box())["y"]
    for part in (".wt-pic", ".wt-lines", ".wt-prompt", ".wt-choices", ".wt-hand-pic"):
        box = await page.locator(f"#webtable {part}").bounding_box()
        if part != ".wt-choices":
            assert box is not None and box["height"] > 0, part
        if box is not None:
            assert box["y"] >= 0 and box["y"] + box["height"] <= bottom + 0.5, (part, box)
    assert await page.evaluate("() => document.scrollingElement.scrollHeight - innerHeight") <= 0


async def test_a_refused_tile_looks_as_before_once_told_and_notices_stay_off_the_tab_bar(site, browser):
    app, url = site
    page = await new_page(browser, PHONE)
    await open_table(page, url, "kozel", 2, room="notices")
    dead = page.locator("#webtable .wt-hit:not(.playable)")
    for _ in range(30):  # my turn with a tile that does not fit
        if await wait_ready(page) == "turn" and await dead.count():
            break
        await play_turn(page)
    tile = dead.first
    await tap(page, tile)
    await expect(page.locator("#webtable .wt-note.why")).to_be_visible()
    await expect(page.locator("#webtable .wt-note.why")).to_have_count(0, timeout=10000)  # the notice is gone …
    assert await tile.evaluate("e => getComputedStyle(e).backgroundColor") == "rgba(0, 0, 0, 0)"  # … and the tint
    assert "refused" not in (await tile.get_attribute("class"))
    await shoot(page, "webapp-refused-after-phone.png")
    # the playground's own notices (answers to the chat's buttons) stand above the tab bar
    await page.evaluate("() => toast('Moved')")
    note = await page.locator("#toasts .toast").last.bounding_box()
    tabs = await page.locator("#tabs").bounding_box()
    assert note["y"] + note["height"] <= tabs["y"], (note, tabs)
    await page.context.close()
