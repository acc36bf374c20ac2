"""Every chat flow of a seated player on the web table, through real HTTP and WebSockets on 127.0.0.1 over the real
application (issue 32): the frame offers 💡 (hints on, my turn), **Take my seat back** (while the computer plays my
seat: then no moves and no "your turn"), **Agree** / **Keep playing** while a vote to stop runs, and **🔁 Play
again** on a finished game; each goes through ``Application.press`` like the chat's button. A forged one, from a
spectator or from the page of another table, or a kind a page never sends, gets a notice and changes nothing."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest

from bot.app import create_application
from bot.app.rounds import REMATCH_OF
from bot.playground.port import room_key
from bot.port import Chat, Command
from bot.storage import ABANDONED, LOBBY, PLAYING
from tests.webapp_support import open_game, open_page, person, play_to_the_end, serve_webapp, session_for, settings_for

NOT_VALID = "This button is not valid."


@pytest.fixture
async def site(tmp_path: Path):
    app = await create_application(settings_for(tmp_path, round_pause=0))  # a game played to its end: no pauses
    await app.start()
    s = await serve_webapp(app, poll_interval=0.05)
    yield s
    await s.close()
    await app.close()


def kinds(frame: dict) -> list[str]:
    return [b["kind"] for b in frame["buttons"]]


def button(frame: dict, kind: str) -> dict:
    return next(b for b in frame["buttons"] if b["kind"] == kind)


async def pages(http, url: str, room: str, *names: str):
    return [await open_page(http, url, await session_for(http, url, name, room)) for name in names]


async def test_hints_and_the_vote_to_stop_from_the_page(site):
    anna, boris = person("Anna"), person("Boris")
    rec = await open_game(site.app, "den", anna, "kozel", 2, people=(boris,), hints=True)
    chat = Chat("playground", "den", title="den")
    async with aiohttp.ClientSession() as http:
        a, b, chen = await pages(http, site.url, "den", "Anna", "Boris", "Chen")
        for page in (a, b, chen):
            await page.wait(lambda f: f.get("type") == "table")
        mover, waiter = (a, b) if a.last_table()["your_turn"] else (b, a)
        frame = mover.last_table()
        # 💡 on the mover's page only, labelled as the chat's; it tells him alone and changes nothing
        assert kinds(frame) == ["hint"] and button(frame, "hint")["label"] == "💡 Hint"
        assert kinds(waiter.last_table()) == [] and kinds(chen.last_table()) == []
        hint = await mover.press(button(frame, "hint")["payload"])
        assert hint["alert"] and hint["text"].startswith("💡 The computer would play:")
        assert (await chen.press(button(frame, "hint")["payload"]))["text"] == "You are not playing at this table."
        assert (await site.app.storage.table(rec.id)).version == frame["version"]

        # Boris asks to stop (not the host: a vote); both players' pages show it, Anna with Agree
        await site.app.command(Command(boris, chat, "stop"))
        fa = await a.wait(lambda f: f.get("type") == "table" and "stop_keep" in kinds(f))
        fb = await b.wait(lambda f: f.get("type") == "table" and "stop_keep" in kinds(f))
        assert "A vote to stop the game: 1 of 2 players agree" in fa["prompt"]
        assert button(fa, "stop_agree")["label"] == "Agree (1 of 2)" and kinds(fb).count("stop_agree") == 0
        # a spectator's forged answer is refused, the vote stands
        assert (await chen.press(button(fa, "stop_keep")["payload"]))["text"] == (
            "Only the players of this table can answer."
        )
        assert (await site.app.storage.stop_votes(rec.id)).voters != ()
        # Anna keeps playing from her page: the vote ends, the buttons go
        assert (await a.press(button(fa, "stop_keep")["payload"]))["text"] == "The game goes on."
        said = [e["text"] for e in site.port.board.entries(room_key("den"))]  # the group learns it too
        assert said[-1] == "Anna wants to keep playing: the game goes on."
        await a.wait(lambda f: f.get("type") == "table" and not {"stop_keep", "stop_agree"} & set(kinds(f)))
        assert (await site.app.storage.stop_votes(rec.id)).voters == ()
        assert (await site.app.storage.table(rec.id)).status == PLAYING

        # asked again, Anna (the host) agrees from her page: the game is stopped
        await site.app.command(Command(boris, chat, "stop"))
        fa = await a.wait(lambda f: f.get("type") == "table" and "stop_agree" in kinds(f))
        await a.press(button(fa, "stop_agree")["payload"])
        stopped = await b.wait(lambda f: f.get("type") == "table" and f["status"] == "The game was stopped.")
        assert stopped["buttons"] == [] and (await site.app.storage.table(rec.id)).status == ABANDONED
        for page in (a, b, chen):
            await page.close()


async def test_the_computer_plays_for_a_leaver_until_he_takes_his_seat_back_from_the_page(site):
    anna, boris = person("Anna"), person("Boris")
    rec = await open_game(site.app, "den", anna, "thousand", 3, people=(boris,))
    async with aiohttp.ClientSession() as http:
        a, b, dan = await pages(http, site.url, "den", "Anna", "Boris", "Dan")
        await b.wait(lambda f: f.get("type") == "table")
        await site.app.command(Command(boris, Chat("playground", "den", title="den"), "leave"))
        away = await b.wait(lambda f: f.get("type") == "table" and "take_seat_back" in kinds(f))
        # no moves, never "your turn" (the page's title), and the words say why
        assert away["actions"] == [] and not away["your_turn"] and kinds(away) == ["take_seat_back"]
        assert away["prompt"].startswith("The computer plays for you.")
        assert all(not i["actions"] for i in away["hand"]["items"])
        payload = button(away, "take_seat_back")["payload"]
        assert (await dan.press(payload))["text"] == "You are not playing at this table."
        assert (await a.press(payload))["text"] == "Your seat is already yours."
        assert next(s for s in (await site.app.storage.table(rec.id)).seats if s.seat == away["seat"]).taken_over
        answer = await b.press(payload)
        assert answer["text"] == "Welcome back: your seat is yours again."
        await b.wait(lambda f: f.get("type") == "table" and "take_seat_back" not in kinds(f))
        assert not next(s for s in (await site.app.storage.table(rec.id)).seats if s.seat == away["seat"]).taken_over
        for page in (a, b, dan):
            await page.close()


async def test_play_again_from_the_page_and_forged_presses_of_other_tables_change_nothing(site, monkeypatch):
    monkeypatch.setattr("bot.webapp.hub.PRESS_RATE", 100)  # a dozen forgeries in a row, each judged on its own
    anna, boris, dan = person("Anna"), person("Boris"), person("Dan")
    den = await open_game(site.app, "den", anna, "kozel", 2, people=(boris,))
    hall = await open_game(site.app, "hall", dan, "kozel", 2)
    await site.app.command(Command(boris, Chat("playground", "den", title="den"), "stop"))  # a vote at den
    votes = await site.app.storage.stop_votes(den.id)
    stamp = int(votes.newest.timestamp())
    async with aiohttp.ClientSession() as http:
        (d,) = await pages(http, site.url, "hall", "Dan")
        await d.wait(lambda f: f.get("type") == "table" and f["table"] == hall.id)
        # presses of den's flows from hall's page, and kinds a page never sends, even of its own table
        forged = [
            f"y.{den.id}.{stamp}",
            f"g.{den.id}.{stamp}",
            f"p.{den.id}",
            f"i.{den.id}.{den.version}",
            f"k.{den.id}",
            f"a.{den.id}.{den.version}.pass",
            f"l.{hall.id}",
            f"s.{hall.id}",
            f"j.{hall.id}",
            f"c.{hall.id}.{hall.lobby_rev}.easy",
            "N.kozel",
            "y.x.1",
        ]
        for payload in forged:
            got = await d.press(payload)
            assert got["type"] == "answer" and got["text"] == NOT_VALID and got["alert"], payload
        after = await site.app.storage.table(den.id)
        assert (after.version, after.status) == (den.version, PLAYING)
        assert (await site.app.storage.stop_votes(den.id)).voters == votes.voters
        assert (await site.app.storage.table(hall.id)).status == PLAYING

        # hall's game to its end (Dan plays it the chat's way): his page offers Play again (a spectator's is
        # refused), and his press opens the lobby with the same seats while his page keeps the finished game
        (e,) = await pages(http, site.url, "hall", "Eve")
        done = await play_to_the_end(site.app, "hall", hall.id, (dan,))
        over = await d.wait(lambda f: f.get("type") == "table" and f["finished"] and f["buttons"])
        assert kinds(over) == ["play_again"] and button(over, "play_again")["label"] == "🔁 Play again"
        watched = await e.wait(lambda f: f.get("type") == "table" and f["finished"])
        assert watched["buttons"] == []
        payload = button(over, "play_again")["payload"]
        assert (await e.press(payload))["text"] == "Only the players of this table can answer."
        chat = await site.app.people.chat_rec(Chat("playground", "hall", title="hall"))
        assert await site.app.storage.open_table(chat.id) is None
        assert (await d.press(payload))["text"] == "You are in: the others confirm with one tap."
        lobby = await site.app.storage.open_table(chat.id)
        assert lobby is not None and lobby.status == LOBBY and lobby.options[REMATCH_OF] == done.id
        await site.app.idle()
        assert not any(f.get("type") == "none" for f in d.frames)  # the game over card stays
        for page in (d, e):
            await page.close()


async def test_an_agreement_from_the_page_shows_the_vote_s_new_count_in_the_group(site):
    anna, boris, cid, dan = (person(n) for n in ("Anna", "Boris", "Cid", "Dan"))
    rec = await open_game(site.app, "den", anna, "kozel", 4, people=(boris, cid, dan))
    async with aiohttp.ClientSession() as http:
        (a,) = await pages(http, site.url, "den", "Cid")  # not the host: his agreement is a vote
        await site.app.command(Command(boris, Chat("playground", "den", title="den"), "stop"))
        fa = await a.wait(lambda f: f.get("type") == "table" and "stop_agree" in kinds(f))
        assert button(fa, "stop_agree")["label"] == "Agree (1 of 4)"
        assert (await a.press(button(fa, "stop_agree")["payload"]))["text"] == "Your vote counts."
        await site.app.idle()
        group = site.port.board.entries(room_key("den"))
        assert group[-1]["text"].startswith("Cid wants to stop the game: 2 of 4 players agree")
        assert [b["label"] for row in group[-1]["buttons"] for b in row] == ["Agree (2 of 4)", "Keep playing"]
        fa = await a.wait(
            lambda f: f.get("type") == "table" and "stop_keep" in kinds(f) and "stop_agree" not in kinds(f)
        )
        assert "2 of 4" in fa["prompt"] and (await site.app.storage.table(rec.id)).status == PLAYING
        await a.close()
