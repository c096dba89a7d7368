"""Information-set Monte Carlo tree search (single observer), for any engine of the common shape.

The searcher never sees a game: it gets one seat's view and asks the game's AI module for
*determinizations*, full games that agree with everything that view shows and invent the rest
(other hands, stack order, dice to come). One tree is grown over many of them, so a move is
judged by how it fares across every world the seat cannot tell apart (Cowling, Powley and
Whitehouse 2012). Statistics are per information set of the searching seat; a node's
availability count, not its parent's visits, feeds the exploration term, because an action is
only legal in some determinizations.

Simultaneous decisions (several seats in `to_act`) are taken one after another, the searching
seat's first. A game may keep decisions below the root out of the tree (`GameAI.searched`): they
are then played by its policy, which does not know the searching seat's secrets, whereas a tree
node of another seat would learn them from the rewards (it would, say, always doubt a bluff).

The search stops early once no other action can overtake the most visited one in the iterations
left: the decision is the same, only sooner.

Budgets are counted in iterations, so a seed gives the same decision on any machine. A cap
(`max_seconds`) guards against a slow machine: it counts the CPU time of the searching thread,
not the wall clock, so a machine merely busy with other work (a bot drawing images beside it)
makes a search take longer but never cuts it, and the level plays as strong as on a quiet one.
A search the cap cut says so (`Decision.capped`), and the bot counts them.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .protocol import Budget, GameAI, Rewards, SearchGame

EXPLORATION = 0.7
CHECK_EVERY = 16  # iterations between checks whether the decision is settled


@dataclass(slots=True)
class Node:
    seat: str | None = None  # who chose the action leading here
    action: Any = None
    parent: Node | None = None
    children: dict[str, Node] = field(default_factory=dict)
    visits: int = 0
    available: int = 0
    total: float = 0.0

    def ucb(self) -> float:
        mean = self.total / self.visits
        return mean + EXPLORATION * math.sqrt(math.log(self.available) / self.visits)


@dataclass(slots=True)
class Decision:
    action: Any
    iterations: int
    seconds: float  # CPU seconds of the searching thread
    visits: dict[str, int]
    capped: bool = False  # the cap stopped it before its iterations and before it settled


def terminal_rewards(game: SearchGame) -> Rewards:
    """A win is worth most; the score share breaks ties between losing lines."""
    scores = game.scores
    best = max(scores.values()) or 1
    winners = set(game.winners)
    return {s: 0.85 * (s in winners) + 0.15 * max(0, scores[s]) / best for s in game.players}


def search(
    view: Any,
    seat: str,
    ai: GameAI,
    budget: Budget,
    rng: random.Random,
    clock: Callable[[], float] = time.thread_time,
) -> Decision:
    """The action `seat` should take now, judged from `view` alone."""
    started = clock()
    worlds = [ai.determinize(view, seat, rng) for _ in range(max(1, budget.determinizations))]
    first = worlds[0]
    legal = list(first.legal_actions(seat))
    if not legal:
        raise ValueError(f"{seat} has nothing to decide")
    # The seat knows what it may do, so its actions are the same in every world it imagines.
    keyed = {str(a): a for a in legal}
    if len(keyed) > 1:
        allowed = {str(a) for a in ai.candidates(first, seat, rng)}
        keyed = {k: a for k, a in keyed.items() if k in allowed} or keyed
    if len(keyed) == 1:
        return Decision(next(iter(keyed.values())), 0, clock() - started, {})
    root = Node()
    done = 0
    capped = False
    while done < budget.iterations:
        if clock() - started >= budget.max_seconds:
            capped = True
            break
        game = ai.copy(worlds[done % len(worlds)])
        _iterate(root, game, ai, rng, keyed, seat)
        done += 1
        if done % CHECK_EVERY == 0 and _settled(root, budget.iterations - done):
            break
    visits = {key: child.visits for key, child in root.children.items()}
    best = max(visits, key=lambda k: (visits[k], root.children[k].total)) if visits else None
    action = keyed[best] if best is not None else rng.choice(legal)
    return Decision(action, done, clock() - started, visits, capped)


def _settled(root: Node, left: int) -> bool:
    """Whether the most visited root action stays the most visited whatever `left` brings."""
    visits = sorted((child.visits for child in root.children.values()), reverse=True)
    return len(visits) > 1 and visits[0] > visits[1] + left


def first_actor(game: SearchGame, seat: str) -> str | None:
    """Who decides next: `seat` if the game waits for it, else the first seat waited for."""
    turn = game.to_act
    if not turn:
        return None
    return seat if any(t.seat == seat for t in turn) else turn[0].seat


def _iterate(
    root: Node,
    game: SearchGame,
    ai: GameAI,
    rng: random.Random,
    root_actions: dict[str, Any],
    seat: str,
) -> None:
    node = root
    # Selection and expansion.
    while not game.is_over:
        actor = first_actor(game, seat)
        if actor is None:
            break
        if node is not root and not ai.searched(game, actor, seat):
            break  # the playout plays it
        keyed = root_actions if node is root else {str(a): a for a in game.legal_actions(actor)}
        untried = [k for k in keyed if k not in node.children]
        for key, child in node.children.items():
            if key in keyed:
                child.available += 1
        if untried:
            key = untried[int(rng.random() * len(untried))]
            child = Node(actor, keyed[key], node, available=1)
            node.children[key] = child
            game.play(actor, keyed[key])
            node = child
            break
        key = max((k for k in node.children if k in keyed), key=lambda k: node.children[k].ucb())
        node = node.children[key]
        game.play(actor, keyed[key])
    rewards = _playout(game, ai, rng)
    while node is not None:
        node.visits += 1
        if node.seat is not None:
            node.total += rewards.get(node.seat, 0.0)
        node = node.parent  # type: ignore[assignment]


def _playout(game: SearchGame, ai: GameAI, rng: random.Random) -> Rewards:
    for _ in range(ai.playout_depth):
        if game.is_over:
            return terminal_rewards(game)
        turn = game.to_act
        if not turn:
            break
        actor = turn[0].seat
        game.play(actor, ai.policy(game, actor, rng))
    if game.is_over:
        return terminal_rewards(game)
    return ai.evaluate(game)
