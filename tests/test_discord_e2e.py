"""End to end on Discord: the real application (``bot.app``, a temporary SQLite file) behind the real adapter,
a real discord.py client over HTTP and a websocket to the fake Discord. Users act only through what Discord
would show them: slash commands, the buttons of the table message, their own ephemeral messages."""

from __future__ import annotations

import contextlib
import os
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from bot.app import Application, create_application
from bot.config import Settings
from bot.storage import FINISHED, PLAYING
from core.ai import ComputerPlayer
from core.base import Action
from core.i18n import normalize, t
from core.thousand.cards import STRENGTH
from testkit.discord_support import Running, running
from testkit.fake_discord import FakeDiscord, FakeUser, InteractionRecord, Limits, StoredMessage
from tests.app_support import fixed_deal

ALICE = FakeUser(940_001, "alice")
BOB = FakeUser(940_002, "bob")
CAROL = FakeUser(940_003, "carol", locale="uk")
MALLORY = FakeUser(940_009, "mallory")
KOZEL_SEED = "00000000000000b1"
SEED = os.environ.get("DISCORD_E2E_SEED", "00000000000000a2")  # deals that end the race in ~20 s


@pytest.fixture
async def fake():
    # complete games edit the table after every move: the per-route buckets are off (the global limit stays; the
    # port and notice tests and the fake's own tests keep every limit)
    async with FakeDiscord(limits=Limits(per_channel_route=None)) as server:
        yield server


def settings(path: Path) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        database_url=f"sqlite+aiosqlite:///{path}",
        data_dir=path.parent,
        computer_pause=0,
        round_pause=0,
        tick_interval=0,
        think_cap=30,
    )


@contextlib.asynccontextmanager
async def bot(fake: FakeDiscord, path: Path) -> AsyncIterator[tuple[Application, Running]]:
    """The application over the SQLite file and the Discord adapter, both started; closed at the end."""
    app = await create_application(settings(path))
    try:
        async with running(fake, app) as run:
            run.idle = app.idle
            await app.start()
            yield app, run
            await app.idle()
            await run.settle()
    finally:
        await app.close()


def payload_of(custom_id: str) -> str:
    return custom_id.partition(":")[2]


class Player:
    """A Discord user who plays only with what he sees: the channel's table and his ephemeral messages."""

    def __init__(self, fake: FakeDiscord, run: Running, user: FakeUser) -> None:
        self.fake, self.run, self.user = fake, run, user
        self.records: list[InteractionRecord] = []

    async def act(self, rec: InteractionRecord) -> InteractionRecord:
        self.records.append(rec)
        await self.run.settle(rec)
        return rec

    async def slash(self, name: str, **options: Any) -> InteractionRecord:
        return await self.act(await self.fake.slash(self.user, name, options))

    async def click(self, message: StoredMessage, label: str) -> InteractionRecord:
        for b in message.buttons():
            if label in (b.get("label") or ""):
                return await self.act(await self.fake.click(self.user, message, b["custom_id"]))
        raise AssertionError(f"no {label!r} on {[b.get('label') for b in message.buttons()]}")

    def moves(self) -> list[Move]:
        """Every move control in my newest ephemeral message that has any (buttons and menu options)."""
        for msg in sorted(self.fake.ephemeral_for(self.user), key=lambda m: -m.id):
            out = [
                Move(msg, "button", b["label"], payload_of(b["custom_id"])) for b in msg.buttons() if "custom_id" in b
            ]
            out += [Move(msg, "option", o["label"], o["value"]) for s in msg.selects() for o in s["options"]]
            out = [m for m in out if m.payload.startswith(("a.", "u."))]
            if out:
                return out
        return []

    async def press(self, move: Move) -> None:
        if move.kind == "button":
            await self.act(await self.fake.click(self.user, move.message, move.label))
        else:
            await self.act(await self.fake.choose(self.user, move.message, move.label))


