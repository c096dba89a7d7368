"""Moves made on a web page, told in their chat as if pressed there.

A press on a page runs the same service path as a press in the chat. What it says privately
is the page's to show; what it says to the channel and to the other players privately must
reach them on the chat's platform, which only a process serving that platform can post to.
So the reply waits in Redis (`Store.post`), its channel's `post` deadline due at once, and the
platform's deadline poller, in whichever process claims it, delivers it: once, and after a
process dies, by another.
"""

from __future__ import annotations

import base64
import json
from dataclasses import asdict
from typing import Any

from ..exchange.replies import Button, Direct, Message, Reply, Target
from ..store import Channel
from .context import Context

# What only a web page shows (its board, tray, drawn buttons and spots): a stored reply is
# for the chats, which show none of it, so it is not kept (a Die Verbotene Stadt menu's
# drawings would be most of its bytes).
PAGE_ONLY = ("board", "tray")


def _message_data(message: Message) -> dict[str, Any]:
    data = asdict(message)
    data["image"] = None if message.image is None else base64.b64encode(message.image).decode()
    for name in PAGE_ONLY:
        del data[name]
    for button in [*(b for row in data["buttons"] for b in row), *data["choices"]]:
        del button["drawing"]
    for target in data["targets"]:
        del target["spot"]
    return data


def _target(data: dict[str, Any]) -> Target:
    left, top, right, bottom = data["box"]
    return Target((left, top, right, bottom), data["label"], data["data"])


def _message(data: dict[str, Any]) -> Message:
    image = data.get("image")
    return Message(
        text=data["text"],
        image=None if image is None else base64.b64decode(image),
        image_name=data.get("image_name", "table.png"),
        buttons=[[Button(**b) for b in row] for row in data.get("buttons", [])],
        choices=[Button(**b) for b in data.get("choices", [])],
        choices_placeholder=data.get("choices_placeholder", ""),
        names=dict(data.get("names", {})),
        web=data.get("web", ""),
        web_label=data.get("web_label", ""),
        targets=[_target(t) for t in data.get("targets", [])],
        keys=dict(data.get("keys", {})),
    )


def dump(reply: Reply) -> str:
    """What of `reply` the chat must get (public and direct messages), as stored."""
    return json.dumps(
        {
            "public": [_message_data(m) for m in reply.public],
            "direct": [
                {"user": d.user_id, "message": _message_data(d.message), "notice": d.turn_notice}
                for d in reply.direct
            ],
        },
        ensure_ascii=False,
    )


def load(text: str) -> Reply:
    data = json.loads(text)
    return Reply(
        public=[_message(m) for m in data["public"]],
        direct=[Direct(d["user"], _message(d["message"]), d["notice"]) for d in data["direct"]],
    )


async def post(ctx: Context, channel: Channel, reply: Reply) -> Reply:
    """Sends what the chat must get of `reply` to its platform (through Redis); returns what
    is left for the page: the private part, and whether it was refused."""
    if reply.public or reply.direct:
        await ctx.store.post(channel, dump(reply))
    return Reply(private=reply.private, ok=reply.ok)


async def deliver(ctx: Context, channel: Channel) -> Reply:
    """Every reply waiting for the channel's platform, oldest first, as one reply."""
    out = Reply()
    for text in await ctx.store.take(channel):
        waiting = load(text)
        out.public.extend(waiting.public)
        out.direct.extend(waiting.direct)
    return out
