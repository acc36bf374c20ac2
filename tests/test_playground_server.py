"""The playground over real HTTP and WebSockets on 127.0.0.1, with a recording stand-in application:
the page and its files, what each tab sees, pictures and files, and refused frames that change nothing."""

from __future__ import annotations

import asyncio
import io
import json
from typing import Any

import aiohttp
import pytest
from PIL import Image

from bot.playground import PlaygroundPort, start_site
from bot.port import Message, MessageRef, Unreachable, User
from tests.playground_support import STALE, StandIn


class Tab:
    """One browser tab's WebSocket, keeping every frame it received."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.req = 0

    async def send(self, frame: dict[str, Any] | str) -> None:
        await self.ws.send_str(frame if isinstance(frame, str) else json.dumps(frame))

    async def expect(self, kind: str, timeout: float = 5.0, **match: Any) -> dict[str, Any]:
        async def wait() -> dict[str, Any]:
            while True:
                frame = json.loads((await self.ws.receive()).data)
                self.frames.append(frame)
                if frame["type"] == kind and all(frame.get(k) == v for k, v in match.items()):
                    return frame

        return await asyncio.wait_for(wait(), timeout)

    async def quiet(self, seconds: float = 0.3) -> list[dict[str, Any]]:
        """Frames that arrive within ``seconds`` (none expected, usually)."""
        got = []
        try:
            while True:
                msg = await asyncio.wait_for(self.ws.receive(), seconds)
                got.append(json.loads(msg.data))
        except TimeoutError:
            return got

    async def command(self, text: str, where: str = "group") -> int:
        self.req += 1
        await self.send({"type": "command", "req": self.req, "where": where, "text": text})
        return self.req

    async def press(self, message: str, payload: str) -> int:
        self.req += 1
        await self.send({"type": "press", "req": self.req, "message": message, "payload": payload})
        return self.req


@pytest.fixture
async def playground():
    app = StandIn()
    port = PlaygroundPort(edit_interval=0.05)
    app.attach(port)
    runner, url = await start_site(app, port, "127.0.0.1", 0)
    session = aiohttp.ClientSession()
    tabs: list[Tab] = []

    async def open_tab(name: str, room: str = "kitchen", lang: str = "en") -> Tab:
        tab = Tab(await session.ws_connect(url + "ws"))
        tabs.append(tab)
        await tab.send({"type": "hello", "room": room, "name": name, "lang": lang})
        await tab.expect("snapshot")
        return tab

    yield app, port, url, session, open_tab
    for tab in tabs:
        await tab.ws.close()
    await session.close()
    await runner.cleanup()


def bot_messages(frame: dict[str, Any]) -> list[dict[str, Any]]:
    return [e for e in frame["entries"] if e["kind"] == "message"]


async def next_message(tab: Tab, box: str = "group") -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The next bot message pushed to a pane, and every entry pushed up to it (typed lines included)."""
    seen: list[dict[str, Any]] = []
    while True:
        frame = await tab.expect("upsert", box=box)
        seen += frame["entries"]
        if found := bot_messages(frame):
            return found[-1], seen


async def open_table(app: StandIn, tab: Tab, game: str = "thousand") -> dict[str, Any]:
    """``/new`` typed in the tab (the host sits down), then the lobby's buttons: computers, start; the table."""
    await tab.command(f"/new {game}")
    lobby_entry, _ = await next_message(tab)
    lobby = app.lobbies["kitchen"]
    while len(lobby.sitting) < lobby.seats:
        await tab.press(lobby_entry["id"], f"c.1.{lobby.rev}.normal")
        await tab.expect("answer")
    await tab.press(lobby_entry["id"], "s.1")
    table, _ = await next_message(tab)
    while not table["text"].startswith("Table"):
        table, _ = await next_message(tab)
    return table


