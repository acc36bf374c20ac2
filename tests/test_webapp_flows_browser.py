"""Every chat flow of a seated player done from the web table alone, in a real browser (Debian's Chromium) on a
phone (390×844, touch) through the playground page (issue 32): 💡 hints, the vote to stop (one player stops in the
group, the other keeps playing, then agrees, from his web table), leaving and taking the seat back (the title never
says "Your turn" while the computer plays the seat), 🔁 Play again on the game-over card; and the playground's
panes: a message that lands in a pane out of sight marks its tab unread, and a pane opens at its newest message."""

from __future__ import annotations

import pytest
from playwright.async_api import Page, expect

from bot.app.rounds import REMATCH_OF
from bot.port import Chat
from bot.storage import ABANDONED, LOBBY
from tests.test_webapp_browser import PHONE, browser, new_page, shoot, site, tap  # noqa: F401 (fixtures)
from tests.webapp_support import open_game, person, play_to_the_end

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.usefixtures("fast_taps")]

FLOW = "#webtable .wt-flows button[data-kind={}]"


async def enter(browser, url: str, name: str, room: str) -> Page:  # noqa: F811
    page = await new_page(browser, PHONE)
    await page.goto(f"{url}?name={name}&lang=en#{room}")
    await expect(page.locator("#status")).to_have_text("connected")
    await expect(page.locator("#webtable .wt-hand-pic")).to_be_visible()
    await expect(page.locator("#tabs [data-tab=table]")).to_have_class("active")
    return page


async def say(page: Page, text: str) -> None:
    """Typed in the group pane (its tab on a phone), then back to the table."""
    await tap(page, page.locator("#tabs [data-tab=group]"))
    box = page.locator("[data-box=group] input")
    await box.fill(text)
    await box.press("Enter")
    await tap(page, page.locator("#tabs [data-tab=table]"))


async def record_titles(page: Page) -> None:
    await page.evaluate(
        """() => { window.titles = [];
        new MutationObserver(() => window.titles.push(document.title))
          .observe(document.querySelector('title'), {childList: true, characterData: true, subtree: true}); }"""
    )


async def test_hints_leaving_and_the_vote_to_stop_from_the_web_table_on_a_phone(site, browser):  # noqa: F811
    app, url = site
    anna, boris = person("Anna"), person("Boris")
    rec = await open_game(app, "hut", anna, "kozel", 2, people=(boris,), hints=True)
    a = await enter(browser, url, "Anna", "hut")
    b = await enter(browser, url, "Boris", "hut")
    mover = a if await a.locator("#webtable").get_attribute("data-turn") == "mine" else b
    other = b if mover is a else a
    await expect(mover.locator("#webtable")).to_have_attribute("data-turn", "mine")

    # 💡 on the mover's table only: the computer's advice, to him alone, and nothing moves
    await expect(other.locator(FLOW.format("hint"))).to_have_count(0)
    version = (await app.storage.table(rec.id)).version
    await tap(mover, mover.locator(FLOW.format("hint")))
    advice = mover.locator("#webtable .wt-note").last
    await expect(advice).to_contain_text("The computer would play:")
    await expect(advice).not_to_have_class("wt-note alert")  # advice, not an alarm
    await shoot(mover, "webapp-hint-phone.png")
    assert (await app.storage.table(rec.id)).version == version

    # Boris leaves in the group: his table shows that the computer plays for him, with the way back, and its
    # title never says it is his turn while the computer has his seat (Anna moves meanwhile)
    await record_titles(b)
    await say(b, "/leave")
    back = b.locator(FLOW.format("take_seat_back"))
    await expect(back).to_have_text("Take my seat back")
    await expect(b.locator("#webtable .wt-prompt")).to_contain_text("The computer plays for you.")
    await expect(b.locator("#webtable .wt-hit.playable")).to_have_count(0)
    await shoot(b, "webapp-computer-plays-phone.png")
    for _ in range(2):  # Anna's move, then the computer's in Boris's seat
        await expect(a.locator("#webtable")).to_have_attribute("data-turn", "mine")
        before = (await app.storage.table(rec.id)).version
        await tap(a, a.locator("#webtable .wt-hit.playable").first)
        ask = a.locator("#webtable .wt-choices .wt-ask")
        if await ask.count():
            await tap(a, a.locator("#webtable .wt-choices button[data-payload]").first)
        await a.wait_for_function(
            "v => Number(document.querySelector('#webtable').dataset.version) > v + 1", arg=before
        )
    titles = await b.evaluate("() => window.titles")
    assert not [x for x in titles if x.startswith("●")], titles
    await tap(b, back)
    await expect(b.locator("#webtable .wt-note").last).to_contain_text("Welcome back")
    await expect(back).to_have_count(0)

    # Boris asks to stop in the group: Anna's table shows the vote (and her Group tab has news); she keeps playing
    await say(b, "/stop")
    keep = a.locator(FLOW.format("stop_keep"))
    await expect(keep).to_have_text("Keep playing")
    await expect(a.locator(FLOW.format("stop_agree"))).to_have_text("Agree (1 of 2)")
    await expect(a.locator("#webtable .wt-prompt")).to_contain_text("A vote to stop the game: 1 of 2")
    await expect(a.locator("#tabs [data-tab=group]")).to_have_attribute("data-unread", "yes")
    await shoot(a, "webapp-vote-phone.png")
    await tap(a, keep)
    await expect(a.locator("#webtable .wt-note").last).to_contain_text("The game goes on.")
    await expect(keep).to_have_count(0)
    # asked again, she agrees: the game is stopped on both tables
    await say(b, "/stop")
    await tap(a, a.locator(FLOW.format("stop_agree")))
    for page in (a, b):
        await expect(page.locator("#webtable .wt-status")).to_have_text("The game was stopped.")
    assert (await app.storage.table(rec.id)).status == ABANDONED
    for page in (a, b):
        await page.context.close()


