"""Who opened a page as the bot's Telegram Mini App: Telegram hands the page `initData`, a
query string signed with a key made from the bot's token, which the page sends here.

As Telegram documents it: the key is HMAC-SHA256 of the bot token under the key "WebAppData";
the signature (`hash`) is HMAC-SHA256, under that key, of every other field as `key=value`,
sorted and joined by newlines. Only the bot's own token makes it, so the user it names is the
one Telegram says opened the page. Data older than `MAX_AGE` is refused, so a copied
`initData` cannot be replayed for long.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

__all__ = ["MAX_AGE", "Launch", "verify"]

MAX_AGE = 86400.0  # seconds


@dataclass(frozen=True, slots=True)
class Launch:
    user_id: str
    start_param: str  # what a direct link's `startapp=` carried, "" if none


def verify(bot_token: str, init_data: str, now: float) -> Launch | None:
    """The user Telegram says opened the page, if `init_data` is signed for this bot and
    recent; else None."""
    try:
        fields = dict(parse_qsl(init_data, keep_blank_values=True, strict_parsing=True))
    except ValueError:
        return None
    given = fields.pop("hash", "")
    key = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    expected = hmac.new(key, check.encode(), hashlib.sha256).hexdigest()
    if not given or not hmac.compare_digest(given, expected):
        return None
    try:
        auth_date = float(fields.get("auth_date", ""))
        user = json.loads(fields.get("user", ""))
        user_id = str(int(user["id"]))
    except (ValueError, TypeError, KeyError):
        return None
    if not 0 <= now - auth_date <= MAX_AGE:
        return None
    return Launch(user_id, fields.get("start_param", ""))
