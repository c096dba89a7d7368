"""Seat tokens: what a player's personal link carries, signed by the server.

A token names one user at one table (platform, place, game id), the key of their seat's links
at that table, and when it stops working. It is signed with HMAC-SHA256 under `WEB_SECRET`, so
only the bot makes them, and changing the secret ends every link at once. The seat's key
(`Seat.link`) is drawn anew when a player sits down and when they end their links on purpose:
leaving the table, being forgotten or `/fc web new` ends every link made before. The service
makes them for its private turn messages; the web adapter checks them on every request that
acts for a seat. They travel in a link's fragment (`#seat=...`), which browsers never send to
a server nor put in a Referer, and from the page in a request header, never in an address
that a proxy would log.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from dataclasses import dataclass

__all__ = ["SeatToken", "read", "sign"]


@dataclass(frozen=True, slots=True)
class SeatToken:
    platform: str
    channel_id: str
    game_id: str
    user_id: str
    expires: float  # epoch seconds
    key: str = ""  # the seat's links' key when it was made (`Seat.link`); "" for no seat


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: bytes, body: str) -> str:
    return _b64(hmac.new(secret, b"fc-seat:" + body.encode(), hashlib.sha256).digest())


def sign(secret: bytes, token: SeatToken) -> str:
    body = _b64(
        json.dumps(
            [
                token.platform,
                token.channel_id,
                token.game_id,
                token.user_id,
                int(token.expires),
                token.key,
            ],
            separators=(",", ":"),
            ensure_ascii=False,
        ).encode()
    )
    return f"{body}.{_mac(secret, body)}"


def read(secret: bytes, text: str, now: float) -> SeatToken | None:
    """The token `text` carries if the bot signed it and it has not expired, else None."""
    body, _, mac = text.partition(".")
    if not body or not mac or not hmac.compare_digest(mac, _mac(secret, body)):
        return None
    try:
        platform, channel_id, game_id, user_id, expires, key = json.loads(_unb64(body))
    except (ValueError, TypeError, binascii.Error, RecursionError):
        return None
    if not all(isinstance(p, str) for p in (platform, channel_id, game_id, user_id, key)):
        return None
    if type(expires) is not int or expires <= now:
        return None
    return SeatToken(platform, channel_id, game_id, user_id, float(expires), key)
