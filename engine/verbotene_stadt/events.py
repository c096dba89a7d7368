"""What an action did, told in plain data for the chat and the renderer.

Events name seats by their name and never carry a secret: a bribe shows as `BribeSet` without
the official, until the rules reveal it (`BribesRevealed`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal


@dataclass(frozen=True, slots=True)
class BribeSet:
    seat: str
    kept: bool  # kept the bribe it had
    kind: Literal["bribe"] = "bribe"


@dataclass(frozen=True, slots=True)
class PavilionOpened:
    """The blue die, rolled by `seat`: `pavilion` is now the open one (maybe the same again)."""

    seat: str
    pavilion: int
    kind: Literal["open"] = "open"


@dataclass(frozen=True, slots=True)
class FirstPlayerChosen:
    """Once every opening bribe is in, the seats roll the large fate die in turn: the first
    red face plays first. `rolls` is each roll, seat and face, in order."""

    seat: str
    rolls: tuple[tuple[str, str], ...]
    kind: Literal["first"] = "first"


@dataclass(frozen=True, slots=True)
class TurnStarted:
    seat: str
    again: bool  # a believed bluff: the same seat plays a new turn
    kind: Literal["turn"] = "turn"


@dataclass(frozen=True, slots=True)
class OfficialMoved:
    seat: str
    official: str
    slides: tuple[str, ...]
    start: tuple[int, int]
    end: tuple[int, int] | None  # None: entered the open pavilion
    # where each slide stopped; for an entry the last is the square before the door
    path: tuple[tuple[int, int], ...] = ()
    kind: Literal["moved"] = "moved"


@dataclass(frozen=True, slots=True)
class FateRolled:
    """A fate die rolled by `seat` (left of the mover) after the mover's `move`-th move."""

    seat: str
    die: str  # small, medium, large
    face: str  # black, red, dragon, pavilion
    kind: Literal["fate"] = "fate"


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """The turn is over (`seat` passed, a black face, or the fourth move was made)."""

    seat: str
    reason: str  # pass, black, four-moves, entered
    kind: Literal["turn-over"] = "turn-over"


@dataclass(frozen=True, slots=True)
class Answered:
    seat: str
    believes: bool
    kind: Literal["answer"] = "answer"


@dataclass(frozen=True, slots=True)
class BribesRevealed:
    """Bribes the rules make public at an entry, seat to official."""

    bribes: dict[str, str | None]
    kind: Literal["revealed"] = "revealed"


@dataclass(frozen=True, slots=True)
class BluffSettled:
    mover: str
    bluffed: bool
    doubter: str | None  # the doubter nearest the mover in table order, if any
    kind: Literal["bluff"] = "bluff"


@dataclass(frozen=True, slots=True)
class CardTaken:
    """`seat` takes `card` from a seat (`source`) or from the pavilion (`source` None)."""

    seat: str
    card: str
    source: str | None
    reason: str  # entry, dragon, reward, penalty, empty
    kind: Literal["card"] = "card"


@dataclass(frozen=True, slots=True)
class NothingTaken:
    """A take the rules allow found no card, or the seat passed on it."""

    seat: str
    reason: str
    kind: Literal["nothing"] = "nothing"


@dataclass(frozen=True, slots=True)
class OfficialExiled:
    official: str
    pavilion: int
    exiled: int  # officials on the exile terrace now
    kind: Literal["exiled"] = "exiled"


@dataclass(frozen=True, slots=True)
class GameEnded:
    points: dict[str, int]  # each seat's own best grouping
    scores: dict[str, int]  # what decides: team totals in the team game
    winners: list[str]
    kind: Literal["ended"] = "ended"


Event = (
    BribeSet
    | FirstPlayerChosen
    | PavilionOpened
    | TurnStarted
    | OfficialMoved
    | FateRolled
    | TurnPassed
    | Answered
    | BribesRevealed
    | BluffSettled
    | CardTaken
    | NothingTaken
    | OfficialExiled
    | GameEnded
)


@dataclass(frozen=True, slots=True)
class ActionResult:
    """Everything one action did, in order."""

    seat: str
    action: str
    events: list[Event] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
