"""Every press answered exactly once and at once on Discord, in every state of a table (issue 36): the real
application behind the real Discord adapter and discord.py over the fake Discord with Discord's limits on, and the
channel's buckets spent right before each interaction (Discord answers the channel's next message 429 until its
bucket resets; discord.py waits that out).

People press every component they can see, in turn: the game chooser, every lobby button (as the host and as
another), the settings page, Start, every button of the table and every button and menu choice of the ephemeral
hands while playing, a vote to stop, the finished round's pause, the finished game (Play again), and every old
component again once the table is stopped; the daily deal's buttons; every command in a lobby and in play. For
each interaction: one initial response (callback) accepted, none refused (Discord refuses a second one with 40060
and a late one with 10062 "Unknown interaction" after 3 s), and it is made before any channel write that followed
the press (a channel write waits for its bucket; the answer must not: Discord shows "This interaction failed" when
it does not come in time). The press's notice, or the command's note to its author (a short ephemeral message
through its token: Discord has no toasts), comes before the channel's writes too, which the spent bucket holds for
its window (``/daily game:kozel`` told its author after the group's message of the day: fixed).

The web table on a Discord table: a tap is answered on the page's socket before the channel's writes that follow.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web

from bot.app import Application
from bot.port import User
from bot.storage import FINISHED, LOBBY, PLAYING, Storage
from bot.webapp import install
from bot.webapp.auth import Session
from core.ai.player import ComputerPlayer
from testkit.discord_support import Running, running
from testkit.fake_discord import CHANNEL_ID, Call, FakeDiscord, FakeUser, InteractionRecord, Limits, StoredMessage
from testkit.fakeport import next_press
from tests.app_support import db_path, fixed_deal
from tests.test_app_rounds import ROUND_SEED, Gate
from tests.test_discord_e2e import ALICE, BOB, MALLORY, Player, bot, table_message
from tests.webapp_support import Page

WINDOW = 0.2  # seconds of a channel bucket's window: Discord's 5, shortened so that each wait for it is short
GAME_SEED = "0000000000000740"  # a Kozel deal whose first round ends the game (the normal computer's moves)
LIMITS = Limits(per_channel_route=(5, WINDOW))  # Discord's 5 requests a window per channel route, and 50 a second


@dataclass
class Control:
    """One component a user can press: a button (``value`` None) or one choice of a select menu."""

    message: StoredMessage
    custom_id: str
    value: str | None = None

    @property
    def payload(self) -> str:
        return self.value if self.value is not None else self.custom_id.partition(":")[2]


def controls(message: StoredMessage) -> list[Control]:
    """Every component of the message as it is now: its buttons, then each choice of its menus."""
    out = [Control(message, b["custom_id"]) for b in message.buttons() if "custom_id" in b]
    out += [Control(message, s["custom_id"], o["value"]) for s in message.selects() for o in s["options"]]
    return out


def newest(fake: FakeDiscord, test: Callable[[StoredMessage], bool], user: FakeUser | None = None) -> StoredMessage:
    found = [m for m in (fake.visible_to(user) if user else fake.channel_messages()) if test(m)]
    assert found, "no such message"
    return max(found, key=lambda m: m.id)


def with_payload(prefix: str) -> Callable[[StoredMessage], bool]:
    return lambda m: any(c.payload.startswith(prefix) for c in controls(m))


def hand(fake: FakeDiscord, user: FakeUser) -> StoredMessage | None:
    """The user's newest ephemeral message with components (his hand and its choices)."""
    mine = [m for m in fake.ephemeral_for(user) if m.custom_ids()]
    return max(mine, key=lambda m: m.id) if mine else None


