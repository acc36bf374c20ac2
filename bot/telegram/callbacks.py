"""Callback data of the bot's inline buttons: one ``CallbackData`` factory carrying the application's payload."""

from __future__ import annotations

from aiogram.filters.callback_data import CallbackData

from bot.port import MAX_PAYLOAD, PAYLOAD_CHARS

MAX_CALLBACK_DATA = 64  # bytes, Telegram's limit


class PressData(CallbackData, prefix="t"):
    """``t:<payload>``: the payload of a ``bot.port.Button``, unchanged (2 bytes of prefix, ≤ 58 bytes)."""

    payload: str


def valid_payload(payload: str) -> bool:
    """A payload the application could have made: 1..MAX_PAYLOAD characters of ``PAYLOAD_CHARS``."""
    return 0 < len(payload) <= MAX_PAYLOAD and set(payload) <= PAYLOAD_CHARS


def pack(payload: str) -> str:
    if not valid_payload(payload):
        raise ValueError(f"not a button payload: {payload!r}")
    data = PressData(payload=payload).pack()
    assert len(data.encode()) <= MAX_CALLBACK_DATA
    return data


def unpack(data: str | None) -> str | None:
    """The payload inside callback data, or None when the data is not ours (a forged or foreign button)."""
    if not data:
        return None
    try:
        payload = PressData.unpack(data).payload
    except (ValueError, TypeError):
        return None
    return payload if valid_payload(payload) else None
