"""The fake Discord refuses what Discord would, by its published OpenAPI description and the
rules its documentation states in prose (tests/vendor): with the 400 Discord answers, and a
recorded violation that would fail the test that sent it (here taken, as it is meant)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.fake_discord import INVALID_FORM, FakeDiscord, fake_discord
from tests.vendor import schemas

Json = dict[str, Any]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with fake_discord() as server:
        yield server


def button(custom_id: str, label: str = "Join") -> Json:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def rows(*components: Json) -> list[Json]:
    return [{"type": 1, "components": [c]} for c in components]


async def send(fake: FakeDiscord, method: str, path: str, body: Any) -> tuple[int, Json]:
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, fake.base + path, json=body) as response,
    ):
        return response.status, await response.json()


async def refused(fake: FakeDiscord, method: str, path: str, body: Any) -> str:
    """Sends a body Discord refuses: the fake answers 400/50035 and records one violation."""
    status, answer = await send(fake, method, path, body)
    assert (status, answer["code"]) == (400, INVALID_FORM), answer
    [violation] = schemas.take()
    assert violation.platform == "discord"
    return "; ".join(violation.problems)


async def test_a_custom_id_of_101_characters_is_refused(fake: FakeDiscord) -> None:
    path = f"/channels/{fake.channel_id}/messages"
    ok = {"content": "A table", "components": rows(button("j" * 100))}
    assert (await send(fake, "POST", path, ok))[0] == 200
    bad = {"content": "A table", "components": rows(button("j" * 101))}
    problems = await refused(fake, "POST", path, bad)
    assert "components[0].components[0].custom_id" in problems and "too long" in problems
    assert [m.custom_ids() for m in fake.channel_messages()] == [["j" * 100]]


async def test_a_label_of_81_characters_is_refused(fake: FakeDiscord) -> None:
    body = {"type": 4, "data": {"components": rows(button("join", "L" * 81))}}
    problems = await refused(fake, "POST", "/interactions/1/token-1/callback", body)
    assert "data.components[0].components[0].label" in problems


async def test_26_autocomplete_choices_are_refused(fake: FakeDiscord) -> None:
    choices = [{"name": f"Spot {n}", "value": f"s{n}"} for n in range(26)]
    body = {"type": 8, "data": {"choices": choices}}
    problems = await refused(fake, "POST", "/interactions/1/token-1/callback", body)
    assert "data.choices" in problems and "too long" in problems


async def test_a_sync_with_26_choices_or_an_unknown_locale_is_refused(fake: FakeDiscord) -> None:
    choices = [{"name": f"Game {n}", "value": f"g{n}"} for n in range(26)]
    option = {"type": 3, "name": "game", "description": "Which game", "choices": choices}
    command = {"name": "fc", "description": "The game", "type": 1, "options": [option]}
    path = f"/applications/{fake.app_id}/commands"
    assert "options[0].choices" in await refused(fake, "PUT", path, [command])
    localized = {**command, "options": [], "name_localizations": {"de-AT": "fc"}}
    assert "unknown locale 'de-AT'" in await refused(fake, "PUT", path, [localized])
    assert fake.commands == []


async def test_six_action_rows_are_refused_in_a_multipart_followup(fake: FakeDiscord) -> None:
    """A message with a file goes as multipart: its payload_json is what is checked."""
    body = {"content": "Board", "components": rows(*(button(f"b{n}") for n in range(6)))}
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(body), content_type="application/json")
    form.add_field("files[0]", b"\x89PNG", filename="board.png", content_type="image/png")
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{fake.base}/webhooks/{fake.app_id}/token-1", data=form) as response,
    ):
        assert response.status == 400
    [violation] = schemas.take()
    assert "6 rows (at most 5)" in "; ".join(violation.problems)


async def test_content_over_2000_and_a_link_button_with_a_custom_id_are_refused(
    fake: FakeDiscord,
) -> None:
    link = {"type": 2, "style": 5, "label": "Page", "url": "https://fc.example", "custom_id": "x"}
    body = {"content": "x" * 2001, "components": rows(link)}
    problems = await refused(fake, "POST", f"/channels/{fake.channel_id}/messages", body)
    assert (
        "2001 characters" in problems and "a link button needs a url and no custom_id" in problems
    )
