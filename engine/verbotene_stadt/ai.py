"""What the computer players know of Die Verbotene Stadt (see `engine/ai/protocol.py`).

Hidden from a seat: the other seats' bribes, the order of each pavilion's cards and the dice to
come. Everything else is on the table, so a seat's `Observation` is its `SeatView` plus the public
facts of the phase under way (the entry put to the table, the cards waiting to be taken, a
believed bluff's extra turn), the board, and what it saw since the others last bribed. A
determinization rebuilds a whole game from it with the piles shuffled, a fresh seed and every
other bribe drawn from `beliefs`:

- each seat's bribe is, a priori, likelier an official that could enter many pavilions when it
  bribed, and likelier still one that could enter the pavilion then open; every move the seat made
  since is evidence (`steer_factor`): an official steered toward the open pavilion is likelier its
  own, one steered away less likely, and an official that could have entered when it moved, but
  was not brought in, is unlikely to be its own (it would have taken the card without risk);
- an entry put to the table is true with the odds `truth_probability` gives: the entered
  official's weight against the chance that the mover could not enter with its own and bluffed
  with this one among those that could enter, at the rate its revealed entries show.

In the playouts each seat doubts and bluffs as often as it was seen to (`habits`): a player that
doubts half the entries makes a bluff a poor bet, one that never doubts a good one.

The search is flat (`searched`): only the seat's decision now grows a tree, everything after it is
played by `policy`. A tree node of another seat would learn the searching seat's bribe from the
rewards and always catch its bluffs; and with hundreds of moves a turn, a deeper tree would hardly
grow within the budget anyway.

A seat's `Observation` is built in observation.py and weighed in evidence.py (`beliefs`,
`truth_probability`, `habits`); this module searches with them.
"""

from __future__ import annotations

import math
import random

from engine.ai.protocol import Budget

from .actions import BELIEVE, DOUBT, KEEP, PASS, Action, Bribe, MoveOfficial, Take
from .board import Square
from .cards import PAVILIONS, best_points
from .evidence import PLAYOUT_DOUBT, beliefs, distance, draw, habits, truth_probability
from .game import LAST_EXILE, Game
from .movement import can_enter, moves
from .observation import Observation, observe
from .players import choose_greedy

__all__ = [
    "AI",
    "LEVELS",
    "Observation",
    "VerboteneStadtAI",
    "best_take",
    "observe",
    "reach",
    "take_value",
]

UNSEEN = (PLAYOUT_DOUBT, 0.5)  # doubt and bluff rates of a seat never seen (`habits`)
PLAYOUT_PASS = 0.3  # how often a modelled mover stops after a red face
ROOT_OWN = 6  # own official's moves searched at the root (nearest the open pavilion first)
ROOT_OTHERS = 4  # other officials' moves drawn at random
ROOT_BRIBES = 8  # officials searched for a bribe (the ones reaching most pavilions)
ROOT_TAKES = 4  # cards searched for a take (the most valuable)
LEVELS = {
    "easy": Budget(iterations=32, determinizations=8, slip=0.5),
    "normal": Budget(iterations=128, determinizations=16, slip=0.25),
    "hard": Budget(iterations=400, determinizations=32, max_seconds=1.8),
}


