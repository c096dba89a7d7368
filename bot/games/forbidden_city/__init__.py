"""Reiner Knizia's Forbidden City at the chat table: the tile game's `GameModule`.

A seat decides one thing, where its tile goes: the private turn message shows the tile and the
numbered spots where it fits (a menu, pages of spots), a spot offers its rotations, a rotation
shows a preview, and *Place it here* plays it; `/fc play <spot> <rotation>` does the same typed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import render.forbidden_city as render
from engine.core.errors import IllegalMove
from engine.forbidden_city import DISCARD, Game, Move, Place, parse_move
from engine.forbidden_city.game import TILES_LEFT_AT_END, dealt, from_record, to_record
from engine.forbidden_city.players import choose_greedy
from engine.forbidden_city.preview import after
from engine.forbidden_city.record import GameRecord as FcRecord
from engine.forbidden_city.replay import steps_of
from engine.forbidden_city.view import SeatView
from render.animation import animate_views
from render.forbidden_city import palette as tile_palette
from render.forbidden_city import svg as drawn
from render.forbidden_city.svg import board_svg
from render.forbidden_city.table import Bounds

from ...exchange.buttons import not_valid
from ...exchange.refused import Refused
from ...exchange.replies import Button, Message, Reply, Style, Target
from ...text.i18n import N_, tr
from .. import Acted, At, NewOption, Outcome, Record
from ..base import EngineModule
from ..sidebar import Sidebar
from . import buttons
from . import sidebar as side
from .spot_menu import page_count, spot_menu
from .targets import explain, target
from .texts import HELP, RULES, describe, final_text, status_text

COLOURS_BY_COUNT = {
    2: ["purple", "yellow"],
    3: ["purple", "yellow", "red"],
    4: ["purple", "yellow", "red", "blue"],
}


def _rotation_button(at: At, x: int, y: int, turn: int, style: Style = "secondary") -> Button:
    """Shows the tile at x,y turned `turn` quarter turns, as a preview."""
    return Button(
        tr(at.lang, "Rotation {r}", r=turn),
        _preview_data(at, x, y, turn),
        style,
    )


def _preview_data(at: At, x: int, y: int, turn: int) -> str:
    return buttons.PREVIEW.encode(at.channel_id, at.count, buttons.Cell(x, y, turn))


def _spot_targets(
    at: At, spots: Sequence[render.Spot], boxes: Sequence[render.Box], shown: Bounds
) -> list[Target]:
    """Each spot as a place to tap on the image (`boxes`: its cell there, in order) and on
    the page's board (showing `shown`): a tap shows the tile there in its first fitting
    turn, as a spot and a rotation do in the chat."""
    return [
        Target(
            box,
            tr(at.lang, "Spot {n}: {x},{y}", n=spot.number, x=spot.x, y=spot.y),
            _preview_data(at, spot.x, spot.y, spot.rotations[0]),
            drawn.cell_box(shown, spot.x, spot.y),
        )
        for spot, box in zip(spots, boxes, strict=True)
    ]


def _tray(at: At, mine: SeatView) -> str:
    """The tile in the seat's hand, drawn large for the page's tray."""
    if mine.hand is None or mine.seat is None:
        return ""
    return drawn.tile_svg(mine.hand, mine.seat, tr(at.lang, "Your tile"))


def _spots(game: Game) -> list[render.Spot]:
    """The numbered spots of the seat to play, as its private image draws them."""
    return render.spots(game.view(game.current))


class ForbiddenCity(EngineModule[Game, SeatView, Move]):
    key: str = "forbidden_city"
    game_type = Game
    title: str = N_("Forbidden City")
    byline: str = N_("Forbidden City (Reiner Knizia)")
    words: tuple[str, ...] = ("knizia", "tiles", "forbidden", "city")
    min_players: int = 2
    max_players: int = 4
    help: tuple[str, ...] = HELP
    rules: tuple[str, ...] = RULES
    button_kinds: frozenset[str] = buttons.KINDS
    secret: str = N_("your tile")
    engine: str = "engine.forbidden_city"
    web_board: str = "svg"
    new_options: tuple[NewOption, ...] = (
        NewOption(
            N_("side"), N_("Which side of the start tile to play"), (N_("beginner"), N_("advanced"))
        ),
    )

    # ------------------------------------------------------------------ setting up
    def options(self, args: list[str], players: int, lang: str) -> dict[str, str]:
        side = args[0].lower() if args else "beginner"
        if side not in ("beginner", "advanced") or len(args) > 1:
            raise Refused(tr(lang, "The start side is “beginner” or “advanced”."))
        return {"side": side}

    def options_text(self, options: dict[str, str], lang: str) -> str:
        side = options.get("side", "beginner")
        side_name = tr(lang, "beginner") if side == "beginner" else tr(lang, "advanced")
        return tr(lang, "{side} side", side=side_name)

    def new_game(self, seats: int, options: dict[str, str], seed: int) -> Game:
        return Game(COLOURS_BY_COUNT[seats], options.get("side", "beginner"), seed=seed)

    def load(self, data: Record) -> Game:
        return from_record(FcRecord.model_validate(data))

    def dump(self, game: Game) -> Record:
        return to_record(game).model_dump()

    def count(self, game: Game) -> int:
        return len(game.moves)

    def begin_text(self, at: At, game: Game) -> str:
        seats = ", ".join(f"{tr(at.lang, colour)} {at.mention(colour)}" for colour in game.players)
        return tr(
            at.lang,
            "The game begins! Seats in turn order: {seats}. {first} plays first.",
            seats=seats,
            first=at.mention(game.current),
        )

    # ------------------------------------------------------------------ actions
    def typed(self, at: At, game: Game, seat: str, args: list[str]) -> Move:
        return target(game, args, at.lang)

    def pressed(
        self, at: At, game: Game, seat: str, kind: str, count: int, payload: str
    ) -> Move | Reply:
        lang = at.lang
        if count != len(game.moves):
            raise Refused(tr(lang, "This button is out of date: the table has changed since."))
        if kind == buttons.PAGE.kind:
            page = buttons.PAGE.value(payload)
            if page is None or not 0 <= page < page_count(game):
                raise Refused(not_valid(lang))
            return Reply(private=[spot_menu(at.channel_id, game, lang, page)])
        if kind == buttons.SPOT.kind:
            number = buttons.SPOT.value(payload)
            spot = next((s for s in _spots(game) if s.number == number), None)
            if spot is None:
                raise Refused(not_valid(lang))
            rotations = [_rotation_button(at, spot.x, spot.y, r, "primary") for r in spot.rotations]
            text = tr(
                lang,
                "Spot {n} ({x},{y}). Choose a rotation to see it on the table.",
                n=spot.number,
                x=spot.x,
                y=spot.y,
            )
            return Reply(private=[Message(text, buttons=[rotations])])
        cell = buttons.PREVIEW.value(payload)  # `ok` carries the same payload
        if cell is None:
            raise Refused(not_valid(lang))
        move = target(game, [f"{cell.x},{cell.y}", str(cell.rotation)], lang)
        if kind == buttons.PLACE.kind:
            return move
        return Reply(private=[self._preview(at, game, move)])

    def _preview(self, at: At, game: Game, move: Place) -> Message:
        mine = game.view(game.current)
        spots = render.spots(mine)
        others = next((s.rotations for s in spots if (s.x, s.y) == (move.x, move.y)), ())
        image = render.preview_png(mine, move, at.names, tr=at.words)  # nothing is played
        cell = buttons.Cell(move.x, move.y, move.rotation)
        place = buttons.PLACE.encode(at.channel_id, at.count, cell)
        row = [Button(tr(at.lang, "Place it here"), place, "success")]
        row += [_rotation_button(at, move.x, move.y, r) for r in others if r != move.rotation]
        text = tr(
            at.lang,
            "Preview: your tile at {x},{y}, rotation {r}. Nothing is played until you confirm.",
            x=move.x,
            y=move.y,
            r=move.rotation,
        )
        elsewhere = [s for s in spots if (s.x, s.y) != (move.x, move.y)]
        cells = [(s.x, s.y) for s in elsewhere] + [(move.x, move.y)]
        placed = after(mine, move)
        # What it would close and pay, as the preview's picture says it (the page shows no
        # picture: its board shows the tile).
        text = " ".join([text, *render.closed_texts(placed, at.names, tr=at.words, preview=True)])
        *boxes, here = render.cell_boxes(placed, cells, at.names, "preview", tr=at.words)
        message = Message(text, image=image, image_name="preview.png", buttons=[row])
        shown = drawn.shown_bounds(mine, [(move.x, move.y)])
        message.targets = _spot_targets(at, elsewhere, boxes, shown)
        message.board = board_svg(placed, tr(at.lang, "Your tile on the table"), shown)
        message.tray = _tray(at, mine)
        if len(others) > 1:  # the tile turns: a tap on it, or R and the arrow keys
            index = others.index(move.rotation) if move.rotation in others else 0
            turned = _preview_data(at, move.x, move.y, others[(index + 1) % len(others)])
            back = _preview_data(at, move.x, move.y, others[(index - 1) % len(others)])
            label = tr(at.lang, "Turn the tile (R)")
            spot = drawn.cell_box(shown, move.x, move.y)
            message.targets.append(Target(here, label, turned, spot))
            message.keys = {"r": turned, "ArrowRight": turned, "ArrowLeft": back}
        return message

    def complete(self, at: At, game: Game, seat: str, text: str) -> list[tuple[str, str]]:
        if game.is_over or seat != game.current:
            return []
        typed = text.split()[-1] if text.split()[1:] else ""
        out = []
        for spot in _spots(game):
            turns = "/".join(str(r) for r in spot.rotations)
            label = f"{spot.number}: {spot.x},{spot.y} ({turns})"
            if not typed or str(spot.number).startswith(typed) or f"{spot.x},{spot.y}" == typed:
                out.append((label, str(spot.number)))
        return out[:25]

    def explain(self, err: IllegalMove, lang: str) -> str:
        return explain(err, lang)

    def after_play(self, at: At, game: Game) -> list[str]:
        """Set aside, for the players to come, tiles that fit nowhere (docs/rules-notes.md)."""
        lines = []
        while not game.is_over and game.legal_moves() == [DISCARD]:
            seat = game.current
            game.play(DISCARD)
            lines.append(
                tr(
                    at.lang,
                    "{who}'s tile fits nowhere: it is shown and set aside.",
                    who=at.mention(seat),
                )
            )
        return lines

    # ------------------------------------------------------------------ telling
    def act(self, at: At, game: Game, seat: str, action: Move) -> Acted:
        return Acted([describe(at, game.play(seat, action))])

    def next_text(self, at: At, game: Game) -> str:
        return tr(at.lang, "Next: {who}.", who=at.mention(game.current))

    def table_image(self, at: At, view: SeatView) -> bytes:
        return render.table_png(view, at.names, tr=at.words)

    def log_words(self, at: At, data: Record) -> list[str]:
        game, actions = dealt(FcRecord.model_validate(data))
        return [
            line
            for seat, text in actions
            for line in self.act(at, game, seat, parse_move(text)).lines
        ]

    def table_svg(self, at: At, view: SeatView) -> str:
        return board_svg(view, tr(at.lang, "The table"))

    def sidebar(self, at: At, view: SeatView) -> Sidebar:
        return side.sidebar(at, view)

    def final_text(self, at: At, game: Game, voted_end: bool) -> str:
        if game.is_over:
            return final_text(at, game)
        best = max(game.scores.values())
        ranking = sorted(game.players, key=lambda c: -game.scores[c])
        scores = ", ".join(f"{at.name(c)} {game.scores[c]}" for c in ranking)
        winners = ", ".join(at.mention(c) for c in ranking if game.scores[c] == best)
        return tr(
            at.lang,
            "The players voted to end the game. Coins: {scores}. Winner: {winners}.",
            scores=scores,
            winners=winners,
        )

    def final_image(self, at: At, view: SeatView, voted_end: bool) -> bytes:
        if view.over:
            return render.end_png(view, at.names, tr=at.words)
        return render.table_png(view, at.names, tr=at.words)

    def status_text(self, at: At, game: Game, waited: str) -> str:
        return status_text(at, game, waited)

    # ------------------------------------------------------------------ once over
    def outcome(self, game: Game) -> Outcome:
        return Outcome(dict(game.scores), list(game.winners), [])

    def replay_views(self, data: Record) -> list[SeatView]:
        return [step.game.view(None) for step in steps_of(FcRecord.model_validate(data))]

    def replay_log(self, data: Record) -> list[tuple[str, str]]:
        # A placement shows the tile it places: nothing of a move stays hidden.
        steps = steps_of(FcRecord.model_validate(data))
        return [(step.seat or "", step.action or "") for step in steps][1:]

    def replay_image(self, at: At, views: Sequence[SeatView]) -> bytes:
        draw = render.replay_drawer(views, at.names, tr=at.words)
        return animate_views(views, draw, tile_palette.palette_image())

    # ------------------------------------------------------------------ privately
    def prompt(self, at: At, game: Game, seat: str, reminder: bool) -> Message:
        if reminder:
            text = tr(at.lang, "A gentle reminder: it is still your turn in Forbidden City.")
        else:
            text = tr(
                at.lang,
                "Your turn in Forbidden City. Your tile and the numbered spots where it fits are "
                "below: choose a spot, or type /fc play <spot> <rotation> in the game's chat.",
            )
        return self._turn_message(at, game, text)

    def _turn_message(self, at: At, game: Game, text: str) -> Message:
        mine = game.view(game.current)
        spots = render.spots(mine)
        image = None
        if at.pictures:  # the player's own page draws its board itself
            image = render.private_png(mine, at.names, tr=at.words, legal=spots)
        message = spot_menu(at.channel_id, game, at.lang, 0, spots)
        message.text, message.image, message.image_name = text, image, "your-turn.png"
        cells = [(s.x, s.y) for s in spots]
        boxes = render.cell_boxes(mine, cells, at.names, "private", tr=at.words, legal=spots)
        message.targets = _spot_targets(at, spots, boxes, drawn.shown_bounds(mine))
        message.tray = _tray(at, mine)
        return message

    def private(self, at: At, game: Game, seat: str) -> Message:
        if game.current == seat:
            text = tr(at.lang, "Your tile, and the numbered spots where it fits.")
            return self._turn_message(at, game, text)
        mine = game.view(seat)
        image = render.hand_png(mine, at.names, tr=at.words) if at.pictures else None
        text = tr(
            at.lang,
            "Your tile. It is {who}'s turn; you will be told when it is yours.",
            who=at.name(game.current),
        )
        message = Message(text, image=image, image_name="your-tile.png")
        message.tray = _tray(at, mine)
        return message

    def after_own(self, at: At, game: Game, seat: str) -> list[Message]:
        """The tile the mover just drew, for them alone to plan with; none after their last
        placement (the tiles they keep are only revealed at the end)."""
        if game.is_over or seat == game.current or game.tiles_left(seat) <= TILES_LEFT_AT_END:
            return []
        image = render.hand_png(game.view(seat), at.names, tr=at.words)
        return [Message(tr(at.lang, "Your new tile."), image=image, image_name="your-tile.png")]

    # ------------------------------------------------------------------ time
    def stand_in(self, game: Game, seat: str, rng: random.Random) -> Move:
        return choose_greedy(game, rng)


MODULE = ForbiddenCity()
