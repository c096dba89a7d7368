"""What the store keeps and under which Redis keys.

Redis Cluster runs a Lua script only if all its keys hash to one slot, and a turn is saved
together with its deadlines in one script (so they always match the stored turn). A hash tag
per channel would put the turn and the deadline index in different slots. So channels are
grouped into `BUCKETS` deadline buckets, by `crc32("<platform>:<channel_id>") % BUCKETS`
(stable across processes, unlike Python's `hash`), and every key of a channel carries its
bucket's hash tag: the game, its deadlines and their claims are then in one slot, and each
step stays one atomic script. Bucket `k`'s tag is chosen so that its slot falls in
`[k * 64, (k + 1) * 64)`: the buckets spread evenly over the 16384 slots, so every master of
any cluster holds some of them, and 256 deadline sets keep any one key from being hot.

    fc:{t}:game:<platform>:<channel>               live game (hash)
    fc:{t}:chat:<platform>:<channel>               chat settings (hash)
    fc:{t}:archive:<platform>:<channel>:<game_id>  ended game (hash, expires)
    fc:{t}:last:<platform>:<channel>               id of the last archived game (expires)
    fc:{t}:moved:<platform>:<channel>              where the table went (see `moving`)
    fc:{t}:posts:<platform>:<channel>              replies waiting for their platform (list)
    fc:{t}:result:<platform>:<channel>:<game_id>   a finished game's result, kept for good
    fc:{t}:results:<platform>:<channel>            the channel's results (zset, by end time)
    fc:{t}:unrated                                 bucket's results not rated yet (set)
    fc:{t}:deadlines                               bucket's deadlines (zset, by due time)
    fc:{t}:claims                                  bucket's leases: member -> holder's token
    fc:user:<platform>:<user>                      channels of the user's games (derived)
    fc:dms:<platform>:<user>                       when private messages were refused
    fc:{fc-ratings}:...                            ratings, leaderboards, players' history:
                                                   derived from the results (`ratings`)

The tags must never change: changing them would lose every stored game.
"""

from __future__ import annotations

import binascii
import functools
import itertools
import json
import re
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = [
    "BUCKETS",
    "GAME_PATTERN",
    "LAYOUT",
    "LAYOUT_KEY",
    "RESULT_PATTERN",
    "Channel",
    "ChatSettings",
    "Deadline",
    "GameRecord",
    "bucket_tags",
    "check_part",
    "claims_key",
    "deadlines_key",
    "unrated_key",
    "user_ids",
    "user_key",
]

BUCKETS = 256
SLOTS = 16384
_SLOTS_PER_BUCKET = SLOTS // BUCKETS
LAYOUT_KEY = "fc:layout"  # the layout version the data is in (see `migration`)
LAYOUT = 2
GAME_PATTERN = "fc:{*}:game:*"
RESULT_PATTERN = "fc:{*}:result:*"

_PART = re.compile(r"[^:\s]+")


def check_part(name: str, value: str) -> str:
    """A key part: non-empty, no separator, so keys and members parse back unambiguously."""
    if not _PART.fullmatch(value):
        raise ValueError(f"{name} must be non-empty without ':' or spaces: {value!r}")
    return value


def user_ids(ids: Iterable[int | str]) -> list[str]:
    """Checked user ids, each once, in their first order."""
    out: list[str] = []
    for uid in ids:
        text = check_part("user id", str(uid))
        if text not in out:
            out.append(text)
    return out


def _slot(tag: str) -> int:
    """The cluster slot of a hash tag: CRC16 (XMODEM), as Redis computes it."""
    return binascii.crc_hqx(tag.encode(), 0) % SLOTS


