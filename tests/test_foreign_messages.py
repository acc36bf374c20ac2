"""A press on somebody else's private message (issue 40): on Discord, Telegram and the web table, a press by A on a
control of B's private message — before and after a restart of the bot on the same database — is refused with a
notice in A's language and changes nothing: no move stored, nothing recorded about B's message as A's, nothing of
B's shown to A; and B's next hands still reach B alone.

A forged press: the official clients cannot make it (an ephemeral message is seen by its user alone; a private
chat is its user's), so the fakes are asked to deliver it (``FakeDiscord.raw_click`` on another user's message,
``FakeBotAPI.press(..., forged=True)``, a page's socket sending a payload of another seat's frame). In the Discord
monkey such a press once made the bot take Boris's ephemeral hand for Ann's: from then on each one's hand edits
went into the other's message. A and B speak different languages here (Carol's Discord and Telegram are in
Ukrainian, Ann's Telegram and Anna's page in Russian), so a hand in the wrong message shows in its words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.app import create_application
from bot.port import MessageRef
from core.i18n import t
from testkit.fake_bot_api import FakeBotAPI, Shown
from testkit.fake_bot_api import FakeUser as TgUser
from testkit.fake_bot_api import Limits as TelegramLimits
from testkit.fake_discord import FakeDiscord, FakeUser, Limits, StoredMessage
from testkit.telegram_players import PREFIX
from testkit.telegram_players import Player as TgPlayer
from tests.app_support import fixed_deal
from tests.telegram_bot_support import LiveBot, writes
from tests.test_discord_e2e import ALICE, BOB, CAROL, SEED, Player, bot, open_thousand, table_message
from tests.webapp_support import Page, Site, open_game, open_page, person, serve_webapp, session_for, settings_for

NOT_YOURS = "This message was sent to someone else: use the buttons of your own messages."
TITLES = {"en": "Thousand", "ru": "Тысяча", "uk": "Тисяча"}  # how a hand's text begins, by its language


# ------------------------------------------------------------------------------------------------------- Discord


@pytest.fixture
async def fake():
    """The fake Discord; the channel routes' buckets off (every move edits the table)."""
    async with FakeDiscord(limits=Limits(per_channel_route=None)) as server:
        yield server


def player_of(players: list[Player], rec: Any, seat: int) -> Player:
    """The player sitting at ``seat``."""
    user = next(s.user for s in rec.seats if s.seat == seat)
    return next(p for p in players if str(p.user.id) == user.platform_id)


async def bid_to_the_give(app: Any, players: list[Player]) -> Player:
    """The first to bid takes the game at 100, the others pass: he is to give a card to each of the others (his
    hand offers the give's picker steps). Returns him."""
    declarer: Player | None = None
    while True:
        rec = await app.storage.table(1)
        live = await app.live(rec)
        if live.state.phase != "bidding":
            assert declarer is not None
            return declarer
        mover = player_of(players, rec, live.state.to_act)
        declarer = declarer or mover
        wanted = "bid,v=100" if mover is declarer else "pass"
        await mover.press(next(m for m in mover.moves() if m.payload.endswith(wanted)))


def hand_of(fake: FakeDiscord, ref: MessageRef) -> StoredMessage:
    """The ephemeral message a reference names, as Discord holds it."""
    return fake.messages[int(ref.message_id)]


async def private_refs(app: Any) -> dict[str, MessageRef]:
    """Each seated user's private message as the storage records it."""
    rec = await app.storage.table(1)
    out = {}
    for s in rec.seats:
        ref = MessageRef.from_json(s.private_ref)
        assert s.user is not None and ref is not None
        out[s.user.platform_id] = ref
    return out


def screen(fake: FakeDiscord, user: FakeUser) -> list[tuple[int, str, str, int]]:
    """What ``user`` sees privately: each ephemeral message's id, text, components and edits."""
    return [
        (m.id, m.content, repr(m.components), m.edits) for m in sorted(fake.ephemeral_for(user), key=lambda m: m.id)
    ]


async def nothing_crossed(app: Any, fake: FakeDiscord) -> None:
    """Every seat's private message is its own user's, and nobody's ever showed another language's hand (Carol's in
    Ukrainian, Alice's and Bob's in English)."""
    for user_id, ref in (await private_refs(app)).items():
        assert hand_of(fake, ref).visible_to == int(user_id), f"the storage names another's message for {user_id}"
    for user, foreign in ((ALICE, "Тисяча"), (BOB, "Тисяча"), (CAROL, "Thousand")):
        shown = [text for m in fake.ephemeral_for(user) for text in m.shown]
        assert not [text for text in shown if text.startswith(foreign)], (user.name, shown)


