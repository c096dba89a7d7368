"""The scripts' plans (`bot.store.scripts.Plan`): one JSON argument with named fields, which
the Lua reads back as the very text and times the store was given."""

from __future__ import annotations

import json

from bot.store import Channel, Store
from bot.store.scripts import ArchivePlan, SavePlan

BACKENDS = ("single", "cluster")
CHAN = Channel.of("telegram", -1001234)
# Text JSON escapes, or would escape with \u: the Lua must store its bytes as they are.
ODD = '{"name": "Zoë ✓ 🎲", "q": "\\" \\\\ \x00 \u2028 \t"}'
TIMES = [1712345678.123456, 1712345679.987654, 1712345680.000001]


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