@functools.cache
def bucket_tags() -> tuple[str, ...]:
    """Bucket -> hash tag: the first hex number whose slot lies in the bucket's range.
    Deterministic, so every process (and every version) finds the same tags."""
    tags: dict[int, str] = {}
    for number in itertools.count():
        tag = format(number, "x")
        tags.setdefault(_slot(tag) // _SLOTS_PER_BUCKET, tag)
        if len(tags) == BUCKETS:
            return tuple(tags[bucket] for bucket in range(BUCKETS))
    raise AssertionError("unreachable")


def deadlines_key(bucket: int) -> str:
    return f"fc:{{{bucket_tags()[bucket]}}}:deadlines"


def claims_key(bucket: int) -> str:
    return f"fc:{{{bucket_tags()[bucket]}}}:claims"


def unrated_key(bucket: int) -> str:
    return f"fc:{{{bucket_tags()[bucket]}}}:unrated"


def user_key(platform: str, user_id: int | str) -> str:
    return f"fc:user:{check_part('platform', platform)}:{check_part('user', str(user_id))}"


@dataclass(frozen=True, slots=True)
class Channel:
    """Where a game is played: a Discord channel or a Telegram chat."""

    platform: str
    channel_id: str

    def __post_init__(self) -> None:
        check_part("platform", self.platform)
        check_part("channel_id", self.channel_id)

    @classmethod
    def of(cls, platform: str, channel_id: int | str) -> Channel:
        return cls(platform, str(channel_id))

    @classmethod
    def parse(cls, text: str) -> Channel:
        """The channel of `str(channel)`."""
        platform, channel_id = text.split(":", 1)
        return cls(platform, channel_id)

    @classmethod
    def of_game_key(cls, key: str) -> Channel | None:
        """The channel of a live game's key, None for any other key."""
        parts = key.split(":")
        if len(parts) != 5 or parts[0] != "fc" or parts[2] != "game":
            return None
        return cls(parts[3], parts[4])

    def __str__(self) -> str:
        return f"{self.platform}:{self.channel_id}"

    @property
    def bucket(self) -> int:
        return zlib.crc32(str(self).encode()) % BUCKETS

    @property
    def prefix(self) -> str:
        """`fc:{tag}`: every key of the channel starts so, hence lies in one slot."""
        return f"fc:{{{bucket_tags()[self.bucket]}}}"

    @property
    def game_key(self) -> str:
        return f"{self.prefix}:game:{self}"

    @property
    def settings_key(self) -> str:
        return f"{self.prefix}:chat:{self}"

    def archive_key(self, game_id: str) -> str:
        return f"{self.prefix}:archive:{self}:{game_id}"

    def result_key(self, game_id: str) -> str:
        return f"{self.prefix}:result:{self}:{check_part('game_id', game_id)}"

    @classmethod
    def of_result_key(cls, key: str) -> tuple[Channel, str] | None:
        """The channel and game id of a result's key, None for any other key."""
        parts = key.split(":")
        if len(parts) != 6 or parts[0] != "fc" or parts[2] != "result":
            return None
        return cls(parts[3], parts[4]), parts[5]

    @property
    def results_key(self) -> str:
        return f"{self.prefix}:results:{self}"

    @property
    def unrated_key(self) -> str:
        return unrated_key(self.bucket)

    @property
    def last_key(self) -> str:
        """Points to the channel's last archived game, so its end can still be shown."""
        return f"{self.prefix}:last:{self}"

    @property
    def posts_key(self) -> str:
        """Replies of moves made on a web page, waiting for the chat's platform (`outbox`)."""
        return f"{self.prefix}:posts:{self}"

    @property
    def moved_key(self) -> str:
        """Where the channel's table was moved to (a Telegram group became a supergroup)."""
        return f"{self.prefix}:moved:{self}"

    @property
    def deadlines_key(self) -> str:
        return deadlines_key(self.bucket)

    @property
    def claims_key(self) -> str:
        return claims_key(self.bucket)

    @property
    def user_key_prefix(self) -> str:
        return f"fc:user:{self.platform}:"

    def deadline_member(self, kind: str) -> str:
        return f"{self}:{check_part('kind', kind)}"


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One stored game. `data` is the engine's record, opaque to the store."""

    channel: Channel
    game_id: str
    version: int
    data: str
    created: float
    updated: float
    creator: str
    players: tuple[str, ...]
    language: str

    @classmethod
    def _from_hash(cls, channel: Channel, fields: Mapping[str, str]) -> GameRecord:
        return cls(
            channel=channel,
            game_id=fields["game_id"],
            version=int(fields["version"]),
            data=fields["data"],
            created=float(fields["created"]),
            updated=float(fields["updated"]),
            creator=fields["creator"],
            players=tuple(json.loads(fields["players"])),
            language=fields["language"],
        )


@dataclass(frozen=True, slots=True)
class Deadline:
    """A scheduled event (reminder, turn limit...) of one channel, due at `due` (epoch s).
    A claimed one carries its lease: `due` is then the end of the lease, `token` its holder."""

    channel: Channel
    kind: str
    due: float
    token: str = ""

    @property
    def member(self) -> str:
        return self.channel.deadline_member(self.kind)

    @classmethod
    def _parse(cls, member: str, score: float) -> Deadline:
        platform, channel_id, kind = member.split(":", 2)
        return cls(Channel(platform, channel_id), kind, score)


@dataclass(frozen=True, slots=True)
class ChatSettings:
    """Per-chat preferences. `language` is the one set with `/fc lang`; `table_language` the
    language the chat's first table was opened in, kept so that what is sent on a timer
    speaks as the answers do; neither: the bot's default (or the user's, when answering)."""

    language: str | None
    notify: Mapping[str, bool]
    table_language: str | None = None

    @property
    def spoken(self) -> str | None:
        """The chat's one language, if it has one: the one set, else the one kept."""
        return self.language or self.table_language

    def notify_enabled(self, user_id: int | str, default: bool = True) -> bool:
        return self.notify.get(str(user_id), default)
