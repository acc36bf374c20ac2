"""The few words the adapter itself shows (everything else comes from the application, already localized)."""

from __future__ import annotations

from core.i18n import t


def open_hand(lang: str | None) -> str:
    """The label of an invitation's button, which opens the user's private view of the table."""
    return t(lang, "Show my hand")


def out_of_date(lang: str | None) -> str:
    """The answer to a press on a component this version of the bot does not know."""
    return t(lang, "This button is out of date.")


def failed(lang: str | None) -> str:
    """The answer when the application failed on a command or press (the failure is logged)."""
    return t(lang, "Something went wrong. Please try again.")


def not_understood(lang: str | None) -> str:
    """The answer to a command discord.py could not read (forged, or from a client that knows older commands)."""
    return t(lang, "Unknown command. /help lists what I understand.")


def not_yours(lang: str | None) -> str:
    """The answer to a press on an ephemeral message that was sent to another user (a forged interaction)."""
    # Translators: a press on a button of another person's private message (his hand): refused, nothing changes
    return t(lang, "This message was sent to someone else: use the buttons of your own messages.")
