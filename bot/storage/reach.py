"""Which chats a worker can publish to (``Reach``), as SQL: the condition that keeps the work a worker takes on by
itself (due timers, tables resumed at its start, season summaries) to the chats of the platforms it has an adapter
for and, on a sharded platform (Discord), of the guilds on its own shards."""

from __future__ import annotations

from sqlalchemy import BigInteger, ColumnElement, Integer, and_, false, literal, or_, select

from bot.storage.errors import InvalidInput
from bot.storage.models import CHATS, GAME_TABLES
from bot.storage.values import Reach

GUILD_SHIFT = 22  # Discord: a guild's shard is (guild_id >> 22) % shard_count
MAX_SHARDS = 2**16


def check_reach(reach: Reach | None) -> None:
    """``InvalidInput`` (``bad_reach``) unless ``reach`` is None or names platforms and shards that make sense."""
    if reach is None:
        return
    if not isinstance(reach, Reach) or not all(isinstance(p, str) and 0 < len(p) <= 32 for p in reach.platforms):
        raise InvalidInput("a reach names platforms", "bad_reach")
    for platform, part in reach.shards.items():
        if not isinstance(part, tuple) or len(part) != 2:
            raise InvalidInput("a reach's shards are (count, ids)", "bad_reach")
        count, ids = part
        if (
            not isinstance(platform, str)
            or type(count) is not int
            or not 0 < count <= MAX_SHARDS
            or not all(type(i) is int and 0 <= i < count for i in ids)
        ):
            raise InvalidInput("a reach's shards are ids from 0 to count - 1", "bad_reach")


def chats_in(reach: Reach) -> ColumnElement[bool]:
    """The condition on ``chats`` of the chats ``reach`` covers (a guild not known yet: any worker of its
    platform)."""
    plain = sorted(p for p in reach.platforms if p not in reach.shards)
    parts: list[ColumnElement[bool]] = [CHATS.c.platform.in_(plain)] if plain else []
    for platform, (count, ids) in sorted(reach.shards.items()):
        if platform not in reach.platforms:
            continue
        # PostgreSQL shifts a bigint by an integer only (no bigint >> bigint)
        shard = CHATS.c.guild.op(">>", return_type=BigInteger)(literal(GUILD_SHIFT, Integer)) % count
        served = or_(CHATS.c.guild.is_(None), shard.in_(sorted(ids))) if ids else CHATS.c.guild.is_(None)
        parts.append(and_(CHATS.c.platform == platform, served))
    return or_(*parts) if parts else false()


def tables_in(reach: Reach | None) -> ColumnElement[bool] | None:
    """The condition on ``game_tables`` of the tables in the chats ``reach`` covers; None: every table."""
    check_reach(reach)
    if reach is None:
        return None
    return GAME_TABLES.c.chat_id.in_(select(CHATS.c.id).where(chats_in(reach)))