@dataclass(frozen=True)
class Move:
    message: StoredMessage
    kind: str  # "button" or "option"
    label: str
    payload: str

    @property
    def action(self) -> Action | None:
        if not self.payload.startswith("a."):
            return None
        return Action.parse(0, self.payload.split(".", 3)[3])


def random_policy(rng: random.Random) -> Policy:
    """Any move I was given; picker steps less often than final moves."""

    def choose(player: Player, moves: list[Move], totals: list[int], seat: int, advice: Action | None) -> Move:
        finals = [m for m in moves if m.action is not None]
        steps = [m for m in moves if m.action is None]
        return rng.choice(finals if finals and (not steps or rng.random() < 0.7) else steps or finals)

    return choose


def race_policy(rng: random.Random, runner: int) -> Policy:
    """Thousand, quickly to the end: the others bid high and concede, so that the runner's total climbs by
    half their contracts to the barrel (880); there the runner takes the contract at 120 while the others play
    their lowest cards and he plays as the strong computer player would advise him (``advice``)."""

    def choose(player: Player, moves: list[Move], totals: list[int], seat: int, advice: Action | None) -> Move:
        acts = [(m, m.action) for m in moves if m.action is not None]
        on_barrel = totals[runner] >= 880
        if advice is not None:
            advised = [m for m, a in acts if a.code() == advice.code()]
            if advised:
                return advised[0]

        def of(kind: str) -> list[tuple[Move, Action]]:
            return [(m, a) for m, a in acts if a.type == kind]

        if seat != runner and of("concede"):
            return of("concede")[0][0]
        if of("bid") or of("pass"):
            bids = sorted(of("bid"), key=lambda ma: ma[1].value or 0)
            wants = (seat == runner) == on_barrel
            if bids and wants:
                return bids[0][0] if seat == runner else bids[-1][0]
            if of("pass"):
                return of("pass")[0][0]
        if of("contract"):
            contracts = sorted(of("contract"), key=lambda ma: ma[1].value or 0)
            fit = [m for m, a in contracts if (a.value or 0) >= 1000 - totals[runner]]
            return fit[0] if fit else contracts[-1][0]
        if of("play"):
            plays = sorted(of("play"), key=lambda ma: STRENGTH.get(ma[1].card or "", 0))
            return plays[-1][0] if seat == runner else plays[0][0]
        return random_policy(rng)(player, moves, totals, seat, None)

    return choose


Advisor = Callable[[int, Any], Awaitable[Action | None]]
Policy = Callable[[Player, list[Move], list[int], int, Action | None], Move]


def table_message(fake: FakeDiscord) -> StoredMessage:
    """The newest channel message with "Show my hand" / "Show my tiles" (the table), else with "Join" (the lobby)."""
    for label in ("Show my", "Join"):
        for msg in sorted(fake.channel_messages(), key=lambda m: -m.id):
            if any(label in (b.get("label") or "") for b in msg.buttons()):
                return msg
    raise AssertionError(f"no table in {[m.content[:40] for m in fake.channel_messages()]}")


async def play_to_end(
    app: Application,
    players: list[Player],
    policy: Policy,
    advise: Advisor | None = None,
    limit: int = 2000,
    stop_early: bool = False,
) -> int:
    """The player whose turn it is presses one of the move controls he was given, as ``policy`` picks, until
    the game is over. Returns the number of presses."""
    presses = 0
    while presses < limit:
        await app.idle()
        await players[0].run.settle()
        rec = await app.storage.table(1)
        if rec.status != PLAYING:
            return presses
        live = await app.live(rec)
        seat = live.state.to_act
        seat_rec = next(s for s in rec.seats if s.seat == seat)
        assert seat_rec.user is not None, "only people sit at this table"
        player = next(p for p in players if str(p.user.id) == seat_rec.user.platform_id)
        moves = player.moves()
        assert moves, f"{player.user.name} is to act but was given nothing to press"
        advice = await advise(seat, live) if advise is not None else None
        await player.press(policy(player, moves, list(live.state.totals), seat, advice))
        presses += 1
    if stop_early:
        return presses
    raise AssertionError("the game did not end")


