"""Which names the playground answers to: its ``Host`` allow-list (DNS rebinding) and the warning beyond loopback.

The playground believes the name a tab gives, so whoever reaches it can play as anyone. A web page on another
name (``evil.example``) whose DNS answer is switched to 127.0.0.1 after it loaded reaches it from the player's own
browser, and its requests carry ``Host: evil.example`` and the same ``Origin``, so an ``Origin == Host`` check
passes. Every request and WebSocket is therefore refused (403) unless its ``Host`` names this machine's loopback
(``localhost``, ``*.localhost``, ``127.0.0.0/8``, ``::1``), the address it listens on (unless a wildcard), or a
name listed in ``PLAYGROUND_HOSTS``.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Awaitable, Callable, Iterable
from urllib.parse import urlsplit

from aiohttp import web

WILDCARDS = {"", "0.0.0.0", "::", "*"}


def _ip(name: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(name)
    except ValueError:
        return None


def is_loopback(name: str) -> bool:
    """A name or address that only this machine reaches (never resolved through DNS by a browser)."""
    name = name.strip("[]").lower().rstrip(".")
    ip = _ip(name)
    return ip.is_loopback if ip is not None else name == "localhost" or name.endswith(".localhost")


def hostname(host_header: str) -> str | None:
    """The name part of a ``Host`` header (``Example.org:8080`` -> ``example.org``, ``[::1]:80`` -> ``::1``)."""
    try:
        name = urlsplit("//" + host_header).hostname
    except ValueError:
        return None
    return name.rstrip(".") if name else None


class Hosts:
    """The allow-list: loopback, the listening address (unless a wildcard) and ``extra`` names."""

    def __init__(self, bind: str, extra: Iterable[str] = ()) -> None:
        names = {n.strip().lower().strip("[]").rstrip(".") for n in extra if n.strip()}
        if bind.strip("[]") not in WILDCARDS:
            names.add(bind.strip("[]").lower())
        self.names = frozenset(names)
        self.bind = bind

    @classmethod
    def parse(cls, bind: str, extra: str | None) -> Hosts:
        """From ``PLAYGROUND_HOST`` and ``PLAYGROUND_HOSTS`` (comma-separated names)."""
        return cls(bind, (extra or "").split(","))

    def allows(self, host_header: str | None) -> bool:
        name = hostname(host_header or "")
        return name is not None and (is_loopback(name) or name in self.names)

    def beyond_loopback(self) -> bool:
        """Listening on more than this machine's loopback (a wildcard, or another address or name)."""
        return not is_loopback(self.bind)

    def warning(self, url: str) -> str | None:
        """What to print when the playground listens beyond loopback (None on loopback)."""
        if not self.beyond_loopback():
            return None
        names = ", ".join(sorted(self.names)) or "none: set PLAYGROUND_HOSTS to the names others use to reach it"
        return (
            f"WARNING: the playground listens on {self.bind}, beyond this machine: anyone who reaches {url} can "
            "play as anyone (it believes the name a tab gives; no accounts). Names it answers to besides "
            f"loopback: {names}. Keep PLAYGROUND_HOST=127.0.0.1 unless you trust everyone on this network."
        )

    def middleware(self) -> Callable[[web.Request, Callable[[web.Request], Awaitable[web.StreamResponse]]], Awaitable]:
        @web.middleware
        async def check_host(
            request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
        ) -> web.StreamResponse:
            if not self.allows(request.headers.get("Host")):
                return web.Response(status=403, text="this host name is not allowed (PLAYGROUND_HOSTS)")
            return await handler(request)

        return check_host