async def test_page_files_and_start_panel_data(playground):
    _, _, url, session, _ = playground
    async with session.get(url) as r:
        html = await r.text()
        assert r.status == 200 and 'data-box="group"' in html and 'data-box="private"' in html
    for name in ("app.js", "style.css", "favicon.svg"):
        async with session.get(url + "static/" + name) as r:
            assert r.status == 200 and len(await r.read()) > 100
    async with session.get(url + "static/..%2Fport.py") as r:
        assert r.status == 404
    async with session.get(url + "api/games") as r:
        data = await r.json()
    by_name = {g["name"]: g for g in data["games"]}
    assert set(by_name) == {"thousand", "deberts", "kozel"}
    assert (by_name["deberts"]["min_players"], by_name["deberts"]["max_players"]) == (2, 3)
    assert data["levels"] == ["easy", "normal", "strong"]


async def test_command_reaches_the_application_and_the_table_reaches_every_tab(playground):
    app, _, url, session, open_tab = playground
    anna = await open_tab("Anna")
    boris = await open_tab("Boris")
    await anna.command("/new@tablebot   thousand ")
    lobby, seen = await next_message(boris)
    said = seen[0]
    assert (said["kind"], said["user"], said["text"]) == ("said", "Anna", "/new@tablebot thousand")
    assert lobby["text"].startswith("thousand: a table for 3")
    table = await open_table(app, anna)
    while (await next_message(boris))[0]["text"] != table["text"]:
        pass
    cmd = app.commands[0]
    assert (cmd.name, cmd.args, cmd.chat.platform, cmd.chat.id, cmd.user.name) == (
        "new",
        "thousand",
        "playground",
        "kitchen",
        "Anna",
    )
    assert [[b["payload"] for b in row] for row in table["buttons"]] == [["h"], ["m.0", "s.0"]]
    async with session.get(url + "media/" + table["image"]) as r:
        assert r.headers["Content-Type"] == "image/jpeg"
        picture = Image.open(io.BytesIO(await r.read()))
        assert picture.format == "JPEG" and picture.size == (240, 120)
    async with session.get(url + "media/not-a-token") as r:
        assert r.status == 404
    # a tab opened later gets the room as it is
    late = await open_tab("Vera")
    snap = [f for f in late.frames if f["type"] == "snapshot"][-1]
    assert [e["id"] for e in snap["group"]][-1] == table["id"] and snap["private"] == []


async def test_hand_goes_to_its_owner_only_in_each_of_his_tabs(playground):
    app, _, _, _, open_tab = playground
    anna = await open_tab("Anna")
    anna_again = await open_tab("ANNA")  # same player, another tab
    boris = await open_tab("Boris")
    table = await open_table(app, anna, "kozel")
    req = await anna.press(table["id"], "h")
    hand, _ = await next_message(anna_again, "private")
    assert hand["text"] == "Anna's hand" and hand["image"]
    answer = await anna.expect("answer", req=req)
    assert answer["text"] is None
    press = app.presses[-1]
    assert press.message == MessageRef("playground", "kitchen", table["id"])
    assert press.chat.id == "kitchen" and press.user.id == "anna"
    assert not [f for f in await boris.quiet() if f.get("box") == "private"]


async def test_edits_replace_the_same_message_and_coalesce(playground):
    app, port, _, _, open_tab = playground
    anna = await open_tab("Anna")
    table = await open_table(app, anna)
    ref = app.tables["kitchen"]
    for i in range(30):
        ref = await port.edit_public(ref, Message(text=f"edit {i}"))
    assert ref.message_id == table["id"]
    frames = [f for f in await anna.quiet(0.4) if f["type"] == "upsert"]
    assert 1 <= len(frames) <= 3  # 30 edits within one interval: pushed once or twice, not 30 times
    final = frames[-1]["entries"][-1]
    assert (final["id"], final["text"], final["version"]) == (table["id"], "edit 29", 30)


