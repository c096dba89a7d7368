"""Who did something, and where: the one thing every adapter hands the service."""

from __future__ import annotations

from dataclasses import dataclass

from ..text.names import clean_name

PLACE_NAME = 64  # the longest a place's name is kept


@dataclass(frozen=True, slots=True)
class Actor:
    platform: str  # "discord", "telegram" or "console"
    channel_id: str  # the group channel/chat where the command was typed (or a DM's id)
    user_id: str
    name: str  # display name, for messages
    locale: str | None = None  # the user's language (Discord interaction locale, Telegram code)
    is_admin: bool = False  # may manage the channel (abort any game)
    private: bool = False  # typed in a private chat / DM rather than in the group
    # Where the people around it belong, for "here" on leaderboards: the Discord server (guild
    # id), the Telegram group (chat id), the console's channel; None in a DM / private chat.
    community: str | None = None
    # The place as its members know it ("Board games › Strategy") and a link that opens it,
    # told by the adapter; "" where it has none. A table keeps them, so lists and private
    # messages can say where each game is.
    place: str = ""
    link: str = ""
    # The place around this one (a Discord thread's channel, a forum topic's group), where
    # the bot says why a table there closed; "" where there is none.
    parent: str = ""
    threads: bool = False  # a table can open in a new thread of this place (a Discord channel)
    # Asked from the player's own page, which draws the board itself: what it is told of
    # their seat needs no picture (`At.pictures`).
    page: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "name", clean_name(self.name))  # frozen: set once, here
        object.__setattr__(self, "place", clean_name(self.place, "", longest=PLACE_NAME))