def all_acknowledged_in_time(fake: FakeDiscord) -> None:
    late = [r for r in fake.interactions.values() if not r.acked.is_set() or r.late]  # the fake refuses past 3 s
    assert late == [], f"{len(late)} interactions were not acknowledged within 3 s"


@pytest.mark.parametrize("seed", [SEED])
async def test_three_players_play_a_complete_thousand_with_ephemeral_hands(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: str
) -> None:
    # the same deals every run: the table's seed is fixed (only the application's, nobody else's randomness)
    fixed_deal(monkeypatch, seed)
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        alice, bob, carol = (Player(fake, run, u) for u in (ALICE, BOB, CAROL))
        await alice.slash("new", game="thousand", players=3)
        lobby = table_message(fake)
        await bob.click(lobby, "Join")
        await carol.click(lobby, "Join")
        await alice.click(table_message(fake), "Start")
        table = table_message(fake)
        assert any("Show my hand" in b["label"] for b in table.buttons())
        assert table.image() is not None
        # each player's hand came through his own latest interaction (his Join or Start press)
        for p in (alice, bob, carol):
            assert [m for m in fake.ephemeral_for(p.user) if m.image() is not None], (
                p.user.name,
                [(m.content[:50], [a.filename for a in m.attachments]) for m in fake.ephemeral_for(p.user)],
            )
        await bob.click(table, "Show my hand")  # and "Show my hand" shows it again, to him only
        assert fake.ephemeral_for(BOB)[-1].image() is not None
        # a foreign click: somebody not at the table asks for a hand
        await Player(fake, run, MALLORY).click(table, "Show my hand")
        assert fake.ephemeral_for(MALLORY)[-1].content == "You are not playing at this table."
        rec = await app.storage.table(1)
        runner = next(s.seat for s in rec.seats if s.user is not None and s.user.platform_id == str(ALICE.id))
        strong = ComputerPlayer("thousand", "strong", seed=7)

        async def advise(seat: int, live: Any) -> Action | None:
            if seat != runner or live.state.totals[runner] < 880:
                return None
            return strong.decide(live.state.view(seat), list(live.round_events))

        presses = await play_to_end(app, [alice, bob, carol], race_policy(random.Random(3), runner), advise)
        assert presses > 20
        final = sorted(fake.channel_messages(), key=lambda m: m.id)
        assert any("alice wins the game" in m.content for m in final), [m.content for m in final][-3:]
        # each hand went to its own player: Carol's in Ukrainian, the others' in English
        for p, title, other in (
            (alice, "Thousand", "Тисяча"),
            (bob, "Thousand", "Тисяча"),
            (carol, "Тисяча", "Thousand"),
        ):
            hands = [m for m in fake.ephemeral_for(p.user) if m.image() is not None]
            assert any(m.content.startswith(title) for m in hands), p.user.name
            assert not any(m.content.startswith(other) for m in hands), p.user.name
        all_acknowledged_in_time(fake)


async def open_thousand(fake: FakeDiscord, run: Running) -> tuple[Player, Player, Player]:
    alice, bob, carol = (Player(fake, run, u) for u in (ALICE, BOB, CAROL))
    await alice.slash("new", game="thousand", players=3)
    for p in (bob, carol):
        await p.click(table_message(fake), "Join")
    await alice.click(table_message(fake), "Start")
    return alice, bob, carol


