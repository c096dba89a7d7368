"""The scripts' plans (`bot.store.plans`): one JSON argument with named fields, which the Lua
reads back as the very text and times the store was given, each script exactly its plan's
fields."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from bot.store import Channel, Deadline, Store, moving, outbox, plans, scripts
from bot.store.keys import claims_key
from bot.store.outbox import POSTS_KEPT
from bot.store.plans import ArchivePlan, Plan, SavePlan
from bot.store.ratings import PREFIX, Player, Update, board_name

BACKENDS = ("single", "cluster")
CHAN = Channel.of("telegram", -1001234)
# Text JSON escapes, or would escape with \u: the Lua must store its bytes as they are.
ODD = '{"name": "Zoë ✓ 🎲", "q": "\\" \\\\ \x00 \u2028 \t"}'
TIMES = [1712345678.123456, 1712345679.987654, 1712345680.000001]

# Each script taking a plan, its plan, and the plan's parts it loops over (Lua name -> type).
PLANNED: dict[str, tuple[str, type[Plan], dict[str, type]]] = {
    "CREATE": (scripts.CREATE, plans.CreatePlan, {}),
    "SAVE": (scripts.SAVE, plans.SavePlan, {}),
    "ARCHIVE": (scripts.ARCHIVE, plans.ArchivePlan, {}),
    "FORGET_ARCHIVE": (scripts.FORGET_ARCHIVE, plans.ForgetArchivePlan, {}),
    "CLAIM": (scripts.CLAIM, plans.ClaimPlan, {}),
    "RENEW": (scripts.RENEW, plans.ClaimPlan, {}),
    "DONE": (scripts.DONE, plans.LeasePlan, {}),
    "APPLY": (
        scripts.APPLY,
        plans.ApplyPlan,
        {"player": plans.ApplyPlayer, "person": plans.ApplyPerson},
    ),
    "POST": (outbox._POST.text, plans.PostPlan, {}),
    "BEGIN": (moving.BEGIN.text, plans.BeginMovePlan, {}),
    "COPY": (moving.COPY.text, plans.CopyMovePlan, {}),
    "END": (moving.END.text, plans.EndMovePlan, {}),
}


def _names(kind: type) -> set[str]:
    return {f.name for f in dataclasses.fields(kind)}


# Scripts that take one large text beside their plan (ARGV[2]), stored as it is: a post's
# reply holds its pictures, which cjson would decode for nothing.
BESIDE = {"POST"}


@pytest.mark.parametrize("name", sorted(PLANNED))
def test_a_script_reads_exactly_its_plans_fields(name: str) -> None:
    lua, plan, parts = PLANNED[name]
    beside = ["ARGV[2]"] if name in BESIDE else []
    assert re.findall(r"ARGV\[\d+\]", lua) == ["ARGV[1]", *beside]
    assert "local plan = cjson.decode(ARGV[1])" in lua
    for var, kind in {"plan": plan, **parts}.items():
        assert not re.search(rf"\b{var}\s*\[", lua), "read fields as <name>.<field>"
        assert set(re.findall(rf"\b{var}\.(\w+)", lua)) == _names(kind), var


def test_every_plan_has_its_script() -> None:
    made = {v for v in vars(plans).values() if isinstance(v, type) and issubclass(v, Plan)}
    assert made - {Plan} == {plan for _, plan, _ in PLANNED.values()}


def test_no_store_script_takes_more_than_two_arguments_by_position() -> None:
    for path in sorted(Path(scripts.__file__).parent.glob("*.py")):
        numbers = {int(n) for n in re.findall(r"ARGV\[(\d+)\]", path.read_text())}
        assert numbers <= {1, 2}, path.name


def test_a_plan_names_its_fields_and_leaves_out_none() -> None:
    plan = ArchivePlan(channel="x:1", archive_prefix="a:", now="1.5", ttl=9, game_id="g")
    fields = json.loads(plan.to_json())
    assert fields["cancel"] == [] and fields["ttl"] == 9 and len(fields["op"]) == 32
    assert not {"version", "data", "result"} & fields.keys()
    text = SavePlan(channel="x:1", version=0, data="Zoë", now="1.5").to_json()
    assert "Zoë" in text and json.loads(text)["version"] == 0


async def test_odd_text_and_exact_times_are_kept_through_every_step(store: Store) -> None:
    ticks = iter(TIMES)
    timed = Store(store.client, clock=lambda: next(ticks))
    await timed.create(CHAN, ODD, creator=1, players=[1, 2], language="fr", game_id="g1")
    assert await timed.save(CHAN, ODD + " ", 1, deadlines={"remind": TIMES[0]}) == 2
    key = await timed.archive(
        CHAN, 2, data=ODD, result=ODD, game_id="g1", cancel_deadlines=["remind"]
    )
    archived = await timed.load_archived(CHAN, "g1")
    assert archived is not None
    assert (archived.data, archived.version, archived.language) == (ODD, 3, "fr")
    assert (archived.created, archived.updated) == (TIMES[0], TIMES[2])
    assert await store.client.hget(key, "archived") == repr(TIMES[2])
    assert await timed.result(f"{CHAN}:g1") == ODD
    assert await timed.deadline(CHAN, "remind") is None


async def test_an_archive_with_empty_data_keeps_the_last_saved_data(store: Store) -> None:
    await store.create(CHAN, ODD, creator=1, players=[1], language="en", game_id="g2")
    await store.archive(CHAN, data="", result="", game_id="g2")
    archived = await store.last_archived(CHAN)
    assert archived is not None and (archived.data, archived.version) == (ODD, 1)


async def test_a_result_is_applied_field_by_field(store: Store) -> None:
    """APPLY: each person's opponents, history and boards; each player's value and place."""
    ann, bob, cpu = (Player(n, 30.0, 7.0, games=1) for n in ("Ann", "Bob", "Hard"))
    updates = [
        Update("console:ann", 0, ann, 9.5, True, ("console:bob", "ai:hard")),
        Update("console:bob", 0, bob, 4.25, True, ("console:ann",)),
        Update("ai:hard", 0, cpu, 1.5, False),
    ]
    ref, short, game = "console:c1:g1", "abcd1234", "forbidden_city"
    assert await store.apply(ref, short, TIMES[0], game, "console:guild", updates) == "ok"
    assert await store.players(game, ["console:ann", "ai:hard"]) == {
        "console:ann": ann,
        "ai:hard": cpu,
    }
    board = await store.client.zrange(f"{PREFIX}:board:{game}", 0, -1, withscores=True)
    assert board == [("ai:hard", 1.5), ("console:bob", 4.25), ("console:ann", 9.5)]
    assert await store.members(game, "console:guild") == ["ai:hard", "console:ann", "console:bob"]
    assert await store.opponents(game, "console:ann") == {"console:bob": 1, "ai:hard": 1}
    assert await store.opponents(game, "console:bob") == {"console:ann": 1}
    history = await store.client.zrange(f"{PREFIX}:history:console:bob", 0, -1, withscores=True)
    assert history == [(ref, TIMES[0])]
    members = board_name(game, "console:guild")
    assert await store.client.smembers(f"{PREFIX}:boards:console:ann") == {members}
    assert await store.find(short) == [ref]
    assert await store.apply(ref, short, TIMES[1], game, "console:guild", updates) == "applied"
    again = [Update("console:ann", 0, ann, 9.5, True)]  # ann has played one game since
    assert await store.apply("console:c1:g2", short, TIMES[1], game, "console:x", again) == "retry"
    assert await store.find(short) == [ref]


async def test_an_archive_is_rewritten_or_dropped_field_by_field(store: Store) -> None:
    """FORGET_ARCHIVE: only the archive as read; new data, players and creator each kept."""
    await store.create(CHAN, ODD, creator=5, players=[5, 6], language="en", game_id="g3")
    await store.archive(CHAN, game_id="g3")
    (read,) = await store.archives_of("telegram", "5")
    assert await store.rewrite_archive(read, "{new}", ["7", "6"], "7") is True
    fields = await store.client.hgetall(read.key)
    assert (fields["data"], fields["creator"], fields["version"]) == ("{new}", "7", "2")
    assert json.loads(fields["players"]) == ["7", "6"]
    assert await store.client.ttl(read.key) > 0
    assert await store.rewrite_archive(read, "{newer}", ["8"], "8") is False  # not as read
    assert await store.drop_archive(read) is False
    (reread,) = await store.archives_of("telegram", "7")
    assert await store.drop_archive(reread) is True
    assert await store.client.exists(read.key) == 0


async def test_a_lease_is_claimed_renewed_and_done_field_by_field(store: Store) -> None:
    """CLAIM, RENEW and DONE: the deadline moves from `due` to `new_due` for `token` only."""
    await store.create(CHAN, "{}", creator=1, players=[1], language="en")
    await store.save(CHAN, "{1}", 1, deadlines={"remind": TIMES[0]})
    claimed = await store.lease(Deadline(CHAN, "remind", TIMES[0]), TIMES[1])
    assert claimed is not None and claimed.due == TIMES[1]
    assert await store.deadline(CHAN, "remind") == Deadline(CHAN, "remind", TIMES[1])
    claims = await store.client.hgetall(claims_key(CHAN.bucket))
    assert claims == {claimed.member: claimed.token}
    assert await store.lease(Deadline(CHAN, "remind", TIMES[0]), TIMES[2]) is None
    assert await store.renew(dataclasses.replace(claimed, token="other"), TIMES[2]) is None
    renewed = await store.renew(claimed, TIMES[2])
    assert renewed is not None and await store.renew(claimed, TIMES[2]) == renewed  # resent
    assert await store.deadline(CHAN, "remind") == Deadline(CHAN, "remind", TIMES[2])
    assert await store.done(claimed) is False  # its lease was renewed: no longer at `due`
    assert await store.deadline(CHAN, "remind") == Deadline(CHAN, "remind", TIMES[2])
    renewed = await store.lease(Deadline(CHAN, "remind", TIMES[2]), TIMES[0])
    assert renewed is not None and await store.done(renewed) is True
    assert await store.deadline(CHAN, "remind") is None
    assert await store.client.hgetall(claims_key(CHAN.bucket)) == {}


async def test_a_post_keeps_its_reply_and_makes_its_deadline_due(store: Store) -> None:
    """POST: the reply kept `ttl` seconds, the channel's `post` deadline due now."""
    timed = Store(store.client, clock=lambda: TIMES[0])
    await timed.post(CHAN, ODD)
    assert POSTS_KEPT - 5 < await store.client.ttl(CHAN.posts_key) <= POSTS_KEPT
    assert await store.deadline(CHAN, "post") == Deadline(CHAN, "post", TIMES[0])
    assert await timed.take(CHAN) == [ODD]
