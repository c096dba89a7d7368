"""Which servers a forget has write their files again, and which it cannot vouch for: a cluster
node that failed is left out (a forget during a failover still ends well for the others), and a
replica that has not copied its master's writes (its master gone, or its first copy not done)
is not rewritten from a copy that may still hold the person: the person is told the files may
hold their name, and the log says which server and why.

The servers keep their files in folders the tests own, and the tests read every byte of them.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import redis

from bot.local_redis.server import RedisServer, find_redis_server, free_port
from bot.store import Store
from tests.conftest import RedisServerFactory
from tests.redis_cluster import LocalCluster
from tests.test_forget_files import (
    DONE,
    FILES_LOG,
    NAME,
    PLAIN,
    USER,
    files_log,
    forget,
    holding,
    master_and_replica,
    on_disk,
    only_others_on_disk,
    service_on,
)
from tests.test_redis_folder import redis_major
from tests.test_results import finish

# Long enough that a busy machine's stall is not taken for a failed node (which the forget
# would then rightly leave out), short enough that a stopped one is flagged soon.
NODE_TIMEOUT_MS = 3000


def flagged(cluster: LocalCluster, dead: RedisServer, flag: str) -> bool:
    """Whether every live node's `CLUSTER NODES` lists the dead node with `flag`."""
    for server in cluster.running():
        with redis.Redis(port=server.port, decode_responses=True) as client:
            nodes = client.execute_command("CLUSTER NODES")
        fields = nodes.get(f"127.0.0.1:{dead.port}", {})
        if flag not in str(fields.get("flags", "")).split(","):
            return False
    return True


async def until(check: Callable[..., bool], *args: object) -> None:
    """Until `check(*args)` holds (a state of the servers, polled)."""
    while not check(*args):
        await asyncio.sleep(0.05)


def other_master(cluster: LocalCluster) -> RedisServer:
    """A master that is not the one the store's address names."""
    return next(s for s in cluster.masters() if s.port != cluster.ports[0])


def running(node_timeout_ms: int = NODE_TIMEOUT_MS, *args: str) -> Iterator[LocalCluster]:
    """A persistent local cluster, started, stopped after the test."""
    cluster = LocalCluster(
        persistent=True, node_timeout_ms=node_timeout_ms, extra_args=(*PLAIN, *args)
    )
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def failing_cluster() -> Iterator[LocalCluster]:
    yield from running()


async def test_a_forget_after_a_failover_rewrites_every_live_node(
    failing_cluster: LocalCluster,
) -> None:
    """The failed master stays listed, flagged `fail`, until an operator forgets it: the
    forget leaves it out and has every node alive write its files again."""
    async for service in service_on(failing_cluster.url):
        await finish(service, [USER, "bob"])
        assert await on_disk(failing_cluster.directory, [NAME, USER])
        dead = other_master(failing_cluster)
        dead.stop()
        await until(failing_cluster.promoted, dead)
        await until(flagged, failing_cluster, dead, "fail")
        assert await forget(service, USER) == DONE
    for server in failing_cluster.running():
        assert holding(server.directory, [NAME, USER]) == [], server.port


@pytest.fixture
def no_failover_cluster() -> Iterator[LocalCluster]:
    yield from running(NODE_TIMEOUT_MS, "--cluster-replica-no-failover", "yes")


async def test_a_cluster_whose_replicas_never_take_over_has_every_node_rewritten(
    no_failover_cluster: LocalCluster,
) -> None:
    """Replicas set never to take over (`cluster-replica-no-failover`) show every node with
    the flag `nofailover`, which is no failure: each node still writes its files again."""
    async for service in service_on(no_failover_cluster.url):
        await only_others_on_disk(service, no_failover_cluster.directory)


async def test_a_replica_whose_master_failed_is_not_vouched_for(
    no_failover_cluster: LocalCluster, caplog: pytest.LogCaptureFixture
) -> None:
    """A replica whose master failed (and that does not take over) may lack the master's last
    writes: its files are not said to be written again, and the log names its master."""
    cluster = no_failover_cluster
    dead = other_master(cluster)
    orphan = cluster.replica_of(dead)
    store = Store.from_url(cluster.url)
    await store.ping()  # its map of the cluster made while the master lives
    dead.stop()
    await until(flagged, cluster, dead, "fail")
    said = await files_log(store, caplog, 120.0)
    assert said == [
        f"127.0.0.1:{orphan.port} did not write its files again: "
        f"its master 127.0.0.1:{dead.port} is not one the store knows"
    ]


