"""The terminal's lines for the console, read without blocking the event loop."""

from __future__ import annotations

import asyncio
import os
import sys

__all__ = ["StdinLines"]


class StdinLines:
    """Lines typed on stdin, read on the event loop rather than in a thread: a thread
    blocked in `input()` made Ctrl-C wait for Enter. Raises EOFError at end of input."""

    def __init__(self, prompt: str) -> None:
        self.prompt = prompt  # shown only on a terminal, not to a pipe
        self._fd = sys.stdin.fileno()
        self._pending = b""
        self._interactive = sys.stdin.isatty()

    async def _chunk(self) -> bytes:
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()

        def readable() -> None:
            if not ready.done():
                ready.set_result(None)

        try:
            loop.add_reader(self._fd, readable)
        except PermissionError:  # a regular file: epoll refuses it, and it never blocks
            return os.read(self._fd, 65536)
        try:
            await ready
        finally:
            loop.remove_reader(self._fd)
        return os.read(self._fd, 65536)

    async def __call__(self) -> str:
        if self._interactive:
            sys.stdout.write(self.prompt)
            sys.stdout.flush()
        while b"\n" not in self._pending:
            chunk = await self._chunk()
            if not chunk:
                if not self._pending:
                    raise EOFError
                self._pending += b"\n"
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return line.decode(sys.stdin.encoding or "utf-8", errors="replace")
