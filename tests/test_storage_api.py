"""Storage round-trips on a real SQLite file and a real PostgreSQL database: people, chats, the lobby, moves,
seats, timers, the end of a game, and every refusal (typed, and nothing written)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from bot.storage import (
    ABANDONED,
    FINISHED,
    LOBBY,
    PLAYING,
    Conflict,
    InvalidInput,
    NotFound,
    Reach,
    SeatSpec,
    Storage,
    TableBusy,
)
from core import games
from core.rng import stream
from tests import storage_support
from tests.storage_support import next_move, play, setup_table

db_url = storage_support.db_url
storage = storage_support.storage


async def test_users_and_chats_are_upserted(storage: Storage):
    a = await storage.user("telegram", "42", "Ann", "ru")
    again = await storage.user("telegram", "42", "Ann K.")
    assert again.id == a.id and again.name == "Ann K." and again.language == "ru"  # kept unless given
    assert (await storage.user("telegram", "42", "Ann K.", "uk")).language == "uk"
    other = await storage.user("discord", "42", "Ann")
    assert other.id != a.id
    assert (await storage.set_user_language(a.id, "en")).language == "en"
    assert await storage.get_user(a.id) == (await storage.user("telegram", "42", "Ann K."))

    chat = await storage.chat("telegram", "-1", title="Kitchen", language="uk")
    topic = await storage.chat("telegram", "-1", thread="7", title="Thousand topic")
    assert topic.id != chat.id and topic.thread == "7" and chat.thread is None
    renamed = await storage.chat("telegram", "-1", title="Big kitchen")
    assert renamed.id == chat.id and renamed.title == "Big kitchen" and renamed.language == "uk"
    assert (await storage.chat("telegram", "-1")).title == "Big kitchen"  # no title given: kept
    assert (await storage.set_chat_language(chat.id, "ru")).language == "ru"
    out = await storage.set_chat_defaults(chat.id, "thousand", {"golden_round": True, "turn_timer": 60})
    out = await storage.set_chat_defaults(chat.id, "kozel", {"fish": "one"})
    assert out.defaults == {"thousand": {"golden_round": True, "turn_timer": 60}, "kozel": {"fish": "one"}}
    assert (await storage.get_chat(chat.id)).defaults == out.defaults


async def test_people_bad_input_is_refused(storage: Storage):
    chat = await storage.chat("telegram", "-1", title="Kitchen")
    for platform, platform_id in [("telegram", ""), ("", "1"), ("telegram", "9" * 129), ("x" * 33, "1")]:
        with pytest.raises(InvalidInput):
            await storage.user(platform, platform_id, "Nobody")
        with pytest.raises(InvalidInput):
            await storage.chat(platform, platform_id)
    with pytest.raises(InvalidInput):
        await storage.set_chat_language(chat.id, "not a language")
    with pytest.raises(NotFound):
        await storage.set_user_language(999, "en")
    with pytest.raises(InvalidInput) as err:
        await storage.set_chat_defaults(chat.id, "chess", {})
    assert err.value.code == "unknown_game"
    with pytest.raises(InvalidInput) as err:
        await storage.set_chat_defaults(chat.id, "thousand", {"golden_round": "yes"})
    assert err.value.code == "bad_option_value"
    assert (await storage.get_chat(chat.id)).defaults == {}


async def test_lobby_start_and_moves_round_trip(storage: Storage):
    chat = await storage.chat("discord", "guild-1", thread="channel-9", title="Cards")
    ann = await storage.user("discord", "1", "Ann")
    bob = await storage.user("discord", "2", "Bob")
    t = await storage.create_table(chat.id, "thousand", 3, {"golden_round": True}, "s-1", ann.id, [SeatSpec(0, ann.id)])
    assert (t.status, t.version, t.lobby_rev, t.state, t.game, t.players) == (LOBBY, 0, 0, None, "thousand", 3)
    assert t.created_at.tzinfo is not None and [s.user for s in t.seats] == [ann]
    assert (await storage.open_table(chat.id)) == t

    with pytest.raises(TableBusy):
        await storage.create_table(chat.id, "kozel", 2, {}, "s-2", bob.id, [SeatSpec(0, bob.id)])

    seats = [SeatSpec(0, ann.id), SeatSpec(1, bob.id), SeatSpec(2, computer="strong")]
    t2 = await storage.update_lobby(t.id, t.lobby_rev, seats=seats, options={"golden_round": False})
    assert t2.lobby_rev == 1 and t2.options == {"golden_round": False}
    assert [(s.seat, s.user_id, s.computer) for s in t2.seats] == [
        (0, ann.id, None),
        (1, bob.id, None),
        (2, None, "strong"),
    ]
    with pytest.raises(Conflict) as err:  # a second edit from the same, now stale, revision
        await storage.update_lobby(t.id, t.lobby_rev, players=4)
    assert err.value.code == "out_of_date"
    assert [x.id for x in await storage.tables_for_user(bob.id)] == [t.id]

    rules = games.get("thousand")
    state = rules.new_game(3, {"golden_round": False}, seed="s-1")
    deadline = datetime.now(UTC) + timedelta(minutes=2)
    t3 = await storage.start_table(t.id, t2.lobby_rev, state.to_json(), deadline, "turn")
    assert (t3.status, t3.version, t3.deadline_kind) == (PLAYING, 0, "turn")
    assert abs((t3.deadline - deadline).total_seconds()) < 0.001
    assert t3.options["golden_round"] is False and "bidding_floor" in t3.options  # conventions fixed at start
    assert rules.from_json(t3.state).to_json() == state.to_json()
    assert [x.id for x in await storage.playing_tables()] == [t.id]

    state, action = next_move(state, stream(1))
    state, _ = state.apply(action)
    t4 = await storage.commit_move(
        t.id,
        0,
        seat=action.seat,
        action=action.to_json(),
        actor_user_id=ann.id,
        by="player",
        state=state.to_json(),
        deadline=None,
        seat_updates={1: {"timeouts": 2, "private_ref": {"message_id": 5}}},
    )
    assert t4.version == 1 and t4.state == state.to_json() and t4.deadline is None
    assert (t4.seats[1].timeouts, t4.seats[1].private_ref) == (2, {"message_id": 5})
    loaded = await storage.table(t.id)
    assert loaded == t4
    [move] = await storage.moves(t.id)
    assert (move.seq, move.seat, move.action, move.actor_user_id, move.by) == (
        1,
        action.seat,
        action.to_json(),
        ann.id,
        "player",
    )
    assert move.at.tzinfo is not None

    t5 = await storage.update_seat(t.id, 2, taken_over=True)
    assert t5.seats[2].taken_over and t5.seats[1].private_ref == {"message_id": 5}  # private_ref kept
    t6 = await storage.update_seat(t.id, 1, private_ref=None, timeouts=0)
    assert (t6.seats[1].private_ref, t6.seats[1].timeouts) == (None, 0)
    await storage.set_message_ref(t.id, {"chat_id": "guild-1", "message_id": 77})
    assert (await storage.table(t.id)).message_ref == {"chat_id": "guild-1", "message_id": 77}


async def test_a_stale_move_loses_and_writes_nothing(storage: Storage):
    table, state = await setup_table(storage)
    rng = stream(3)
    state, action = next_move(state, rng)
    after, _ = state.apply(action)
    kwargs = dict(seat=action.seat, action=action.to_json(), actor_user_id=None, by="player", state=after.to_json())
    first = await storage.commit_move(table.id, 0, **kwargs)
    with pytest.raises(Conflict) as err:
        await storage.commit_move(table.id, 0, **kwargs)
    assert err.value.code == "out_of_date"
    assert len(await storage.moves(table.id)) == 1 and (await storage.table(table.id)) == first


async def test_concurrent_writers_in_one_process_store_one_move(storage: Storage):
    table, state = await setup_table(storage)
    state, action = next_move(state, stream(4))
    after, _ = state.apply(action)

    async def attempt() -> str:
        try:
            await storage.commit_move(
                table.id,
                0,
                seat=action.seat,
                action=action.to_json(),
                actor_user_id=None,
                by="player",
                state=after.to_json(),
            )
            return "ok"
        except Conflict:
            return "conflict"

    outcomes = await asyncio.gather(*(attempt() for _ in range(6)))
    assert sorted(outcomes) == ["conflict"] * 5 + ["ok"]
    assert [m.seq for m in await storage.moves(table.id)] == [1]


async def test_bad_moves_are_refused_and_nothing_is_written(storage: Storage):
    table, state = await setup_table(storage)
    before = await storage.table(table.id)
    state1, action = next_move(state, stream(5))
    after, _ = state1.apply(action)
    good = dict(actor_user_id=None, by="player", state=after.to_json())
    cases = [
        (NotFound, dict(table_id=99999, version=0, seat=action.seat, action=action.to_json(), **good)),
        (InvalidInput, dict(table_id=table.id, version=0, seat=5, action={**action.to_json(), "seat": 5}, **good)),
        (
            InvalidInput,
            dict(table_id=table.id, version=0, seat=action.seat, action={"seat": action.seat, "type": "fly"}, **good),
        ),
        (InvalidInput, dict(table_id=table.id, version=0, seat=action.seat, action={"seat": action.seat}, **good)),
        (InvalidInput, dict(table_id=table.id, version=0, seat=1 - action.seat, action=action.to_json(), **good)),
        (
            InvalidInput,
            dict(
                table_id=table.id,
                version=0,
                seat=action.seat,
                action=action.to_json(),
                seat_updates={7: {"timeouts": 1}},
                **good,
            ),
        ),
        (
            InvalidInput,
            dict(
                table_id=table.id,
                version=0,
                seat=action.seat,
                action=action.to_json(),
                actor_user_id=None,
                by="player",
                state=["not", "a", "state"],
            ),
        ),
    ]
    for error, kwargs in cases:
        table_id = kwargs.pop("table_id")
        version = kwargs.pop("version")
        with pytest.raises(error):
            await storage.commit_move(table_id, version, **kwargs)
    assert await storage.moves(table.id) == []
    assert await storage.table(table.id) == before
    for call in (
        storage.table(99999),
        storage.moves(99999),
        storage.abandon_table(99999),
        storage.record(99999),
        storage.set_message_ref(99999, None),
        storage.update_seat(99999, 0, timeouts=1),
    ):
        with pytest.raises(NotFound):
            await call
    with pytest.raises(InvalidInput):
        await storage.update_seat(table.id, 9, timeouts=1)


async def test_lobby_bad_input(storage: Storage):
    chat = await storage.chat("telegram", "-5")
    ann = await storage.user("telegram", "1", "Ann")
    for game, players, options, seats in [
        ("chess", 2, {}, []),
        ("kozel", 5, {}, []),
        ("kozel", 2, {"fish": "many"}, []),
        ("kozel", 2, {}, [SeatSpec(2, ann.id)]),
        ("kozel", 2, {}, [SeatSpec(0, ann.id), SeatSpec(1, ann.id)]),
        ("kozel", 2, {}, [SeatSpec(0, computer="genius")]),
        ("kozel", 2, {}, [SeatSpec(0)]),
    ]:
        with pytest.raises(InvalidInput):
            await storage.create_table(chat.id, game, players, options, "s", ann.id, seats)
    with pytest.raises(NotFound):
        await storage.create_table(chat.id, "kozel", 2, {}, "s", 12345, [])
    with pytest.raises(NotFound):
        await storage.create_table(99999, "kozel", 2, {}, "s", ann.id, [])
    assert await storage.open_table(chat.id) is None
    t = await storage.create_table(chat.id, "kozel", 3, {}, "s", ann.id, [SeatSpec(0, ann.id)])
    state = games.get("kozel").new_game(3, {}, seed="s")
    with pytest.raises(InvalidInput) as err:  # two seats are still empty
        await storage.start_table(t.id, t.lobby_rev, state.to_json())
    assert err.value.code == "seats_missing"
    with pytest.raises(InvalidInput):
        await storage.update_lobby(t.id, t.lobby_rev, players=4, options={"fish": 3})
    with pytest.raises(InvalidInput):
        await storage.start_table(t.id, t.lobby_rev, {"game": "kozel", "garbage": True})
    assert await storage.table(t.id) == t


async def test_timers_are_claimed_once_and_a_claim_leases_the_deadline(storage: Storage):
    now = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
    tables = []
    for i in range(6):
        table, _ = await setup_table(storage, chat=f"-{i}")
        tables.append(table)
    for i, table in enumerate(tables):
        await storage.set_deadline(table.id, 0, now + timedelta(seconds=i - 3), "turn" if i % 2 else "remind")
    with pytest.raises(Conflict):
        await storage.set_deadline(tables[0].id, 5, now, "turn")
    with pytest.raises(InvalidInput):
        await storage.set_deadline(tables[0].id, 0, now, "k" * 33)
    with pytest.raises(InvalidInput):
        await storage.set_deadline(tables[0].id, 0, now.replace(tzinfo=None), "turn")
    batches = await asyncio.gather(*(storage.claim_due(now) for _ in range(4)))
    claimed = sorted(t.id for batch in batches for t in batch)
    assert claimed == sorted(t.id for t in tables[:4])  # due at -3, -2, -1 and 0 seconds; each exactly once
    first = next(t for batch in batches for t in batch if t.id == tables[0].id)
    assert first.deadline == now - timedelta(seconds=3) and first.deadline_kind == "remind"
    leased = await storage.table(tables[0].id)  # until the claimer fires it, or its lease of 30 s runs out
    assert (leased.deadline, leased.deadline_kind) == (now + timedelta(seconds=30), "remind")
    assert await storage.claim_due(now) == []
    later = await storage.claim_due(now + timedelta(hours=1), limit=1)
    assert [t.id for t in later] == [tables[4].id]


def guild_on(shard: int) -> int:
    """A Discord guild id on shard ``shard`` of 3 (Discord's rule: ``(guild >> 22) % count``)."""
    base = 600_000_000_000_000_001 >> 22
    return ((base - base % 3 + shard) << 22) | 12345


async def test_a_worker_claims_and_resumes_only_what_it_can_publish(storage: Storage):
    """Issue 36: a due timer, a table to resume, a chat's season go only to a worker whose reach covers the chat:
    its platform, and for Discord its guild's shard (a guild not known yet: any Discord worker). The claim is
    still a lease: one that lapses goes to the next worker that covers the chat, never to another."""
    now = datetime(2031, 5, 1, 12, 0, tzinfo=UTC)
    assert [(guild_on(s) >> 22) % 3 for s in range(3)] == [0, 1, 2]
    unknown = await storage.chat("discord", "c-unknown", title="Old channel")  # stored before its guild was known
    assert unknown.guild is None
    places = {
        "telegram": await storage.chat("telegram", "-1", title="Kitchen"),
        "shard 0": await storage.chat("discord", "c0", title="Den", guild=guild_on(0)),
        "shard 1": await storage.chat("discord", "c1", title="Hall", guild=guild_on(1)),
        "alone on shard 1": await storage.chat("discord:solo", "u7", "3.deberts", "Hall", guild=guild_on(1)),
        "unknown": unknown,
    }
    assert (await storage.chat("discord", "c0")).guild == guild_on(0)  # kept when not given
    ann = await storage.user("telegram", "ann", "Ann")
    tables = {}
    for name, chat in places.items():
        table = await storage.create_table(
            chat.id, "kozel", 2, {}, "s", ann.id, [SeatSpec(0, ann.id), SeatSpec(1, computer="easy")]
        )
        state = games.get("kozel").new_game(2, {}, seed="s")
        tables[name] = await storage.start_table(
            table.id, table.lobby_rev, state.to_json(), now - timedelta(seconds=1), "remind"
        )
    telegram = Reach(frozenset({"telegram", "telegram:solo"}))
    first = Reach(
        frozenset({"discord", "discord:solo"}), {p: (3, frozenset({0, 2})) for p in ("discord", "discord:solo")}
    )
    second = Reach(
        frozenset({"discord", "discord:solo"}), {p: (3, frozenset({1})) for p in ("discord", "discord:solo")}
    )

    def names(recs) -> set[str]:
        return {n for n, t in tables.items() if t.id in {r.id for r in recs}}

    assert names(await storage.playing_tables(telegram)) == {"telegram"}
    assert names(await storage.playing_tables(first)) == {"shard 0", "unknown"}
    assert names(await storage.playing_tables(second)) == {"shard 1", "alone on shard 1", "unknown"}
    assert names(await storage.playing_tables()) == set(tables)  # no reach: every table (tools)
    assert await storage.claim_due(now, reach=Reach(frozenset({"playground"}))) == []
    assert names(await storage.claim_due(now, reach=telegram)) == {"telegram"}
    assert names(await storage.claim_due(now, reach=first)) == {"shard 0", "unknown"}
    assert names(await storage.claim_due(now, reach=second)) == {"shard 1", "alone on shard 1"}
    # the leases lapse: each timer goes again to a worker that covers its chat, and only to one
    later = now + timedelta(seconds=31)
    assert names(await storage.claim_due(later, reach=telegram)) == {"telegram"}
    assert names(await storage.claim_due(later, reach=second)) == {"shard 1", "alone on shard 1", "unknown"}
    assert names(await storage.claim_due(later, reach=first)) == {"shard 0"}
    # a chat's guild becomes known with its next command or press: from then on its shard's worker alone
    await storage.chat("discord", "c-unknown", guild=guild_on(2))
    assert names(await storage.claim_due(later + timedelta(seconds=31), reach=second)) == {
        "shard 1",
        "alone on shard 1",
    }
    assert names(await storage.claim_due(later + timedelta(seconds=31), reach=first)) == {"shard 0", "unknown"}
    # a season's summary: the chats with a finished game, of this worker's reach
    async with storage.engine.begin() as conn:
        await conn.execute(text("UPDATE game_tables SET status = 'finished'"))
    since = datetime(2000, 1, 1, tzinfo=UTC)
    assert await storage.active_chats(since, telegram) == [places["telegram"].id]
    assert await storage.active_chats(since, second) == [places["shard 1"].id]  # a table played alone has none
    assert await storage.active_chats(since, first) == sorted([places["shard 0"].id, unknown.id])
    for bad in (
        Reach(frozenset({"discord"}), {"discord": (3, frozenset({3}))}),
        Reach(frozenset({"discord"}), {"discord": (0, frozenset())}),
        Reach(frozenset({""})),
    ):
        with pytest.raises(InvalidInput):
            await storage.claim_due(now, reach=bad)
    with pytest.raises(InvalidInput):
        await storage.chat("discord", "c9", guild=-1)


async def test_finished_game_writes_results_and_ratings(storage: Storage):
    table, state = await setup_table(storage, "deberts", 2, seed="fin-1")
    table, state = await play(storage, table, state)
    assert table.status == FINISHED and state.finished and table.version == len(await storage.moves(table.id))
    results = await storage.results(table.id)
    assert [r.total for r in results] == state.totals
    users = [s.user_id for s in table.seats]
    ratings = await storage.ratings(table.chat_id, "deberts", users)
    assert set(ratings) == set(users) and all(r.games == 1 for r in ratings.values())
    with pytest.raises(Conflict):
        await storage.abandon_table(table.id)
    # a second game at the same chat: ratings are updated, games counted
    table2, state2 = await setup_table(storage, "deberts", 2, seed="fin-2")
    table2, state2 = await play(storage, table2, state2)
    again = await storage.ratings(table.chat_id, "deberts", users)
    assert all(r.games == 2 for r in again.values())


async def test_abandon_rates_nobody_and_frees_the_chat(storage: Storage):
    table, state = await setup_table(storage, "kozel", 2)
    table, state = await play(storage, table, state, moves=5)
    stopped = await storage.abandon_table(table.id)
    assert stopped.status == ABANDONED and stopped.version == 5
    assert await storage.results(table.id) == []
    assert await storage.ratings(table.chat_id, "kozel", [s.user_id for s in table.seats]) == {}
    assert await storage.open_table(table.chat_id) is None
    assert await storage.playing_tables() == []
    with pytest.raises(Conflict):
        await storage.commit_move(
            table.id,
            5,
            seat=0,
            action={"seat": 0, "type": "play", "tile": "0-0", "end": "left"},
            actor_user_id=None,
            by="player",
            state=state.to_json(),
        )
    table2, _ = await setup_table(storage, "kozel", 2, seed="again")
    assert table2.chat_id == table.chat_id and table2.status == PLAYING


async def test_versions_tells_where_each_table_is_in_one_read(storage: Storage):
    """What the web table's poll reads (one query for every watched table, docs/webapp.md "Several workers")."""
    first, state = await setup_table(storage, "kozel", 2, chat="-1")
    second, _ = await setup_table(storage, "deberts", 2, chat="-2")
    assert await storage.versions([]) == {}
    assert await storage.versions([first.id, second.id, 999999]) == {first.id: (0, PLAYING), second.id: (0, PLAYING)}
    first, _ = await play(storage, first, state, moves=3)
    assert await storage.versions([first.id]) == {first.id: (3, PLAYING)}
    with pytest.raises(InvalidInput):
        await storage.versions(["1"])  # type: ignore[list-item]
