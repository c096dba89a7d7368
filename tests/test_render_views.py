"""Images are drawn from a seat's view, never from the game: what one seat may not know (another
seat's tile, the order and contents of the stacks) cannot change a picture, and a preview shows
the table the move would make without playing it."""

from __future__ import annotations

import random

import pytest
from PIL import ImageChops

import render.forbidden_city as render
from engine.forbidden_city import Game, IllegalMove, Move, Place, Tile
from engine.forbidden_city.preview import after
from render.__main__ import played
from render.forbidden_city.header import CAPTION_LINE, PAD, TITLE_H
from render.forbidden_city.images import PREVIEW_BAND, plan
from render.forbidden_city.table import outline_width
from tests.pixels import decode, picture
from tests.views import to_play


def hidden_differs(game: Game, keep: str, rng: random.Random, tail: str | None = None) -> Game:
    """The same public game with other secrets: every seat's unplayed tiles but `keep`'s tile
    in hand shuffled (or, with `tail`, all replaced by that tile), the same moves played."""
    n = len(game.players)
    stacks = []
    for index, colour in enumerate(game.players):
        done = len(game.moves[index::n]) + (1 if colour == keep else 0)
        rest = list(game.stacks[index][done:])
        if tail is not None:
            rest = [tail] * len(rest)
        else:
            rng.shuffle(rest)
        stacks.append([*game.stacks[index][:done], *rest])
    other = Game(game.players, game.start, seed=0, stacks=stacks)
    for move in game.moves:
        other.play(move)
    return other


def closing_position(seed: int) -> tuple[Game, Place]:
    """A game and a legal move of the seat to play that closes a room and pays someone."""
    game = Game(4, seed=seed)
    rng = random.Random(seed)
    while True:
        for move in game.legal_moves():
            trial = game.copy()
            if isinstance(move, Place) and any(room.paid for room in trial.play(move).closed):
                return game, move
        game.play(rng.choice(game.legal_moves()))


@pytest.mark.parametrize("seed", [3, 8, 21])
def test_secrets_do_not_change_the_channel_image_nor_the_seat_to_play_s(seed: int) -> None:
    game = played(seed, 30)
    mine = game.current
    other = hidden_differs(game, mine, random.Random(seed))
    assert other.stacks != game.stacks
    assert other.view(None) == game.view(None) and other.view(mine) == game.view(mine)
    names = {"purple": "Ann", "red": "Cid"}
    table, own = render.table_png, render.private_png
    assert picture(table(other.view(None), names)) == picture(table(game.view(None), names))
    assert picture(own(other.view(mine), names)) == picture(own(game.view(mine), names))
    move = game.legal_moves()[0]
    assert picture(render.preview_png(other.view(mine), move)) == picture(
        render.preview_png(game.view(mine), move)
    )
    # A seat's own tile is its own to see: there the two games differ.
    told = next(c for c in game.players if other.hand(c) != game.hand(c))
    assert picture(render.hand_png(other.view(told))) != picture(render.hand_png(game.view(told)))


def test_the_preview_of_the_last_move_does_not_tell_the_end_it_cannot_know() -> None:
    game = played(4, len(played(4).moves) - 1)
    mover = game.current
    mine = to_play(game)
    rich = next(c for s in game.stacks for c in s if Tile.parse(c).advisors == 2)
    other = hidden_differs(game, mover, random.Random(1), tail=rich)
    move = game.legal_moves()[0]
    ended, other_ended = game.copy(), other.copy()
    ended.play(move)
    other_ended.play(move)
    assert ended.is_over and ended.ended is not None and other_ended.ended is not None
    assert ended.ended.bonus != other_ended.ended.bonus  # the end differs between the worlds
    assert other.view(mover) == mine
    preview = picture(render.preview_png(mine, move))
    assert picture(render.preview_png(other.view(mover), move)) == preview
    seen = after(mine, move)
    assert not seen.over and seen.to_play is None and seen.winners == [] and seen.bonus == {}
    assert seen.coins == {c: ended.scores[c] - ended.ended.bonus[c] for c in game.players}


