"""``Notice``: the short, already localized answer to a press or a command that changes nothing."""

from __future__ import annotations


class Notice(Exception):
    """Raised anywhere in the application; the entry point answers the user with ``text`` (as an alert if asked)."""

    def __init__(self, text: str, alert: bool = False) -> None:
        super().__init__(text)
        self.text = text
        self.alert = alert