@dataclass
class Presses:
    """Interactions with the channel's buckets spent, each checked when the bot is quiet again."""

    fake: FakeDiscord
    run: Running
    checked: int = 0
    kinds: set[str] = field(default_factory=set)
    chosen: int = 0  # choices made in select menus

    async def interact(self, what: str, push: Callable[[], Awaitable[InteractionRecord]]) -> InteractionRecord:
        fake = self.fake
        fake.spend_channel(CHANNEL_ID)
        mark = len(fake.calls)
        rec = await push()
        await self.run.settle(rec)
        calls: list[Call] = fake.calls[mark:]
        callbacks = [c for c in calls if c.callback_of(rec)]
        assert [c.status for c in callbacks] == [200] and not rec.refused, f"{what}: answered {rec.callbacks}"
        first = calls.index(callbacks[0])
        before = [(c.method, c.path) for c in calls[:first] if c.channel_write]
        assert not before, f"{what}: answered after the channel writes {before}"
        # the press's notice (Discord has no toasts: a short ephemeral message through its token) comes before the
        # channel's writes too: a write the channel's bucket let through came after the wait for it
        written = [c.at for c in calls if c.channel_write and c.status is not None and c.status < 300]
        notes = [
            (c.at, fake.messages[c.message_id].content)
            for c in calls
            if c.method == "POST"
            and c.path.endswith("/" + rec.token)
            and c.message_id is not None
            and not fake.messages[c.message_id].components
            and not fake.messages[c.message_id].attachments
        ]
        late = [text for at, text in notes if written and at > min(written)]
        assert not late, f"{what}: told {late} after the channel's writes"
        self.checked += 1
        return rec

    async def press(self, user: FakeUser, control: Control) -> InteractionRecord | None:
        message = self.fake.messages[control.message.id]
        if message.deleted:
            return None
        what = f"{user.name} pressed {control.payload!r}"
        if control.value is None:  # also a button an edit has removed since: the user's screen was behind
            rec = await self.interact(what, lambda: self.fake.raw_click(user, message, control.custom_id))
        else:
            value = control.value
            rec = await self.interact(what, lambda: self.fake.raw_choose(user, message, control.custom_id, value))
            self.chosen += 1
        self.kinds.add(control.custom_id if control.custom_id.startswith("p:") else control.payload.split(".", 1)[0])
        return rec

    async def every(self, user: FakeUser, shown: StoredMessage | list[Control], *, skip: tuple[str, ...] = ()) -> None:
        """Each component the message shows now (or each of those it showed once), in turn: later ones maybe
        changed or gone by then, as on the screen of a user who is behind."""
        for control in controls(shown) if isinstance(shown, StoredMessage) else shown:
            if not control.payload.startswith(skip):
                await self.press(user, control)

    async def first(self, user: FakeUser, message: StoredMessage, prefix: str, suffix: str = "") -> None:
        control = next(c for c in controls(message) if c.payload.startswith(prefix) and c.payload.endswith(suffix))
        await self.press(user, control)

    async def slash(self, user: FakeUser, name: str, **options: Any) -> InteractionRecord:
        return await self.interact(f"{user.name}: /{name}", lambda: self.fake.slash(user, name, options))


def answered_once(fake: FakeDiscord) -> None:
    """Every interaction of the run (those checked one by one and the moves played between them): one callback
    accepted, none refused."""
    wrong = [(r.kind, r.callbacks) for r in fake.interactions.values() if [s for s, _ in r.callbacks] != [200]]
    assert not wrong, f"{len(wrong)} of {len(fake.interactions)} interactions not answered exactly once: {wrong[:3]}"


def lobby(fake: FakeDiscord) -> StoredMessage:
    """The lobby: its main page (Join) or its settings page (Back)."""
    return newest(fake, lambda m: with_payload("j.")(m) or with_payload("m.")(m))


