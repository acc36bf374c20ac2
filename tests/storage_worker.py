"""A separate worker process for the storage tests: ``python -m tests.storage_worker URL MODE``.

MODE ``serve``: prints ``ready``, then for every JSON line on stdin performs one operation and prints one line:
``{"op": "commit", "table": id, "version": v, "seat": s, "action": {...}, "state": {...}}`` -> ``ok`` or
``conflict``; ``{"op": "claim", "now": iso}`` -> the claimed table ids as JSON.
MODE ``stream TABLE_ID``: plays the table on, move after move, printing ``committed V`` after each commit
(it is killed from outside in the middle).
"""

from __future__ import annotations

import asyncio
import json
import sys
from datetime import datetime

from bot.storage import Conflict, Storage
from core import games
from core.rng import stream
from tests.storage_support import next_move


async def serve(url: str) -> None:
    st = await Storage.open(url, migrate=False)
    await st.playing_tables()  # connected and warm
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        req = json.loads(line)
        if req["op"] == "commit":
            try:
                await st.commit_move(
                    req["table"],
                    req["version"],
                    seat=req["seat"],
                    action=req["action"],
                    actor_user_id=None,
                    by="player",
                    state=req["state"],
                )
                print("ok", flush=True)
            except Conflict:
                print("conflict", flush=True)
        elif req["op"] == "claim":
            claimed = await st.claim_due(datetime.fromisoformat(req["now"]))
            print(json.dumps([t.id for t in claimed]), flush=True)
    await st.close()


async def stream_moves(url: str, table_id: int) -> None:
    st = await Storage.open(url, migrate=False)
    table = await st.table(table_id)
    state = games.get(table.game).from_json(table.state)
    rng = stream(table_id, "kill")
    while not state.finished:
        state, action = next_move(state, rng)
        state, _events = state.apply(action)
        table = await st.commit_move(
            table.id,
            table.version,
            seat=action.seat,
            action=action.to_json(),
            actor_user_id=None,
            by="player",
            state=state.to_json(),
        )
        print(f"committed {table.version}", flush=True)
    await st.close()


if __name__ == "__main__":
    url, mode = sys.argv[1], sys.argv[2]
    if mode == "serve":
        asyncio.run(serve(url))
    else:
        asyncio.run(stream_moves(url, int(sys.argv[3])))
