"""Randolph & Rüttinger's Die Verbotene Stadt at the chat table: its `GameModule`.

A seat decides one of five things (`to_act` kinds): a secret bribe (a menu of the officials,
privately; after an entry the others may keep theirs), a move (an official from a menu, then its
slides one button at a time, each showing a private preview, then Confirm; or Pass), an answer to
an entry when the bluff is in play (Believe / Doubt), or a card to take (a menu of the cards).
`/fc play ...` types the same in the engine's notation. Images come from views only: the
channel's from `view(None)`, a seat's from `view(seat)`, which adds its own bribe.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

import render.verbotene_stadt as vs_render
from engine.core.errors import IllegalMove
from engine.core.record import replay
from engine.verbotene_stadt import Game, MoveOfficial, Take
from engine.verbotene_stadt.actions import BELIEVE, KEEP, PASS, Action, Bribe
from engine.verbotene_stadt.ai import Observation, observe
from engine.verbotene_stadt.events import Answered, BribeSet
from engine.verbotene_stadt.game import fresh, snapshot, to_record
from engine.verbotene_stadt.players import best_take, random_move
from engine.verbotene_stadt.record import GameRecord
from engine.verbotene_stadt.replay import steps_of
from engine.verbotene_stadt.view import SeatView
from render.animation import animate_views
from render.verbotene_stadt import palette as stadt_palette
from render.verbotene_stadt.pieces import official_svg
from render.verbotene_stadt.svg import board_svg

from ...exchange.buttons import not_valid
from ...exchange.refused import Refused
from ...exchange.replies import Message, Reply
from ...text.i18n import N_, tr
from .. import Acted, At, NewOption, Outcome, Record
from ..base import EngineModule
from ..sidebar import Sidebar
from . import buttons, choices, menus, prompts, taps, texts, words
from . import sidebar as side
from .paths import first_slides, movable, next_slides, trace


def _bribe(at: At, view: SeatView) -> str:
    """The seat's own bribe, for its page's tray (the picture rings it on the board)."""
    if view.bribe is None:
        return ""
    label = tr(at.lang, "Your bribe: {official}", official=words.official(at.lang, view.bribe))
    return official_svg(view.bribe, label)


class VerboteneStadt(EngineModule[Game, SeatView, Action]):
    key: str = "verbotene_stadt"
    game_type = Game
    title: str = N_("Die Verbotene Stadt")
    byline: str = N_("Die Verbotene Stadt (Randolph & Rüttinger)")
    words: tuple[str, ...] = ("stadt", "verbotene", "vs", "randolph")
    min_players: int = 2
    max_players: int = 4
    help: tuple[str, ...] = texts.HELP
    rules: tuple[str, ...] = texts.RULES
    button_kinds: frozenset[str] = buttons.KINDS
    secret: str = N_("your secret bribe")
    engine: str = "engine.verbotene_stadt"
    web_board: str = "svg"
    new_options: tuple[NewOption, ...] = (
        NewOption(
            N_("teams"), N_("Die Verbotene Stadt for 4: partners sit opposite and add their points")
        ),
    )

    # ------------------------------------------------------------------ setting up
    def options(self, args: list[str], players: int, lang: str) -> dict[str, str]:
        chosen = [a.lower() for a in args]
        if chosen not in ([], ["teams"]):
            raise Refused(tr(lang, "The only option is “teams”: the 4-player team game."))
        return {"teams": "yes"} if chosen else {}

    def options_text(self, options: dict[str, str], lang: str) -> str:
        return tr(lang, "team game, partners sitting opposite") if options.get("teams") else ""

    def seats(self, options: dict[str, str]) -> tuple[int, int]:
        """The team game is for four: two pairs of partners sitting opposite."""
        return (4, 4) if options.get("teams") else (self.min_players, self.max_players)

    def check_start(self, options: dict[str, str], players: int, lang: str) -> None:
        if options.get("teams") and players != 4:
            raise Refused(
                tr(lang, "The team game needs exactly 4 players ({n} are seated).", n=players)
            )

    def new_game(self, seats: int, options: dict[str, str], seed: int) -> Game:
        return Game(seats, seed=seed, teams=bool(options.get("teams")))

    def load(self, data: Record) -> Game:
        record = GameRecord.model_validate(data)
        game: Game = replay(fresh(record), record.actions, record.snapshot, snapshot)
        return game

    def dump(self, game: Game) -> Record:
        return to_record(game).model_dump()

    def count(self, game: Game) -> int:
        return len(game.log)

    def observe(self, game: Game, seat: str) -> Observation:
        return observe(game, seat)

    def begin_text(self, at: At, game: Game) -> str:
        """Who plays first is rolled for once every opening bribe is in (`FirstPlayerChosen`)."""
        seats = ", ".join(at.mention(seat) for seat in game.players)
        text = tr(
            at.lang,
            "The game begins! Seats in turn order: {seats}. Everyone now bribes an official "
            "in secret (see your private message); then the large fate die decides who plays "
            "first.",
            seats=seats,
        )
        if game.teams:
            text += " " + texts.teams_text(at, game)
        return text

    # ------------------------------------------------------------------ actions
    def typed(self, at: At, game: Game, seat: str, args: list[str]) -> Action:
        return choices.typed(game, seat, args, at.lang, at.private)

    def pressed(
        self, at: At, game: Game, seat: str, kind: str, count: int, payload: str
    ) -> Action | Reply:
        lang = at.lang
        invalid = Refused(not_valid(lang))
        waited = menus.kind_of(game, seat)
        if kind == buttons.BRIBE.kind:
            if waited not in ("bribe", "rebribe") or count != menus.round_start(game):
                raise Refused(tr(lang, "This button is out of date: the table has changed since."))
            bribe = buttons.BRIBE.value(payload)
            if bribe is None:
                raise invalid
            return choices.fitting(KEEP, waited, lang) if bribe == buttons.KEEP else Bribe(bribe)
        if count != len(game.log):
            raise Refused(tr(lang, "This button is out of date: the table has changed since."))
        if kind == buttons.ANSWER.kind:
            answer = buttons.ANSWER.value(payload)
            if answer is None:
                raise invalid
            return choices.fitting(choices.WORDS[answer], waited, lang)
        if kind == buttons.TAKE.kind:
            took = buttons.TAKE.value(payload)
            if took is None:
                raise invalid
            return choices.fitting(Take(*took), waited, lang)
        if waited != "move":
            raise invalid
        if kind == buttons.OTHER.kind:  # back to the officials: the turn's own prompt, again
            return Reply(private=[self.prompt(at, game, seat, False)])
        if kind == buttons.OFFICIAL.kind:
            official = buttons.OFFICIAL.value(payload)
            if official is None or official not in movable(game, seat):
                raise invalid
            first = menus.first_slide_message(at, game, official)
            first.image = vs_render.table_png(game.view(seat), at.names, tr=at.words)
            first.image_name = "your-view.png"
            first.tray = _bribe(at, game.view(seat))
            taps.on_slides(first, at, game, official, (), first_slides(game, official))
            return Reply(private=[first])
        unpacked = buttons.SLIDE.value(payload)  # `vm` carries the same payload
        if unpacked is None or kind not in (buttons.SLIDE.kind, buttons.MOVE.kind):
            raise invalid
        path = trace(game, *unpacked)
        if path is None or (path.entered and not game.may_enter(path.official)):
            raise invalid
        if kind == buttons.MOVE.kind:
            if path.home:
                raise invalid
            return MoveOfficial(path.official, path.slides)
        image = vs_render.preview_png(
            game.view(seat), at.names, path.official, path.slides, tr=at.words
        )
        preview = menus.preview_message(at, game, seat, path, image)
        moved = vs_render.preview_view(game.view(seat), path.official, path.slides)
        preview.board = board_svg(moved, tr(at.lang, "Your move on the table"))
        preview.tray = _bribe(at, game.view(seat))
        taps.on_slides(preview, at, game, path.official, path.slides, next_slides(game, path))
        return Reply(private=[preview])

    def complete(self, at: At, game: Game, seat: str, text: str) -> list[tuple[str, str]]:
        typed = text.split()[-1].upper() if text.split()[1:] else ""
        out = []
        for action in game.legal_actions(seat):
            if isinstance(action, MoveOfficial):
                value = f"{action.official} {','.join(action.slides)}"
            else:
                value = str(action)
            if not typed or value.upper().startswith(typed) or typed in value.upper():
                out.append((value, value))
        return out[:25]

    def explain(self, err: IllegalMove, lang: str) -> str:
        return choices.explain(err, lang)

    def act(self, at: At, game: Game, seat: str, action: Action) -> Acted:
        """The image is not posted after a bribe or an answer alone: the table has not
        changed."""
        result = game.play(seat, action)
        draws = any(not isinstance(event, (BribeSet, Answered)) for event in result.events)
        return Acted(texts.describe(at, result), draws)

    def next_text(self, at: At, game: Game) -> str:
        return texts.waiting_text(at, game, True)

    def table_image(self, at: At, view: SeatView) -> bytes:
        return vs_render.table_png(view, at.names, tr=at.words)

    def log_words(self, at: At, data: Record) -> list[str]:
        record = GameRecord.model_validate(data)
        game = fresh(record)
        lines = []
        for seat, text in record.actions:
            lines.extend(self.act(at, game, seat, self.parse_action(text)).lines)
        return lines

    def table_svg(self, at: At, view: SeatView) -> str:
        return board_svg(view, tr(at.lang, "The table"))

    def sidebar(self, at: At, view: SeatView) -> Sidebar:
        return side.sidebar(at, view)

    def final_text(self, at: At, game: Game, voted_end: bool) -> str:
        return texts.final_text(at, game, voted_end)

    def status_text(self, at: At, game: Game, waited: str) -> str:
        return texts.status_text(at, game, waited)

    # ------------------------------------------------------------------ once over
    def outcome(self, game: Game) -> Outcome:
        return Outcome(dict(game.scores), list(game.winners), list(game.partnerships))

    def replay_views(self, data: Record) -> list[SeatView]:
        return [step.game.view(None) for step in steps_of(GameRecord.model_validate(data))]

    def replay_log(self, data: Record) -> list[tuple[str, str]]:
        # The public view's log writes another seat's bribe `bribe ?`.
        game = None
        for step in steps_of(GameRecord.model_validate(data)):
            game = step.game
        return [] if game is None else list(game.view(None).actions)

    def replay_image(self, at: At, views: Sequence[SeatView]) -> bytes:
        draw = vs_render.replay_drawer(views, at.names, tr=at.words)
        return animate_views(views, draw, stadt_palette.palette_image())

    # ------------------------------------------------------------------ privately
    def prompt(self, at: At, game: Game, seat: str, reminder: bool) -> Message:
        kind = menus.kind_of(game, seat)
        text = prompts.ask(at, game, seat, kind)
        if reminder:
            text = tr(at.lang, "A reminder: the game waits for you.") + " " + text
        if kind in ("bribe", "rebribe"):
            message = menus.bribe_menu(at, game, seat, text)
        elif kind == "move":
            message = menus.move_menu(at, game, seat, text)
        elif kind == "take":
            message = menus.take_menu(at, game, seat, text)
        else:
            message = Message(text, buttons=menus.answer_buttons(at, game, seat))
        view = game.view(seat)
        if at.pictures:
            message.image = vs_render.table_png(view, at.names, tr=at.words)
            message.image_name = "your-view.png"
        message.tray = _bribe(at, view)
        taps.on_officials(message, game)
        return message

    def private(self, at: At, game: Game, seat: str) -> Message:
        view = game.view(seat)
        lang = at.lang
        text = tr(
            lang,
            "Your bribe: {official}. Your cards: {cards} ({points} points).",
            official=words.official(lang, view.bribe) if view.bribe else "-",
            cards=words.cards(lang, view.hands[seat]),
            points=view.points[seat],
        )
        if view.partner_bribe:
            text += " " + tr(
                lang,
                "Your partner's bribe: {official}.",
                official=words.official(lang, view.partner_bribe),
            )
        text += " " + texts.waiting_text(at, game, False)
        image = vs_render.table_png(view, at.names, tr=at.words) if at.pictures else None
        message = Message(text, image=image, image_name="your-view.png")
        message.tray = _bribe(at, view)
        return message

    def after_own(self, at: At, game: Game, seat: str) -> list[Message]:
        """The bribe just set, for the seat to be sure of it (a bribe chosen at the time limit
        is told this way too)."""
        if not game.log or game.log[-1][0] != seat:
            return []
        action = game.log[-1][1]
        if not action.startswith(("bribe", "keep")):
            return []
        own = game.bribes[game.seat_index(seat)]
        if own is None:
            return []
        text = tr(
            at.lang,
            "Your secret bribe is now {official}.",
            official=words.official(at.lang, own),
        )
        return [Message(text)]

    # ------------------------------------------------------------------ time
    def on_limit(self, kind: str) -> Literal["vote", "default"]:
        return "default" if kind in ("bribe", "rebribe", "answer") else "vote"

    def stand_in(self, game: Game, seat: str, rng: random.Random) -> Action:
        kind = menus.kind_of(game, seat)
        legal = game.legal_actions(seat)
        if kind == "rebribe":
            return KEEP
        if kind == "bribe":
            return rng.choice([a for a in legal if isinstance(a, Bribe)])
        if kind == "answer":
            return BELIEVE
        if kind == "take":
            return best_take(game, seat)
        if PASS in legal:
            return PASS
        return random_move(game, rng)

    def default_text(self, at: At, game: Game, seat: str, kind: str) -> str:
        who = at.name(seat)
        if kind == "answer":
            return tr(at.lang, "Time ran out for {who}: silence counts as belief.", who=who)
        return tr(at.lang, "Time ran out for {who}: the secret choice was made for them.", who=who)


MODULE = VerboteneStadt()
