"""The Lua scripts' plans: a script with more than two arguments takes one, a `Plan` (JSON),
whose fields it reads by name (`plan.<field>`), so no argument can be read in another's
place. Each plan here is the whole of what its script reads; `tests/test_store_plans.py`
holds every script to exactly its plan's fields.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import asdict, dataclass, field

__all__ = [
    "ApplyPerson",
    "ApplyPlan",
    "ApplyPlayer",
    "ArchivePlan",
    "BeginMovePlan",
    "ClaimPlan",
    "CopyMovePlan",
    "CreatePlan",
    "EndMovePlan",
    "ForgetArchivePlan",
    "LeasePlan",
    "Plan",
    "PostPlan",
    "SavePlan",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """A script's one ARGV, its fields by name (`cjson.decode` in the Lua). Values go to Redis
    as they are: times are already text (`repr`), so Lua never reformats a float; a None field
    is left out (nil in the Lua)."""

    def to_json(self) -> str:
        fields = {k: v for k, v in asdict(self).items() if v is not None}
        # Not \u-escaped: the Lua gets the very bytes redis-py would have sent.
        return json.dumps(fields, ensure_ascii=False, separators=(",", ":"))


def _op() -> str:
    return uuid.uuid4().hex


@dataclass(frozen=True, slots=True, kw_only=True)
class CreatePlan(Plan):
    """CREATE's fields: a new table at version 1."""

    channel: str  # "<platform>:<channel>", published
    game_id: str
    data: str
    now: str
    creator: str
    players: str  # user ids (JSON), stored as they are
    language: str
    op: str = field(default_factory=_op)


@dataclass(frozen=True, slots=True, kw_only=True)
class SavePlan(Plan):
    """SAVE's fields: the new data if the version is still `version`, and deadlines set
    (`schedule`: kind -> due) or cancelled (`cancel`) in the same step."""

    channel: str  # "<platform>:<channel>": published, and its deadlines' member prefix
    version: int
    data: str
    now: str
    players: str | None = None  # user ids (JSON); None keeps them
    schedule: dict[str, str] = field(default_factory=dict)
    cancel: tuple[str, ...] = ()
    op: str = field(default_factory=_op)


@dataclass(frozen=True, slots=True, kw_only=True)
class ArchivePlan(Plan):
    """ARCHIVE's fields: `data` (the last version) and `result` (kept under `game_id`) are
    written only if given; `version`, if given, must still be the live one's."""

    channel: str  # "<platform>:<channel>": published, and its deadlines' member prefix
    archive_prefix: str  # the channel's archive key without the game id
    now: str
    ttl: int  # seconds the archive and the last pointer are kept
    game_id: str
    cancel: tuple[str, ...] = ()
    version: int | None = None
    data: str | None = None
    result: str | None = None
    op: str = field(default_factory=_op)


@dataclass(frozen=True, slots=True, kw_only=True)
class ForgetArchivePlan(Plan):
    """FORGET_ARCHIVE's fields: the archive's data as `read`, and what replaces it (`data`
    '' deletes the archive, and then `players` and `creator` are not read)."""

    read: str
    data: str
    players: str = ""  # user ids (JSON)
    creator: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class LeasePlan(Plan):
    """DONE's fields: the deadline `member` whose lease, held by `token`, ends at `due`."""

    member: str
    due: str
    token: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ClaimPlan(LeasePlan):
    """CLAIM's and RENEW's fields: the deadline (or lease) still at `due` moves to `new_due`."""

    new_due: str


@dataclass(frozen=True, slots=True)
class ApplyPlayer:
    """One player of APPLY: written only if they still have `before` games."""

    key: str
    before: int
    value: str  # their `Player` (JSON)
    ordinal: float  # their place on the board


@dataclass(frozen=True, slots=True)
class ApplyPerson:
    """One person of APPLY (in the order of their history, opponents and boards keys)."""

    opponents: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ApplyPlan(Plan):
    """APPLY's fields: result `ref` (short id `short`, ended at `ended`) and its updates."""

    ref: str
    short: str
    ended: str
    players: tuple[ApplyPlayer, ...]
    members: tuple[str, ...]  # joining the community's `board`
    people: tuple[ApplyPerson, ...]
    board: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PostPlan(Plan):
    """POST's fields: its reply (beside the plan) kept `ttl` seconds, its deadline `member`
    made due at `due`."""

    due: str
    ttl: int
    member: str


@dataclass(frozen=True, slots=True, kw_only=True)
class BeginMovePlan(Plan):
    """BEGIN's fields: the old table is marked as moving to `new_channel` by `op`."""

    new_channel: str
    deadline_prefix: str  # the old channel's deadline members' prefix
    archive_prefix: str  # the old channel's archive key without the game id
    op: str = field(default_factory=_op)


@dataclass(frozen=True, slots=True, kw_only=True)
class CopyMovePlan(Plan):
    """COPY's fields: the `snapshot` BEGIN read, written at the new channel once per `op`
    ('' without a table)."""

    op: str
    snapshot: str  # JSON, as BEGIN encoded it
    deadline_prefix: str  # the new channel's
    archive_prefix: str  # the new channel's


@dataclass(frozen=True, slots=True, kw_only=True)
class EndMovePlan(Plan):
    """END's fields: the old table moved by `op` ('' without a table) is removed, leaving a
    pointer to `new_channel` kept `ttl` seconds."""

    op: str
    new_channel: str
    ttl: int
    deadline_prefix: str  # the old channel's
    archive_prefix: str  # the old channel's
