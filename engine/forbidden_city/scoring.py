"""Who is paid for a closed room: the rulebook's majority rule."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from .board import Board
from .events import AdjacentRoom, RoomClosed
from .tiles import Tile

ROOM_COLOURS: Final = {"G": "green", "P": "pink", "W": "white", "T": "temple"}


def payout(value: int, advisors: Mapping[str, int]) -> dict[str, int]:
    """Coins per seat for a room worth `value` holding `advisors` (seat -> count).

    Most advisors take the whole value and a single second takes half, rounded down. Several
    tied for most take half each and nobody else is paid; several tied for second get nothing.
    A seat with no advisor in the room is never paid. Zero amounts are left out.
    """
    counts = {seat: n for seat, n in advisors.items() if n > 0}
    if not counts:
        return {}
    top = max(counts.values())
    leaders = [seat for seat, n in counts.items() if n == top]
    if len(leaders) > 1:
        return {seat: value // 2 for seat in leaders if value // 2}
    paid = {leaders[0]: value}
    others = [n for n in counts.values() if n < top]
    if others:
        second = max(others)
        seconds = [seat for seat, n in counts.items() if n == second]
        if len(seconds) == 1 and value // 2:
            paid[seconds[0]] = value // 2
    return paid


def bonus(codes: list[str]) -> int:
    """End-of-game coins for the tiles a player did not play: 2 per advisor, 3 per dragon."""
    total = 0
    for code in codes:
        tile = Tile.parse(code)
        total += 2 * tile.advisors + 3 * tile.dragon
    return total


def closed_room(board: Board, root: int, players: Sequence[str], by: str) -> RoomClosed:
    """Value a room that has just closed and say who is paid; coins are the caller's to add."""
    colour, tiles, dragons, advisors = board.room_stats(root)
    value, adjacent = board.room_value(root)
    held = {c: n for c, n in zip(players, advisors, strict=True) if n}
    neighbours = []
    for other in adjacent:
        o_colour, o_tiles, o_dragons, _ = board.room_stats(other)
        neighbours.append(AdjacentRoom(ROOM_COLOURS[o_colour], o_tiles, o_dragons))
    return RoomClosed(
        by=by,
        colour=ROOM_COLOURS[colour],
        tiles=tiles,
        dragons=dragons,
        value=value,
        cells=sorted((x, y, part) for (x, y), part in board.room(root).parts),
        adjacent=neighbours,
        advisors=held,
        paid=payout(value, held),
    )
