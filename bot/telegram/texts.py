"""The Telegram adapter's own words (the application writes everything else): the deep-link button, the
answers to a button that is not ours and to a press on another user's private message, and the command menu;
from the ``core.i18n`` catalogs."""

from __future__ import annotations

from core.i18n import N_, t

COMMAND_HELP = {
    "new": N_("Open a table for a new game"),
    "join": N_("Take a seat at the table"),
    "leave": N_("Leave the table"),
    "stop": N_("Stop the game at this table"),
    "table": N_("Show the table and my cards again"),
    "rules": N_("Rules of the game"),
    "settings": N_("Table conventions"),
    "lang": N_("Language of the bot: /lang en, ru or uk"),
    "score": N_("Score of the current game"),
    "top": N_("Best players of this chat"),
    "me": N_("My rating and games"),
    "history": N_("Finished games"),
    "export": N_("A game record as a file"),
    "daily": N_("Today's deal: everyone plays the same deal"),
    "notify": N_("A private message when a table opens here: /notify on or off"),
    "season": N_("The leaderboard's season: /season month, quarter or none"),
    "help": N_("How to play with the bot"),
}


def command_help(lang: str | None, name: str) -> str:
    return t(lang, COMMAND_HELP[name])


def open_private(lang: str | None) -> str:
    # Translators: the button under "cannot write to you" in the group; it opens the bot's private chat
    return t(lang, "Open the chat with the bot")


def unknown_button(lang: str | None) -> str:
    # Translators: the answer to a press on a button the bot did not make (a forged or foreign button)
    return t(lang, "This button is no longer valid.")


def not_yours(lang: str | None) -> str:
    """The answer to a press on a message of another user's private chat (a forged callback)."""
    # Translators: a press on a button of another person's private message (his hand): refused, nothing changes
    return t(lang, "This message was sent to someone else: use the buttons of your own messages.")
