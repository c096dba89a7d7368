"""The dice: three fate dice and the blue pavilion die, faces as data (`data/dice.json`).

Every roll is drawn from the game's seed and the roll's index (`roll(seed, index, sides)`), so a
game's random state is one integer: copying a game copies no generator, and a seed with the
action log replays every roll.
"""

from __future__ import annotations

import json
from pathlib import Path

FACES = ("black", "red", "dragon", "pavilion")  # dragon and pavilion faces are red
_DATA = Path(__file__).parent / "data" / "dice.json"
_MASK = (1 << 64) - 1


def _load() -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[int, ...]]:
    raw = json.loads(_DATA.read_text(encoding="utf-8"))
    names = tuple(str(d["name"]) for d in raw["fate"])
    faces = tuple(tuple(str(f) for f in d["faces"]) for d in raw["fate"])
    blue = tuple(int(n) for n in raw["blue"])
    for name, die in zip(names, faces, strict=True):
        if len(die) != 6 or any(f not in FACES for f in die):
            raise ValueError(f"{_DATA}: fate die {name} needs six faces among {FACES}")
    if len(faces) != 3 or sorted(blue) != list(range(1, 9)):
        raise ValueError(f"{_DATA}: three fate dice and a blue die with faces 1-8 are needed")
    return names, faces, blue


FATE_NAMES, FATE_FACES, BLUE_FACES = _load()


def roll(seed: int, index: int, sides: int) -> int:
    """A face index in range(sides) for the roll number `index` of the game `seed` (splitmix64)."""
    z = (seed * 0x9E3779B97F4A7C15 + (index + 1) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    z ^= z >> 31
    return z % sides


def fate(seed: int, index: int, die: int) -> str:
    """The face of fate die `die` (0 small, 1 medium, 2 large)."""
    faces = FATE_FACES[die]
    return faces[roll(seed, index, len(faces))]


def blue(seed: int, index: int) -> int:
    """The pavilion named by the blue die."""
    return BLUE_FACES[roll(seed, index, len(BLUE_FACES))]
