"""Players for Die Verbotene Stadt through the service: each seat acts only with the buttons and
menus it was sent (or typed commands), as a person in the chat would."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field

from bot.exchange.replies import Button, Message, Reply
from bot.games.verbotene_stadt.paths import pack
from bot.service import GameService
from bot.store import Store
from engine.verbotene_stadt import Game, MoveOfficial, Take
from engine.verbotene_stadt.actions import Action, Believe, Bribe, Doubt, Keep, Pass
from engine.verbotene_stadt.movement import follow
from engine.verbotene_stadt.players import Chooser, choose_greedy
from tests.tables import load_game
from tests.test_service import table_of, who


@dataclass
class Chat:
    """What everyone was shown: the channel's messages and each user's private ones."""

    public: list[Message] = field(default_factory=list)
    inbox: dict[str, list[Message]] = field(default_factory=lambda: defaultdict(list))
    replies: list[tuple[str, Reply]] = field(default_factory=list)

    def take(self, user: str, reply: Reply) -> Reply:
        self.replies.append((user, reply))
        self.public += reply.public
        self.inbox[user] += reply.private
        for direct in reply.direct:
            self.inbox[direct.user_id].append(direct.message)
        return reply

    def button(self, user: str, kind: str, payload: str) -> Button:
        """The newest button or menu choice of `kind` with `payload` sent to `user`."""
        for message in reversed(self.inbox[user]):
            for button in [b for row in message.buttons for b in row] + message.choices:
                parts = button.data.split(":")
                if parts[1] == kind and parts[-1] == payload:
                    return button
        raise AssertionError(f"{user} was sent no {kind} button {payload}")


REVEAL = "Bribes revealed"  # how the module words a reveal (bot/games/verbotene_stadt/texts.py)


def tells_a_bribe(text: str, bribes: set[str]) -> bool:
    """Whether `text`, shown to everyone, gives away one of `bribes` outside a reveal, as a
    reveal words it (`Ann: RR (red hat, red robe)`) or as the private "Keep RR" choice."""
    if REVEAL in text:
        return False
    return any(f": {code} (" in text or f"Keep {code}" in text for code in bribes)


def entering(game: Game, action: Action) -> bool:
    """Whether `action` moves an official into the open pavilion."""
    return isinstance(action, MoveOfficial) and (
        follow(game.board, game.at, action.official, action.slides, game.open) is None
    )


def toward_the_pavilion(game: Game, seat: str, rng: random.Random) -> Action:
    """A move that enters the open pavilion if one can, else brings the seat's own bribe
    nearest to it (entries, and so answers and takes, come soon), else any."""
    legal = game.legal_actions(seat)
    entries = [a for a in legal if entering(game, a)]
    if entries:
        return rng.choice(entries)
    own = game.bribes[game.seat_index(seat)]
    target = game.board.pavilions.get(game.open, ()) if game.open is not None else ()

    def distance(action: Action) -> int:
        if not isinstance(action, MoveOfficial) or action.official != own or not target:
            return 10**6
        end = follow(game.board, game.at, action.official, action.slides, game.open)
        assert end is not None
        return min(abs(end[0] - x) + abs(end[1] - y) for x, y in target)

    best = min(legal, key=distance)
    return best if distance(best) < 10**6 else rng.choice(legal)


def hasty(game: Game, seat: str, rng: random.Random) -> Action:
    """`greedy`, but entering the open pavilion whenever the rules let it: short games."""
    if game.to_act[0].kind == "move":
        for action in game.legal_actions(seat):
            if not isinstance(action, MoveOfficial):
                continue
            if follow(game.board, game.at, action.official, action.slides, game.open) is None:
                return action
    return choose_greedy(game, seat, rng)


async def press(service: GameService, chat: Chat, user: str, data: str) -> Reply:
    reply = await service.press(who(user, "dm-" + user, private=True), data)
    assert reply.ok, (user, data, [m.text for m in reply.private])
    return chat.take(user, reply)


def presses(action: Action) -> list[tuple[str, str]]:
    """The (kind, payload) of each button or menu choice that plays `action`, in order."""
    if isinstance(action, Bribe):
        return [("vb", action.official)]
    if isinstance(action, Keep):
        return [("vb", "keep")]
    if isinstance(action, (Pass, Believe, Doubt)):
        return [("va", str(action))]
    if isinstance(action, Take):
        return [("vt", f"{action.seat}.{action.card}")]
    assert isinstance(action, MoveOfficial)
    code, slides = action.official, action.slides
    steps = [("vs", pack(code, slides[:k])) for k in range(1, len(slides) + 1)]
    return [("vo", code), *steps, ("vm", pack(code, slides))]


async def act(service: GameService, chat: Chat, user: str, action: Action) -> Reply:
    """`action` for `user`, played by pressing what `user` was sent."""
    replies = [
        await press(service, chat, user, chat.button(user, kind, payload).data)
        for kind, payload in presses(action)
    ]
    return replies[-1]


async def play_on(
    service: GameService,
    store: Store,
    chat: Chat,
    rng: random.Random,
    choose: Chooser = hasty,
    limit: int = 2000,
) -> Game | None:
    """Play until the game ends (None) or `limit` actions, each seat by `choose`."""
    for _ in range(limit):
        table = await table_of(store)
        if table is None:
            return None
        game = load_game(table)
        seat = game.to_act[0].seat
        user = table.user_of(seat).user_id
        await act(service, chat, user, choose(game, seat, rng))
    table = await table_of(store)
    return None if table is None else load_game(table)