async def test_kozel_with_computer_seats_to_the_end(
    fake: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = os.environ.get("DISCORD_E2E_KOZEL_SEED", KOZEL_SEED)
    fixed_deal(monkeypatch, seed)
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        alice = Player(fake, run, ALICE)
        await alice.slash("new", game="kozel", players=3)
        for _ in range(2):
            await alice.click(table_message(fake), "+🤖")
        await alice.click(table_message(fake), "Start")
        table = table_message(fake)
        presses = await play_to_end(app, [alice], random_policy(random.Random(5)))
        assert presses > 5
        rec = await app.storage.table(1)
        assert rec.status == FINISHED
        # the table followed the computers' moves too: edited in place within a deal, posted again below the
        # finished deal's sheet at each new deal
        tables = [m for m in fake.channel_messages() if "table.jpg" in m.shown_files]
        assert table in tables and sum(m.edits for m in tables) + len(tables) > presses
        all_acknowledged_in_time(fake)


async def test_a_stale_click_is_answered_and_changes_nothing(fake: FakeDiscord, tmp_path: Path) -> None:
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        players = await open_thousand(fake, run)
        rec = await app.storage.table(1)
        live = await app.live(rec)
        seat_user = next(s.user for s in rec.seats if s.seat == live.state.to_act)
        mover = next(p for p in players if str(p.user.id) == seat_user.platform_id)
        old = mover.moves()[0]
        await mover.press(next(m for m in mover.moves() if m.action is not None))
        version = (await app.storage.table(1)).version
        assert version > rec.version
        await mover.act(await fake.raw_click(mover.user, old.message, "t:" + old.payload))
        # a notice speaks the presser's own language (Carol's Discord is in Ukrainian)
        said = t(normalize(mover.user.locale), "This button is out of date: the game has moved on.")
        assert fake.ephemeral_for(mover.user)[-1].content == said
        assert (await app.storage.table(1)).version == version
        all_acknowledged_in_time(fake)


async def test_a_restart_mid_game_continues_with_the_old_buttons(fake: FakeDiscord, tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    async with bot(fake, path) as (app, run):
        alice, bob, carol = await open_thousand(fake, run)
        await play_to_end(app, [alice, bob, carol], random_policy(random.Random(1)), limit=6, stop_early=True)
        version = (await app.storage.table(1)).version
    table = table_message(fake)
    async with bot(fake, path) as (app, run):  # a new process: the same database, the same Discord messages
        players = [Player(fake, run, u) for u in (ALICE, BOB, CAROL)]
        rec = await app.storage.table(1)
        assert rec.version == version and rec.status == PLAYING
        live = await app.live(rec)
        seat_user = next(s.user for s in rec.seats if s.seat == live.state.to_act)
        mover = next(p for p in players if str(p.user.id) == seat_user.platform_id)
        await mover.click(table, "Show my hand")  # the old table's button, pressed after the restart
        assert fake.ephemeral_for(mover.user)[-1].image() is not None
        await play_to_end(app, players, random_policy(random.Random(2)), limit=6, stop_early=True)
        assert (await app.storage.table(1)).version > version  # the game went on
        # the same table message edited in place, unless a deal ended: then it is that deal's sheet
        assert table_message(fake).id == table.id or table.shown_files[-1] == "sheet.jpg"
        all_acknowledged_in_time(fake)


async def test_an_expired_hand_brings_an_invitation_that_shows_it_again(fake: FakeDiscord, tmp_path: Path) -> None:
    async with bot(fake, tmp_path / "bot.sqlite3") as (app, run):
        players = await open_thousand(fake, run)
        fake.advance(16 * 60)  # nobody did anything for 16 minutes: every interaction token is dead
        rec = await app.storage.table(1)
        live = await app.live(rec)
        seat_user = next(s.user for s in rec.seats if s.seat == live.state.to_act)
        mover = next(p for p in players if str(p.user.id) == seat_user.platform_id)
        # the one to act asks for his hand with a fresh press, and moves
        await mover.click(table_message(fake), "Show my hand")
        await mover.press(next(m for m in mover.moves() if m.action is not None))
        await app.idle()
        await run.settle()
        # a hand that could not be edited any more brings one invitation, in the channel, mentioning its player
        invitations = [m for m in fake.channel_messages() if m.content.startswith("<@")]
        assert len(invitations) == 1
        invited = [p for p in players if p is not mover and f"<@{p.user.id}>" in invitations[0].content]
        assert invited
        before = len(fake.ephemeral_for(invited[0].user))
        await invited[0].click(invitations[0], "Show my hand")
        fresh = fake.ephemeral_for(invited[0].user)
        assert len(fresh) > before and any(m.image() is not None for m in fresh[before:])
        all_acknowledged_in_time(fake)
