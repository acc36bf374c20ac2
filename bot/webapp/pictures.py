"""The web table's pictures: signed, expiring addresses that any worker can serve, drawn once and kept (bounded).

A picture's address names what it shows — its kind (``table``, ``hand``, ``sheet``), the table, the version, the
viewer's seat, the language and the style — with an expiry and an HMAC-SHA256 signature over all of it (the key:
``bot.keys.purpose_key(<bot token>, WEBAPP_PICTURE)``, the same on every worker)::

    /app/pic/<kind>.<table>.<version>.<seat>.<lang>.<style>.<expires>.<signature>

so a page whose socket is on one worker can fetch its pictures from any other: that worker checks the signature and
the expiry, and draws the picture from the stored table (``Hub.redraw``) unless it has it already. A hand's
address is only ever sent to the socket of the user at that seat, and it cannot be made without the key: another
seat, another version or a changed expiry is another signature. Expiries are rounded up to the hour (an address
lasts one to two hours), so the address of one picture stays the same between frames and browsers cache it.

``address(spec, draw)`` signs the address and starts drawing at once in the pool when a ``draw`` is given (the page
asks for the picture right after the frame arrives); the newest ``limit`` pictures are kept.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

PREFIX = "/app/pic/"
KINDS = ("table", "hand", "sheet")
LIFETIME = 3600  # an address lasts at least this long (its expiry is rounded up to the next such step)
SIGNATURE_BYTES = 16  # 128 bits: not guessable
FIELD = re.compile(r"[a-z0-9_-]{1,24}")


@dataclass(frozen=True, slots=True)
class Spec:
    """What one picture shows: ``seat`` None is the public view (a spectator's table, a score sheet)."""

    kind: str
    table: int
    version: int
    seat: int | None
    lang: str
    style: str

    def text(self) -> str:
        seat = "x" if self.seat is None else str(self.seat)
        return f"{self.kind}.{self.table}.{self.version}.{seat}.{self.lang}.{self.style}"


class Refused(Exception):
    """An address this server will not serve: ``code`` is ``bad_signature`` (forged, tampered, malformed) or
    ``expired``."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Pictures:
    def __init__(self, key: bytes, *, limit: int = 300, threads: int = 2, lifetime: int = LIFETIME) -> None:
        self.key = key
        self.limit = limit
        self.lifetime = lifetime
        self.pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="webapp-draw")
        self._jobs: OrderedDict[Spec, asyncio.Future[bytes]] = OrderedDict()
        self._sheets: dict[tuple[int, int, bool, str], Spec] = {}  # (table, rows, finished, lang) → first spec

    # ---- addresses -----------------------------------------------------------------------------------
    def _sign(self, text: str) -> str:
        return _b64(hmac.new(self.key, text.encode(), hashlib.sha256).digest()[:SIGNATURE_BYTES])

    def address(self, spec: Spec, draw: Callable[[], bytes] | None = None, *, now: float | None = None) -> str:
        """The signed address of ``spec``; with ``draw``, the picture is drawn now (once) in the pool."""
        if draw is not None and spec not in self._jobs:
            self._keep(spec, asyncio.get_running_loop().run_in_executor(self.pool, draw))
        step = self.lifetime
        expires = (int(now if now is not None else time.time()) // step + 2) * step
        text = f"{spec.text()}.{expires}"
        return PREFIX + text + "." + self._sign(text)

    def sheet(self, table: int, rows: int, finished: bool, spec: Spec) -> Spec:
        """The spec a round's score sheet is drawn from: the first one asked for (the sheet stays the same picture,
        with the same address, until the next round's ends)."""
        key = (table, rows, finished, spec.lang)
        known = self._sheets.get(key)
        if known is None:
            known = self._sheets[key] = spec
            while len(self._sheets) > self.limit:
                self._sheets.pop(next(iter(self._sheets)))
        return known

    def check(self, token: str, *, now: float | None = None) -> Spec:
        """The picture an address (its part after ``PREFIX``) names, or ``Refused``."""
        parts = token.split(".")
        if len(parts) != 8 or len(token) > 200:
            raise Refused("bad_signature")
        text, signature = ".".join(parts[:7]), parts[7]
        if not hmac.compare_digest(self._sign(text), signature):
            raise Refused("bad_signature")
        kind, table, version, seat, lang, style, expires = parts[:7]
        if kind not in KINDS or not FIELD.fullmatch(lang) or not FIELD.fullmatch(style):
            raise Refused("bad_signature")
        try:
            spec = Spec(kind, int(table), int(version), None if seat == "x" else int(seat), lang, style)
            until = int(expires)
        except ValueError:
            raise Refused("bad_signature") from None
        if until < (now if now is not None else time.time()):
            raise Refused("expired")
        return spec

    # ---- the pictures --------------------------------------------------------------------------------
    def has(self, spec: Spec) -> bool:
        """Whether this worker has drawn (or is drawing) ``spec``."""
        job = self._jobs.get(spec)
        return job is not None and not job.cancelled()

    def _keep(self, spec: Spec, job: asyncio.Future[bytes]) -> None:
        self._jobs[spec] = job
        while len(self._jobs) > self.limit:
            _, old = self._jobs.popitem(last=False)
            if not old.done():
                old.cancel()

    async def data(self, spec: Spec, redraw: Callable[[Spec], Awaitable[Callable[[], bytes] | None]]) -> bytes | None:
        """The picture's JPEG bytes: drawn here before, or drawn now by ``redraw(spec)`` (None: nothing to draw)."""
        job = self._jobs.get(spec)
        if job is None or job.cancelled():
            draw = await redraw(spec)
            if draw is None:
                return None
            job = self._jobs.get(spec)  # another request may have started it meanwhile
            if job is None or job.cancelled():
                job = asyncio.get_running_loop().run_in_executor(self.pool, draw)
                self._keep(spec, job)
        else:
            self._jobs.move_to_end(spec)
        try:
            return await asyncio.shield(job)
        except asyncio.CancelledError:
            if job.cancelled():  # pushed out of the cache while drawn: draw it for this request alone
                draw = await redraw(spec)
                return None if draw is None else await asyncio.get_running_loop().run_in_executor(self.pool, draw)
            raise

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
