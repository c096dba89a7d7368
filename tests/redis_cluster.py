"""The local Redis Cluster of the tests, which `python -m bot load --failovers` shares."""

from bot.load.cluster import LocalCluster

__all__ = ["LocalCluster"]
