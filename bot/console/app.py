"""The console adapter: one channel, users named at the start of each line, images to a folder.

    ann new
    bob join
    ann start
    bob play 3 1
    bob press fc:sp:table:0:3
    ann dm play bribe RB

`dm` types the rest in the user's private chat with the bot, where a secret (a Verbotene Stadt
bribe) may be typed without the table seeing it. `@ann` mentions the user ann (`mentions`).

Like the other adapters it only translates: lines become `GameService` calls, replies become
printed lines and files (PNG pictures, GIF replays, JSON records).
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

from ..exchange.actor import Actor
from ..exchange.buttons import channel_mark
from ..exchange.replies import Message, Reply
from ..service import GameService
from .mentions import name_of, unknown_answer, user_of, users_in, with_mentions
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
    "'ann dm play bribe RB'). '@ann' mentions ann ('bob stats @ann'). "
    "Images are written to {images}."
)


class Console:
    def __init__(self, service: GameService, images: Path, channel: str = CHANNEL) -> None:
        self.service = service
        self.images = images
        self.channel = channel
        self._count: int | None = None
        self.users: set[str] = set()  # who has typed here or been addressed: `@name` works

    def _actor(self, user: str, private: bool = False) -> Actor:
        """A user of the table's channel, or of their own private chat with the bot."""
        channel = channel_mark("dm-", user) if private else self.channel
        return Actor(
            "console",
            channel,
            user,
            name_of(user).capitalize(),
            private=private,
            community=self.channel,
        )

    def _save(self, message: Message) -> str:
        """Number the image after every one already in the folder, earlier runs' too,
        and never write over an existing file: many pictures share a name (table.png)."""
        assert message.image is not None
        self.images.mkdir(parents=True, exist_ok=True)
        if self._count is None:
            numbers = (_NUMBERED.match(p.name) for p in self.images.iterdir())
            self._count = max((int(m[1]) for m in numbers if m), default=0)
        while True:
            self._count += 1
            path = self.images / f"{self._count:04d}-{message.image_name}"
            if _write_new(path, message.image):
                return str(path)

    def _save_file(self, message: Message) -> str:
        """A file (a replay, a game's record) under the very name the service gave it, which
        its message may name (`replay forbidden-city-1a2b3c4d.json`): the same file again is
        the one already there; a name another file holds gets a number, and the line that
        follows names the file written."""
        assert message.image is not None
        self.images.mkdir(parents=True, exist_ok=True)
        path = self.images / message.image_name
        number = 1
        while not _write_new(path, message.image):
            if path.is_file() and path.read_bytes() == message.image:
                break
            number += 1
            name = Path(message.image_name)
            path = self.images / f"{name.stem}-{number}{name.suffix}"
        return str(path)

    def _show(self, where: str, message: Message) -> list[str]:
        text = message.format(lambda uid, name: "@" + name_of(uid), lambda s: s)
        lines = [f"{where} {text}"]
        if message.image is not None:
            # The move is saved already: a picture that cannot be written (no room on the disk,
            # no file descriptor left) is said, and the console goes on.
            try:
                if message.image_name.lower().endswith(".png"):
                    lines.append(f"{where} (image: {self._save(message)})")
                else:
                    written = self._save_file(message)
                    # A command the message gives names the file: as the path that works from
                    # where the console runs (`python -m engine... replay data/images/x.json`).
                    lines[0] = lines[0].replace(f" {message.image_name}", f" {_here(written)}")
                    lines.append(f"{where} (file: {written})")
            except OSError as error:
                lines.append(f"{where} (not written: {error.strerror or error})")
        buttons = message.choices + [b for row in message.buttons for b in row]  # as read
        if buttons:
            lines.append(where + " " + " ".join(f"[{b.label}: press {b.data}]" for b in buttons))
        if message.web:
            lines.append(f"{where} {message.web_label}: {message.web}")
        return lines

    def show(self, reply: Reply, user: str | None = None) -> list[str]:
        self.users |= users_in(reply)
        lines: list[str] = []
        to = user if user is None else name_of(user)
        for message in reply.public:
            lines += self._show(f"[#{self.channel}]", message)
        for message in reply.private:
            lines += self._show(f"[to {to}]", message)
        for direct in reply.direct:
            lines += self._show(f"[DM {name_of(direct.user_id)}]", direct.message)
        return lines

    async def handle_line(self, line: str) -> list[str]:
        words = line.strip().split(maxsplit=1)
        if not words or words[0].startswith("#"):
            return []
        user = user_of(words[0])
        if len(words) == 1 or not user:  # no command, or a "name" of control characters
            return ["Type '<user> <command>', e.g. 'ann help'."]
        text = words[1].strip()
        self.users.add(user)
        private = text.split(maxsplit=1)[0].lower() == "dm"
        if private:
            text = text[2:].strip()
        if text.startswith("/fc"):
            text = text[3:].strip()
        actor = self._actor(user, private)
        if text.startswith("press "):
            reply = await self.service.press(actor, text[6:].strip())
        else:
            text, unknown = with_mentions(text, self.users)
            if unknown:
                lang = await self.service.language(actor)
                return [f"[to {name_of(user)}] {unknown_answer(name_of(unknown[0]), lang)}"]
            reply = await self.service.command(actor, text)
        lines = self.show(reply, user)
        if text.split()[:1] == ["help"]:
            lines.append(f"[to {name_of(user)}] {CONSOLE_HELP}")
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


def _write_new(path: Path, data: bytes) -> bool:
    """Write `data` to a file that does not exist yet; False if `path` is taken."""
    try:
        with path.open("xb") as file:
            file.write(data)
    except FileExistsError:
        return False
    return True


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


def _here(path: str) -> str:
    """`path` as typed from the console's working folder (relative when it is below it)."""
    relative = os.path.relpath(path)
    return path if relative.startswith("..") else relative