async def forge_on(fake: FakeDiscord, by: Player, hand: StoredMessage, app: Any) -> None:
    """``by`` presses controls of another's ``hand`` (a picker step — the picker's "back" when the hand has no step —
    and a move): each is refused in his language and changes nothing he or the hand's owner sees, nor the table, nor
    what is recorded about the private messages."""
    owner = next(u for u in (ALICE, BOB, CAROL) if u.id == hand.visible_to)
    version, refs = (await app.storage.table(1)).version, await private_refs(app)
    steps = [c for c in hand.custom_ids() if c.startswith("t:u.")] or [f"t:u.1.{version}.main"]  # "back", forged
    ids = [steps[0], next(c for c in hand.custom_ids() if c.startswith("t:a."))]
    theirs = screen(fake, owner)
    for custom_id in ids:
        before = screen(fake, by.user)
        await by.act(await fake.raw_click(by.user, hand, custom_id))
        await by.run.settle()
        assert screen(fake, owner) == theirs, "the owner's messages changed"
        mine = screen(fake, by.user)
        assert mine[: len(before)] == before, "the presser's own messages changed"
        assert [text for _id, text, _c, _e in mine[len(before) :]] == [t(by.user.locale, NOT_YOURS)]
    assert (await app.storage.table(1)).version == version
    assert await private_refs(app) == refs
    await nothing_crossed(app, fake)


async def carol_gives_one(app: Any, fake: FakeDiscord, carol: Player) -> None:
    """Carol gives a card with her own buttons (a picker step, then the receiver): her message shows her next
    choice, in Ukrainian, and the others' messages show theirs."""
    version = (await app.storage.table(1)).version
    step = next(m for m in carol.moves() if m.payload.startswith("u.") and not m.payload.endswith(".main"))
    await carol.press(step)
    await carol.press(next(m for m in carol.moves() if m.payload.startswith("a.") and ",t=" in m.payload))
    await app.idle()
    await carol.run.settle()
    assert (await app.storage.table(1)).version == version + 1
    refs = await private_refs(app)
    mine = hand_of(fake, refs[str(CAROL.id)])
    assert mine.content.startswith("Тисяча") and [c for c in mine.custom_ids() if f".{version + 1}." in c]
    for user in (ALICE, BOB):
        theirs = hand_of(fake, refs[str(user.id)])
        assert theirs.content.startswith("Thousand") and not theirs.custom_ids()
    await nothing_crossed(app, fake)


