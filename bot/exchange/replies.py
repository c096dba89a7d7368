"""What the game service asks an adapter to post. Adapters only translate these to a platform.

Text is plain (no markup). A mention of a user is `mention(user_id)` in the text; adapters
replace it with their platform's mention (Discord `<@id>`, a Telegram text mention) using
`Message.format`, and escape everything else for their markup. The mention markup is framed
by control characters, which no name or typed text keeps (`bot.text.names`): a player named
`{u:999}` is shown as such and pings nobody.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

# A user id is any run of visible characters (a console user may be called "zoë" or "美玲").
MENTION = re.compile("\x02u:([^\x00-\x20\x7f]+?)\x03")
Style = Literal["primary", "secondary", "success", "danger"]


def mention(user_id: str) -> str:
    return "\x02u:" + user_id + "\x03"


@dataclass(frozen=True, slots=True)
class Button:
    """A button or a menu choice. `data` is what comes back on press (at most 64 bytes)."""

    label: str
    data: str
    style: Style = "secondary"
    # What it chooses, drawn by the game's art (an official, a card) as an SVG document: the
    # page shows it large, named by `label`; the chats show the label.
    drawing: str = ""


@dataclass(frozen=True, slots=True)
class Target:
    """A place on a message's image that presses `data` when tapped: the web page's board,
    where a player touches a spot instead of picking its number. `box` is in the image's
    pixels (left, top, right, bottom; right and bottom excluded). The chats cannot tap an
    image: they offer the same choice as a button or menu choice, and ignore targets."""

    box: tuple[int, int, int, int]
    label: str
    data: str
    # The same place on the page's own board (its SVG, in the drawing's units: left, top,
    # right, bottom), where the page puts it; None if the page's board does not show it.
    spot: tuple[float, float, float, float] | None = None


@dataclass(slots=True)
class Message:
    text: str
    image: bytes | None = None
    image_name: str = "table.png"
    buttons: list[list[Button]] = field(default_factory=list)  # rows of buttons
    choices: list[Button] = field(default_factory=list)  # a select menu (spots), if any
    choices_placeholder: str = ""
    names: dict[str, str] = field(default_factory=dict)  # user id -> display name, for mentions
    # A page to open (the reader's personal link to the table), and the words of its button:
    # each adapter shows it its own way (a link button, a Telegram Mini App, a line of text).
    web: str = ""
    web_label: str = ""
    targets: list[Target] = field(default_factory=list)  # places to tap on `image`
    # Keys of the page's keyboard that press a choice (key name as the browser names it,
    # "r", "ArrowRight" -> the data pressed), such as turning the tile in hand.
    keys: dict[str, str] = field(default_factory=dict)
    # The page's own board for this message, when it is not the table as everyone sees it
    # (the tile shown where the player would put it): an SVG drawing in the same units as
    # the table's. And what the seat holds, drawn large for its tray ("" for none).
    board: str = ""
    tray: str = ""
    # The menu whose button made this message, shown again (the lobby after a press on it):
    # an adapter edits the pressed message into this one where its platform can, so the chat
    # gets no new message; else it sends this one as new.
    in_place: bool = False

    def format(self, mention_of: Callable[[str, str], str], escape: Callable[[str], str]) -> str:
        """The text with mentions in platform syntax and the rest escaped for its markup."""
        out: list[str] = []
        last = 0
        for match in MENTION.finditer(self.text):
            out.append(escape(self.text[last : match.start()]))
            user = match[1]
            out.append(mention_of(user, self.names.get(user, user)))
            last = match.end()
        out.append(escape(self.text[last:]))
        return "".join(out)


@dataclass(slots=True)
class Direct:
    """A message to one user in private (Discord DM, Telegram private chat)."""

    user_id: str
    message: Message
    # True for a turn notice: if it cannot be delivered the adapter calls
    # `GameService.dm_failed` so the channel learns it once.
    turn_notice: bool = False


@dataclass(slots=True)
class Reply:
    """Everything one command or button press produces.

    `public` goes to the game's channel: `channel_id` when set (a button pressed or a command
    typed in a private chat about a game elsewhere), else where the user acted; `private` only
    to the user who acted (ephemeral on Discord, the private chat on Telegram); `direct` to
    other users privately. `ok` False means the command was refused and nothing changed;
    `private` then holds the reason.
    """

    public: list[Message] = field(default_factory=list)
    private: list[Message] = field(default_factory=list)
    direct: list[Direct] = field(default_factory=list)
    ok: bool = True
    channel_id: str | None = None

    @classmethod
    def error(cls, text: str) -> Reply:
        return cls(private=[Message(text)], ok=False)
