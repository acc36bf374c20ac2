"""Every number that comes from outside (a button's payload, a private-start payload, a command's argument) is
range-checked against the database's signed 32-bit integer and refused as invalid, on every platform (issue 26
finding 11a: a forged ``t1000…0`` start crashed its handler with an ``OverflowError``)."""

from __future__ import annotations

import logging

import pytest

from bot import payloads
from bot.payloads import MAX_ID, Payload
from tests.app_support import db_path, make_world

HUGE = "1" + "0" * 30


def test_numbers_from_outside_fit_a_database_integer() -> None:
    assert MAX_ID == 2**31 - 1
    assert payloads.number(str(MAX_ID)) == MAX_ID and payloads.number("0") == 0
    for raw in (str(MAX_ID + 1), HUGE, "", "-1", "12a", "²", "١٢", " 12"):
        assert payloads.number(raw) is None, raw
    assert payloads.parse(f"j.{MAX_ID}") == Payload("j", table=MAX_ID)
    for text in (f"j.{MAX_ID + 1}", f"a.1.{MAX_ID + 1}.pass", f"a.{HUGE[:13]}.1.pass", f"r.1.1.{2**32}", f"h.{HUGE}"):
        assert payloads.parse(text) is None, text


@pytest.mark.parametrize("payload", [f"t{HUGE}", f"t{MAX_ID + 1}"])
async def test_a_forged_private_start_is_refused_as_invalid(tmp_path, caplog, payload: str) -> None:
    caplog.set_level(logging.WARNING)
    world = await make_world(db_path(tmp_path))
    try:
        mallory = world.user("Mallory")
        await mallory.open_private(payload)
        assert world.port.private(mallory.user.id)[-1].text == "This button is not valid."
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        await world.app.close()


async def test_an_export_number_out_of_range_is_no_such_game(tmp_path, caplog) -> None:
    world = await make_world(db_path(tmp_path))
    try:
        ann = world.user("Ann")
        await ann.say(world.chat, "export", HUGE)
        assert world.group()[-1].text == "No such game in this chat."
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    finally:
        await world.app.close()
