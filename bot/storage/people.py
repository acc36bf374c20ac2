"""Users and chats (forum topics included): upserts by platform id, languages, a chat's default options."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.checks import check_id, check_ids, check_language, check_table_setup, now, rules_of
from bot.storage.engine import Database
from bot.storage.errors import InvalidInput, NotFound
from bot.storage.models import CHATS, USERS
from bot.storage.values import ChatRec, UserRec


def user_rec(row: Any) -> UserRec:
    return UserRec(row.id, row.platform, row.platform_id, row.name, row.language)


def chat_rec(row: Any) -> ChatRec:
    return ChatRec(
        row.id,
        row.platform,
        row.platform_id,
        row.thread or None,
        row.title,
        row.language,
        row.defaults or {},
        row.guild,
    )


async def check_users(conn: AsyncConnection, user_ids: Iterable[int | None]) -> None:
    """``NotFound`` for the first of these user ids that has no user."""
    ids = {u for u in user_ids if u is not None}
    check_id(*ids)
    if not ids:
        return
    found = set((await conn.execute(select(USERS.c.id).where(USERS.c.id.in_(ids)))).scalars())
    missing = sorted(ids - found)
    if missing:
        raise NotFound(f"no user {missing[0]}", "no_user", user_id=missing[0])


async def user(db: Database, platform: str, platform_id: str, name: str, language: str | None = None) -> UserRec:
    """The user with this platform id, created or updated (a new name is written; language kept unless given)."""
    check_ids(platform, platform_id)
    if not isinstance(name, str):
        raise InvalidInput("a user's name is a string", "bad_name")
    check_language(language)
    ins = db.insert(USERS).values(
        platform=platform, platform_id=platform_id, name=name[:256], language=language, created_at=now()
    )
    stmt = ins.on_conflict_do_update(
        index_elements=[USERS.c.platform, USERS.c.platform_id],
        set_={"name": ins.excluded.name, "language": func.coalesce(ins.excluded.language, USERS.c.language)},
    ).returning(*USERS.c)
    async with db.write() as conn:
        return user_rec((await conn.execute(stmt)).one())


async def get_user(db: Database, user_id: int) -> UserRec:
    check_id(user_id)
    async with db.read() as conn:
        row = (await conn.execute(select(USERS).where(USERS.c.id == user_id))).first()
    if row is None:
        raise NotFound(f"no user {user_id}", "no_user", user_id=user_id)
    return user_rec(row)


async def set_user_language(db: Database, user_id: int, lang: str | None) -> UserRec:
    check_id(user_id)
    check_language(lang)
    stmt = update(USERS).where(USERS.c.id == user_id).values(language=lang).returning(*USERS.c)
    async with db.write() as conn:
        row = (await conn.execute(stmt)).first()
    if row is None:
        raise NotFound(f"no user {user_id}", "no_user", user_id=user_id)
    return user_rec(row)


async def chat(
    db: Database,
    platform: str,
    platform_id: str,
    thread: str | None = None,
    title: str = "",
    language: str | None = None,
    guild: int | None = None,
) -> ChatRec:
    """The chat (or forum topic) with this id, created or updated (a non-empty new title is written, and a given
    guild: the server the chat belongs to, Discord's guild id)."""
    check_ids(platform, platform_id, thread)
    if not isinstance(title, str):
        raise InvalidInput("a chat title is a string", "bad_title")
    check_language(language)
    if guild is not None:
        check_id(guild)
        if guild < 0:
            raise InvalidInput("a guild id is not negative", "bad_id")
    ins = db.insert(CHATS).values(
        platform=platform,
        platform_id=platform_id,
        thread=thread or "",
        title=title[:256],
        language=language,
        defaults={},
        created_at=now(),
        guild=guild,
    )
    title_set = ins.excluded.title if title else CHATS.c.title
    stmt = ins.on_conflict_do_update(
        index_elements=[CHATS.c.platform, CHATS.c.platform_id, CHATS.c.thread],
        set_={
            "title": title_set,
            "language": func.coalesce(ins.excluded.language, CHATS.c.language),
            "guild": func.coalesce(ins.excluded.guild, CHATS.c.guild),
        },
    ).returning(*CHATS.c)
    async with db.write() as conn:
        return chat_rec((await conn.execute(stmt)).one())


async def get_chat(db: Database, chat_id: int) -> ChatRec:
    check_id(chat_id)
    async with db.read() as conn:
        row = (await conn.execute(select(CHATS).where(CHATS.c.id == chat_id))).first()
    if row is None:
        raise NotFound(f"no chat {chat_id}", "no_chat", chat_id=chat_id)
    return chat_rec(row)


async def set_chat_language(db: Database, chat_id: int, lang: str | None) -> ChatRec:
    check_id(chat_id)
    check_language(lang)
    stmt = update(CHATS).where(CHATS.c.id == chat_id).values(language=lang).returning(*CHATS.c)
    async with db.write() as conn:
        row = (await conn.execute(stmt)).first()
    if row is None:
        raise NotFound(f"no chat {chat_id}", "no_chat", chat_id=chat_id)
    return chat_rec(row)


async def set_chat_defaults(db: Database, chat_id: int, game: str, options: dict[str, Any]) -> ChatRec:
    """Replace the chat's default options for one game (checked against the game's conventions)."""
    check_id(chat_id)
    rules = rules_of(game)
    check_table_setup(game, rules.min_players, options)
    async with db.write() as conn:
        row = (await conn.execute(select(CHATS.c.defaults).where(CHATS.c.id == chat_id))).first()
        if row is None:
            raise NotFound(f"no chat {chat_id}", "no_chat", chat_id=chat_id)
        defaults = dict(row.defaults or {})
        defaults[game] = dict(options)
        stmt = update(CHATS).where(CHATS.c.id == chat_id).values(defaults=defaults).returning(*CHATS.c)
        out = (await conn.execute(stmt)).one()
    return chat_rec(out)