@pytest.mark.parametrize("seed", [2, 5])
def test_the_preview_is_the_table_the_move_makes_under_the_preview_band(seed: int) -> None:
    game, move = closing_position(seed)
    mine = to_play(game)
    names = {"blue": "Dana"}
    preview = decode(render.preview_png(mine, move, names))
    mover = game.current
    game.play(move)
    assert not game.is_over
    table = decode(render.table_png(game.view(None), names))
    # The table after the move, but with its mover's row lit: the preview's header is theirs.
    theirs = decode(render.table_png(game.view(None).model_copy(update={"to_play": mover}), names))
    played_plan = plan(game.view(None), names)
    top = played_plan.header_h
    shown = plan(after(mine, move), names, "preview")
    lines = len(shown.caption) - len(played_plan.caption)
    assert shown.header_h == top + lines * CAPTION_LINE  # only the caption may run longer
    assert preview.width == table.width
    assert preview.height == table.height + PREVIEW_BAND + lines * CAPTION_LINE
    # Same entries: coins paid by the rooms it closes, the mover's row lit (it is their move,
    # not played yet); the caption speaks of a move not played yet, so it differs.
    entries = (0, TITLE_H, table.width, top - len(played_plan.caption) * CAPTION_LINE - PAD // 2)
    assert ImageChops.difference(preview.crop(entries), theirs.crop(entries)).getbbox() is None
    assert ImageChops.difference(preview.crop(entries), table.crop(entries)).getbbox() is not None
    # Same board, but for the ring around the tile (dashed in the preview); the band's stripes
    # reach one row into the margin above the board.
    ptop = shown.header_h
    board = preview.crop((0, ptop + PREVIEW_BAND + 1, preview.width, preview.height))
    changed = ImageChops.difference(board, table.crop((0, top + 1, table.width, table.height)))
    box = changed.getbbox()
    assert box is not None
    left, cell_top, right, bottom = render.cell_box(game.view(None), move.x, move.y, names)
    reach = outline_width(right - left) + 2
    assert left - reach <= box[0] and box[2] <= right + reach
    assert cell_top - top - 1 - reach <= box[1] and box[3] <= bottom - top - 1 + reach


def test_the_preview_plays_nothing_and_refuses_what_the_game_refuses() -> None:
    game = played(6, 12)
    mine = to_play(game)
    before = game.to_json()
    move = game.legal_moves()[0]
    render.preview_png(mine, str(move))
    assert game.to_json() == before and to_play(game) == mine
    taken = next(cell for cell in mine.table if cell.kind == "tile")
    with pytest.raises(IllegalMove):
        render.preview_png(mine, Place(taken.x, taken.y, 0))
    waiting = game.players[(game.turn + 1) % len(game.players)]
    for view in (game.view(None), game.view(waiting)):
        with pytest.raises(ValueError):
            render.preview_png(view, move)


def test_only_the_seat_to_play_s_view_has_spots() -> None:
    game = played(9, 20)
    mine = to_play(game)
    found = render.spots(mine)
    assert found and {m for s in found for m in s.moves} == {str(m) for m in game.legal_moves()}
    waiting = game.players[(game.turn + 1) % len(game.players)]
    assert render.spots(game.view(None)) == [] and render.spots(game.view(waiting)) == []


def test_a_view_tells_the_rooms_closed_and_the_end_bonus_once_revealed() -> None:
    game = played(7)
    assert game.ended is not None
    seen = game.view(None)
    told = [(i, r.colour, r.value, r.cells, r.paid) for i, res in enumerate(game.results)
            for r in res.closed]  # fmt: skip
    assert [(r.move, r.colour, r.value, r.cells, r.paid) for r in seen.rooms] == told
    assert seen.bonus == game.ended.bonus and seen.revealed == game.ended.revealed
    assert played(7, 40).view(None).bonus == {} and played(7, 40).view("red").revealed == {}


def test_the_view_after_a_move_is_the_view_once_it_is_played_but_for_the_next_draw() -> None:
    game = played(11, 25)
    mine = to_play(game)
    move: Move = game.legal_moves()[-1]
    seen = after(mine, move)
    game.play(move)
    assert seen == game.view(mine.seat).model_copy(update={"hand": None, "legal_moves": []})
