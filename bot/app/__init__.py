"""The chat application: one behaviour for every platform, driven through ``bot.port`` (see ``bot.app.application``)."""

from bot.app.application import Application, create_application

__all__ = ["Application", "create_application"]