# ------------------------------------------------------------------ the module
class VerboteneStadtAI:
    name = "verbotene-stadt"
    playout_depth = 14

    def __init__(self) -> None:
        self._beliefs: tuple[Observation, dict[str, dict[str, float]]] | None = None
        self._habits: dict[str, tuple[float, float]] = {}  # of the worlds being searched

    def levels(self) -> dict[str, Budget]:
        return LEVELS

    def new_game(self, players: int, seed: int) -> Game:
        return Game(players, seed=seed)

    def view(self, game: Game, seat: str) -> Observation:
        return observe(game, seat)

    def _weights(self, obs: Observation) -> dict[str, dict[str, float]]:
        """`beliefs`, computed once per observation (a search draws many worlds from one)."""
        if self._beliefs is None or self._beliefs[0] is not obs:
            self._beliefs = (obs, beliefs(obs))
        return self._beliefs[1]

    def determinize(self, obs: Observation, seat: str, rng: random.Random) -> Game:
        view = obs.view
        names = view.players
        weights = self._weights(obs)
        self._habits = habits(obs)
        bribes: list[str | None] = []
        for name in names:
            known = view.bribes.get(name)
            if known is not None or name not in weights:
                bribes.append(known)
            elif obs.entry is not None and name == view.mover:
                if rng.random() < truth_probability(obs, weights[name]):
                    bribes.append(obs.entry.official)
                else:
                    rest = {o: w for o, w in weights[name].items() if o != obs.entry.official}
                    bribes.append(draw(rest, rng))
            else:
                bribes.append(draw(weights[name], rng))
        held = {c for hand in view.hands.values() for c in hand}
        piles: dict[int, list[str]] = {}
        for p in PAVILIONS:
            pile = [f"{p}{piece}" for piece in "HCT" if f"{p}{piece}" not in held]
            rng.shuffle(pile)
            piles[p] = pile
        # Before the first player is rolled for, any seat may turn out to be it.
        mover = names.index(view.mover) if view.mover is not None else rng.randrange(len(names))
        game = Game.from_position(
            names,
            officials=view.officials,
            open_pavilion=view.open_pavilion or 1,
            bribes=[b if b in view.officials else None for b in bribes],
            hands=[view.hands[n] for n in names],
            piles=piles,
            exiled=view.exiled,
            mover=mover,
            seed=rng.getrandbits(63),
            teams=view.teams,
            board=obs.board,
            rules=view.rules,
        )
        game.bribes = bribes
        game.open = view.open_pavilion
        game.phase = obs.phase
        game.deciding = dict(obs.deciding)
        game.entry = obs.entry
        game.takes = list(obs.takes)
        game.again = obs.again
        game.entered = obs.entered
        game.moves_made = view.moves_made
        game.revealed = {names.index(n): b for n, b in view.revealed.items()}
        game.position = None
        return game

    def copy(self, game: Game) -> Game:
        other = game.copy()
        other.log = []  # nobody reads a searched game's record: keep copies cheap
        return other

    def searched(self, game: Game, actor: str, seat: str) -> bool:
        return False

    # -------------------------------------------------------------- playing fast
    def policy(self, game: Game, seat: str, rng: random.Random) -> Action:
        kind = next(t.kind for t in game.to_act if t.seat == seat)
        if kind == "rebribe":
            return KEEP
        if kind == "bribe":
            codes = sorted(game.at)
            return Bribe(codes[int(rng.random() * len(codes))])
        if kind == "answer":
            legal = game.legal_actions(seat)
            doubts = self._habits.get(seat, UNSEEN)[0]
            return DOUBT if DOUBT in legal and rng.random() < doubts else BELIEVE
        if kind == "take":
            return best_take(game, seat)
        return self._move(game, rng)

    def _move(self, game: Game, rng: random.Random) -> Action:
        own = game.bribes[game.mover]
        board, at, open_p = game.board, game.at, game.open
        if own is not None and own in at and open_p is not None:
            entering = can_enter(board, at, own, open_p)
            if entering is not None:
                return MoveOfficial(own, entering.slides)
        bluffs = self._habits.get(game.players[game.mover], UNSEEN)[1]
        if open_p is not None and game.bluff_in_play() and rng.random() < bluffs:
            codes = sorted(at)
            for _ in range(4):
                code = codes[int(rng.random() * len(codes))]
                entering = can_enter(board, at, code, open_p)
                if entering is not None:
                    return MoveOfficial(code, entering.slides)
        if game.moves_made and rng.random() < PLAYOUT_PASS:
            return PASS
        if own is not None and own in at and open_p is not None:
            options = [m for m in moves(board, at, own, open_p) if m.end is not None]
            if options:
                best = min(options, key=lambda m: distance(board, open_p, m.end or (0, 0)))
                pick = best if rng.random() < 0.7 else options[int(rng.random() * len(options))]
                return MoveOfficial(own, pick.slides)
        codes = sorted(at)
        for _ in range(8):
            code = codes[int(rng.random() * len(codes))]
            options = [m for m in moves(board, at, code, open_p) if m.end is not None]
            if options:
                return MoveOfficial(code, options[int(rng.random() * len(options))].slides)
        legal = game.legal_actions(game.players[game.mover])
        return legal[int(rng.random() * len(legal))]

    def candidates(self, game: Game, seat: str, rng: random.Random) -> list[Action]:
        """The root's actions worth searching: for a move, entries, the own official's best
        moves, moves that take a possible entrant away from the open pavilion, a few others (or
        only the own official's entry, when it brings a card for sure); for a bribe, the
        officials that reach most pavilions; for a take, the most valuable cards."""
        legal = game.legal_actions(seat)
        kind = next(t.kind for t in game.to_act if t.seat == seat)
        if kind in ("bribe", "rebribe"):
            ranked = sorted(
                (a for a in legal if isinstance(a, Bribe)),
                key=lambda a: (-reach(game, a.official), a.official),
            )
            return [*ranked[:ROOT_BRIBES], *(a for a in legal if a == KEEP)]
        if kind == "take":
            takes = [a for a in legal if isinstance(a, Take)]
            takes.sort(key=lambda a: -take_value(game, seat, a))
            return [*takes[:ROOT_TAKES], *(a for a in legal if a == PASS)]
        if kind != "move" or game.open is None:
            return legal
        return self._move_candidates(game, legal, rng)

    def _move_candidates(self, game: Game, legal: list[Action], rng: random.Random) -> list[Action]:
        open_p = game.open
        assert open_p is not None
        board = game.board
        own = game.bribes[game.mover]
        if own is not None and own in game.at and game.piles[open_p]:
            entering = can_enter(board, game.at, own, open_p)
            if entering is not None:
                return [MoveOfficial(own, entering.slides)]
        chosen: list[Action] = [a for a in legal if a == PASS]
        by_official: dict[str, list[MoveOfficial]] = {}
        for action in legal:
            if isinstance(action, MoveOfficial):
                by_official.setdefault(action.official, []).append(action)
        ends: dict[MoveOfficial, Square | None] = {}
        for code in by_official:
            for m in moves(board, game.at, code, open_p):
                ends[MoveOfficial(code, m.slides)] = m.end
        legal_moves = [a for options in by_official.values() for a in options]
        chosen.extend(a for a in legal_moves if a in ends and ends[a] is None)  # entries
        if own in by_official:
            mine = [a for a in by_official[own] if ends.get(a) is not None]
            mine.sort(key=lambda a: distance(board, open_p, ends[a] or (0, 0)))
            chosen.extend(mine[:ROOT_OWN])
        for code, options in sorted(by_official.items()):
            if code == own or not can_enter(board, game.at, code, open_p):
                continue
            away = [a for a in options if ends.get(a) is not None]
            if away:
                chosen.append(max(away, key=lambda a: distance(board, open_p, ends[a] or (0, 0))))
        quiet = [a for a in legal_moves if a not in chosen]
        rng.shuffle(quiet)
        chosen.extend(quiet[:ROOT_OTHERS])
        return chosen or legal

    def greedy(self, game: Game, seat: str, rng: random.Random) -> Action:
        return choose_greedy(game, seat, rng)

    def evaluate(self, game: Game) -> dict[str, float]:
        """Points now, plus a share of a card for a bribed official that can enter at once,
        judged more sharply as the game nears its end."""
        hope = dict.fromkeys(game.players, 0.0)
        if game.open is not None and game.phase in ("move", "bribe"):
            for index, name in enumerate(game.players):
                own = game.bribes[index]
                if (
                    own is not None
                    and own in game.at
                    and can_enter(game.board, game.at, own, game.open)
                ):
                    hope[name] = 3.0 if index == game.mover else 1.5
        if game.teams:
            hope = {
                s: hope[s] + hope[game.players[(i + 2) % 4]] for i, s in enumerate(game.players)
            }
        scores = game.scores
        scale = 2.0 + 0.5 * (LAST_EXILE - len(game.exiled))
        est = {s: scores[s] + hope[s] for s in game.players}
        values = {}
        for seat, mine in est.items():
            others = max(v for s, v in est.items() if s != seat)
            values[seat] = 1 / (1 + math.exp(-(mine - others) / scale))
        return values


def reach(game: Game, official: str) -> int:
    """How many pavilions `official` could enter in one move from where it stands."""
    return sum(can_enter(game.board, game.at, official, p) is not None for p in PAVILIONS)


def take_value(game: Game, seat: str, action: Take) -> float:
    """What a take is worth to the taker: its own gain and, as much again, the victim's loss."""
    me = game.seat_index(seat)
    source = action.seat - 1
    mine = game.hands[me]
    theirs = game.hands[source]
    gain = best_points((*mine, action.card)) - best_points(mine)
    loss = best_points(theirs) - best_points(tuple(c for c in theirs if c != action.card))
    partner = game.partner(me)
    return gain + (-loss if source == partner else loss)


def best_take(game: Game, seat: str) -> Action:
    """The most valuable take (`take_value`), or `pass` when every take would hurt."""
    options = game.legal_actions(seat)
    takes = [a for a in options if isinstance(a, Take)]
    if not takes:
        return PASS
    best = max(takes, key=lambda a: take_value(game, seat, a))
    return PASS if PASS in options and take_value(game, seat, best) < 0 else best


AI = VerboteneStadtAI()
