"""Tile codes: the notation, canonical printing and rotation of the positions spec."""

from __future__ import annotations

import pytest

from engine.forbidden_city import Tile, TileCodeError, rotate_code
from engine.forbidden_city.tiles import distinct_rotations


@pytest.mark.parametrize(
    "code",
    ["#...G+D", "#a#.P+1A", ".#..W+2A", "#...P/G", "....G\\aW+1A@2", "aaaaW", "....P/aG"],
)
def test_parse_and_print_are_canonical(code: str) -> None:
    assert Tile.parse(code).code == code


def test_parse_reads_every_field() -> None:
    tile = Tile.parse("#a#.P/aG+2A@2")
    assert tile.edges == "#a#."
    assert tile.colours == ("P", "G")
    assert tile.diagonal == "/"
    assert tile.diagonal_arch
    assert (tile.advisors, tile.dragon, tile.content_part) == (2, False, 1)


@pytest.mark.parametrize(
    "bad",
    [
        "",
        "#...",
        "#...X",
        "#..G",
        "#....G",
        "#...G+",
        "#...G+0A",
        "#...G+1A@2",
        "#...G/",
        "#...G+DA",
    ],
)
def test_bad_codes_are_refused(bad: str) -> None:
    with pytest.raises(TileCodeError):
        Tile.parse(bad)


@pytest.mark.parametrize(
    ("code", "turned"),
    [
        ("#...G+D", ".#..G+D"),  # new N is the old W, new E the old N
        ("#a#.P+1A", ".#a#P+1A"),
        ("#...P/G", ".#..P\\G"),  # '/' becomes '\' with parts in the same order
        ("#...P\\G", ".#..G/P"),  # '\' becomes '/' with the parts swapped
        ("....P\\aW+1A@2", "....W/aP+1A"),  # '@2' follows its part
        ("....P\\W+D", "....W/P+D@2"),
    ],
)
def test_rotate_clockwise(code: str, turned: str) -> None:
    assert rotate_code(code) == turned


@pytest.mark.parametrize("code", ["#...G+D", "a.#.W", "#...P/aG+2A@2", "##a.P\\W+D"])
def test_four_quarter_turns_come_back(code: str) -> None:
    tile = Tile.parse(code)
    assert tile.rotated(4) == tile
    assert rotate_code(rotate_code(rotate_code(rotate_code(code)))) == code


def test_diagonal_parts_own_their_edges() -> None:
    slash = Tile.parse("....P/G")  # NW triangle pink (N, W), SE triangle green (E, S)
    assert [slash.colour_at(s) for s in range(4)] == ["P", "G", "G", "P"]
    back = Tile.parse("....P\\G")  # NE triangle pink (N, E), SW triangle green (S, W)
    assert [back.colour_at(s) for s in range(4)] == ["P", "P", "G", "G"]


def test_rotation_keeps_each_part_on_its_edges() -> None:
    tile = Tile.parse("#...P/aG+1A@2")
    for turns in range(4):
        turned = tile.rotated(turns)
        for side in range(4):
            assert turned.colour_at((side + turns) % 4) == tile.colour_at(side)
            assert turned.edges[(side + turns) % 4] == tile.edges[side]
        assert turned.colours[turned.content_part] == "G"


def test_symmetric_tiles_have_fewer_distinct_rotations() -> None:
    assert distinct_rotations(Tile.parse("....G")) == (0,)
    assert distinct_rotations(Tile.parse("#.#.G")) == (0, 1)
    assert len(distinct_rotations(Tile.parse("#...G"))) == 4
