"""``python -m bot``: start the bot with the chat adapters whose tokens are configured.

``python -m bot migrate`` brings the database (``DATABASE_URL``, default SQLite in ``DATA_DIR``) to the newest
schema and exits.
"""

from __future__ import annotations

import asyncio
import sys

from bot.config import Settings
from bot.telegram.token_check import BadToken, check_token
from core import games


async def migrate(settings: Settings) -> str:
    """Apply every migration; returns the revision the database is at."""
    from bot.storage import Storage
    from bot.storage.migrate import current_revision

    storage = await Storage.open(settings.effective_database_url(), data_dir=settings.data_dir)
    try:
        return await current_revision(storage.engine) or "none"
    finally:
        await storage.close()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    settings = Settings()
    if args[:1] == ["migrate"]:
        print(f"database migrated to revision {asyncio.run(migrate(settings))}")
        return 0
    if args:
        print(f"unknown command {args[0]!r}; usage: python -m bot [migrate]", file=sys.stderr)
        return 2
    if settings.telegram_bot_token:
        try:
            check_token(settings.telegram_bot_token)
        except BadToken as e:
            print(e, file=sys.stderr)
            return 2
    adapters = settings.adapters()
    print(f"games: {', '.join(games.available())}")
    print(f"database: {settings.effective_database_url()}")
    if not adapters:
        print("no chat adapter configured: set TELEGRAM_BOT_TOKEN and/or DISCORD_BOT_TOKEN (see README.md)")
        return 0
    print(f"adapters configured: {', '.join(adapters)}")
    print("the chat adapters are not part of this release yet; the rules core and pictures are.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