async def test_a_replica_still_on_its_first_copy_is_not_vouched_for(
    redis_server_factory: RedisServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """A replica the master lists while its first copy has not even started (the master
    waits an hour before sending it): the person hears the files may still hold them, the
    log says the replica's link is down, and the master's own files are written again."""
    wait_an_hour = ("--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "3600")
    master = redis_server_factory(persistent=True, tcp=True, extra_args=(*PLAIN, *wait_an_hour))
    master.start()
    async for service in service_on(master.url):
        await finish(service, [USER, "bob"])
        replica = redis_server_factory(
            persistent=True,
            tcp=True,
            extra_args=(*PLAIN, "--replicaof", "127.0.0.1", str(master.port)),
        )
        replica.start()
        with redis.Redis(port=master.port, decode_responses=True) as admin:
            await until(lambda: "slave0" in admin.info("replication"))
        with caplog.at_level(logging.ERROR, logger=FILES_LOG):
            said = await forget(service, USER)
    assert said.startswith(DONE) and said != DONE and "files" in said
    assert [r.getMessage() for r in caplog.records if r.name == FILES_LOG] == [
        f"127.0.0.1:{replica.port} did not write its files again: its link to redis is down"
    ]
    assert holding(master.directory, [NAME, USER]) == []


async def test_a_replica_is_reached_at_its_own_address_with_the_masters_password(
    redis_server_factory: RedisServerFactory,
) -> None:
    """The store reaches its Redis by a unix socket, with a password; the replica listens
    on another address only, and asks the same password: the forget reaches it there, with
    the store's credentials, and its files are written again too."""
    secret = "s3cret"
    master = redis_server_factory(persistent=True, extra_args=(*PLAIN, "--port", str(free_port())))
    master.start()
    with redis.Redis.from_url(master.url) as admin:
        port = int(admin.config_get("port")["port"])
        admin.config_set("requirepass", secret)
    replica = redis_server_factory(
        persistent=True,
        extra_args=(
            *PLAIN,
            *("--port", str(free_port()), "--bind", "127.0.0.2"),
            *("--replica-announce-ip", "127.0.0.2", "--masterauth", secret),
            *("--replicaof", "127.0.0.1", str(port)),
        ),
    )
    replica.start()
    with redis.Redis.from_url(replica.url) as admin:
        admin.config_set("requirepass", secret)
    assert master.unix_socket is not None
    async for service in service_on(f"unix://:{secret}@{master.unix_socket}"):
        with redis.Redis.from_url(master.url, password=secret, decode_responses=True) as admin:
            await until(lambda: admin.info("replication").get("slave0", {}).get("ip"))
            assert admin.info("replication")["slave0"]["ip"] == "127.0.0.2"
        await only_others_on_disk(service, replica.directory, master.directory)


def counters(url: str) -> tuple[int, int]:
    """How many AOF rewrites and snapshots the server has made since it started."""
    with redis.Redis.from_url(url, decode_responses=True) as client:
        info = client.info("persistence")
    return int(info["aof_rewrites"]), int(info["rdb_saves"])


def grown(url: str, before: tuple[int, int]) -> bool:
    """Whether the server has made a rewrite and a snapshot since `before`."""
    return all(now > then for now, then in zip(counters(url), before, strict=True))


@pytest.mark.skipif(
    redis_major(find_redis_server()) < 7,
    reason="counts of rewrites and snapshots (INFO's aof_rewrites, rdb_saves) are Redis 7's",
)
async def test_a_lagging_replica_is_rewritten_only_once_it_has_the_forget(
    redis_server_factory: RedisServerFactory,
) -> None:
    """A replica that has not yet applied the forget's writes (here held by `CLIENT PAUSE
    WRITE`, as a busy replica would be) is waited for: a rewrite then would copy the person
    again. Once it has caught up, its files are written and hold nothing of them."""
    master, replica = master_and_replica(redis_server_factory)
    async for service in service_on(master.url):
        await finish(service, [USER, "bob"])
        assert await on_disk(replica.directory, [NAME, USER])
        master_before, replica_before = counters(master.url), counters(replica.url)
        with redis.Redis.from_url(replica.url) as admin:
            admin.execute_command("CLIENT", "PAUSE", 600_000, "WRITE")
        asked = asyncio.create_task(forget(service, USER))
        await until(grown, master.url, master_before)  # the master's own files are done
        with redis.Redis.from_url(replica.url, decode_responses=True) as admin:
            lag = admin.info("replication")
            with redis.Redis.from_url(master.url, decode_responses=True) as boss:
                assert lag["slave_repl_offset"] < boss.info("replication")["master_repl_offset"]
            assert not asked.done()
            assert counters(replica.url) == replica_before
            admin.execute_command("CLIENT", "UNPAUSE")
        assert await asked == DONE
    for server in (master, replica):
        assert holding(server.directory, [NAME, USER]) == []


async def test_a_replica_that_stays_behind_is_given_up_after_the_patience(
    redis_server_factory: RedisServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """A replica that does not catch up within the patience: the store stops waiting, says
    the files are not written, and the log says how long it waited."""
    master = redis_server_factory(persistent=True, tcp=True, extra_args=PLAIN)
    master.start()
    replica = redis_server_factory(
        persistent=True, tcp=True, extra_args=(*PLAIN, "--replicaof", "127.0.0.1", str(master.port))
    )
    replica.start()
    with redis.Redis.from_url(master.url) as boss:
        boss.set("before", "1")
        while boss.execute_command("WAIT", 1, 100) < 1:  # until the replica has it (its
            pass  # first copy may take a while on a busy machine)
        with redis.Redis.from_url(replica.url) as admin:
            admin.execute_command("CLIENT", "PAUSE", 60_000, "WRITE")
        boss.set("after", "1")  # a write the replica cannot apply while paused
    store = Store.from_url(master.url)
    try:
        with caplog.at_level(logging.ERROR, logger=FILES_LOG):
            assert await store.rewrite_files(1.0) is False
    finally:
        await store.close()
        with redis.Redis.from_url(replica.url) as admin:
            admin.execute_command("CLIENT", "UNPAUSE")
    assert [r.getMessage() for r in caplog.records if r.name == FILES_LOG] == [
        "Redis did not write its files again within 1 s"
    ]


@pytest.fixture
def patient_cluster() -> Iterator[LocalCluster]:
    """A cluster that waits a minute before giving up on a node it was asked to meet."""
    yield from running(60_000)


def meeting(cluster: LocalCluster, port: int) -> bool:
    """Whether every node lists the one at `port` as still in its handshake."""
    for server in cluster.running():
        with redis.Redis(port=server.port, decode_responses=True) as client:
            nodes = client.execute_command("CLUSTER NODES")
        if "handshake" not in str(nodes.get(f"127.0.0.1:{port}", {}).get("flags", "")):
            return False
    return True


async def test_a_node_the_cluster_has_not_met_yet_is_left_out(
    patient_cluster: LocalCluster,
) -> None:
    """An operator adds a node that does not answer yet (`CLUSTER MEET`): listed in its
    handshake, it holds nothing, and the forget rewrites every other node."""
    absent, bus = free_port(), free_port()  # its bus port named: port + 10000 may not exist
    async for service in service_on(patient_cluster.url):
        await finish(service, [USER, "bob"])
        assert await on_disk(patient_cluster.directory, [NAME, USER])
        for server in patient_cluster.running():
            with redis.Redis(port=server.port) as client:
                client.execute_command("CLUSTER", "MEET", "127.0.0.1", absent, bus)
        await until(meeting, patient_cluster, absent)
        assert await forget(service, USER) == DONE
    assert holding(patient_cluster.directory, [NAME, USER]) == []


def speaks_tls(binary: Path) -> bool:
    """Whether this redis-server was built with TLS: one that was not refuses `tls-port` as a
    bad directive before it reads the bad port that follows (either way it exits at once)."""
    said = subprocess.run(
        [str(binary), "--tls-port", "1", "--port", "none"], capture_output=True, text=True
    )
    return "'tls-port" not in said.stdout + said.stderr


def certificate(folder: Path) -> tuple[Path, Path]:
    """A self-signed certificate for 127.0.0.1 and its key, made by openssl."""
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
            *("-keyout", str(key), "-out", str(cert), "-subj", "/CN=localhost"),
            *("-addext", "subjectAltName=IP:127.0.0.1"),
        ],
        check=True,
        capture_output=True,
    )
    return cert, key


@pytest.mark.skipif(
    shutil.which("openssl") is None or not speaks_tls(find_redis_server()),
    reason="needs openssl and a redis-server built with TLS",
)
async def test_a_replica_reached_over_tls_only_has_its_files_written_again(
    redis_server_factory: RedisServerFactory, tmp_path: Path
) -> None:
    """A Redis served over TLS only (as managed ones are), with a replica copying over TLS:
    the store reaches the replica the way it reaches the master, TLS included, so both write
    their files again and the person hears it is done."""
    cert, key = certificate(tmp_path)
    tls = (
        *("--tls-cert-file", str(cert), "--tls-key-file", str(key)),
        *("--tls-ca-cert-file", str(cert), "--tls-auth-clients", "no"),
        *("--tls-replication", "yes"),
    )
    port = free_port()  # the master's only port reached over TCP
    master = redis_server_factory(
        persistent=True, extra_args=(*PLAIN, *tls, "--tls-port", str(port))
    )
    master.start()
    replica = redis_server_factory(
        persistent=True,
        extra_args=(
            *PLAIN,
            *tls,
            "--tls-port",
            str(free_port()),
            "--replicaof",
            "127.0.0.1",
            str(port),
        ),
    )
    replica.start()
    with redis.Redis.from_url(master.url, decode_responses=True) as admin:
        await until(lambda: admin.info("replication").get("slave0", {}).get("state") == "online")
    async for service in service_on(f"rediss://127.0.0.1:{port}/0?ssl_cert_reqs=none"):
        await only_others_on_disk(service, replica.directory, master.directory)
