"""What the bot counts and times, for `GET /metrics` (Prometheus text format).

One registry for the process. The service counts actions and errors and times commands and
computer players' searches; the deadline poller counts what fell due and how late, and how
many its last poll left due; adapters report how many messages wait to go out, and how many
fewer a busy chat got by coalescing what waited for it (never by dropping any). Every process
of a deployment is scraped on its own.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)

ACTIONS = Counter(
    "fc_actions", "Actions played, by game and by whom", ["game", "by"], registry=REGISTRY
)
COMMANDS = Histogram(
    "fc_command_seconds",
    "Time to answer a command, a button press or an autocomplete",
    ["kind"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
    registry=REGISTRY,
)
# Kinds: refused (the rules or the table said no), illegal, conflict (someone was quicker),
# closed, store_unavailable, unknown_command, invalid_button (data that names nothing).
ERRORS = Counter(
    "fc_errors", "Commands refused or failed, by kind of reason", ["kind"], registry=REGISTRY
)
DEADLINES = Counter(
    "fc_deadlines_fired", "Deadlines that fell due and were fired here", ["kind"], registry=REGISTRY
)
DUE = Gauge(
    "fc_deadlines_due",
    "Deadlines due and not claimed yet, as this process's last poll found them (at most 100)",
    registry=REGISTRY,
)
LATE = Histogram(
    "fc_deadline_late_seconds",
    "How long after its time a deadline was fired",
    ["kind"],
    buckets=(0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0, 300.0),
    registry=REGISTRY,
)
SEARCH = Histogram(
    "fc_computer_search_seconds",
    "Time a computer player took to decide",
    ["game", "level"],
    buckets=(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0),
    registry=REGISTRY,
)
CUT = Counter(
    "fc_computer_searches_cut",
    "Computer players' searches cut short: stopped by their CPU-time cap before their "
    "iterations ran out, or over the think limit and replaced by the greedy move",
    ["game", "level"],
    registry=REGISTRY,
)
DRAWN = Counter(
    "fc_drawn",
    "Work done off the event loop (images, replays of whole games): how many",
    registry=REGISTRY,
)
DRAWING = Counter(
    "fc_drawing_cpu_seconds",
    "CPU time that work took, in the threads that did it",
    registry=REGISTRY,
)
QUEUED = Gauge(
    "fc_outgoing_queued",
    "Messages waiting to be sent, per platform",
    ["platform"],
    registry=REGISTRY,
)

COALESCED = Counter(
    "fc_outgoing_coalesced",
    "Messages a busy chat was spared, per platform: waiting texts joined into one, older "
    "pictures of its table left out for the newest (their words kept)",
    ["platform"],
    registry=REGISTRY,
)


def watch_queue(platform: str, depth: Callable[[], float]) -> None:
    """Report `depth()` as the platform's outgoing queue whenever the metrics are read."""
    QUEUED.labels(platform).set_function(depth)
