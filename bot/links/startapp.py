"""A table named in a Telegram Mini App's direct link: `https://t.me/<bot>/<app>?startapp=<x>`.

Telegram allows only letters, digits, `_` and `-` there (up to 512), and hands the value back
to the page as `start_param`, signed with the rest of `initData`. A table is its platform,
its chat and its game id, so `x` is those three joined by `:`, base64url without padding.
"""

from __future__ import annotations

import base64
import binascii

from ..store import Channel

__all__ = ["parse_start", "start_param"]


def start_param(channel: Channel, game_id: str) -> str:
    text = f"{channel.platform}:{channel.channel_id}:{game_id}"
    return base64.urlsafe_b64encode(text.encode()).rstrip(b"=").decode()


def parse_start(value: str) -> tuple[Channel, str] | None:
    """The table a `start_param` names, or None if it names none."""
    try:
        text = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError):
        return None
    platform, _, rest = text.partition(":")
    channel_id, _, game_id = rest.rpartition(":")
    if not platform or not channel_id or not game_id:
        return None
    return Channel(platform, channel_id), game_id
