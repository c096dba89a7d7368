"""The Imperial Temple is one grey room of one tile, however many archways lead to it."""

from __future__ import annotations

from pathlib import Path

from engine.forbidden_city.position import score

POSITIONS = Path(__file__).parent / "positions"


def test_a_room_with_two_archways_to_the_temple_counts_it_once() -> None:
    result = score((POSITIONS / "temple-two-archways.pos").read_text()).to_json()
    assert result["closed"] == [
        {"by": "red", "colour": "green", "tiles": 11, "dragons": 0, "value": 12,
         "paid": {"red": 12}}
    ]  # fmt: skip
    assert result["coins"] == {"red": 12, "blue": 0}
