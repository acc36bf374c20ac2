"""Developer tools run from the repository root (not shipped with the bot)."""
