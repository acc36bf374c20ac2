"""Custom ids of the components the adapter puts on messages, and the patterns that read them back.

A custom id (at most 100 characters on Discord) carries everything needed to act on a press, so buttons keep
working after a restart: the application's payload (table id, version and action, opaque to the adapter)
behind a short prefix of the adapter's own (at most 8 characters, as ``bot.port`` allows):

* ``t:<payload>`` — a button; ``t<n>:<payload>`` when the same payload appears twice on one message
  (custom ids must be unique per message);
* ``s<n>:<key>`` — the n-th select menu of a message; the chosen option's value is the payload;
* ``p:<start_payload>`` — the "open my private view" button of an invitation, answered with ``PrivateStart``;
* ``x:launch`` — "Open the table" where the web table runs as a Discord Activity: answered by launching it.
"""

from __future__ import annotations

import re

from bot.port import MAX_PAYLOAD, PAYLOAD_CHARS

MAX_CUSTOM_ID = 100
_PAYLOAD = "[A-Za-z0-9_\\-.,=~!*]"
BUTTON_TEMPLATE = re.compile(rf"t(?P<dup>\d{{0,2}}):(?P<payload>{_PAYLOAD}{{1,{MAX_PAYLOAD}}})")
SELECT_TEMPLATE = re.compile(r"s(?P<index>\d):(?P<key>[A-Za-z0-9_-]{0,40})")
START_TEMPLATE = re.compile(r"p:(?P<payload>[A-Za-z0-9_-]{0,64})")
LAUNCH_ID = "x:launch"
LAUNCH_TEMPLATE = re.compile(re.escape(LAUNCH_ID))
TEMPLATES = (BUTTON_TEMPLATE, SELECT_TEMPLATE, START_TEMPLATE, LAUNCH_TEMPLATE)


def is_payload(payload: str) -> bool:
    return 0 < len(payload) <= MAX_PAYLOAD and set(payload) <= PAYLOAD_CHARS


def button_id(payload: str, dup: int = 0) -> str:
    if not is_payload(payload):
        raise ValueError(f"not a button payload: {payload!r}")
    return f"t{dup or ''}:{payload}"


def select_id(index: int, key: str = "") -> str:
    return f"s{index}:{key}"


def start_id(start_payload: str) -> str:
    if not START_TEMPLATE.fullmatch(f"p:{start_payload}"):
        raise ValueError(f"not a start payload: {start_payload!r}")
    return f"p:{start_payload}"


def is_ours(custom_id: str) -> bool:
    """Whether a custom id has one of the shapes this adapter makes."""
    return any(t.fullmatch(custom_id) for t in TEMPLATES)
