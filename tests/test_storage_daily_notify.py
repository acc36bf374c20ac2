"""The daily deal's and "call me"'s storage on SQLite and PostgreSQL: one attempt a day claimed once, an attempt
ended once, the day's post claimed once; subscribers seated elsewhere left out (tables played alone aside)."""

from __future__ import annotations

from bot.storage import DAILY_DONE, DAILY_STOPPED, InvalidInput, SeatSpec, Storage
from tests import storage_support
from tests.storage_support import setup_table

db_url = storage_support.db_url


async def test_attempts_and_posts_are_claimed_once(db_url: str):
    st = await Storage.open(db_url)
    try:
        table, _state = await setup_table(st, "kozel", 2, seed="d-1")
        user = table.seats[0].user_id
        assert user is not None
        first, created = await st.claim_attempt(table.chat_id, "kozel", "2026-11-27", user)
        again, created_again = await st.claim_attempt(table.chat_id, "kozel", "2026-11-27", user)
        assert created and not created_again and again == first and first.name == "Player 0"
        await st.set_attempt_table(table.chat_id, "kozel", "2026-11-27", user, table.id)
        done = await st.end_attempt(table.id, DAILY_DONE, -4, {"k": "took", "v": 4})
        assert done is not None and done.status == DAILY_DONE and done.score == -4
        late = await st.end_attempt(table.id, DAILY_STOPPED, None, None)  # ended once: it stays done
        assert late is not None and late.status == DAILY_DONE and late.line == {"k": "took", "v": 4}
        assert await st.attempt_of_table(table.id) == late
        assert [a.game for a in await st.attempts(table.chat_id, day="2026-11-27")] == ["kozel"]
        assert await st.claim_post(table.chat_id, "2026-11-27") and not await st.claim_post(table.chat_id, "2026-11-27")
        assert await st.post_ref(table.chat_id, "2026-11-27") == (True, None)
        await st.set_post_ref(table.chat_id, "2026-11-27", {"message_id": "7"})
        assert await st.post_ref(table.chat_id, "2026-11-27") == (True, {"message_id": "7"})
        assert await st.post_ref(table.chat_id, "2026-11-28") == (False, None)
        for bad in ("27.11.2026", "tomorrow"):
            try:
                await st.claim_attempt(table.chat_id, "kozel", bad, user)
            except InvalidInput as err:
                assert err.code == "bad_day"
            else:
                raise AssertionError("a bad day was taken")
    finally:
        await st.close()


async def test_subscribers_seated_elsewhere_are_left_out(db_url: str):
    st = await Storage.open(db_url)
    try:
        table, _state = await setup_table(st, "kozel", 2, seed="n-1", chat="-200")  # Player 0 and 1 play there
        group = await st.chat("telegram", "-300", title="Group")
        free = await st.user("telegram", "free", "Free", "en")
        alone = await st.user("telegram", "alone", "Alone", "en")
        solo = await st.chat("telegram:solo", "alone", "5.kozel", "Group")
        await st.create_table(
            solo.id, "kozel", 2, {}, "s", alone.id, [SeatSpec(0, alone.id), SeatSpec(1, None, "normal")]
        )
        busy = table.seats[0].user_id
        assert busy is not None
        for uid in (busy, free.id, alone.id):
            await st.set_notify(group.id, uid, True)
        await st.set_notify(group.id, free.id, True)  # twice: still one subscription
        assert [u.name for u in await st.free_subscribers(group.id)] == ["Free", "Alone"]
        await st.set_notify(group.id, free.id, False)
        assert [u.name for u in await st.free_subscribers(group.id)] == ["Alone"]
        assert await st.notify_on(group.id, busy) and not await st.notify_on(group.id, free.id)
    finally:
        await st.close()