async def test_discord_a_press_on_another_players_ephemeral_hand_changes_nothing(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed_deal(monkeypatch, SEED)  # Carol opens the bidding and takes the game
    path = tmp_path / "bot.sqlite3"
    async with bot(fake, path) as (app, run):
        alice, bob, carol = await open_thousand(fake, run)
        assert await bid_to_the_give(app, [alice, bob, carol]) is carol
        hand = hand_of(fake, (await private_refs(app))[str(CAROL.id)])
        await forge_on(fake, alice, hand, app)
        await carol_gives_one(app, fake, carol)
        # "Show my hand" brings Carol her own hand anew, and nothing of anybody else's
        await carol.click(table_message(fake), "Show my hand")
        await nothing_crossed(app, fake)
    async with bot(fake, path) as (app, run):  # a new process over the same database and the same messages
        alice, carol = Player(fake, run, ALICE), Player(fake, run, CAROL)
        hand = hand_of(fake, (await private_refs(app))[str(CAROL.id)])
        await forge_on(fake, alice, hand, app)
        version = (await app.storage.table(1)).version
        await carol.press(next(m for m in carol.moves() if m.payload.startswith("a.") and ",t=" in m.payload))
        await app.idle()
        await run.settle()
        assert (await app.storage.table(1)).version == version + 1
        refs = await private_refs(app)
        assert hand_of(fake, refs[str(CAROL.id)]).content.startswith("Тисяча")
        assert hand_of(fake, refs[str(ALICE.id)]).content.startswith("Thousand")
        await nothing_crossed(app, fake)


# ------------------------------------------------------------------------------------------------------ Telegram

GROUP = -1001


@pytest.fixture
async def api():
    """The fake Bot API with the group; flood limits off (the moves are waited for one by one)."""
    server = FakeBotAPI(limits=TelegramLimits(per_chat_gap=None, per_private_second=None, per_group_minute=None))
    await server.start()
    server.add_group(GROUP, "Kitchen")
    yield server
    await server.stop()


def chat_screen(api: FakeBotAPI, user: TgUser) -> list[tuple[int, str, str, int]]:
    """What ``user`` sees in his private chat with the bot: each message's id, text, buttons and edits."""
    return [(s.message_id, s.text, repr(s.markup), s.edits) for s in api.visible(user.id)]


async def tg_nothing_crossed(app: Any, api: FakeBotAPI, people: list[TgPlayer]) -> None:
    """Every seat's private message is in its own user's chat, and no private chat was ever written a hand in
    another language (Ann's in Russian, Bob's in English, Carol's in Ukrainian)."""
    for user_id, ref in (await private_refs(app)).items():
        assert ref.chat_id == user_id, f"the storage names a message of chat {ref.chat_id} for {user_id}"
    for p in people:
        foreign = tuple(title for lang, title in TITLES.items() if lang != p.user.language_code)
        said = [str(c.params.get("caption") or c.params.get("text") or "") for c in writes(api.calls, p.user.id)]
        assert not [s for s in said if s.startswith(foreign)], (p.name, said)


async def tg_forge_on(api: FakeBotAPI, by: TgPlayer, owner: TgPlayer, app: Any, bot: LiveBot) -> None:
    """``by`` presses a picker step (the picker's "back" when the hand has no step) and a move of ``owner``'s hand:
    each is answered with the refusal in his language, and nothing changes in either private chat, the table or the
    records of the private messages."""
    hand = owner.hands()[0]
    version, refs = (await app.storage.table(1)).version, await private_refs(app)
    steps = [d for d in owner.moves(hand) if d.startswith(PREFIX + "u.")] or [f"{PREFIX}u.1.{version}.main"]
    data = [steps[0], next(d for d in owner.moves(hand) if d.startswith(PREFIX + "a."))]
    theirs, mine = chat_screen(api, owner.user), chat_screen(api, by.user)
    for d in data:
        answer = await api.wait_answer(api.press(by.user, owner.user.id, hand.message_id, d, forged=True))
        await bot.settle()
        assert chat_screen(api, owner.user) == theirs, "the owner's private chat changed"
        assert chat_screen(api, by.user) == mine, "the presser's private chat changed"
        assert answer["text"] == t(by.user.language_code, NOT_YOURS) and answer["show_alert"]
    assert (await app.storage.table(1)).version == version
    assert await private_refs(app) == refs


async def tg_gives_one(api: FakeBotAPI, app: Any, bot: LiveBot, carol: TgPlayer, people: list[TgPlayer]) -> None:
    """Carol gives a card with the buttons of her own hand: her message shows her next choice, the others' theirs."""
    version = (await app.storage.table(1)).version
    hand = carol.hands()[0]
    steps = [d for d in carol.moves(hand) if d.startswith(PREFIX + "u.") and not d.endswith(".main")]
    if steps:
        await carol.press(hand, steps[0])
    hand = api.messages[hand.chat_id][hand.message_id]
    await carol.press(hand, next(d for d in carol.moves(hand) if d.startswith(PREFIX + "a.") and ",t=" in d))
    await bot.settle()
    assert (await app.storage.table(1)).version == version + 1
    refs = await private_refs(app)
    mine = api.messages[carol.user.id][int(refs[str(carol.user.id)].message_id)]
    assert mine.text.startswith("Тисяча") and carol.moves(mine)
    for p in people:
        if p is not carol:
            theirs = api.messages[p.user.id][int(refs[str(p.user.id)].message_id)]
            assert theirs.text.startswith(TITLES[p.user.language_code or "en"]) and not p.moves(theirs)
    await tg_nothing_crossed(app, api, people)


async def test_telegram_a_press_on_another_players_private_hand_changes_nothing(
    api: FakeBotAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed_deal(monkeypatch, SEED)  # Carol, the third seat, opens the bidding
    db = tmp_path / "bot.sqlite3"
    bot = await LiveBot(api, db).start()
    try:
        ann, bob, carol = (
            TgPlayer(api, api.add_user(31 + i, name, language=lang), bot.settle)
            for i, (name, lang) in enumerate((("Ann", "ru"), ("Bob", "en"), ("Carol", "uk")))
        )
        people = [ann, bob, carol]
        await bob.say(GROUP, "/new thousand 3")  # the group speaks English (its first speaker's language)
        for p in (ann, carol):
            await p.press_label(lobby_of(api), "Join")
        await bob.press_label(lobby_of(api), "Start")
        assert bot.app is not None
        for _ in range(3):  # Carol takes the game at 100, the others pass
            p = next(p for p in people if p.hands())
            hand = p.hands()[0]
            await p.press(hand, next(d for d in p.moves(hand) if d.endswith("bid,v=100" if p is carol else "pass")))
        await tg_forge_on(api, ann, carol, bot.app, bot)
        await tg_nothing_crossed(bot.app, api, people)
        await tg_gives_one(api, bot.app, bot, carol, people)
        await bot.stop()
        bot = await LiveBot(api, db).start()  # a new process over the same database and the same chats
        for p in people:
            p.settle = bot.settle
        await bot.settle()
        assert bot.app is not None
        await tg_forge_on(api, ann, carol, bot.app, bot)
        await tg_gives_one(api, bot.app, bot, carol, people)
    finally:
        await bot.stop()


def lobby_of(api: FakeBotAPI) -> Shown:
    return next(
        s
        for s in reversed(api.visible(GROUP))
        if any(b["callback_data"].startswith(PREFIX + "j.") for b in s.callback_buttons())
    )


# ------------------------------------------------------------------------------------------------- the web table

ROOM = "den"


def offered(frame: dict[str, Any]) -> list[str]:
    """Every payload a table frame offers its page (the choices and the cards' actions: the cards of the hand name
    theirs by index in this list)."""
    return [a["payload"] for a in frame["actions"]]


def own_frames(page: Page, seat: int) -> None:
    """Every table frame this page ever got is its own seat's: the seat, and the hand picture of that seat."""
    for frame in page.tables():
        assert frame["seat"] == seat, frame["seat"]
        hand = frame.get("hand")
        if hand is not None:  # /app/pic/hand.<table>.<version>.<seat>.<lang>.<style>.<expires>.<signature>
            assert hand["picture"].rsplit("/", 1)[-1].split(".")[3] == str(seat), hand["picture"]


async def at(page: Page, version: int) -> dict[str, Any]:
    """The page's frame of the table at ``version``, once it came."""
    return await page.wait(lambda f: f.get("type") == "table" and f["version"] == version)


async def web_forge(site: Site, by: Page, owner: Page, seats: dict[int, Page]) -> None:
    """``by`` taps the choices ``owner``'s frame offers: refused in his language, nothing changes."""
    rec = await site.app.storage.table(1)
    frame = await at(owner, rec.version)
    payloads = offered(frame)
    assert payloads
    frames = {seat: len(page.frames) for seat, page in seats.items()}
    for payload in payloads[:2]:
        answer = await by.press(payload)
        assert answer["text"] == t("ru", "It is not your turn.") and answer.get("alert"), answer
    await site.app.idle()
    assert (await site.app.storage.table(1)).version == rec.version
    for seat, page in seats.items():
        own_frames(page, seat)
        assert not [f for f in page.frames[frames[seat] :] if f.get("type") == "table"], "a frame went out"


async def web_gives_one(site: Site, owner: Page, seats: dict[int, Page]) -> None:
    """The owner gives a card from his own page: his page shows his next choice, the others' pages theirs."""
    rec = await site.app.storage.table(1)
    frame = await at(owner, rec.version)
    answer = await owner.press(next(p for p in offered(frame) if ",t=" in p))
    assert not answer.get("refused"), answer
    for seat, page in seats.items():
        frame = await at(page, rec.version + 1)
        assert bool(offered(frame)) == (page is owner), (seat, offered(frame))
        own_frames(page, seat)


async def test_web_table_a_tap_with_another_seats_choice_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed_deal(monkeypatch, SEED)  # the third seat opens the bidding and takes the game
    anna, chen, boris = person("Anna", "ru"), person("Chen"), person("Boris")
    app = await create_application(settings_for(tmp_path, round_pause=0))
    await app.start()
    site = await serve_webapp(app, poll_interval=0.05)
    try:
        await open_game(app, ROOM, anna, "thousand", 3, people=(chen, boris))
        async with aiohttp.ClientSession() as http:
            sessions = {
                seat: await session_for(http, site.url, u.name, ROOM, u.language or "en")
                for seat, u in enumerate((anna, chen, boris))
            }
            seats = {seat: await open_page(http, site.url, s) for seat, s in sessions.items()}
            for want, seat in (("bid,v=100", 2), ("pass", 0), ("pass", 1)):
                frame = await at(seats[seat], (await app.storage.table(1)).version)
                await seats[seat].press(next(p for p in offered(frame) if p.endswith(want)))
            await web_forge(site, seats[0], seats[2], seats)
            await web_gives_one(site, seats[2], seats)
            for page in seats.values():
                await page.close()
        await site.close()
        await app.close()
        # a new process over the same database; the pages come back with their sessions
        app = await create_application(settings_for(tmp_path, round_pause=0))
        await app.start()
        site = await serve_webapp(app, poll_interval=0.05)
        async with aiohttp.ClientSession() as http:
            seats = {seat: await open_page(http, site.url, s) for seat, s in sessions.items()}
            await web_forge(site, seats[0], seats[2], seats)
            await web_gives_one(site, seats[2], seats)
            for page in seats.values():
                await page.close()
    finally:
        await site.close()
        await app.close()
