"""A replay shows only what the channel saw: two Die Verbotene Stadt games that differ only in
secret bribes give the very same replay, byte for byte, up to the first reveal; and a replay's
views are the public views of every step, in both games."""

from __future__ import annotations

import io
import random

from PIL import Image

from bot.games import At
from bot.games.forbidden_city import MODULE as FC
from bot.games.verbotene_stadt import MODULE as VS
from engine.forbidden_city import Game as FcGame
from engine.verbotene_stadt import Game as VsGame
from engine.verbotene_stadt.actions import Bribe, Keep
from engine.verbotene_stadt.game import to_record

LONGEST = 300  # actions compared (games of random players can run to thousands)
AT = At(lang="en", channel_id="room1", users={}, names={})


def twins(players: int, seed: int) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """The actions of two games from one deal, the same except for bribes, up to (not
    including) the first action after which the channel could tell them apart."""
    a, b = VsGame(players, seed=seed), VsGame(players, seed=seed)
    rng = random.Random(seed)
    first: list[tuple[str, str]] = []
    second: list[tuple[str, str]] = []
    while not a.is_over and len(first) < LONGEST:
        seat = a.to_act[0].seat
        chosen = rng.choice(a.legal_actions(seat))
        other = chosen
        if isinstance(chosen, (Bribe, Keep)):
            bribes = [x for x in b.legal_actions(seat) if isinstance(x, Bribe) and x != chosen]
            other = rng.choice(bribes) if bribes else chosen
        elif str(chosen) not in {str(x) for x in b.legal_actions(seat)}:
            break
        a.play(seat, chosen)
        b.play(seat, other)
        if a.view(None) != b.view(None):
            break
        first.append((seat, str(chosen)))
        second.append((seat, str(other)))
    return first, second


def record(players: int, seed: int, actions: list[tuple[str, str]]) -> dict[str, object]:
    game = VsGame(players, seed=seed)
    for seat, text in actions:
        game.play(seat, text)
    return to_record(game).model_dump()


def test_secret_bribes_never_change_a_replay() -> None:
    differing = 0
    for players, seed in ((2, 3), (3, 5), (4, 8)):
        first, second = twins(players, seed)
        assert len(first) >= 4
        one, two = record(players, seed, first), record(players, seed, second)
        differing += first != second
        views_one, views_two = VS.replay_views(one), VS.replay_views(two)
        assert views_one == views_two
        assert VS.replay_image(AT, views_one) == VS.replay_image(AT, views_two)
    assert differing == 3  # every pair really held different secrets


def frames(gif: bytes) -> int:
    with Image.open(io.BytesIO(gif)) as image:
        return int(getattr(image, "n_frames", 1))


def test_a_replay_is_the_public_view_of_every_step() -> None:
    game = FcGame(["purple", "yellow", "red"], "beginner", seed=4)
    rng = random.Random(4)
    seen = [game.view(None)]
    for _ in range(12):
        game.play(rng.choice(game.legal_moves()))
        seen.append(game.view(None))
    data = FC.dump(game)
    views = FC.replay_views(data)
    assert views == seen
    assert all(v != game.view(seat) for v in views for seat in game.players)
    assert frames(FC.replay_image(AT, views)) == len(seen)
    stadt = VsGame(3, seed=9)
    public = [stadt.view(None)]
    while len(public) < 20:
        stadt.play(stadt.to_act[0].seat, rng.choice(stadt.legal_actions(stadt.to_act[0].seat)))
        public.append(stadt.view(None))
    assert VS.replay_views(VS.dump(stadt)) == public
