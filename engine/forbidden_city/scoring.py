"""Who is paid for a closed room: the rulebook's majority rule."""

from __future__ import annotations

from collections.abc import Mapping

from .tiles import Tile


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
