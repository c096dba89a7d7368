"""The test cluster's nodes start even when the ports they were given are taken since.

A node listens on its port and on a cluster bus at port + 10000. When that bus port lay in
the kernel's range for outgoing connections, any client's connection could take it between
the choice and the start, and the node aborted ("Address already in use"): a CI run lost
its failover figures that way."""

from __future__ import annotations

import socket
from pathlib import Path

from bot.load.cluster import _cluster_ports
from tests.redis_cluster import LocalCluster


def _ephemeral_low() -> int:
    return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])


def test_nodes_and_their_buses_lie_below_the_outgoing_connections_range() -> None:
    low = _ephemeral_low()
    for _ in range(20):
        ports = _cluster_ports(6)
        assert len(set(ports)) == 6
        assert all(port >= 1024 and port + 10000 < low for port in ports), ports


def test_a_port_taken_after_it_was_chosen_moves_the_cluster_elsewhere() -> None:
    cluster = LocalCluster()
    taken = cluster.ports[3]
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    holder.bind(("127.0.0.1", taken + 10000))
    holder.listen()
    try:
        cluster.start()
        try:
            assert taken not in cluster.ports
            assert len(cluster.masters()) == 3
        finally:
            cluster.stop()
    finally:
        holder.close()
