"""The Mini App's **Invite**: a message the bot prepares for a player to send to the chats he picks, with the
table's link (``POST /app/api/invite``, ``Authorization: session <token>``).

The page holds a session (``bot.webapp.auth``) naming its user and table; the server writes the message in the
user's language with the table's signed "Open the table" link (``bot.app.publishing.with_open_button``) and asks the
user's platform to prepare it (``bot.port.Sharing``: Telegram's ``savePreparedInlineMessage``). The page then opens
the platform's share dialog with the prepared id (``WebApp.shareMessage``). A platform that cannot share, a
session without a table, or a forged session get a clear 4xx and nothing is sent.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from aiohttp import web

from bot.app.publishing import with_open_button
from bot.port import Message, Sharing, Unreachable
from bot.storage import NotFound
from bot.webapp.hub import page_lang
from core import games
from core.i18n import t

if TYPE_CHECKING:
    from bot.app.context import Context
    from bot.webapp.auth import Session

log = logging.getLogger(__name__)


def _refuse(code: str, status: int) -> web.Response:
    return web.json_response({"error": code}, status=status, headers={"Cache-Control": "no-store"})


async def prepare(ctx: Context, found: Session) -> web.Response:
    """The invitation of ``found``'s user to his table, prepared on his platform (``ctx``: the application's
    context, its ports and the web table's address): ``200 {"id"}`` or a 4xx/502."""
    if not found.tables:
        return _refuse("no_table", 400)
    port = ctx.ports.get(found.user.platform)
    if not isinstance(port, Sharing) or not ctx.webapp_url:
        return _refuse("no_share", 400)
    try:
        rec = await ctx.storage.table(found.tables[0])
    except NotFound:
        return _refuse("no_table", 404)
    lang = page_lang(found)
    game = t(lang, games.entry(rec.game).title)
    text = t(
        lang, "{who} invites you to a game of {game}: open the table and take a seat.", who=found.user.name, game=game
    )
    msg = with_open_button(Message(text), ctx.webapp_url, rec.id, lang, ctx.webapp_key)
    try:
        prepared = await port.prepare_share(found.user, msg)
    except Unreachable as e:
        log.info("the platform refused to prepare an invitation: %s", e)
        return _refuse("refused", 502)
    return web.json_response({"id": prepared}, headers={"Cache-Control": "no-store"})
