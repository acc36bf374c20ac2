"""The chaos run (issue 26): a cluster of webhook workers (``testkit.cluster_support``) plays several tables at once
while people press like people do on a bad day — double taps, stale buttons, Telegram delivering an update
twice to different workers — one worker is SIGKILLed right after accepting an update and started again, and
the chooser of a new game is pressed while a table is open. Seeded; bounded in time (``CHAOS_LONG=1`` plays
longer, with more tables).

``run(long)`` returns a JSON-able report of what was observed (presses and their answers, the move logs,
the group writes, the tables' timers, the replays of the records, the workers' logs, and what every player and
group held each time the chats went quiet: ``Watcher``); the tests in ``tests/test_cluster_chaos.py`` each
assert one property of it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from dataclasses import dataclass, field
from typing import Any

from bot import messages, payloads, texts
from bot.app.publishing import Publishing
from bot.live import replay
from bot.storage.integrity import core_options
from bot.telegram.coordination import SLOT_LEASE
from bot.telegram.flood import SLOT_LAPSED
from core import replay as core_replay
from core.base import Action
from core.i18n import normalize
from testkit.cluster_support import GROUP_WRITES, PREFIX, Cluster, hands_of
from testkit.fake_bot_api import FakeUser

TIMER = 30  # seconds: the shortest turn timer a host can choose
PLAY_S = 25.0  # seconds of play in CI (CHAOS_LONG: LONG_PLAY_S)
LONG_PLAY_S = 150.0
ANSWER_WAIT = 20.0  # seconds after play the presses still unanswered get to be answered
QUIET = 1.5  # seconds without a request to the Bot API: the chats have gone quiet (a private write waits 0.5 s)
WATCH_EVERY = 0.25  # seconds between two looks for a quiet moment
GROUP_WINDOW = 60.0  # a group full of writes in this window waits for Telegram, not for the bot
GROUP_PER_MINUTE = 20
WINDOW_MARGIN = 3  # writes the bot counted in a group's window that Telegram never saw (a killed worker's)


@dataclass
class TableSpec:
    chat_id: int
    title: str
    game: str
    players: int
    humans: list[tuple[int, str]]
    active: bool = True  # the people here press; else they sit idle and the timer plays for them
    table_id: int = 0
    users: list[FakeUser] = field(default_factory=list)


def tables(long: bool) -> list[TableSpec]:
    out = [
        TableSpec(-1001, "Kitchen", "thousand", 3, [(101, "Ann"), (102, "Bob"), (103, "Cid")]),
        TableSpec(-1002, "Garden", "deberts", 2, [(104, "Dan")]),
        TableSpec(-1003, "Attic", "kozel", 4, [(105, "Eve")], active=False),
    ]
    if long:
        out += [
            TableSpec(-1004, "Porch", "thousand", 3, [(106, "Fay"), (107, "Gus")]),
            TableSpec(-1005, "Cellar", "deberts", 3, [(108, "Hal"), (109, "Ida")]),  # Deberts seats 2 or 3
        ]
    return out


class Presser:
    """One person at an active table: presses a move on his screen every now and then, sometimes twice, sometimes
    an old button, sometimes Telegram delivers his press twice."""

    def __init__(self, cluster: Cluster, user: FakeUser, spec: TableSpec, rng: random.Random) -> None:
        self.cluster = cluster
        self.user = user
        self.spec = spec
        self.rng = rng
        self.seen: list[str] = []
        self.kinds: dict[str, str] = {}  # query id -> plain, double, stale, redelivered

    async def run(self, until: float) -> None:
        api = self.cluster.api
        while time.monotonic() < until:
            await asyncio.sleep(self.rng.uniform(0.15, 0.7))
            hands = hands_of(api, self.user, self.spec.table_id)
            if not hands:
                continue
            shown = hands[0]
            moves = [d for d in (b["callback_data"] for b in shown.callback_buttons()) if _kind(d) in ("a", "u")]
            moves = [d for d in moves if not d.endswith(".main")]
            if not moves:
                continue
            finals = [d for d in moves if _kind(d) == "a"]
            steps = [d for d in moves if _kind(d) == "u"]
            data = self.rng.choice(finals if finals and (not steps or self.rng.random() < 0.7) else steps or finals)
            roll = self.rng.random()
            try:
                query = api.press(self.user, shown.chat_id, shown.message_id, data)
            except ValueError:  # the message changed under the finger: nothing pressed
                continue
            self.kinds[query] = "plain"
            if roll < 0.15:  # a double tap: the same button again from the same screen
                await asyncio.sleep(self.rng.uniform(0, 0.05))
                self.kinds[api.press(self.user, shown.chat_id, shown.message_id, data, forged=True)] = "double"
            elif roll < 0.35:  # Telegram delivers the same update again (to the other worker, round robin)
                await asyncio.sleep(self.rng.uniform(0, 0.08))
                api.redeliver(api.queries[query]["update"])
                self.kinds[query] = "redelivered"
            elif roll < 0.45 and self.seen:  # a button of an older screen
                old = self.rng.choice(self.seen[-12:])
                self.kinds[api.press(self.user, shown.chat_id, shown.message_id, old, forged=True)] = "stale"
            self.seen.append(data)


def _kind(data: str) -> str | None:
    p = payloads.parse(data[len(PREFIX) :]) if data.startswith(PREFIX) else None
    return p.kind if p else None


class Watcher:
    """Every time the chats go quiet (no request to the Bot API for ``QUIET`` seconds), what each playing table
    shows outside a round's pause: the version of the buttons of the newest hand message the person to act
    holds, and whether the group's newest table message tells the current table. A look during which a table
    moved is dropped (it was not quiet); a group whose writes filled Telegram's window waits for Telegram."""

    def __init__(self, cluster: Cluster, specs: list[TableSpec]) -> None:
        self.cluster = cluster
        self.specs = specs
        self.looks: list[dict[str, Any]] = []
        self._seen_activity = -1.0

    async def run(self, until: float) -> None:
        api = self.cluster.api
        while time.monotonic() < until:
            await asyncio.sleep(WATCH_EVERY)
            quiet = time.monotonic() - api._last_activity
            if api._in_flight or api._pending_updates() or quiet < QUIET or api._last_activity == self._seen_activity:
                continue
            activity = api._last_activity
            look = await self.look()
            if api._last_activity == activity and look is not None:  # still quiet: nothing moved meanwhile
                self._seen_activity = activity
                self.looks.append(look)

    async def look(self) -> dict[str, Any] | None:
        api = self.cluster.api
        st = self.cluster.storage
        at = round(time.monotonic() - self.cluster.t0, 1)
        out: dict[str, Any] = {"at": at, "tables": {}}
        for spec in self.specs:
            if not spec.table_id:
                continue
            rec = await st.table(spec.table_id)
            if rec.status != "playing" or not isinstance(rec.message_ref, dict) or rec.deal_pending is not None:
                continue  # finished, or a round's end on view (its pause)
            moves = await st.moves(spec.table_id)
            live = replay(rec, moves, core_options(rec.game, rec.options))
            seat = next((s for s in rec.seats if s.seat == live.state.to_act), None)
            hand = None
            if seat is not None and seat.user is not None and not seat.taken_over:
                hand = self.hand_versions(int(seat.user.platform_id), spec.table_id)
            chat = await st.get_chat(rec.chat_id)
            lang = normalize(chat.language)
            title = f"{texts.game_name(rec.game, lang)} #{rec.id}"
            expected = messages.table_message(
                game=rec.game,
                table_id=rec.id,
                view=live.state.view(None),
                names=Publishing.names(rec, lang),
                seats=Publishing.infos(rec, lang),
                recent=live.this_round(),
                lang=lang,
                title=title,
            ).text
            shown = [m for m in api.visible(spec.chat_id) if m.text.startswith(title)]
            window = [c for c in api.calls_to(spec.chat_id, *GROUP_WRITES) if c.at > time.monotonic() - GROUP_WINDOW]
            current = bool(shown) and shown[-1].text.startswith(expected)
            out["tables"][str(spec.table_id)] = {
                "version": rec.version,
                "to_act_is_person": hand is not None,
                "hand_versions": hand,
                # notes (a timeout, a seat handed over) follow the caption: the table itself starts it
                "group_current": current,
                "group_shown": None if current else [m.text for m in shown[-2:]],  # to tell what went wrong
                "group_expected": None if current else expected,
                "group_window_full": len(window) >= GROUP_PER_MINUTE - WINDOW_MARGIN,
            }
            if (await st.table(spec.table_id)).version != rec.version:
                return None  # it moved while we looked
        return out

    def hand_versions(self, user_id: int, table_id: int) -> list[int | None]:
        """The versions of the move buttons on the newest private message of this table the user holds."""
        for shown in reversed(self.cluster.api.visible(user_id)):
            parsed = [_parsed(b["callback_data"]) for b in shown.callback_buttons()]
            mine = [p for p in parsed if p is not None and p.table == table_id]
            if shown.kind == "photo" and (mine or f"#{table_id}" in shown.text or "shown again" in shown.text):
                return [p.version for p in mine if p.kind in ("a", "u")]
        return []


