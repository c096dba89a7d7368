"""A TCP proxy in front of the test redis-server that can cut the connection right after a
command ran: Redis applies the write, but its reply is lost (redis-py then resends it), or
Redis goes away at once (an outage right after a write)."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from bot.local_redis.server import free_port


class CuttingProxy:
    """Forwards 127.0.0.1:<port> to a redis-server's unix socket."""

    def __init__(self, socket: Path) -> None:
        self.socket = socket
        self.port = free_port()
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._marker: bytes | None = None
        self._deliver = False
        self._down_after = False
        self.cuts = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)

    async def stop(self) -> None:
        """An outage: no connection is accepted and the open ones are cut."""
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._writers):
            writer.close()
        self._writers.clear()

    def cut_after(self, marker: bytes, *, deliver: bool = False, down: bool = False) -> None:
        """Once, after the next command containing `marker` has run (an error reply such as
        NOSCRIPT does not count): cut that connection, losing the reply unless `deliver`,
        and stop accepting connections if `down`."""
        self._marker, self._deliver, self._down_after = marker, deliver, down

    async def _serve(
        self, client_in: asyncio.StreamReader, client_out: asyncio.StreamWriter
    ) -> None:
        try:
            server_in, server_out = await asyncio.open_unix_connection(str(self.socket))
        except OSError:
            client_out.close()
            return
        self._writers |= {client_out, server_out}
        pending = asyncio.Event()

        async def upstream() -> None:
            while data := await client_in.read(65536):
                if self._marker is not None and self._marker in data:
                    pending.set()
                server_out.write(data)
                await server_out.drain()

        async def downstream() -> None:
            while data := await server_in.read(65536):
                if pending.is_set() and self._marker is not None and not data.startswith(b"-"):
                    self._marker = None
                    self.cuts += 1
                    if self._deliver:
                        client_out.write(data)
                        await client_out.drain()
                    if self._down_after:
                        await self.stop()
                    return
                pending.clear()
                client_out.write(data)
                await client_out.drain()

        tasks = [asyncio.ensure_future(upstream()), asyncio.ensure_future(downstream())]
        with contextlib.suppress(OSError, ConnectionError):
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            if task.done() and not task.cancelled():
                task.exception()  # a connection cut by either side: nothing to report
            task.cancel()
        for writer in (client_out, server_out):
            self._writers.discard(writer)
            writer.close()