async def test_every_press_from_the_chooser_to_a_stopped_table_is_answered_first(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with FakeDiscord(limits=LIMITS) as fake, bot(fake, db_path(tmp_path)) as (app, run):
        ann, bob, cid = ALICE, BOB, MALLORY
        presses = Presses(fake, run)
        seen: list[tuple[FakeUser, list[Control]]] = []  # what was shown to whom: pressed again once stopped
        # no table yet: the game chooser (the first choice opens the table and posts its lobby)
        await presses.slash(ann, "new", game="chess")
        chooser = controls(newest(fake, with_payload("N.")))
        for control in sorted(chooser, key=lambda c: not c.payload.endswith("thousand")):
            await presses.press(ann, control)
        # the lobby: every button as another person, then as the host (computers, seats), the settings page
        seen.append((cid, controls(lobby(fake))))
        await presses.every(bob, lobby(fake), skip=("l.",))
        await presses.every(ann, lobby(fake), skip=("l.", "s.", "m."))
        await presses.first(ann, lobby(fake), "m.", ".set")
        seen.append((cid, controls(lobby(fake))))
        await presses.every(ann, lobby(fake), skip=("l.", "s."))  # the settings page's own buttons
        await presses.first(ann, lobby(fake), "m.", ".main")
        for kind in ("c.", "r.", "c.", "c.", "c."):  # computers in, one out again, the seats filled
            found = [c for c in controls(lobby(fake)) if c.payload.startswith(kind)]
            if found:
                await presses.press(ann, found[0])
        await presses.first(ann, lobby(fake), "s.")
        assert (await app.storage.table(1)).status == PLAYING
        # playing: every button of the table (a stranger's too), then every control of the hands (buttons, menus)
        table = controls(table_message(fake))
        seen.append((cid, table))
        for user in (cid, bob, ann):
            await presses.every(user, table)
        hands = [(user, controls(shown)) for user in (ann, bob) if (shown := hand(fake, user)) is not None]
        assert hands, "nobody has a choice"
        seen.extend(hands)
        for user, shown in hands:
            await presses.every(user, shown)
        # a quarter of an hour later every interaction token is dead: a hand that must change after the next move
        # brings an invitation to the channel, whose button shows it again
        fake.advance(16 * 60)

        async def invited() -> bool:
            return any(c.startswith("p:") for m in fake.channel_messages() for c in m.custom_ids())

        await play(app, [Player(fake, run, ann), Player(fake, run, bob)], 1, invited)
        invitation = controls(newest(fake, lambda m: any(c.startswith("p:") for c in m.custom_ids())))
        seen.append((cid, invitation))
        for user in (cid, bob, ann):
            await presses.every(user, invitation)
        # a vote to stop: kept, then agreed
        await presses.slash(bob, "stop")
        vote = controls(newest(fake, with_payload("y.")))
        seen.append((cid, vote))
        await presses.every(ann, vote, skip=("y.",))
        await presses.slash(bob, "stop")
        await presses.first(ann, newest(fake, with_payload("y.")), "y.")
        assert (await app.storage.table(1)).status == "abandoned"
        # stopped: every component ever shown gets its one answer (the chooser last: it opens a table again)
        for user, shown in [*seen, (cid, chooser)]:
            await presses.every(user, shown)
    kinds = {"N", "j", "c", "r", "n", "m", "o", "s", "h", "a", "g", "y", "p:t1"}  # "p:t1": the invitation's button
    assert kinds <= presses.kinds and presses.chosen, (presses.kinds, presses.chosen, presses.checked)
    answered_once(fake)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


@contextlib.asynccontextmanager
async def paused_bot(fake: FakeDiscord, path: Path, gate: Gate) -> AsyncIterator[tuple[Application, Running]]:
    """The application with each table's own pause after a round, slept through ``gate``, behind the adapter."""
    storage = await Storage.open(f"sqlite+aiosqlite:///{path}", data_dir=path.parent)
    app = Application(storage, computer_pause=0, tick_interval=0, think_cap=30, round_pause=None, sleep=gate.sleep)
    try:
        async with running(fake, app) as run:
            run.idle = app.idle
            await app.start()
            yield app, run
            gate.open.set()
            await run.settle()
    finally:
        await app.close()


async def press_everything(
    presses: Presses, users: tuple[FakeUser, ...], *, also: list[Control] = (), skip: tuple[str, ...] = ()
) -> None:
    """Each user presses every component he can see (the channel's and his own ephemeral ones), in turn, each while
    it is still shown, then the ``also`` components (old ones his screen may still show)."""
    for user in users:
        for message in presses.fake.visible_to(user):
            for control in controls(message):
                shown = control.custom_id in presses.fake.messages[message.id].custom_ids()
                if shown and not control.payload.startswith(skip):
                    await presses.press(user, control)
        for control in also:
            await presses.press(user, control)


async def open_kozel(presses: Presses) -> Control:
    """Ann opens a Kozel for two, Bob joins, Ann starts; the table's "Show my tiles"."""
    await presses.slash(ALICE, "new", game="kozel", players=2)
    await presses.first(BOB, lobby(presses.fake), "j.")
    await presses.first(ALICE, lobby(presses.fake), "s.")
    return next(c for c in controls(table_message(presses.fake)) if c.payload.startswith("h."))


async def play(app: Application, players: list[Player], table_id: int, done: Callable[[], Awaitable[bool]]) -> None:
    """The one to act presses the move control the normal computer player would choose, until ``done``."""
    for n in range(500):
        if await done():
            return
        rec = await app.storage.table(table_id)
        live = await app.live(rec)
        seat = live.state.to_act
        user_id = next(s.user.platform_id for s in rec.seats if s.seat == seat and s.user is not None)
        mover = next(p for p in players if str(p.user.id) == user_id)
        action = ComputerPlayer(rec.game, "normal", seed=n).decide(live.state.view(seat), list(live.round_events))
        for _step in range(4):  # through the pickers, with the controls of his own ephemeral hand
            moves = mover.moves()
            payload = next_press(action.code(), [m.payload for m in moves])
            assert payload is not None, f"{mover.user.name} was given no control for {action.code()}"
            await mover.press(next(m for m in moves if m.payload == payload))
            if payload.startswith("a."):
                break
    raise AssertionError("never done")


async def test_every_press_in_a_rounds_pause_a_finished_game_and_its_rematch_is_answered_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    gate = Gate()
    async with FakeDiscord(limits=LIMITS) as fake, paused_bot(fake, db_path(tmp_path), gate) as (app, run):
        ann, bob, cid = ALICE, BOB, MALLORY
        presses = Presses(fake, run)
        players = [Player(fake, run, u) for u in (ann, bob)]
        fixed_deal(monkeypatch, ROUND_SEED)  # its first round does not end the game
        show = await open_kozel(presses)
        run.idle = app.ctx.outbox.idle  # not app.idle, which waits for the round's pause: held here

        async def paused() -> bool:
            return bool(gate.asked)

        await play(app, players, 1, paused)  # the round's end on view, the next deal held
        await press_everything(presses, (cid, bob, ann), also=[show])
        gate.open.set()
        run.idle = app.idle
        await presses.slash(ann, "stop")  # the host stops it at once
        fixed_deal(monkeypatch, GAME_SEED)  # its first round ends the game

        async def finished() -> bool:
            return (await app.storage.table(2)).status == FINISHED

        show = await open_kozel(presses)
        await play(app, players, 2, finished)
        # the sheet's Play again (the rematch's lobby opens, the other confirms), and every old component
        await press_everything(presses, (cid, bob, ann), also=[show], skip=("l.", "s."))
        rematch = await app.storage.table(3)
        assert rematch.status == LOBBY and rematch.host_user_id is not None
        host_id = next(s.user.platform_id for s in rematch.seats if s.user and s.user_id == rematch.host_user_id)
        host = next(u for u in (ann, bob) if str(u.id) == host_id)
        await presses.slash(host, "stop")
        assert (await app.storage.table(3)).status != LOBBY
        await press_everything(presses, (cid, bob, ann), also=[show])  # stopped: every component once more
    assert {"a", "h", "p", "j"} <= presses.kinds, (presses.kinds, presses.checked)
    answered_once(fake)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# ------------------------------------------------------------------------------------------ the web table on Discord
class TimedPage(Page):
    """A page's socket that notes when each frame arrived."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        super().__init__(ws)
        self.arrived: list[float] = []

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.arrived.append(time.monotonic())
                self.frames.append(json.loads(msg.data))
                self._new.set()


@dataclass
class Taps:
    """Taps on the web table with the channel's buckets spent, each answer checked against the channel's writes."""

    fake: FakeDiscord
    run: Running
    checked: int = 0
    kinds: set[str] = field(default_factory=set)

    async def tap(self, page: TimedPage, payload: str) -> dict[str, Any]:
        self.fake.spend_channel(CHANNEL_ID)
        mark = len(self.fake.calls)
        answer = await page.press(payload)
        answered = page.arrived[page.frames.index(answer)]
        await self.run.settle()
        written = [c for c in self.fake.calls[mark:] if c.channel_write and c.status is not None and c.status < 300]
        early = [(c.method, c.path) for c in written if c.at < answered]
        assert not early, f"the tap {payload!r} was answered on the page after the channel writes {early}"
        self.checked += 1
        self.kinds.add(payload.split(".", 1)[0])
        return answer


def kinds(frame: dict[str, Any]) -> list[str]:
    """The kinds of the page's buttons beside the moves."""
    return [b["kind"] for b in frame["buttons"]]


def action_for(frame: dict[str, Any], code: str) -> str:
    """The payload of the page's action ``code`` (a Kozel tile whose two ends lead to the same game: its one
    action)."""
    payloads = [a["payload"] for a in frame["actions"]]
    exact = [p for p in payloads if p.split(".", 3)[3] == code]
    tile = code.partition(",l=")[2].partition(",")[0]
    same = [p for p in payloads if f",l={tile}," in p + ","]
    return (exact or same or payloads)[0]


async def test_a_tap_on_the_web_table_is_answered_on_its_page_before_the_channel_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fixed_deal(monkeypatch, GAME_SEED)  # its first round ends the game
    async with FakeDiscord(limits=LIMITS) as fake, bot(fake, db_path(tmp_path)) as (app, run):
        web_app = web.Application()
        webtable = install(web_app, app, bot_token=fake.token)
        runner = web.AppRunner(web_app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        url = f"http://127.0.0.1:{runner.addresses[0][1]}"
        try:
            presses = Presses(fake, run)
            await open_kozel(presses)
            taps = Taps(fake, run)
            async with aiohttp.ClientSession() as http:
                pages: dict[int, TimedPage] = {}
                for user in (ALICE, BOB):
                    session = webtable.sessions.issue(Session(User("discord", str(user.id), user.name, "en"), (1,)))
                    ws = await http.ws_connect(url + "/app/ws")
                    await ws.send_json({"type": "hello", "session": session})
                    pages[user.id] = page = TimedPage(ws)
                    page.start()
                    await page.wait(lambda f: f.get("type") == "table")
                ann, bob = pages[ALICE.id], pages[BOB.id]
                # a vote to stop, kept from the page: "The game goes on." before the channel's line and vote's edit
                await presses.slash(BOB, "stop")
                frame = await ann.wait(lambda f: f.get("type") == "table" and "stop_keep" in kinds(f))
                keep = next(b["payload"] for b in frame["buttons"] if b["kind"] == "stop_keep")
                assert (await taps.tap(ann, keep))["text"] == "The game goes on."
                # the round (and with it the game) played by taps, the normal computer player's moves
                for n in range(100):
                    rec = await app.storage.table(1)
                    if rec.status == FINISHED:
                        break
                    live = await app.live(rec)
                    seat = live.state.to_act
                    user_id = next(s.user.platform_id for s in rec.seats if s.seat == seat and s.user is not None)
                    page = pages[int(user_id)]
                    frame = await page.wait(lambda f, v=rec.version: f.get("type") == "table" and f["version"] == v)
                    action = ComputerPlayer("kozel", "normal", seed=n).decide(
                        live.state.view(seat), list(live.round_events)
                    )
                    answer = await taps.tap(page, action_for(frame, action.code()))
                    assert answer["type"] == "answer" and not answer.get("alert"), answer
                assert (await app.storage.table(1)).status == FINISHED
                # the finished game: Play again from both pages (the new lobby is posted, then edited)
                for page in (bob, ann):
                    frame = await page.wait(lambda f: f.get("type") == "table" and kinds(f) == ["play_again"])
                    again = frame["buttons"][0]["payload"]
                    assert (await taps.tap(page, again)).get("text")
                assert (await app.storage.table(2)).status == LOBBY
                for page in pages.values():
                    await page.close()
        finally:
            await runner.cleanup()
    assert {"a", "g", "p"} <= taps.kinds and taps.checked > 5, (taps.kinds, taps.checked)
    answered_once(fake)


async def test_the_daily_deal_s_command_and_every_press_of_it_are_answered_first(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """``/daily game:kozel`` posts the group's message of the day and starts the asker's attempt: his note ("your cards
    are in our private chat") comes before the channel's message, which may wait for its bucket (it came after it:
    the command posted first and waited); then every press of the day's games, the hands and the Stop buttons."""
    caplog.set_level(logging.WARNING)
    async with FakeDiscord(limits=LIMITS) as fake, bot(fake, db_path(tmp_path)) as (app, run):
        presses = Presses(fake, run)
        await presses.slash(ALICE, "daily", game="kozel")
        await press_everything(presses, (BOB, ALICE), skip=("Q.",))  # the day's games (Bob's attempts begin)
        mine = hand(fake, ALICE)
        assert mine is not None
        await presses.every(ALICE, mine)  # her newest choices
        await press_everything(presses, (BOB, ALICE, MALLORY))  # once more, the attempts' Stop buttons too
    assert {"D", "Q", "a", "h"} <= presses.kinds, (presses.kinds, presses.checked)
    answered_once(fake)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


COMMANDS: dict[str, dict[str, Any]] = {
    "join": {},
    "table": {},
    "score": {},
    "rules": {},
    "settings": {},
    "me": {},
    "top": {},
    "history": {},
    "export": {},
    "notify": {"state": "on"},
    "season": {"period": "month"},
    "lang": {"language": "en"},
    "help": {},
    "new": {"game": "kozel"},
    "leave": {},
    "stop": {},
}


async def test_every_command_in_a_lobby_and_in_play_is_answered_first(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with FakeDiscord(limits=LIMITS) as fake, bot(fake, db_path(tmp_path)) as (app, run):
        presses = Presses(fake, run)
        await presses.slash(ALICE, "new", game="kozel", players=2)
        for user in (MALLORY, BOB):  # a lobby: Bob joins, and leaves again at the end
            for name, options in COMMANDS.items():
                await presses.slash(user, name, **options)
        await presses.slash(BOB, "join")
        await presses.first(ALICE, lobby(fake), "s.")
        for user in (MALLORY, BOB):  # in play: Bob's seat goes to the computer, then his /stop asks for a vote
            for name, options in COMMANDS.items():
                await presses.slash(user, name, **options)
    answered_once(fake)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