def _parsed(data: str) -> payloads.Payload | None:
    return payloads.parse(data[len(PREFIX) :]) if data.startswith(PREFIX) else None


async def play(cluster: Cluster, long: bool, seed: int) -> dict[str, Any]:
    api = cluster.api
    marks: dict[str, float] = {"up": round(time.monotonic() - cluster.t0, 1)}
    rng = random.Random(seed)
    specs = tables(long)
    for spec in specs:
        api.add_group(spec.chat_id, spec.title)
        spec.users = [api.add_user(uid, name) for uid, name in spec.humans]
        await cluster.set_timer(spec.chat_id, spec.title, spec.game, TIMER)
    # the game chooser, left in the first group: pressed later, while that group's table plays
    first = specs[0]
    api.say(first.users[0], first.chat_id, "/new")
    await api.wait_for(lambda: any(cluster.buttons(s, "N") for s in api.visible(first.chat_id)), timeout=60)
    chooser = next(s for s in api.visible(first.chat_id) if cluster.buttons(s, "N"))

    async def open_one(spec: TableSpec) -> None:
        host, *joiners = spec.users
        spec.table_id = await cluster.open_table(
            spec.chat_id, spec.game, host, joiners, spec.players - len(spec.users), spec.players
        )

    await asyncio.gather(*(open_one(s) for s in specs))
    started = time.monotonic()
    marks["opened"] = round(started - cluster.t0, 1)
    duration = LONG_PLAY_S if long else PLAY_S
    until = started + duration
    pressers = [Presser(cluster, u, s, random.Random(rng.random())) for s in specs if s.active for u in s.users]
    tasks = [asyncio.create_task(p.run(until)) for p in pressers]
    watcher = Watcher(cluster, specs)
    watching = asyncio.create_task(watcher.run(float("inf")))
    chooser_queries = []
    with contextlib.suppress(TimeoutError):
        await asyncio.sleep(duration * 0.25)
        for game in ("deberts", "kozel"):
            data = next(d for d, p in cluster.buttons(chooser, "N") if p.code == game)
            chooser_queries.append(api.press(first.users[1], first.chat_id, chooser.message_id, data))
        await asyncio.sleep(duration * 0.2)
        # SIGKILL the second worker right after it accepted an update, then start it again
        await asyncio.wait_for(cluster.balancer.kill_after_accept(1), 30)
        marks["killed"] = round(time.monotonic() - cluster.t0, 1)
        await asyncio.sleep(2.0)
        await cluster.workers[1].start()
        await cluster.workers[1].wait_listening()
        marks["restarted"] = round(time.monotonic() - cluster.t0, 1)
    await asyncio.gather(*tasks)
    marks["played"] = round(time.monotonic() - cluster.t0, 1)
    idle = [s.table_id for s in specs if not s.active]
    for _ in range(int(2 * (TIMER + 15))):  # the idle players' timers run out (bounded: a lost timer never fires)
        moves = [await cluster.storage.moves(t) for t in idle]
        if all(any(m.by == "timeout" for m in ms) for ms in moves):
            break
        await asyncio.sleep(0.5)
    marks["timed_out"] = round(time.monotonic() - cluster.t0, 1)
    if "killed" in marks:  # the killed worker's write slots lapse (SLOT_LEASE) before the chats are looked at for good
        await asyncio.sleep(max(0.0, cluster.t0 + marks["killed"] + SLOT_LEASE + 2 - time.monotonic()))
    settled = True
    with contextlib.suppress(TimeoutError):  # a press still unanswered now is reported as such
        await api.wait_for(lambda: all(q in api.answers for q in api.queries), timeout=ANSWER_WAIT)
    try:
        # long enough for one turn timer more: an update the killed worker had claimed is refused (503) for its
        # lease, and the timers of the tables whose people stopped pressing fire about TIMER s after play
        await api.settle(quiet=QUIET, timeout=TIMER + 15)
    except TimeoutError:
        settled = False
    marks["settled"] = round(time.monotonic() - cluster.t0, 1)

    async def closing_look() -> None:
        """The end is a quiet moment too, looked at after the killed worker's slots lapsed (even when the watcher
        already saw this same quiet moment before they did)."""
        for _ in range(3):
            look = await watcher.look()
            if look is not None:
                watcher.looks.append(look)
                return
            await asyncio.sleep(QUIET)

    if settled:
        await closing_look()
    if settled and long:  # the long run's groups are busy to its end, their windows full at every look: one more
        # look once those windows passed and the group's waiting table edits went out
        await asyncio.sleep(GROUP_WINDOW)
        with contextlib.suppress(TimeoutError):
            await api.settle(quiet=QUIET, timeout=TIMER + 15)
        marks["windows_passed"] = round(time.monotonic() - cluster.t0, 1)
        await closing_look()
    watching.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await watching
    kinds: dict[str, str] = {}
    for p in pressers:
        kinds.update(p.kinds)
    for q in chooser_queries:
        kinds[q] = "chooser"
    out = await report(cluster, specs, kinds, settled, time.monotonic() - started)
    out["marks"] = marks
    out["quiet_looks"] = watcher.looks
    return out