async def test_stale_and_forged_presses_get_a_notice_and_change_nothing(playground):
    app, port, _, _, open_tab = playground
    anna = await open_tab("Anna")
    table = await open_table(app, anna)
    mid = table["id"]
    req = await anna.press(mid, "m.0")
    assert (await anna.expect("answer", req=req))["text"] == "Moved"
    before = json.dumps(port.board.entries("room:kitchen"))
    req = await anna.press(mid, "m.0")  # the same button again: stale
    assert (await anna.expect("answer", req=req)) == {"type": "answer", "req": req, "text": STALE, "alert": False}
    presses = len(app.presses)
    for bad in (
        {"type": "press", "req": 50, "message": mid, "payload": "m 1"},
        {"type": "press", "req": 51, "message": mid, "payload": "x" * 57},
        {"type": "press", "req": 52, "message": "../etc", "payload": "m.1"},
        {"type": "press", "req": 53, "message": mid},
        {"type": "start", "req": 54, "payload": "has space"},
    ):
        await anna.send(bad)
        error = await anna.expect("error", req=bad["req"])
        assert error["code"] in ("bad_button", "bad_request")
    await anna.send("not json")
    assert (await anna.expect("error"))["code"] == "bad_request"
    await anna.send(json.dumps({"type": "command", "text": "x" * 400}))
    assert (await anna.expect("error"))["code"] == "too_long"
    await anna.command("/fly away")
    assert (await anna.expect("error"))["code"] == "unknown_command"
    assert len(app.presses) == presses and app.moves["kitchen"] == 1
    assert json.dumps(port.board.entries("room:kitchen")) == before


async def test_frames_before_hello_and_cross_site_sockets_are_refused(playground):
    app, _, url, session, _ = playground
    ws = await session.ws_connect(url + "ws")
    await ws.send_str(json.dumps({"type": "command", "req": 1, "text": "/help"}))
    assert json.loads((await ws.receive()).data) == {"type": "error", "code": "no_hello", "req": 1}
    await ws.send_str(json.dumps({"type": "hello", "room": "Bad Room!", "name": "A", "lang": "en"}))
    assert json.loads((await ws.receive()).data)["code"] == "bad_hello"
    await ws.close()
    assert app.commands == []
    with pytest.raises(aiohttp.WSServerHandshakeError) as e:
        await session.ws_connect(url + "ws", headers={"Origin": "http://evil.example"})
    assert e.value.status == 403


async def test_private_commands_documents_and_invitations(playground):
    app, port, url, session, open_tab = playground
    anna = await open_tab("Anna", lang="ru")
    await anna.command("/export", where="private")
    exported, seen = await next_message(anna, "private")
    assert seen[0]["kind"] == "said"
    doc = exported["document"]
    assert app.commands[0].chat is None and app.commands[0].user.language == "ru"
    async with session.get(f"{url}media/{doc['token']}/{doc['filename']}") as r:
        assert r.headers["Content-Disposition"] == 'attachment; filename="game.json"'
        assert json.loads(await r.read()) == {"game": "thousand"}
    # nobody by that name has opened a tab: the port cannot reach him
    ghost = User("playground", "ghost", "Ghost")
    with pytest.raises(Unreachable):
        await port.send_private(ghost, Message(text="hand"))
    with pytest.raises(Unreachable):
        await port.edit_private(ghost, MessageRef("playground", "ghost", "x-1", extra="private"), Message(text="h"))
    chat = port.chat("kitchen")
    await port.invite_private(chat, ghost, Message(text="Ghost, open your pane"), "tbl-7_x")
    invite = (await anna.expect("upsert", box="group"))["entries"][-1]
    assert invite["invite"] == {"payload": "tbl-7_x", "user": "Ghost", "user_id": "ghost"}
    await anna.send({"type": "start", "req": 9, "payload": "tbl-7_x"})
    await anna.expect("upsert", box="private")
    assert app.starts[0].payload == "tbl-7_x" and app.starts[0].user.name == "Anna"


