"""Every kind of button: written then read back gives the same value, the worst case fits
Telegram's 64 bytes, malformed data reads as nothing, and the wire format is that of the
buttons already posted in chats."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.exchange import buttons as core
from bot.exchange.buttons import LIMIT, Bare, Codec, Frame, Tapped, not_valid
from bot.games.forbidden_city import buttons as fc
from bot.games.forbidden_city.buttons import Cell
from bot.games.verbotene_stadt import buttons as vs
from bot.games.verbotene_stadt.paths import MAX_SLIDES

ROOT = Path(__file__).resolve().parent.parent
CHANNELS = ["1", str(2**63 - 1), "-1001234567890", "table", "dm-ann", "-" + "9" * 23]
COUNTS = [0, 1, 9999]
LONGEST_PATH = ("RY", ("W",) * MAX_SLIDES)

# Kind, values to carry (the first of them the longest), data of today's buttons.
VALUED: list[tuple[Codec[Any], list[Any], str]] = [
    (core.OTHER_GAME, [1, 0], "fc:gm:123:0:1"),
    (core.NEW_THREAD, [9, 0], "fc:nt:123:0:1"),
    (core.LAUNCH, ["open"], "fc:ac:123:0:open"),
    (core.VOTE, ["skip", "bot", "end"], "fc:v:123:7:skip"),
    (core.REPLAY, ["1a2b3c4d"], "fc:rp:123:0:1a2b3c4d"),
    (core.FORGET, ["9" * 20, "ann"], "fc:fg:123:0:42"),
    (fc.PAGE, [99, 0, 3], "fc:pg:123:4:1"),
    (fc.SPOT, [999, 1, 42], "fc:sp:table:0:3"),
    (fc.PREVIEW, [Cell(-999999, -999999, 3), Cell(0, 0, 0), Cell(5, -2, 1)], "fc:pv:1:2:-1,3@2"),
    (fc.PLACE, [Cell(-999999, 999999, 3), Cell(-1, 2, 0)], "fc:ok:1:2:0,-1@3"),
    (vs.BRIBE, ["RY", vs.KEEP, "KG"], "fc:vb:1:0:BG"),
    (vs.OFFICIAL, ["KK", "RB"], "fc:vo:1:3:RB"),
    (vs.OTHER, ["0"], "fc:vw:1:3:0"),
    (vs.SLIDE, [LONGEST_PATH, ("RB", ("N", "E"))], "fc:vs:1:3:RB24"),
    (vs.MOVE, [LONGEST_PATH, ("GK", ("S",))], "fc:vm:1:3:GK1W"),
    (vs.ANSWER, ["believe", "pass", "doubt"], "fc:va:1:3:pass"),
    (vs.TAKE, [(4, "8T"), (1, "1H"), (2, "5C")], "fc:vt:1:3:2.5C"),
]
BARE = [core.JOIN, core.START, core.ADD_COMPUTER]


def _cases() -> list[tuple[Codec[Any], Any, str, int]]:
    return [
        (codec, value, channel, count)
        for codec, values, _ in VALUED
        for value in values
        for channel in CHANNELS
        for count in COUNTS
    ]


@pytest.mark.parametrize(("codec", "value", "channel", "count"), _cases())
def test_each_value_reads_back(codec: Codec[Any], value: Any, channel: str, count: int) -> None:
    data = codec.encode(channel, count, value)
    assert codec.decode(data) == Tapped(channel, count, value)
    assert len(data.encode()) <= LIMIT
    assert data == f"fc:{codec.kind}:{channel}:{count}:{codec.write(value)}"


@pytest.mark.parametrize(("codec", "values", "data"), VALUED)
def test_todays_buttons_still_read(codec: Codec[Any], values: list[Any], data: str) -> None:
    """Buttons already posted keep working: the wire format did not change."""
    found = codec.decode(data)
    assert found is not None
    assert codec.encode(found.channel_id, found.count, found.value) == data


def test_values_land_in_their_fields() -> None:
    """A codec that swapped x and y, or a seat and its card, would still read back: these
    say which field is which."""
    assert fc.PREVIEW.encode("5", 2, Cell(-3, 4, 1)) == "fc:pv:5:2:-3,4@1"
    assert fc.PLACE.decode("fc:ok:5:2:7,-8@2") == Tapped("5", 2, Cell(7, -8, 2))
    assert vs.TAKE.encode("5", 2, (3, "6H")) == "fc:vt:5:2:3.6H"
    assert vs.SLIDE.decode("fc:vs:5:2:RB24") == Tapped("5", 2, ("RB", ("N", "E")))
    assert core.FORGET.encode("-100", 0, "42") == "fc:fg:-100:0:42"
    # A console name the frame cannot spell is carried as a digest, the same every time.
    mark = core.user_mark("zoë")
    assert mark == core.user_mark("zoë") != core.user_mark("zoe") and mark.isalnum()
    assert core.FORGET.encode("table", 0, mark).endswith(":" + mark)
    assert core.user_mark("42") == "42"
    assert core.channel_mark("dm-", "ann") == "dm-ann"
    zoe = core.channel_mark("dm-", "zoë")
    assert zoe.startswith("dm-") and zoe != core.channel_mark("dm-", "zoe")
    assert core.FORGET.encode(zoe, 0, mark).startswith(f"fc:fg:{zoe}:0:")
    assert core.VOTE.decode("fc:v:-100:17:end") == Tapped("-100", 17, "end")


def test_worst_cases_fit() -> None:
    """The longest channel, count and payload of each kind, together, within 64 bytes."""
    channel = max(CHANNELS, key=len)
    for codec, values, _ in VALUED:
        assert len(codec.encode(channel, max(COUNTS), values[0]).encode()) <= LIMIT
    for bare in BARE:
        assert len(bare.encode(channel).encode()) <= LIMIT


@pytest.mark.parametrize("bare", BARE)
@pytest.mark.parametrize("channel", CHANNELS)
def test_bare_kinds_read_back(bare: Bare, channel: str) -> None:
    data = bare.encode(channel)
    assert data == f"fc:{bare.kind}:{channel}"
    assert bare.decode(data) == channel
    assert bare.decode(data + ":0") is None
    assert bare.decode(f"fc:zz:{channel}") is None


@pytest.mark.parametrize(
    "data",
    [
        "",
        "fc:",
        "xx:pv:1:2:0,0@0",
        "fc:pv:1:2:0,0@4",  # no fifth quarter turn
        "fc:pv:1:2:0,0",
        "fc:pv:1:2:00,0@1",  # one spelling only
        "fc:pv:1:2:0,0@1\n",
        "fc:pv:1:2:1234567,0@1",
        "fc:pv:1:12345:0,0@1",
        "fc:pv:1::0,0@1",
        "fc:ok:1:0,0@1",  # no count
        "fc:pg:1:2:-1x",
        "fc:pg:1:2:01",
        "fc:sp:1:2:",
        "fc:vb:1:2:RX",
        "fc:vb:1:2:KEEP",
        "fc:vo:1:2:keep",
        "fc:vw:1:2:1",
        "fc:vs:1:2:RB25",  # padding that `pack` never writes
        "fc:vs:1:2:RB0",
        "fc:va:1:2:keep",
        "fc:vt:1:2:5.5C",
        "fc:vt:1:2:2.9C",
        "fc:gm:1:0:x",
        "fc:ac:1:0:close",
        "fc:rp:1:0:" + "a" * 25,
        "fc:v:1:0:a b",
        "fc:fg:1:0:a:b",
    ],
)
def test_malformed_data_reads_as_nothing(data: str) -> None:
    for codec, _, _ in VALUED:
        assert codec.decode(data) is None


def test_other_kinds_are_not_read() -> None:
    assert fc.PLACE.decode(fc.PREVIEW.encode("1", 2, Cell(0, 0, 1))) is None
    assert vs.MOVE.decode(vs.SLIDE.encode("1", 2, ("RB", ("N",)))) is None


@pytest.mark.parametrize(
    ("codec", "value"),
    [
        (fc.PREVIEW, Cell(0, 0, 4)),
        (fc.PLACE, Cell(10**7, 0, 0)),
        (vs.OFFICIAL, "keep"),
        (vs.ANSWER, "keep"),
        (vs.TAKE, (5, "1H")),
        (core.VOTE, "a b"),
        (core.REPLAY, "x" * 25),
    ],
)
def test_a_value_no_button_can_carry_is_a_programming_error(codec: Codec[Any], value: Any) -> None:
    with pytest.raises(ValueError):
        codec.encode("1", 0, value)


@pytest.mark.parametrize(
    ("channel", "count"), [("1" * 25, 0), ("a:b", 0), ("", 0), ("1", 10000), ("1", -1)]
)
def test_a_frame_no_button_can_carry_is_a_programming_error(channel: str, count: int) -> None:
    with pytest.raises(ValueError):
        core.VOTE.encode(channel, count, "skip")
    with pytest.raises(ValueError):
        Frame("j", channel, count if count else None).encode()


def test_the_longest_frame_is_within_telegram_limit() -> None:
    frame = Frame("abc", "-" + "9" * 23, 9999, "x" * 24)
    assert len(frame.encode().encode()) <= LIMIT
    assert Frame.parse(frame.encode()) == frame


def test_frames_read_back() -> None:
    assert Frame.parse("fc:j:-1001234567890") == Frame("j", "-1001234567890")
    assert Frame.parse("fc:gm:5:0:1") == Frame("gm", "5", 0, "1")
    assert Frame.parse("fc:xx:5:ab") == Frame("xx", "5", None, "ab")
    assert Frame.parse("fc:j:5\n") is None


def test_kinds_are_unique() -> None:
    kinds = [codec.kind for codec, _, _ in VALUED] + [bare.kind for bare in BARE]
    assert len(kinds) == len(set(kinds))
    assert sorted(fc.KINDS) == ["ok", "pg", "pv", "sp"]
    assert sorted(vs.KINDS) == ["va", "vb", "vm", "vo", "vs", "vt", "vw"]


def test_official_of_a_menu_choice() -> None:
    assert vs.official_of(vs.BRIBE.encode("1", 0, "RB")) == "RB"
    assert vs.official_of(vs.OFFICIAL.encode("1", 0, "GK")) == "GK"
    assert vs.official_of(vs.BRIBE.encode("1", 0, vs.KEEP)) is None
    assert vs.official_of(vs.ANSWER.encode("1", 0, "pass")) is None


def test_the_refusal_is_written_once() -> None:
    """One place says a button is not valid; every refusal of one comes from there."""
    found = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "bot").rglob("*.py"))
        if "This button is not valid." in path.read_text(encoding="utf-8")
    ]
    assert found == ["bot/exchange/buttons.py"]
    assert not_valid("en") == "This button is not valid."
    assert not_valid("fr") != "This button is not valid."
