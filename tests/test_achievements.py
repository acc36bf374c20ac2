"""Achievements: each from a hand-built game (the events and score sheet a record replays to), the counts and the
daily streaks; live play tells them once under the final sheet and in ``me``, and the backfill gives the same set."""

from __future__ import annotations

import io
from types import SimpleNamespace

import pytest
from PIL import Image
from sqlalchemy import delete

from bot import achievements as ach
from bot.app.achievements import backfill
from bot.storage.models import ACHIEVEMENTS
from core.base import Event
from tests.app_support import db_path, make_world, open_table, play_to_end
from tests.test_app_daily import attempt_table, play_attempt, press_daily


def final(rows=(), totals=(0, 0, 0), loser=None):
    """A finished game's state as the achievements read it: its score sheet, totals and kozel."""
    return SimpleNamespace(view=lambda seat: {"score_sheet": list(rows)}, totals=list(totals), loser=loser)


def played(game="thousand", place=2, events=(), rows=(), totals=(0, 0, 0), loser=None, computers=()):
    return ach.Played(game, 0, place, list(events), final(rows, totals, loser), list(computers))  # type: ignore[arg-type]


ONE = ach.Counts(1, 0, frozenset({"thousand"}))
barrel_win = {"seat": 0, "type": "barrel_win", "value": 120}
barrel_try = {"seat": 0, "type": "barrel_attempt", "value": 0}
CASES = {
    "first_game": (played(), ONE),
    "first_win": (played(place=1), ach.Counts(1, 1, frozenset({"thousand"}))),
    "games_10": (played(), ach.Counts(10, 0, frozenset({"thousand"}))),
    "games_100": (played(), ach.Counts(100, 0, frozenset({"thousand"}))),
    "games_1000": (played(), ach.Counts(1000, 0, frozenset({"thousand"}))),
    "wins_10": (played(place=1), ach.Counts(12, 10, frozenset({"thousand"}))),
    "wins_100": (played(place=1), ach.Counts(300, 100, frozenset({"thousand"}))),
    "all_three": (played(), ach.Counts(3, 0, frozenset({"thousand", "deberts", "kozel"}))),
    "beat_strong": (played(place=1, computers=[None, "strong", "normal"]), ach.Counts(1, 1, frozenset({"thousand"}))),
    "t_contract_200": (played(rows=[{"declarer": 0, "made": True, "contract": 215, "totals": [215, 0, 0]}]), ONE),
    "t_barrel_first": (
        played(place=1, rows=[{"totals": [880, 0, 0], "notes": []}, {"totals": [1000, 0, 0], "notes": [barrel_win]}]),
        ONE,
    ),
    "t_comeback": (played(place=1, rows=[{"totals": [-120, 60, 60]}, {"totals": [1000, 300, 200]}]), ONE),
    "t_hearts": (played(events=[Event("marriage", 0, {"suit": "H", "points": 100})]), ONE),
    "d_bella_fifty": (
        played(
            "deberts",
            place=1,
            events=[
                Event("runs", 0, {"scorer": 0, "by_seat": [[{"kind": "berz", "top": "A", "points": 50}], []]}),
                Event("bella", 0, {"suit": "H", "points": 20}),
            ],
        ),
        ONE,
    ),
    "d_no_bait": (played("deberts", place=1, rows=[{"declarer": 0, "result": "made"}, {"declarer": 1}]), ONE),
    "d_sweep": (played("deberts", events=[Event("deal", 1, {})] + [Event("trick_won", 0, {})] * 9), ONE),
    "k_zero": (played("kozel", rows=[{"ending": "out", "by": 1}], totals=(0, 104), loser=1), ONE),
    "k_out_five": (played("kozel", rows=[{"ending": "out", "by": 0}] * 5, totals=(30, 101), loser=1), ONE),
    "k_fisherman": (played("kozel", events=[Event("fish", 0, {"value": 3})], totals=(5, 101), loser=1), ONE),
}
NEAR_MISSES = {
    "first_win": (played(place=2), ach.Counts(5, 0, frozenset({"thousand"}))),
    "t_contract_200": (played(rows=[{"declarer": 0, "made": False, "contract": 220, "totals": [-220, 0, 0]}]), ONE),
    "t_barrel_first": (
        played(place=1, rows=[{"totals": [880, 0, 0], "notes": [barrel_try]}, {"notes": [barrel_win]}]),
        ONE,
    ),
    "t_comeback": (played(place=2, rows=[{"totals": [-120, 60, 60]}]), ONE),
    "d_bella_fifty": (played("deberts", place=1, events=[Event("bella", 0, {"suit": "H"})]), ONE),
    "d_no_bait": (played("deberts", place=1, rows=[{"declarer": 0, "result": "bait"}]), ONE),
    "d_sweep": (played("deberts", events=[Event("trick_won", 0, {})] * 8 + [Event("trick_won", 1, {})]), ONE),
    "k_zero": (played("kozel", rows=[{"ending": "out", "by": 1}], totals=(0, 101), loser=0), ONE),
    "beat_strong": (played(place=1, computers=[None, "normal", "easy"]), ach.Counts(1, 1, frozenset({"thousand"}))),
}