async def test_references_from_before_a_restart_show_the_message_again(playground):
    _, port, _, _, open_tab = playground
    anna = await open_tab("Anna")
    old = MessageRef("playground", "kitchen", "abcdef-12")
    new = await port.edit_public(old, Message(text="table after restart"))
    assert new.chat_id == "kitchen" and new.message_id != old.message_id
    entry = (await anna.expect("upsert", box="group"))["entries"][-1]
    assert (entry["id"], entry["text"]) == (new.message_id, "table after restart")
    user = User("playground", "anna", "Anna")
    mine = await port.edit_private(
        user, MessageRef("playground", "anna", "abcdef-13", extra="private"), Message(text="hand again")
    )
    assert (await anna.expect("upsert", box="private"))["entries"][-1]["id"] == mine.message_id


async def test_serve_attaches_its_port_listens_on_loopback_and_stops_when_cancelled(tmp_path):
    from bot.config import Settings
    from bot.playground import serve

    app = StandIn()
    settings = Settings(data_dir=tmp_path, playground_port=0)
    started: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve(app, settings, started=started))
    url = await asyncio.wait_for(started, 10)
    assert url.startswith("http://127.0.0.1:") and isinstance(app.port, PlaygroundPort)
    async with aiohttp.ClientSession() as session:
        ws = await session.ws_connect(url + "ws")
        await ws.send_str(json.dumps({"type": "hello", "room": "kitchen", "name": "Anna", "lang": "en"}))
        assert json.loads((await ws.receive()).data)["type"] == "snapshot"
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        assert (await ws.receive()).type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
        with pytest.raises(aiohttp.ClientConnectionError):
            await session.get(url)


async def test_a_page_on_another_name_is_refused_even_when_it_rebinds_to_loopback(playground):
    """DNS rebinding (issue 33, finding 3): a page on evil.example whose name now resolves to 127.0.0.1 sends
    its own name as Host and as Origin, so Origin == Host held; the Host allow-list refuses it, page and socket."""
    app, _, url, session, open_tab = playground
    bound = url.split("//")[1].rstrip("/").split(":")[1]
    evil = f"evil.example:{bound}"
    for path in ("", "api/games", "static/app.js", "app/"):
        async with session.get(url + path, headers={"Host": evil}) as r:
            assert r.status == 403 and "not allowed" in await r.text(), path
    with pytest.raises(aiohttp.WSServerHandshakeError) as e:
        await session.ws_connect(url + "ws", headers={"Host": evil, "Origin": f"http://{evil}"})
    assert e.value.status == 403
    # this machine's own names pass
    for host in (f"127.0.0.1:{bound}", f"localhost:{bound}", f"LocalHost:{bound}", f"[::1]:{bound}"):
        async with session.get(url + "api/games", headers={"Host": host}) as r:
            assert r.status == 200, host
    ws = await session.ws_connect(
        url + "ws", headers={"Host": f"localhost:{bound}", "Origin": f"http://localhost:{bound}"}
    )
    await ws.close()
    assert app.commands == []


async def test_listening_beyond_loopback_warns_and_allows_the_names_given(tmp_path, capsys):
    from bot.config import Settings
    from bot.playground import serve

    app = StandIn()
    settings = Settings(
        _env_file=None, data_dir=tmp_path, playground_port=0, playground_host="0.0.0.0", playground_hosts="den.lan"
    )
    started: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(serve(app, settings, started=started))
    url = await asyncio.wait_for(started, 10)
    try:
        out = capsys.readouterr().out
        assert "WARNING" in out and "0.0.0.0" in out and "anyone" in out and "den.lan" in out
        port = url.rstrip("/").rsplit(":", 1)[1]
        async with aiohttp.ClientSession() as session:
            for host, status in ((f"den.lan:{port}", 200), (f"localhost:{port}", 200), (f"evil.example:{port}", 403)):
                async with session.get(f"http://127.0.0.1:{port}/api/games", headers={"Host": host}) as r:
                    assert r.status == status, host
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    # on loopback, no warning
    started = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(
        serve(StandIn(), Settings(_env_file=None, data_dir=tmp_path, playground_port=0), started=started)
    )
    await asyncio.wait_for(started, 10)
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    assert "WARNING" not in capsys.readouterr().out
