"""Cut the vendored descriptions out of the published ones: only the requests the bot makes,
and every schema they refer to, so a refresh is one command and a small diff to review.

    python -m tests.vendor.extract DISCORD_OPENAPI_JSON TELEGRAM_API_JSON

DISCORD_OPENAPI_JSON is specs/openapi.json of github.com/discord/discord-api-spec,
TELEGRAM_API_JSON is api.json of github.com/PaulSonOfLars/telegram-bot-api-spec; update the
commits in each folder's README.md with them.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent

# The Discord requests the bot makes (discord.py's routes for them), as the spec names them.
DISCORD_OPERATIONS = [
    ("put", "/applications/{application_id}/commands"),
    ("post", "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("post", "/webhooks/{webhook_id}/{webhook_token}"),
    ("patch", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("delete", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("post", "/users/@me/channels"),
    ("post", "/channels/{channel_id}/messages"),
    ("patch", "/channels/{channel_id}/messages/{message_id}"),
    ("post", "/channels/{channel_id}/threads"),
    ("patch", "/channels/{channel_id}"),
    ("delete", "/channels/{channel_id}"),
]

# Schemas no vendored route names but a rule of `limits` uses: localizations' keys.
DISCORD_SCHEMAS = ["AvailableLocalesEnum"]

# The Bot API methods the bot calls (python-telegram-bot's names are the same).
TELEGRAM_METHODS = [
    "getMe",
    "getUpdates",
    "setWebhook",
    "deleteWebhook",
    "setMyCommands",
    "sendMessage",
    "editMessageText",
    "sendPhoto",
    "sendAnimation",
    "sendDocument",
    "answerCallbackQuery",
    "getChatMember",
    "createForumTopic",
]


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"]} if isinstance(node.get("$ref"), str) else set()
        for value in node.values():
            found |= _refs(value)
        return found
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node)) if node else set()
    return set()


def discord(spec: dict[str, Any]) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for method, path in DISCORD_OPERATIONS:
        item = spec["paths"][path]
        kept = paths.setdefault(path, {k: v for k, v in item.items() if k == "parameters"})
        operation = item[method]
        kept[method] = {
            k: operation[k] for k in ("operationId", "parameters", "requestBody") if k in operation
        }
    schemas = spec["components"]["schemas"]
    wanted: set[str] = set()
    todo = _refs(paths) | {f"#/components/schemas/{name}" for name in DISCORD_SCHEMAS}
    while todo:
        name = todo.pop().removeprefix("#/components/schemas/")
        if name not in wanted:
            wanted.add(name)
            todo |= _refs(schemas[name])
    return {
        "openapi": spec["openapi"],
        "info": spec["info"],
        "paths": paths,
        "components": {"schemas": {name: schemas[name] for name in sorted(wanted)}},
    }


def _type_names(types: list[str]) -> set[str]:
    return {re.sub(r"^(Array of )+", "", t) for t in types}


def telegram(spec: dict[str, Any]) -> dict[str, Any]:
    methods = {name: spec["methods"][name] for name in TELEGRAM_METHODS}
    wanted: set[str] = set()
    todo: set[str] = set()
    for method in methods.values():
        for field in method.get("fields", []):
            todo |= _type_names(field["types"])
    while todo:
        name = todo.pop()
        if name in wanted or name not in spec["types"]:
            continue  # a scalar: Integer, String, Boolean, Float, True
        wanted.add(name)
        kind = spec["types"][name]
        todo |= set(kind.get("subtypes", []))
        for field in kind.get("fields", []):
            todo |= _type_names(field["types"])
    return {
        "version": spec["version"],
        "release_date": spec["release_date"],
        "changelog": spec["changelog"],
        "methods": methods,
        "types": {name: spec["types"][name] for name in sorted(wanted)},
    }


def main(discord_json: str, telegram_json: str) -> None:
    cut = discord(json.loads(Path(discord_json).read_text()))
    out = HERE / "discord-api-spec" / "openapi.json"
    out.write_text(json.dumps(cut, indent=1, ensure_ascii=False) + "\n")
    cut = telegram(json.loads(Path(telegram_json).read_text()))
    out = HERE / "telegram-bot-api-spec" / "api.json"
    out.write_text(json.dumps(cut, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:3])
