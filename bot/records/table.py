"""A table as stored in Redis: which game, who sits where, the engine's record, turn bookkeeping.

Everything the bot knows about a game is here, so any process can pick it up after a restart.
The record is the game's own (`GameModule.dump`); the table knows no rules.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, Field, model_validator

from ..games import DEFAULT, MODULES, GameInfo, GameModule, Playing, Record, module
from ..text.names import clean_name
from . import replayed

G = TypeVar("G", bound=Playing)
V = TypeVar("V")
A = TypeVar("A")


class Seat(BaseModel):
    user_id: str  # a computer player's is made up (`COMPUTER_ID`): no platform user has it
    name: Annotated[str, AfterValidator(clean_name)]  # also cleans names stored before
    bot: str | None = None  # a computer player's level
    away: bool = False  # a person's seat, played by a computer until they come back
    # The key of the player's personal links to this seat (`bot/links/tokens.py`): drawn when they
    # sit down and again when they end their links; a link made under another key plays no
    # more. "" for a computer's seat, and for seats stored before links had keys.
    link: str = ""

    @property
    def computer(self) -> bool:
        """Whether a computer decides for this seat (its own, or a person's who is away)."""
        return self.bot is not None or self.away

    @classmethod
    def person(cls, user_id: str, name: str) -> Seat:
        """A person sitting down, with a fresh key for their links (none made before plays)."""
        return cls(user_id=user_id, name=name, link=secrets.token_urlsafe(12))

    def new_links(self) -> None:
        """Ends every personal link made for this seat so far."""
        self.link = secrets.token_urlsafe(12)


COMPUTER_ID = "~bot{n}"


class Table(BaseModel):
    """Lobby first (`game` None), then the game; seats follow the engine's seat order."""

    format: Literal[1] = 1
    kind: str = DEFAULT  # the game's key in `bot.games.MODULES`
    options: dict[str, str] = Field(default_factory=dict)
    creator: str
    seats: list[Seat]
    players: list[str] = Field(default_factory=list)  # the engine's seat names, seat by seat
    game: Record | None = None
    turn_started: float = 0.0
    waiting: list[str] = Field(default_factory=list)  # "seat kind" the game waited for, stored
    hinted: list[str] = Field(default_factory=list)  # users told once they cannot get DMs
    votes: dict[str, Literal["skip", "end", "bot"]] = Field(default_factory=dict)
    limit_passed: bool = False
    voted_end: bool = False  # the players ended the game before its natural end
    community: str = ""  # the Discord server (leaderboards); "": the chat itself
    place: str = ""  # where the table is, as its members know it (`Actor.place`); "": unknown
    link: str = ""  # a link that opens that place; "": none
    parent: str = ""  # the place around it (`Actor.parent`); "": none
    # Words owed to the channel, told with the computer players' post that follows within
    # their pause (a person's secret choice, before theirs): one post for both.
    said: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _older(cls, data: Any) -> Any:
        """Tables stored before there were two games: the tile game, its side an option."""
        if isinstance(data, dict) and "side" in data:
            data = dict(data)
            data.setdefault("options", {"side": data.pop("side")})
        if (
            isinstance(data, dict)
            and isinstance(data.get("game"), dict)
            and not data.get("players")
        ):
            data = {**data, "players": data["game"].get("players", [])}
        if isinstance(data, dict) and data.get("kind", DEFAULT) not in MODULES:
            raise ValueError(f"unknown game {data.get('kind')!r}")
        return data

    @property
    def module(self) -> GameInfo:
        return module(self.kind)

    @property
    def most(self) -> int:
        """How many may sit at this table, with its options."""
        return self.module.seats(self.options)[1]

    @property
    def started(self) -> bool:
        return self.game is not None

    def seat_of(self, user_id: str) -> Seat | None:
        """A person's seat (never a computer player's)."""
        return next((s for s in self.seats if s.user_id == user_id and s.bot is None), None)

    def user_ids(self) -> list[str]:
        """The people at the table (computer players have no platform user)."""
        return [s.user_id for s in self.seats if s.bot is None]

    def computer_seats(self) -> list[str]:
        """Engine seats a computer decides for now."""
        return [c for c, s in zip(self.players, self.seats, strict=False) if s.computer]

    def new_computer_id(self) -> str:
        taken = {s.user_id for s in self.seats}
        return next(
            COMPUTER_ID.format(n=n) for n in range(1, 100) if COMPUTER_ID.format(n=n) not in taken
        )

    def engine_seat(self, user_id: str) -> str | None:
        """The engine's name for the user's seat (a colour, a number), once the game is on."""
        for seat, name in zip(self.seats, self.players, strict=False):
            if seat.user_id == user_id and seat.bot is None:
                return name
        return None

    def user_of(self, engine_seat: str) -> Seat:
        return self.seats[self.players.index(engine_seat)]

    def names(self) -> dict[str, str]:
        """Engine seat -> player name, for the images."""
        return {c: s.name for c, s in zip(self.players, self.seats, strict=False)}

    def users(self) -> dict[str, str]:
        """Engine seat -> user id, for the seats people play now (computers are not mentioned,
        nor told anything privately)."""
        return {
            c: s.user_id for c, s in zip(self.players, self.seats, strict=False) if not s.computer
        }


def load_game(game_module: GameModule[G, V, A], table: Table) -> G:
    """The table's game, replayed from its record by its module (or a copy of the game this
    process last replayed or stored for that record: `replayed`)."""
    if table.game is None:
        raise ValueError("the game has not started")
    return replayed.load(game_module, table.game)


def keep(game_module: GameModule[G, V, A], table: Table, game: G) -> None:
    """Store `game` in the table (its record and its seats), and keep a copy of it for the
    table's next command in this process."""
    table.game = game_module.dump(game)
    table.players = list(game.players)
    replayed.kept(game_module, table.game, game)