async def test_play_again_on_the_game_over_card_and_the_panes_on_a_phone(site, browser):  # noqa: F811
    app, url = site
    anna = person("Anna")
    rec = await open_game(app, "yard", anna, "kozel", 2)
    a = await enter(browser, url, "Anna", "yard")
    done = await play_to_the_end(app, "yard", rec.id, (anna,))
    card = a.locator("#webtable .wt-sheet")
    await expect(card.locator("h2")).to_have_text("Game over")
    again = card.locator("button[data-kind=play_again]")
    await expect(again).to_have_text("🔁 Play again")
    await shoot(a, "webapp-game-over-phone.png")
    await tap(a, again)
    await expect(a.locator("#webtable .wt-note").last).to_contain_text("You are in")
    chat = await app.people.chat_rec(Chat("playground", "yard", title="yard"))
    lobby = await app.storage.open_table(chat.id)
    assert lobby is not None and lobby.status == LOBBY and lobby.options[REMATCH_OF] == done.id
    await expect(card.locator("h2")).to_have_text("Game over")  # the finished game stays on the table

    # the new lobby went to the group, out of sight: its tab says so; opened, it shows the newest message
    group_tab = a.locator("#tabs [data-tab=group]")
    await expect(group_tab).to_have_attribute("data-unread", "yes")
    await shoot(a, "webapp-unread-phone.png")
    await tap(a, group_tab)
    await expect(group_tab).not_to_have_attribute("data-unread", "yes")
    newest = a.locator("[data-box=group] li.msg").last
    await expect(newest).to_contain_text("a table for 2 is open")
    await expect(newest).to_be_in_viewport()
    await shoot(a, "webapp-group-newest-phone.png")
    # an answer to a group command that goes to "Only you" marks that tab
    box = a.locator("[data-box=group] input")
    await box.fill("/join")
    await box.press("Enter")
    private_tab = a.locator("#tabs [data-tab=private]")
    await expect(private_tab).to_have_attribute("data-unread", "yes")
    await tap(a, private_tab)
    await expect(a.locator("[data-box=private] li.msg").last).to_contain_text("You already have a seat")
    await expect(a.locator("[data-box=private] li.msg").last).to_be_in_viewport()
    await expect(private_tab).not_to_have_attribute("data-unread", "yes")
    await a.context.close()
