"""``python -m bot``: start the bot with the chat adapters whose tokens are configured."""

from __future__ import annotations

import sys

from bot.config import Settings
from core import games


def main() -> int:
    settings = Settings()
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
