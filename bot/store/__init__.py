"""Games, deadlines and chat settings in Redis, safe for many clicks and many processes, on
one Redis or a Redis Cluster.

Each live game is one hash; the engine's record is an opaque string in it, so the store
knows nothing of the rules. Every write is a single Lua script on the keys of one slot
(`keys` explains the layout), so it is atomic (nothing half-written if Redis dies) and
checks a version number (optimistic concurrency: of two clicks applying the same move, one
wins, the other gets `Conflict`). A turn's deadlines are written in the same step as the
turn, and claiming a deadline is a lease that runs out if its work is never done. After a
saved move the store waits for a replica, when there is one, so a failover loses no move
the players were told of (docs/operations.md).

Nothing is cached in process memory: every call reads or writes Redis.
"""

from .changes import EVERY, Changes
from .chats import Chats
from .connecting import COPIED, MAX_CONNECTIONS, Connector, Policy
from .deadlines import CLAIM_LEASE, Deadlines
from .errors import AlreadyExists, Conflict, NotFound, StoreError, StoreUnavailable
from .forgetting import Forgetting
from .games import MAX_DATA_BYTES, Games
from .keys import BUCKETS, Channel, ChatSettings, Deadline, GameRecord
from .migration import CLAIMS_KEY, DEADLINES_KEY, Migration
from .moving import Move
from .once import Claim, Held, Once
from .outbox import Outbox
from .ratings import Player, Ratings, Update
from .results import Results, parse_ref
from .users import Users

__all__ = [
    "BUCKETS",
    "CLAIMS_KEY",
    "CLAIM_LEASE",
    "COPIED",
    "DEADLINES_KEY",
    "EVERY",
    "MAX_CONNECTIONS",
    "MAX_DATA_BYTES",
    "AlreadyExists",
    "Channel",
    "ChatSettings",
    "Claim",
    "Conflict",
    "Connector",
    "Deadline",
    "GameRecord",
    "Held",
    "Move",
    "NotFound",
    "Player",
    "Policy",
    "Ratings",
    "Store",
    "StoreError",
    "StoreUnavailable",
    "Update",
    "parse_ref",
]


class Store(
    Games,
    Changes,
    Deadlines,
    Outbox,
    Chats,
    Users,
    Migration,
    Once,
    Results,
    Ratings,
    Forgetting,
):
    """Async access to the bot's Redis data. Holds only the connection: no game state.

    Built with `Store.from_url(url)`, it finds out on first use whether the URL names a
    Redis Cluster node and connects accordingly."""
