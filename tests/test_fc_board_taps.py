"""The tile game's board to touch: every spot where the tile fits is a place to tap on the
player's turn image, right over the spot's disc; a tap shows the tile there, and on the
preview a tap on the tile (or R, or an arrow key) turns it to the next turn that fits."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator

import pytest
from PIL import Image

from bot.exchange.replies import Message, Target
from bot.service import GameService
from bot.store import Store
from tests.conftest import fixed_seeds
from tests.test_web_seats import settings, start, who

WHITE = 248  # the white disc the turn image draws on each spot (its PNG's palette: 252)
LABEL = re.compile(r"^Spot (\d+): (-?\d+),(-?\d+)$")


@pytest.fixture
async def service(store: Store) -> AsyncIterator[GameService]:
    made = GameService(store, settings(), seeds=fixed_seeds())
    yield made
    made.computer.close()


def _disc_share(image: Image.Image, box: tuple[int, int, int, int]) -> float:
    crop = image.crop(box).convert("L")  # the disc is the only near-white there
    pixels = crop.histogram()
    return sum(pixels[WHITE:]) / sum(pixels)


def _cell(target: Target) -> tuple[int, int]:
    x, y = target.data.rpartition(":")[2].partition("@")[0].split(",")
    return int(x), int(y)


async def _turn_message(service: GameService) -> tuple[str, Message]:
    dealt, _ = await start(service, "room1")
    (notice,) = dealt.direct
    return notice.user_id, notice.message


async def test_each_spot_is_a_place_to_tap_over_its_disc(service: GameService) -> None:
    _, message = await _turn_message(service)
    assert message.image is not None
    image = Image.open(io.BytesIO(message.image))
    spots = [b for b in message.choices if b.data.split(":")[1] == "sp"]
    assert len(message.targets) >= len(spots) > 0  # every spot, beyond the menu's page too
    numbers = []
    for target in message.targets:
        label = LABEL.match(target.label)
        assert label, target.label
        numbers.append(int(label[1]))
        assert _cell(target) == (int(label[2]), int(label[3]))  # a tap shows that very cell
        left, top, right, bottom = target.box
        assert 0 <= left < right <= image.width and 0 <= top < bottom <= image.height
        assert _disc_share(image, target.box) > 0.15, target.label  # the spot's disc is there
    assert numbers == list(range(1, len(numbers) + 1))
    # Cells side by side on the table are side by side under the finger.
    boxes = {_cell(t): t.box for t in message.targets}
    width = message.targets[0].box[2] - message.targets[0].box[0]
    for (x, y), box in boxes.items():
        if (x + 1, y) in boxes:
            assert boxes[(x + 1, y)][0] == box[0] + width


async def test_a_tap_previews_and_a_tap_on_the_tile_turns_it(service: GameService) -> None:
    user, message = await _turn_message(service)
    actor = who(user, "room1")
    turning = [t for t in message.targets if t.data.endswith(("@0", "@1", "@2", "@3"))]
    assert turning == message.targets
    for target in message.targets:
        reply = await service.press(actor, target.data)
        assert reply.ok
        (preview,) = reply.private
        x, y = _cell(target)
        turn = int(target.data[-1])
        assert f"Preview: your tile at {x},{y}, rotation {turn}." in preview.text
        others = [t for t in preview.targets if _cell(t) != (x, y)]
        assert len(others) == len(message.targets) - 1  # every other spot: a tap moves there
        turns = sorted(int(b.data[-1]) for row in preview.buttons for b in row)
        on_tile = [t for t in preview.targets if _cell(t) == (x, y)]
        if len(turns) == 1:  # only Place it here: the tile does not turn
            assert on_tile == [] and preview.keys == {}
            continue
        (tile,) = on_tile
        assert tile.label == "Turn the tile (R)"
        assert preview.keys["r"] == preview.keys["ArrowRight"] == tile.data
        fits = sorted(set(turns))
        assert tile.data.endswith(f"@{fits[(fits.index(turn) + 1) % len(fits)]}")
        assert preview.keys["ArrowLeft"].endswith(f"@{fits[(fits.index(turn) - 1) % len(fits)]}")
        turned = await service.press(actor, preview.keys["r"])
        assert f"rotation {tile.data[-1]}." in turned.private[0].text
        return
    pytest.fail("no spot of the deal lets the tile turn")
