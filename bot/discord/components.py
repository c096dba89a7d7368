"""Persistent buttons and menus: dynamic items, so a press on any old message still works.

Nothing about a component lives in memory: its custom_id is the service's button data (or, for
the spot menu, each option's value is), so after a restart the registered templates recognise
every component the bot ever sent and hand the data to the service unchanged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Any, Protocol, runtime_checkable

import discord

from bot.text.lengths import cut

__all__ = [
    "BUTTON_TEMPLATE",
    "LABEL_LIMIT",
    "MENU_ID",
    "FcButton",
    "FcSelect",
    "PressHandler",
    "recognised",
]

# The service's button data starts with "fc:"; anything printable after that is its business.
BUTTON_TEMPLATE = re.compile(r"(?P<data>fc:[\x21-\x7e]{1,97})")
MENU_ID = "fcmenu"  # the one spot menu a message may carry; its options carry the data
LABEL_LIMIT = 80  # a button's label, in characters (`bot.text.lengths`: Discord counts them)


def recognised(interaction: discord.Interaction[Any]) -> bool:
    """Whether `FcButton` or `FcSelect` below answers this component interaction: discord.py
    hands one to them only if its id fits their template and its message carries it. Discord
    tells the user "This interaction failed" about any other, so the client answers those."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    kind = int(data.get("component_type", 0))
    if interaction.message is None:
        return False
    if BUTTON_TEMPLATE.fullmatch(custom_id) is None and not (
        custom_id == MENU_ID and kind == discord.ComponentType.select.value
    ):
        return False
    return any(
        component.type.value == kind and getattr(component, "custom_id", None) == custom_id
        for component in _walk(interaction.message.components)
    )


def _walk(components: Sequence[Any]) -> Iterator[Any]:
    for component in components:
        yield component
        yield from _walk(getattr(component, "children", ()))


@runtime_checkable
class PressHandler(Protocol):
    """What the client must offer for components to reach the service."""

    async def handle_press(self, interaction: discord.Interaction[Any], data: str) -> None: ...


async def _press(interaction: discord.Interaction[Any], data: str) -> None:
    client = interaction.client
    if isinstance(client, PressHandler):
        await client.handle_press(interaction, data)


class FcButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BUTTON_TEMPLATE):
    def __init__(
        self,
        data: str,
        *,
        label: str = "",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=cut(label, LABEL_LIMIT) or "·", style=style, custom_id=data
        )
        super().__init__(button, row=row)
        self.data = data

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> FcButton:
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(match["data"], label=label or "")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _press(interaction, self.data)


class FcSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=re.escape(MENU_ID)):
    def __init__(
        self,
        options: list[discord.SelectOption],
        *,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=MENU_ID, options=options, placeholder=placeholder
        )
        super().__init__(select, row=row)

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> FcSelect:
        if isinstance(item, discord.ui.Select):
            return cls(list(item.options), placeholder=item.placeholder)
        return cls([])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        values = self.item.values
        if values:
            await _press(interaction, values[0])