def test_there_are_at_least_twenty_across_the_games_the_chat_and_the_daily_deal():
    assert len(ach.ACHIEVEMENTS) >= 20 and len(ach.BY_CODE) == len(ach.ACHIEVEMENTS)
    assert {a.game for a in ach.ACHIEVEMENTS} == {"all", "thousand", "deberts", "kozel", "daily"}
    assert set(CASES) | {"daily_first", "daily_3", "daily_7"} == set(ach.BY_CODE)


@pytest.mark.parametrize("code", sorted(CASES))
def test_each_achievement_from_a_hand_built_game(code):
    p, counts = CASES[code]
    assert code in ach.at_table(p, counts)


@pytest.mark.parametrize("code", sorted(NEAR_MISSES))
def test_a_near_miss_earns_nothing(code):
    p, counts = NEAR_MISSES[code]
    assert code not in ach.at_table(p, counts)


def test_daily_streaks():
    assert ach.by_daily([]) == []
    assert ach.by_daily(["2026-11-20"]) == ["daily_first"]
    assert ach.by_daily(["2026-11-20", "2026-11-22", "2026-11-23"]) == ["daily_first"]  # a day missed
    three = ["2026-11-21", "2026-11-22", "2026-11-23"]
    assert ach.by_daily(three) == ["daily_first", "daily_3"]
    week = [f"2026-11-{d:02d}" for d in range(24, 31)]
    assert ach.by_daily(["2026-11-01", *week]) == ["daily_first", "daily_3", "daily_7"]


async def test_live_play_tells_them_once_and_the_backfill_gives_the_same_set(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        for number in (1, 2):
            await open_table(world, "kozel", ["Ann", "Bob"], [], 2)
            await play_to_end(world, ["Ann", "Bob"], number)
            await world.app.idle()
        storage = world.app.storage
        chat = await storage.chat(world.chat.platform, world.chat.id, None)
        users = {n: await storage.user("fake", world.users[n].user.id, n) for n in ("Ann", "Bob")}
        live = {n: await storage.earned(chat.id, u.id) for n, u in users.items()}
        assert all(("first_game", 1) in got for got in live.values())
        winner = next(n for n, got in live.items() if ("first_win", 1) in got or ("first_win", 2) in got)
        sheets = [s for s in world.group() if s.message.image_name == "sheet.jpg" and "New for" in s.text]
        assert sheets and all(f"New for {n}: 🎲 First game" in sheets[0].text for n in ("Ann", "Bob"))
        assert not any("First game" in s.text for s in world.group()[world.group().index(sheets[0]) + 1 :])  # once
        await world.users[winner].say(world.chat, "me")
        me = world.group()[-1].message
        assert "🥇 First win" in me.text and me.image_name == "stats.jpg" and me.image is not None
        picture = Image.open(io.BytesIO(me.image))
        assert picture.format == "JPEG" and picture.width == 960  # one picture: charts, counts and the badges
        async with storage.db.write() as conn:
            await conn.execute(delete(ACHIEVEMENTS))
        assert await backfill(storage) == 2
        assert {n: await storage.earned(chat.id, u.id) for n, u in users.items()} == live
        assert await backfill(storage) == 2  # again: nothing changes
        assert {n: await storage.earned(chat.id, u.id) for n, u in users.items()} == live
    finally:
        await world.app.close()


async def test_the_daily_deal_tells_its_first_one_in_the_result_line(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        await press_daily(world, "Ann", "kozel")
        await play_attempt(world, "Ann", await attempt_table(world, "Ann", "kozel"))
        await world.app.idle()
        line = next(s for s in world.port.private(world.users["Ann"].user.id) if "Today's Kozel (" in s.text)
        assert "New for Ann: 📅 First daily deal" in line.text
    finally:
        await world.app.close()


def test_python_m_bot_achievements_backfill(tmp_path):
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env["DATA_DIR"] = str(tmp_path / "data")
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run(
        [sys.executable, "-m", "bot", "achievements", "--backfill"], cwd=root, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert "achievements computed for 0 finished games" in out.stdout
