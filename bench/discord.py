"""``python -m bench.discord``: how fast the Discord adapter acknowledges presses, and how it spares the table.

Against the fake Discord of the tests (real HTTP and websocket on 127.0.0.1, so the client, the JSON and the
sockets are all real), in one process:

* **acknowledgement**: ``--presses`` button presses on a table whose application takes ``--work`` seconds to
  decide and draw (an ``asyncio.sleep``, as if waiting for the database and the renderer). For each press the
  fake measures the time from pushing ``INTERACTION_CREATE`` to receiving the callback. Baseline, in the same
  run and alternating with it: a bare discord.py client that defers in its ``on_interaction`` and does
  nothing else. Goal: the adapter's worst case far below Discord's 3 s, and about the bare client's.
* **table edits**: the application edits one table ``--rate`` times a second for ``--seconds`` seconds (a fast
  computer game); the adapter's ``EditQueue`` (1 s interval) turns them into at most one edit per second, the
  last one showing the last content.

Last line: one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
from typing import Any

import discord

from bench import add_quick
from bot.port import Button, Message, Press
from testkit.discord_support import StandIn, running
from testkit.fake_discord import FakeDiscord, FakeUser, StoredMessage

USER = FakeUser(930_001, "bench")


class SlowApp(StandIn):
    """The stand-in application, taking ``work`` seconds over each press before answering."""

    def __init__(self, work: float) -> None:
        super().__init__()
        self.work = work

    async def press(self, press: Press) -> None:
        await asyncio.sleep(self.work)
        await self.port.answer(press)


class BareClient(discord.AutoShardedClient):
    """The baseline: defers every component interaction in ``on_interaction``, nothing more."""

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()


def _ms(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {
        "p50_ms": round(statistics.median(values) * 1000, 2),
        "p95_ms": round(values[max(0, int(len(values) * 0.95) - 1)] * 1000, 2),
        "max_ms": round(values[-1] * 1000, 2),
    }


async def _table(fake: FakeDiscord, run: Any) -> StoredMessage:
    rec = await fake.slash(USER, "new", {"game": "thousand"})
    await run.settle(rec)
    return fake.channel_messages()[-1]


async def acknowledgements(presses: int, work: float) -> tuple[list[float], list[float]]:
    adapter: list[float] = []
    bare: list[float] = []
    async with FakeDiscord() as fake:
        async with running(fake, SlowApp(work)) as run:
            table = await _table(fake, run)
            baseline = BareClient(intents=discord.Intents(guilds=True), guild_ready_timeout=0.05)
            # the bare client takes its own copy of the table, with a component it does not know
            plain = StoredMessage(table.id + 1, table.channel_id, components=[_row("bare:1")])
            fake.messages[plain.id] = plain
            for _ in range(presses):
                rec = await fake.click(USER, table, "Join")
                await asyncio.wait_for(rec.acked.wait(), 5)
                adapter.append(rec.acked_after or 0.0)
            await run.settle(limit=work * presses + 10)
        task = asyncio.create_task(baseline.start(fake.token))
        try:
            await asyncio.wait_for(baseline.wait_until_ready(), 10)
            for _ in range(presses):
                rec = await fake.raw_click(USER, plain, "bare:1")
                await asyncio.wait_for(rec.acked.wait(), 5)
                bare.append(rec.acked_after or 0.0)
        finally:
            await baseline.close()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
    return adapter, bare


def _row(custom_id: str) -> dict[str, Any]:
    return {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}


async def table_edits(rate: float, seconds: float) -> dict[str, Any]:
    async with FakeDiscord() as fake:
        app = StandIn()
        async with running(fake, app, edit_interval=1.0) as run:
            table = await _table(fake, run)
            assert app.table is not None
            before = table.edits
            total = int(rate * seconds)
            loop = asyncio.get_running_loop()
            start = loop.time()
            for n in range(total):
                await run.port.edit_public(app.table, Message(f"move {n}", buttons=((Button("Join", "j.1"),),)))
                await asyncio.sleep(max(0.0, start + (n + 1) / rate - loop.time()))
            await run.port.flush()
            made = table.edits - before
            times = fake.channel_edits[table.channel_id][-made:]
            gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
            return {
                "requested": total,
                "made": made,
                "min_gap_s": round(min(gaps), 3) if gaps else None,
                "last_shown": table.content == f"move {total - 1}",
            }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--work", type=float, default=0.05, help="seconds the application takes per press")
    parser.add_argument("--rate", type=float, default=20.0, help="table edits per second asked for")
    parser.add_argument("--seconds", type=float, default=3.0)
    add_quick(parser, presses=6, seconds=1.0)
    args = parser.parse_args()

    adapter, bare = asyncio.run(acknowledgements(args.presses, args.work))
    edits = asyncio.run(table_edits(args.rate, args.seconds))
    a, b = _ms(adapter), _ms(bare)
    ratio = round(statistics.median(adapter) / statistics.median(bare), 2) if statistics.median(bare) else None
    print(f"acknowledgement of {args.presses} presses (application works {args.work * 1000:.0f} ms per press)")
    print(f"{'':12}{'p50 ms':>10}{'p95 ms':>10}{'max ms':>10}")
    print(f"{'adapter':12}{a['p50_ms']:>10}{a['p95_ms']:>10}{a['max_ms']:>10}")
    print(f"{'bare client':12}{b['p50_ms']:>10}{b['p95_ms']:>10}{b['max_ms']:>10}")
    print(f"median ratio adapter / bare: {ratio}   (Discord's deadline: 3000 ms)")
    print(
        f"table edits: {edits['requested']} asked in {args.seconds:g} s, {edits['made']} made, "
        f"shortest gap {edits['min_gap_s']} s, last content shown: {edits['last_shown']}"
    )
    print(
        json.dumps(
            {
                "presses": args.presses,
                "work_s": args.work,
                "ack_adapter": a,
                "ack_bare": b,
                "ack_ratio_p50": ratio,
                "edits": edits,
                "edit_rate_asked": args.rate,
                "edit_seconds": args.seconds,
            }
        )
    )


if __name__ == "__main__":
    main()
