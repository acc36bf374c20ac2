"""The web table as a **Discord Activity**: the same page inside Discord, signed in with Discord's OAuth2.

Inside Discord the page (``static/page.js``) runs the Embedded App SDK (``static/discord-sdk.js``, vendored):
``authorize`` gives it a one-time code, which it sends here with the Activity's instance id. The server

1. exchanges the code for the user's access token (``POST /oauth2/token`` with the application's client secret,
   ``DISCORD_CLIENT_SECRET``, which never leaves the server);
2. asks Discord who that token belongs to (``GET /users/@me``);
3. asks Discord, with the bot's token, where the instance runs and who is in it
   (``GET /applications/<client id>/activity-instances/<instance id>``): the channel comes from Discord, never from
   the page, and a user who is not in the instance is refused; a page that claims another channel is refused too;
4. issues the same signed session the Mini App gets (``bot.webapp.auth``) for that Discord user (the same
   ``User("discord", id)`` as the chat adapter), following the channel's table (a seated user sees his hand, anyone
   else watches), and returns the access token for the SDK's ``authenticate``.

Routes: ``GET /app/api/activity`` → ``{"client_id"}`` (the SDK needs it before anything), ``POST /app/api/activity``
``{"code", "instance_id", "channel_id"}`` → ``{"session", "access_token", "channel"}`` or ``{"error"}`` (4xx).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

import aiohttp

from bot.port import User

log = logging.getLogger(__name__)

DISCORD_API = "https://discord.com/api/v10"
SNOWFLAKE = re.compile(r"[0-9]{1,20}")
INSTANCE = re.compile(r"[A-Za-z0-9:_-]{1,100}")
CODE = re.compile(r"[A-Za-z0-9._~-]{1,200}")


class Refused(Exception):
    """A sign-in the server will not accept: ``code`` (said to the page) and the HTTP status."""

    def __init__(self, code: str, status: int = 401) -> None:
        super().__init__(code)
        self.code = code
        self.status = status


@dataclass(frozen=True)
class SignedIn:
    user: User
    channel_id: str
    access_token: str


class DiscordActivity:
    """The Activity's server side: the application's OAuth2 client and the bot's view of its instances."""

    def __init__(self, client_id: str, client_secret: str, bot_token: str, api: str | None = None) -> None:
        self.client_id = client_id
        self.client_secret = client_secret
        self.bot_token = bot_token
        self.api = (api or DISCORD_API).rstrip("/")
        self.timeout = aiohttp.ClientTimeout(total=10)

    async def sign_in(self, code: Any, instance_id: Any, claimed_channel: Any) -> SignedIn:
        """Who the page's user is and which channel his instance runs in, from Discord itself; or ``Refused``."""
        if not isinstance(code, str) or not CODE.fullmatch(code):
            raise Refused("bad_code", 400)
        if not isinstance(instance_id, str) or not INSTANCE.fullmatch(instance_id):
            raise Refused("bad_instance", 400)
        async with aiohttp.ClientSession(timeout=self.timeout) as http:
            form = {
                "client_id": self.client_id,
                "client_secret": self.client_secret,
                "grant_type": "authorization_code",
                "code": code,
            }
            token = await self._json(http, "POST", "/oauth2/token", data=form)
            access = token.get("access_token") if token else None
            if not isinstance(access, str) or not access:
                raise Refused("bad_code")
            me = await self._json(http, "GET", "/users/@me", headers={"Authorization": f"Bearer {access}"})
            if not me or not SNOWFLAKE.fullmatch(str(me.get("id", ""))):
                raise Refused("bad_code")
            instance = await self._json(
                http,
                "GET",
                f"/applications/{self.client_id}/activity-instances/{instance_id}",
                headers={"Authorization": f"Bot {self.bot_token}"},
            )
        if not instance:
            raise Refused("no_instance", 404)
        location = instance.get("location") or {}
        channel = str(location.get("channel_id") or "")
        if not SNOWFLAKE.fullmatch(channel):
            raise Refused("no_instance", 404)
        user_id = str(me["id"])
        if user_id not in {str(u) for u in instance.get("users") or ()}:
            raise Refused("not_in_instance", 403)
        if claimed_channel not in (None, "", channel):
            raise Refused("wrong_channel", 403)
        name = str(me.get("global_name") or me.get("username") or user_id)[:64]
        locale = me.get("locale") if isinstance(me.get("locale"), str) else None
        return SignedIn(User("discord", user_id, name, locale), channel, access)

    async def _json(self, http: aiohttp.ClientSession, method: str, path: str, **kw: Any) -> dict[str, Any] | None:
        """Discord's JSON answer, or None for a refusal (4xx); Discord down or malformed is ``Refused``."""
        try:
            async with http.request(method, self.api + path, **kw) as res:
                if 400 <= res.status < 500:
                    log.info("discord refused %s %s: %s", method, path.split("/")[1], res.status)
                    return None
                if res.status >= 300:
                    raise Refused("discord_unavailable", 502)
                body = await res.json(content_type=None)
        except (aiohttp.ClientError, TimeoutError, ValueError) as e:
            log.warning("discord did not answer %s %s: %s", method, path.split("/")[1], e)
            raise Refused("discord_unavailable", 502) from e
        return body if isinstance(body, dict) else None
