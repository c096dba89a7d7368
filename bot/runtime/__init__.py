"""How a bot process runs: its event loop, heap, logs, metrics, ops routes and worker pool."""
