"""The one table of button kinds (``bot.payloads.KINDS``): each kind has a code that travels, a readable name the
application dispatches on, and exactly one handler in ``Application.press_handlers``."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot import payloads
from bot.app import Application
from bot.storage import Storage


def test_codes_and_names_are_one_to_one() -> None:
    names = [k.name for k in payloads.KINDS.values()]
    assert len(set(names)) == len(names) == len(payloads.KINDS)
    assert all(name.isidentifier() and len(name) > 1 for name in names)
    assert all(code == kind.code for code, kind in payloads.KINDS.items())


@pytest.mark.parametrize(
    ("text", "name"),
    [("j.17", "join"), ("a.17.42.play,c=QS", "move"), ("m.17.3.set", "settings_page"), ("N.kozel", "open_game")],
)
def test_a_payload_reads_back_with_its_readable_name(text: str, name: str) -> None:
    parsed = payloads.parse(text)
    assert parsed is not None and parsed.name == name and parsed.encode() == text


def test_make_takes_the_code_or_the_name() -> None:
    assert payloads.make("join", table=17) == payloads.make("j", table=17) == "j.17"
    assert payloads.make("seat_count", table=17, rev=3, number=4) == "n.17.3.4"


async def test_every_kind_has_one_handler(tmp_path: Path) -> None:
    storage = await Storage.open(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite'}", data_dir=tmp_path)
    app = Application(storage, tick_interval=0)
    try:
        assert set(app.press_handlers) == set(payloads.BY_NAME)
        commands = "new join leave stop table rules settings lang score top me history export help daily notify season"
        assert set(app.command_handlers) == set(commands.split())
    finally:
        await app.close()
