"""The page as a Discord Activity: the player is whoever Discord says authorised it.

Inside Discord the page's Embedded App SDK asks the player to authorise the application with
the `identify` scope and gets a one-time code. The server trades it at Discord's
`/oauth2/token` with the application's client id and secret (never sent to the page), then
reads the user from `/users/@me`, as Discord documents. The access token goes back to the
page, which the SDK needs to authenticate; the seat token is made as for a personal link.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import aiohttp

from ..config import Settings

log = logging.getLogger(__name__)

TIMEOUT = aiohttp.ClientTimeout(total=10)


@dataclass(frozen=True, slots=True)
class Authorised:
    user_id: str
    access_token: str


async def authorised(settings: Settings, code: str) -> Authorised | None:
    """The Discord user who authorised the Activity with `code`; None for a code Discord does
    not honour (wrong, used, expired), or when the Activity is not set up."""
    secret, client = settings.discord_client_secret, settings.discord_client_id
    if not settings.discord_activity or secret is None or client is None:
        return None
    base = settings.discord_api_base
    form = {
        "client_id": client,
        "client_secret": secret.get_secret_value(),
        "grant_type": "authorization_code",
        "code": code,
    }
    try:
        async with aiohttp.ClientSession(timeout=TIMEOUT) as http:
            async with http.post(f"{base}/oauth2/token", data=form) as answer:
                if answer.status != 200:
                    return None
                access = (await answer.json()).get("access_token")
            if not isinstance(access, str) or not access:
                return None
            headers = {"Authorization": f"Bearer {access}"}
            async with http.get(f"{base}/users/@me", headers=headers) as answer:
                if answer.status != 200:
                    return None
                user = (await answer.json()).get("id")
    except (aiohttp.ClientError, TimeoutError, ValueError) as error:
        log.warning("Discord did not answer an Activity's authorisation: %s", error)
        return None
    return Authorised(str(user), access) if isinstance(user, (str, int)) else None
