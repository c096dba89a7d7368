"""Die Verbotene Stadt's board to touch: on the seat's image each official of a menu is a
place to tap on its own square (to bribe it, to move it), and each slide that may follow is
a place to tap on the square where the official would stop, also pressed by its arrow key."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator

import pytest
from PIL import Image

from bot.exchange.actor import Actor
from bot.exchange.replies import Message, Target
from bot.service import GameService
from bot.store import Store
from tests.test_web_seats import settings

PLAYERS = ("ann", "bob", "cid")
ROBES = {"R": (206, 40, 40), "Y": (246, 206, 40), "B": (40, 96, 206), "G": (36, 150, 72)}
ROBES["K"] = (28, 28, 28)
STOPS = re.compile(r"stops on (\d+),(\d+)\.")


def who(user: str) -> Actor:
    return Actor("console", "room1", user, user.capitalize())


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=lambda: 7)
    yield made
    made.computer.close()


def _robe_share(message: Message, target: Target, code: str) -> float:
    """How much of the target's box shows the robe of official `code` (its second letter)."""
    assert message.image is not None
    crop = Image.open(io.BytesIO(message.image)).convert("RGB").crop(target.box)
    robe = ROBES[code[1]]
    raw = crop.tobytes()
    pixels = [raw[k : k + 3] for k in range(0, len(raw), 3)]
    near = sum(1 for p in pixels if all(abs(a - b) <= 12 for a, b in zip(p, robe, strict=True)))
    return near / (crop.width * crop.height)


async def _asked(service: GameService, user: str) -> Message:
    reply = await service.command(who(user), "hand")
    return next(m for m in reply.private if m.targets)


async def test_officials_and_slides_are_tapped_on_the_board(service: GameService) -> None:
    assert (await service.command(who("ann"), "new stadt")).ok
    for user in PLAYERS[1:]:
        assert (await service.command(who(user), "join")).ok
    assert (await service.command(who("ann"), "start")).ok

    for user in PLAYERS:  # each bribes in secret by tapping an official
        asked = await _asked(service, user)
        codes = [t.data.rpartition(":")[2] for t in asked.targets]
        assert [(t.label, t.data) for t in asked.targets] == [
            (c.label, c.data) for c in asked.choices
        ]  # every official of the menu, named as in the menu
        for target, code in zip(asked.targets, codes, strict=True):
            assert _robe_share(asked, target, code) > 0.1, code  # the pawn is under the tap
        reply = await service.press(who(user), asked.targets[-1].data)
        assert reply.ok and reply.private[0].text.startswith("Your secret bribe is now")

    mover = None
    for user in PLAYERS:
        hand = await service.command(who(user), "hand")
        if any(m.text.startswith("Your turn") for m in hand.private):
            mover = user
    assert mover is not None
    asked = await _asked(service, mover)
    assert [t.data for t in asked.targets] == [c.data for c in asked.choices]
    official = asked.targets[0]
    assert _robe_share(asked, official, official.data.rpartition(":")[2]) > 0.1

    first = (await service.press(who(mover), official.data)).private[0]
    assert first.image is not None and first.targets  # the board, to tap the first slide on
    pressable = [b.data for row in first.buttons for b in row]
    slides = [data for data in pressable if data.startswith("fc:vs:")]
    # Every slide is a place on the board; going back to the officials is a button alone.
    assert sorted(t.data for t in first.targets) == sorted(slides)
    assert [d.rsplit(":", 2)[0] for d in pressable if d not in slides] == ["fc:vw:room1"]
    arrows = {"↑": "ArrowUp", "→": "ArrowRight", "↓": "ArrowDown", "←": "ArrowLeft"}
    for target in first.targets:
        assert first.keys[arrows[target.label[0]]] == target.data
        shown = (await service.press(who(mover), target.data)).private[0]
        stop = STOPS.search(shown.text)
        if stop is None:  # an entry into the pavilion: it stops at the door
            continue
        x, y = int(stop[1]), int(stop[2])
        # The tap was where the preview says the official stops, one square of the board.
        box = target.box
        width = box[2] - box[0]
        assert box[3] - box[1] == width
        origin = (box[0] - x * width, box[1] - y * width)
        for other in first.targets:
            assert (other.box[0] - origin[0]) % width == 0 == (other.box[1] - origin[1]) % width
        assert _robe_share(shown, target, official.data.rpartition(":")[2]) > 0.1
