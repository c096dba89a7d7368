"""What a seat of Die Verbotene Stadt makes of what it saw (ai.py tells the whole story): a
weight per official each hidden bribe may be, the odds that an entry is true, and each seat's
habits of doubting and bluffing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from .board import Board, Square
from .cards import PAVILIONS
from .movement import can_enter
from .observation import Bribed, Observation, Seen

TOWARD, AWAY, SPURNED = 2.0, 0.6, 0.3  # evidence factors of a move, see `steer_factor`
SURE = 0.95  # no entry is taken for certainly true or certainly a bluff
NEAR = 3.0  # prior factor of an official that could enter the open pavilion when bribed
PLAYOUT_DOUBT = 0.25  # how often a seat doubts an entry, before any answer is seen
PRIOR_ANSWERS = 4  # answers that prior is worth
_DISTANCES: dict[tuple[int, int], dict[Square, int]] = {}


def distance(board: Board, pavilion: int, sq: Square) -> int:
    """Steps (as the crow walks the grid) from `sq` to the nearest door of `pavilion`."""
    key = (id(board), pavilion)
    table = _DISTANCES.get(key)
    if table is None:
        doors = [d for d, _ in board.doors(pavilion)] or list(board.pavilions.get(pavilion, ()))
        table = {
            (x, y): min((abs(x - dx) + abs(y - dy) for dx, dy in doors), default=0)
            for y in range(board.height)
            for x in range(board.width)
        }
        _DISTANCES[key] = table
    return table[sq]


def steer_factor(board: Board, move: Seen) -> float:
    """How much likelier the move makes it that the moved official is the mover's own."""
    if move.open_pavilion is None or move.end is None:
        return 1.0
    before = distance(board, move.open_pavilion, move.start)
    after = distance(board, move.open_pavilion, move.end)
    if after < before:
        return TOWARD
    return AWAY if after > before else 1.0


def prior(board: Board, scene: Bribed | None, on_board: list[str]) -> dict[str, float]:
    """A seat's bribe before any move: officials that could enter more pavilions when it
    bribed, and the open one above all, are likelier (anyone would rather bribe those)."""
    if scene is None:
        return dict.fromkeys(on_board, 1.0)
    at = dict(scene.at)
    weights = {}
    for code in on_board:
        if code not in at:
            weights[code] = 1.0
            continue
        reach = sum(can_enter(board, at, code, p) is not None for p in PAVILIONS)
        near = scene.open_pavilion is not None and can_enter(board, at, code, scene.open_pavilion)
        weights[code] = (1.0 + reach) * (NEAR if near else 1.0)
    return weights


def beliefs(obs: Observation) -> dict[str, dict[str, float]]:
    """For each seat whose bribe this seat cannot see, a weight per official it may have bribed."""
    view = obs.view
    found: dict[str, dict[str, float]] = {}
    for index, name in enumerate(view.players):
        if view.bribes.get(name) is not None or name == view.seat:
            continue
        candidates = set(view.officials)
        if obs.entry is not None and name == view.mover:
            candidates.add(obs.entry.official)  # gone to the terrace, its bribe not yet shown
        weights = prior(obs.board, obs.bribed[index], sorted(candidates))
        for move in obs.moves:
            if move.seat != name or move.index <= obs.last_bribe[index]:
                continue
            if move.official in weights:
                weights[move.official] *= steer_factor(obs.board, move)
            for other in move.reachers:
                if other != move.official and other in weights:
                    weights[other] *= SPURNED
        found[name] = weights
    return found


def bluff_rate(obs: Observation, mover: str) -> float:
    """How often `mover` bluffs when it cannot enter with its own: its revealed entries, with a
    one-and-one prior."""
    past = [bluffed for who, bluffed in obs.entries if who == mover]
    return (sum(past) + 1) / (len(past) + 2)


def doubt_rate(obs: Observation, seat: str) -> float:
    """How often `seat` doubts an entry put to it: its answers, after a prior of one in four."""
    doubts = [not believed for who, believed in obs.answers if who == seat]
    return (sum(doubts) + PLAYOUT_DOUBT * PRIOR_ANSWERS) / (len(doubts) + PRIOR_ANSWERS)


def habits(obs: Observation) -> dict[str, tuple[float, float]]:
    """Each seat's doubt and bluff rates, as its play showed them."""
    return {seat: (doubt_rate(obs, seat), bluff_rate(obs, seat)) for seat in obs.view.players}


def truth_probability(obs: Observation, weights: Mapping[str, float]) -> float:
    """The chance that the entry waiting for answers brought in the mover's own official: a
    mover that could have entered with its own would have, so a bluff means its own was among
    the officials that could not enter, and this one was picked among those that could."""
    assert obs.entry is not None and obs.view.mover is not None
    mover = obs.view.mover
    entered = obs.entry.official
    entering = next((m for m in reversed(obs.moves) if m.seat == mover and m.end is None), None)
    could = set(entering.reachers) if entering is not None else {entered}
    own = weights.get(entered, 1.0)
    unable = sum(w for o, w in weights.items() if o not in could and o != entered)
    bluff = bluff_rate(obs, mover) / max(1, len(could)) * unable
    return min(SURE, max(1 - SURE, own / (own + bluff))) if own + bluff > 0 else 0.5


def draw(weights: Mapping[str, float], rng: random.Random) -> str | None:
    items = sorted(weights.items())
    total = sum(w for _, w in items)
    if not items or total <= 0:
        return None
    pick = rng.random() * total
    for code, w in items:
        pick -= w
        if pick <= 0:
            return code
    return items[-1][0]