async def report(
    cluster: Cluster, specs: list[TableSpec], kinds: dict[str, str], settled: bool, played_s: float
) -> dict[str, Any]:
    api = cluster.api
    st = cluster.storage
    presses = []
    for query, info in api.queries.items():
        update = api._sent[info["update"]]
        data = update["callback_query"]["data"]
        p = payloads.parse(data[len(PREFIX) :]) if data.startswith(PREFIX) else None
        answer = api.answers.get(query)
        served = api.served_at.get(info["update"])
        delay = None
        outcome = await st.press_outcome(f"telegram:{query}") if p is not None and p.kind == "a" else None
        if answer is not None and served is not None:
            delay = round((api.answered_at[query] - served) * 1000, 1)
        presses.append(
            {
                "query": query,
                "user": info["user"],
                "data": data,
                "kind": kinds.get(query, "setup"),
                "payload": None
                if p is None
                else {"kind": p.kind, "table": p.table, "version": p.version, "code": p.code},
                "answered": answer is not None,
                "stored": outcome is not None,  # the move stored with this very press's key
                "answer": None if answer is None else answer["text"],
                "delay_ms": delay,
                "deliveries": len(api.posted.get(info["update"], [])),
                "workers": [(f.worker, f.status) for f in cluster.balancer.forwards if f.update_id == info["update"]],
                "pressed_at": round(info["at"] - cluster.t0, 2),
            }
        )
    answer_calls = [c for c in api.calls if c.method == "answerCallbackQuery"]
    tables_out = {}
    for spec in specs:
        rec = await st.table(spec.table_id)
        moves = await st.moves(spec.table_id)
        seat_users = {s.seat: int(s.user.platform_id) for s in rec.seats if s.user is not None}
        to_act = None
        person_to_act = False
        if rec.status == "playing":
            live = replay(rec, moves, core_options(rec.game, rec.options))
            to_act = live.state.to_act
            seat = next((s for s in rec.seats if s.seat == to_act), None)
            person_to_act = seat is not None and seat.user is not None and not seat.taken_over
        try:
            record = await st.record(spec.table_id)
            code, replayed = core_replay.answer(json.dumps(record))
        except Exception as err:  # noqa: BLE001 - reported, the test says what failed
            code, replayed = 2, {"error": repr(err)}
        tables_out[str(spec.table_id)] = {
            "chat": spec.chat_id,
            "game": spec.game,
            "active": spec.active,
            "status": rec.status,
            "broken": rec.broken,
            "version": rec.version,
            "deadline": None if rec.deadline is None else rec.deadline.isoformat(),
            "person_to_act": person_to_act,
            "seat_users": {str(k): v for k, v in seat_users.items()},
            "moves": [
                {"seq": m.seq, "seat": m.seat, "code": Action.from_json(m.action).code(), "by": m.by} for m in moves
            ],
            "replay_code": code,
            "replay": replayed if code else {},
        }
    writes: dict[str, list[dict[str, Any]]] = {}
    for spec in specs:
        writes[str(spec.chat_id)] = [
            {"method": c.method, "at": round(c.at, 4), "began": round(c.began, 4)}
            for c in api.calls_to(spec.chat_id, *GROUP_WRITES)
            if c.ok
        ]
    logs = cluster.logs()
    return {
        "settled": settled,
        "played_s": round(played_s, 1),
        "workers": len(cluster.workers),
        "kills": sum(w.kills for w in cluster.workers),
        "presses": presses,
        "answers_refused": sum(1 for c in answer_calls if not c.ok),
        "answers_refused_queries": [str(c.params.get("callback_query_id")) for c in answer_calls if not c.ok],
        "redeliveries": len(api.redeliveries),
        # edits Telegram answered "message is not modified": the same content sent twice (issue 36, item 4)
        "not_modified": sum(1 for c in api.calls if c.status == 400 and "not modified" in str(c.result)),
        "edits": sum(1 for c in api.calls if c.method.startswith("edit")),
        "forwards": len(cluster.balancer.forwards),
        "tables": tables_out,
        "group_writes": writes,
        "tracebacks": logs.count("Traceback (most recent call last)"),
        "table_busy_tracebacks": logs.count("TableBusy"),
        # a live worker's write slot that lapsed (not renewed in time) while its request was in flight
        "slot_lapses": logs.count(SLOT_LAPSED),
        "log_tail": logs[-6000:],
    }


async def run(long: bool = False, seed: int = 26) -> dict[str, Any]:
    async with Cluster(workers_count=2, seed=seed, latency=(0.0, 0.3)) as cluster:
        return await play(cluster, long, seed)
