"""Issue 26, the chaos test: two webhook workers (real ``python -m bot`` processes) on PostgreSQL and Redis behind
a balancer, a fake Telegram that delivers slow updates again, several tables at once (people and computers, a
30 s turn timer), double, stale and re-delivered presses reaching different workers, one worker SIGKILLed right
after accepting an update and started again (``tests/chaos_scenario.py``).

The run happens once per test session (shared by the xdist workers through a lock file); each test asserts
one property of its report (``CHAOS_REPORT=path`` keeps a copy). A property the bot does not keep yet is
``xfail(strict=True)`` naming the finding of issue 26, so that the fix flips it. ``CHAOS_LONG=1`` plays
longer, with more tables.
"""

from __future__ import annotations

import asyncio
import fcntl
import json
import os
from collections import defaultdict
from typing import Any

import pytest

from bot.telegram.coordination import SLOT_LEASE
from testkit.cluster_support import percentile, redis_available
from tests.storage_support import PG_SKIP, PG_URL

LONG = os.environ.get("CHAOS_LONG") == "1"
WENT_WRONG = "Something went wrong"

pytestmark = pytest.mark.skipif(not PG_URL, reason=PG_SKIP)


@pytest.fixture(scope="session")
def chaos(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> dict[str, Any]:
    if not asyncio.run(redis_available()):
        pytest.skip("no Redis (REDIS_URL, default redis://127.0.0.1:6379/0)")
    from tests import chaos_scenario

    root = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        root = root.parent  # shared by the xdist workers of this session
    path = root / ("chaos-long.json" if LONG else "chaos.json")
    with open(root / "chaos.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            path.write_text(json.dumps(asyncio.run(chaos_scenario.run(long=LONG))))
    if os.environ.get("CHAOS_REPORT"):  # a copy to read (every press, answer, delay, move and group write)
        with open(os.environ["CHAOS_REPORT"], "w") as out:
            out.write(path.read_text())
    return json.loads(path.read_text())


def move_presses(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [p for p in report["presses"] if p["payload"] and p["payload"]["kind"] == "a"]


def stored(report: dict[str, Any], press: dict[str, Any]) -> bool:
    """The move of this press is in the log: at the press's version, that action, by the presser's seat."""
    p = press["payload"]
    table = report["tables"].get(str(p["table"]))
    if table is None or p["version"] is None:
        return False
    seats = {u: int(s) for s, u in table["seat_users"].items()}
    for m in table["moves"]:
        if m["seq"] == p["version"] + 1:
            return m["by"] == "player" and m["code"] == p["code"] and seats.get(press["user"]) == m["seat"]
    return False


def test_the_run_did_what_it_claims(chaos):
    """The scenario really played: tables moved, presses of every kind went to both workers, one worker was killed."""
    kinds = {p["kind"] for p in chaos["presses"]}
    assert {"plain", "double", "stale", "redelivered", "chooser"} <= kinds
    assert chaos["kills"] == 1 and chaos["redeliveries"] > 0
    assert {w for p in chaos["presses"] for w, _ in p["workers"]} == {0, 1}
    assert all(len(t["moves"]) > 0 for t in chaos["tables"].values())


def test_every_accepted_press_is_in_the_log_exactly_once(chaos):
    """A move press answered without a notice is stored; every stored move of a person came from a press."""
    accepted = [p for p in move_presses(chaos) if p["answer"] == ""]
    assert accepted
    lost = [p["data"] for p in accepted if not stored(chaos, p)]
    assert not lost, f"answered as done but not in the log: {lost}"
    pressed = defaultdict(set)
    for p in move_presses(chaos):
        pressed[(p["payload"]["table"], p["payload"]["version"] + 1, p["payload"]["code"])].add(p["user"])
    for table_id, table in chaos["tables"].items():
        seqs = [m["seq"] for m in table["moves"]]
        assert seqs == list(range(1, len(seqs) + 1)), f"table {table_id}: the log has gaps or doubles"
        for m in table["moves"]:
            if m["by"] == "player":
                assert (int(table_id), m["seq"], m["code"]) in pressed, f"table {table_id}: {m} came from nowhere"


def test_no_stored_move_is_answered_with_a_notice(chaos):
    """A press whose move is stored (with its key: this very press, on whichever worker) is answered as done,
    never "Already done" or "out of date", also when Telegram delivered it to both workers (finding 2)."""
    stored_presses = [p for p in move_presses(chaos) if p["stored"]]
    assert any(p["kind"] == "redelivered" for p in stored_presses)
    bad = [(p["kind"], p["data"], p["answer"]) for p in stored_presses if p["answer"] != ""]
    assert not bad, f"stored moves answered with a notice (or not at all): {bad}"
    for p in stored_presses:
        assert stored(chaos, p), f"{p['data']}: its key is stored but not its move"


def test_every_press_is_answered(chaos):
    delays = [p["delay_ms"] for p in chaos["presses"] if p["delay_ms"] is not None]
    print(
        f"answer delay over {len(delays)} presses: p50 {percentile(delays, 0.5)} ms, p99 {percentile(delays, 0.99)} "
        f"ms, max {max(delays)} ms"
    )
    unanswered = [(p["kind"], p["data"], p["workers"]) for p in chaos["presses"] if not p["answered"]]
    assert not unanswered, f"{len(unanswered)} presses never answered: {unanswered[:10]}"


def test_expected_conditions_are_notices_not_crashes(chaos):
    went_wrong = [(p["kind"], p["data"]) for p in chaos["presses"] if WENT_WRONG in (p["answer"] or "")]
    assert not went_wrong, f"answered '{WENT_WRONG}': {went_wrong}"
    assert chaos["tracebacks"] == 0, chaos["log_tail"]


def test_each_timer_fires_once_and_none_is_lost(chaos):
    """The idle player's 30 s timer ran out and the computer moved for him; a table where a person is to act
    has a deadline (a claimed timer that no worker fires is lost for good)."""
    idle = [t for t in chaos["tables"].values() if not t["active"]]
    assert any(m["by"] == "timeout" for t in idle for m in t["moves"])
    for table_id, t in chaos["tables"].items():
        if t["status"] == "playing" and t["person_to_act"]:
            assert t["deadline"] is not None, f"table {table_id}: a person is to act and no timer runs"


def test_no_table_is_marked_broken(chaos):
    assert {k: t["broken"] for k, t in chaos["tables"].items() if t["broken"]} == {}


def test_group_writes_are_one_second_apart(chaos):
    close = []
    for chat, writes in chaos["group_writes"].items():
        ats = [w["at"] for w in writes]
        close += [(chat, round(b - a, 3)) for a, b in zip(ats, ats[1:]) if b - a < 1.0]
    assert not close, f"group writes received less than 1 s apart: {close}"


def test_at_most_twenty_group_writes_a_minute(chaos):
    for chat, writes in chaos["group_writes"].items():
        ats = [w["at"] for w in writes]
        worst = max((sum(1 for y in ats if x <= y < x + 60) for x in ats), default=0)
        assert worst <= 20, f"group {chat}: {worst} writes in one minute"


def test_every_export_replays(chaos):
    for table_id, t in chaos["tables"].items():
        assert t["replay_code"] == 0, f"table {table_id}: {t['replay']}"


def test_every_quiet_moment_shows_the_current_table_and_hand(chaos):
    """Issue 36: each time the chats went quiet outside a round's pause, the person to act held the move buttons of
    the table's current version (never a live message without buttons, never an older version's), and the group's
    newest table message told the current table (unless the group had used Telegram's 20 writes a minute)."""
    # a worker SIGKILLed in the middle of a write holds that chat's write slot until its lease lapses (SLOT_LEASE,
    # 3 s, no longer renewed): the chat waits for it, so a look within that time after the kill is not counted
    lapsed = chaos["marks"]["killed"] + SLOT_LEASE + 2
    looks = [look for look in chaos["quiet_looks"] if look["at"] > lapsed]
    assert looks, "the chats never went quiet"
    seen = [(look["at"], t) for look in looks for t in look["tables"].values()]
    assert any(t["to_act_is_person"] for _, t in seen) and any(not t["group_window_full"] for _, t in seen)
    wrong_hands = [
        (at, t["version"], t["hand_versions"])
        for at, t in seen
        if t["to_act_is_person"] and (not t["hand_versions"] or set(t["hand_versions"]) != {t["version"]})
    ]
    assert not wrong_hands, f"(at, version, the buttons' versions the person to act held): {wrong_hands}"
    stale_tables = [(at, t["version"]) for at, t in seen if not t["group_window_full"] and not t["group_current"]]
    assert not stale_tables, f"the group showed an older table at (at, version): {stale_tables}"


def test_every_figure_of_the_run(chaos):
    """Issue 33: every figure the scenario computes is asserted. The chats settled; Telegram refused no answer;
    no worker met a busy table (``TableBusy``) nor let a write slot lapse in flight; every press was delivered at
    least once and forwarded by the balancer; the phases ran in order and play lasted as long as planned; each
    table's version is its log."""
    assert chaos["settled"], "the chats never went quiet after play"
    # a press the killed worker had in hand (delivered to it and delivered again) may have been answered by it
    # before it died: the worker that gets it again cannot know (Telegram refuses that second answer); no other
    # answer is refused
    killed = {p["query"] for p in chaos["presses"] if p["deliveries"] > 1 and any(w == 1 for w, _ in p["workers"])}
    refused = chaos["answers_refused_queries"]
    assert len(refused) == chaos["answers_refused"] and set(refused) <= killed, (refused, killed)
    assert chaos["table_busy_tracebacks"] == 0, chaos["log_tail"]
    assert chaos["slot_lapses"] == 0, chaos["log_tail"]  # every live worker renewed its write slots in time
    assert chaos["workers"] == 2
    assert chaos["played_s"] >= (150.0 if LONG else 25.0)
    assert chaos["forwards"] >= len(chaos["presses"]) + chaos["redeliveries"]
    for p in chaos["presses"]:
        assert p["deliveries"] >= 1 and p["workers"], p
        assert p["answered"] == (p["delay_ms"] is not None) and (p["delay_ms"] is None or p["delay_ms"] >= 0), p
        assert not p["stored"] or p["payload"]["kind"] == "a", p
    pressed = [p["pressed_at"] for p in chaos["presses"]]
    assert min(pressed) >= 0
    marks = chaos["marks"]
    order = ["up", "opened", "killed", "restarted", "played", "timed_out", "settled"]
    assert [marks[k] for k in order] == sorted(marks[k] for k in order), marks
    for table_id, t in chaos["tables"].items():
        assert t["version"] == len(t["moves"]), f"table {table_id}: version {t['version']}, {len(t['moves'])} moves"
        assert t["status"] in ("playing", "finished"), (table_id, t["status"])
    for chat, writes in chaos["group_writes"].items():
        assert writes and all(w["began"] <= w["at"] for w in writes), chat


def test_no_edit_changes_nothing(chaos):
    """Issue 36: two workers publishing the same content send it once: no edit is answered "message is not
    modified" (57 to 72 in a 240 s run before), each of which spent a write slot of the chat; only a write the
    killed worker had in flight may be sent twice (seen once in a full run)."""
    assert chaos["edits"] > 0
    # a killed worker's write in flight may have reached Telegram without the worker knowing it did: the next
    # worker sends that content once more. One write is in flight per chat at most (its write slot).
    chats = set(chaos["group_writes"]) | {u for t in chaos["tables"].values() for u in t["seat_users"].values()}
    assert chaos["not_modified"] <= chaos["kills"] * len(chats), chaos["not_modified"]
