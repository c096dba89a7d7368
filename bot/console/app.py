"""The console adapter: one channel, users named at the start of each line, images to a folder.

    ann new
    bob join
    ann start
    bob play 3 1
    bob press fc:sp:table:0:3
    ann dm play bribe RB

`dm` types the rest in the user's private chat with the bot, where a secret (a Verbotene Stadt
bribe) may be typed without the table seeing it.

Like the other adapters it only translates: lines become `GameService` calls, replies become
printed lines and files (PNG pictures, GIF replays, JSON records).
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from ..actor import Actor
from ..names import without_controls
from ..replies import Message, Reply
from ..service import GameService
from .stdin import StdinLines

CHANNEL = "table"
# What only the console has: its private chat (`/fc help` speaks of every platform).
CONSOLE_HELP = "Here, '<user> dm <command>' types in your private chat with the bot."
PROMPT = "> "
_NUMBERED = re.compile(r"(\d+)-")
INTRO = (
    "Forbidden City in the terminal. Type '<user> <command>', e.g. 'ann new', 'bob join', "
    "'ann start', 'bob play 3 1' ('ann new stadt' opens Die Verbotene Stadt instead); "
    "'ann help' lists the commands; 'quit', Ctrl-D or Ctrl-C leaves.\n"
    "Buttons show as [label: press DATA]; press one with '<user> press DATA'. "
    "'<user> dm <command>' types in that user's private chat (a secret bribe: "
    "'ann dm play bribe RB'). Images are written to {images}."
)


class Console:
    def __init__(self, service: GameService, images: Path, channel: str = CHANNEL) -> None:
        self.service = service
        self.images = images
        self.channel = channel
        self._count: int | None = None

    def _actor(self, user: str, private: bool = False) -> Actor:
        """A user of the table's channel, or of their own private chat with the bot."""
        channel = f"dm-{user}" if private else self.channel
        return Actor(
            "console", channel, user, user.capitalize(), private=private, community=self.channel
        )

    def _save(self, message: Message) -> str:
        """Number the image after every one already in the folder, earlier runs' too,
        and never write over an existing file."""
        assert message.image is not None
        self.images.mkdir(parents=True, exist_ok=True)
        if self._count is None:
            numbers = (_NUMBERED.match(p.name) for p in self.images.iterdir())
            self._count = max((int(m[1]) for m in numbers if m), default=0)
        while True:
            self._count += 1
            path = self.images / f"{self._count:04d}-{message.image_name}"
            try:
                with path.open("xb") as file:
                    file.write(message.image)
            except FileExistsError:
                continue
            return str(path)

    def _show(self, where: str, message: Message) -> list[str]:
        text = message.format(lambda uid, name: "@" + uid, lambda s: s)
        lines = [f"{where} {text}"]
        if message.image is not None:
            kind = "image" if message.image_name.lower().endswith(".png") else "file"
            lines.append(f"{where} ({kind}: {self._save(message)})")
        buttons = message.choices + [b for row in message.buttons for b in row]  # as read
        if buttons:
            lines.append(where + " " + " ".join(f"[{b.label}: press {b.data}]" for b in buttons))
        return lines

    def show(self, reply: Reply, user: str | None = None) -> list[str]:
        lines: list[str] = []
        for message in reply.public:
            lines += self._show(f"[#{self.channel}]", message)
        for message in reply.private:
            lines += self._show(f"[to {user}]", message)
        for direct in reply.direct:
            lines += self._show(f"[DM {direct.user_id}]", direct.message)
        return lines

    async def handle_line(self, line: str) -> list[str]:
        words = line.strip().split(maxsplit=1)
        if not words or words[0].startswith("#"):
            return []
        if len(words) == 1:
            return ["Type '<user> <command>', e.g. 'ann help'."]
        user, text = without_controls(words[0]).lower(), words[1].strip()
        private = text.split(maxsplit=1)[0].lower() == "dm"
        if private:
            text = text[2:].strip()
        if text.startswith("/fc"):
            text = text[3:].strip()
        actor = self._actor(user, private)
        if text.startswith("press "):
            reply = await self.service.press(actor, text[6:].strip())
        else:
            reply = await self.service.command(actor, text)
        lines = self.show(reply, user)
        if text.split()[:1] == ["help"]:
            lines.append(f"[to {user}] {CONSOLE_HELP}")
        return lines

    async def resume(self) -> list[str]:
        """A console started again keeps no private messages: the table as it stands, and the
        prompts of those it waits for, again."""
        return self.show(await self.service.resume("console", self.channel))

    async def tick(self) -> list[str]:
        lines: list[str] = []
        for platform, _channel, reply in await self.service.fire_due():
            if platform == "console":
                lines += self.show(reply)
        return lines


async def run(
    service: GameService,
    images: Path,
    read: Callable[[], Awaitable[str]] | None = None,
    write: Callable[[str], object] = print,
) -> None:
    """Read lines until 'quit', end of input (Ctrl-D) or cancellation (Ctrl-C)."""
    read = read or StdinLines(PROMPT)
    console = Console(service, images)
    write(INTRO.format(images=images))
    for line in await console.resume():
        write(line)

    async def deadlines() -> None:
        while True:
            await asyncio.sleep(1)  # computer players act a short pause after their turn
            for line in await console.tick():
                write(line)

    ticker = asyncio.create_task(deadlines())
    try:
        while True:
            try:
                line = await read()
            except EOFError:
                break
            if line.strip().lower() in ("quit", "exit"):
                break
            for out in await console.handle_line(line):
                write(out)
    finally:
        ticker.cancel()
    sys.stdout.flush()
