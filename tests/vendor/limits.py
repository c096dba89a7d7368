"""The few limits the platforms document in prose, not in the vendored descriptions' schema
keywords: each rule cites where it is written. `tests.vendor.schemas` applies them after the
schemas. (Discord's rules for command names and sizes are `command_problems` in
tests/fake_discord.py, which the fake applies to every command sync.)
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

Json = dict[str, Any]
HERE = Path(__file__).parent

# ---------------------------------------------------------------------------------- Discord
DISCORD_MESSAGES = {
    "POST /channels/{channel_id}/messages",
    "PATCH /channels/{channel_id}/messages/{message_id}",
    "POST /webhooks/{webhook_id}/{webhook_token}",
    "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original",
}
DISCORD_CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
DISCORD_COMMANDS = "PUT /applications/{application_id}/commands"
# https://discord.com/developers/docs/resources/message#create-message, "content: Message
# contents (up to 2000 characters)"; the spec's MessageCreateRequest allows 4000 (a user's).
CONTENT_AT_MOST = 2000
# https://discord.com/developers/docs/resources/message#message-object-message-flags:
# IS_COMPONENTS_V2 = 1 << 15; without it a message has the legacy components only.
IS_COMPONENTS_V2 = 1 << 15
# https://discord.com/developers/docs/components/reference#action-row: "Up to 5 action rows"
# in a message without IS_COMPONENTS_V2, each "up to 5 contextually-appropriate components"
# (buttons) or a single select.
ROWS_AT_MOST = 5
BUTTONS_A_ROW = 5
SELECTS = {3, 5, 6, 7, 8}
LINK = 5  # button style: https://discord.com/developers/docs/components/reference#button
PREMIUM = 6


def discord(route: str, body: Any) -> list[str]:
    """The prose rules of a Discord request's body (an empty list if it keeps them)."""
    if route == DISCORD_COMMANDS and isinstance(body, list):
        return [p for c in body if isinstance(c, dict) for p in _localizations(c, "")]
    if not isinstance(body, dict):
        return []
    if route == DISCORD_CALLBACK:
        data = body.get("data")
        return _message(data) if body.get("type") in (4, 7) and isinstance(data, dict) else []
    return _message(body) if route in DISCORD_MESSAGES else []


def _message(body: Json) -> list[str]:
    problems = []
    content = body.get("content")
    if isinstance(content, str) and len(content) > CONTENT_AT_MOST:
        problems.append(f"$.content: {len(content)} characters (at most {CONTENT_AT_MOST})")
    components = [c for c in body.get("components") or [] if isinstance(c, dict)]
    if not int(body.get("flags") or 0) & IS_COMPONENTS_V2:
        if len(components) > ROWS_AT_MOST:
            problems.append(f"$.components: {len(components)} rows (at most {ROWS_AT_MOST})")
        problems += [
            f"$.components[{n}]: a {c.get('type')} outside an action row without IS_COMPONENTS_V2"
            for n, c in enumerate(components)
            if c.get("type") != 1
        ]
    for n, row in enumerate(components):
        inner = [c for c in row.get("components") or [] if isinstance(c, dict)]
        selects = [c for c in inner if c.get("type") in SELECTS]
        if row.get("type") == 1 and selects and len(inner) > 1:
            problems.append(f"$.components[{n}]: a select shares its action row")
        if row.get("type") == 1 and len(inner) > BUTTONS_A_ROW:
            problems.append(f"$.components[{n}]: {len(inner)} buttons (at most {BUTTONS_A_ROW})")
        for m, component in enumerate(inner):
            problems += _component(component, f"$.components[{n}].components[{m}]")
    # https://discord.com/developers/docs/components/reference#anatomy-of-a-component, custom
    # id: "must be unique per component; multiple buttons on the same message must not share
    # the same custom_id".
    ids = [c["custom_id"] for c in _walk(components) if "custom_id" in c]
    problems += [
        f"$.components: custom_id {i!r} twice" for i in sorted(set(ids)) if ids.count(i) > 1
    ]
    return problems


def _walk(components: list[Json]) -> Iterator[Json]:
    for component in components:
        yield component
        yield from _walk([c for c in component.get("components") or [] if isinstance(c, dict)])


def _component(component: Json, where: str) -> list[str]:
    """https://discord.com/developers/docs/components/reference#button: "Non-link and
    non-premium buttons must have a custom_id, and cannot have a url", "Link buttons must
    have a url, and cannot have a custom_id"; and a string select's options: "max_values:
    Maximum number of items that can be chosen" of its at most 25 `options`."""
    problems = []
    if component.get("type") == 2:
        style = component.get("style")
        if style == LINK and (component.get("custom_id") or not component.get("url")):
            problems.append(f"{where}: a link button needs a url and no custom_id")
        if style not in (LINK, PREMIUM) and (not component.get("custom_id") or "url" in component):
            problems.append(f"{where}: a button of style {style} needs a custom_id and no url")
        if not component.get("label") and not component.get("emoji") and style != PREMIUM:
            problems.append(f"{where}: a button needs a label or an emoji")
    if component.get("type") == 3:
        options = component.get("options") or []
        if int(component.get("max_values") or 1) > len(options):
            problems.append(f"{where}: max_values above its {len(options)} options")
        values = [o.get("value") for o in options if isinstance(o, dict)]
        if len(set(values)) != len(values):
            problems.append(f"{where}: an option's value twice")
    return problems


@cache
def _locales() -> frozenset[str]:
    spec = json.loads((HERE / "discord-api-spec" / "openapi.json").read_text())
    enum = spec["components"]["schemas"]["AvailableLocalesEnum"]["oneOf"]
    return frozenset(str(e["const"]) for e in enum)


def _localizations(item: Json, where: str) -> list[str]:
    """https://discord.com/developers/docs/interactions/application-commands#localization:
    the keys of `name_localizations` and `description_localizations` are Discord's locales
    (https://discord.com/developers/docs/reference#locales, the spec's AvailableLocalesEnum)."""
    here = f"{where} {item.get('name', '?')}".strip()
    problems = [
        f"{here}: {key}: unknown locale {locale!r}"
        for key in ("name_localizations", "description_localizations")
        for locale in (item.get(key) or {})
        if locale not in _locales()
    ]
    for inner in [*(item.get("options") or []), *(item.get("choices") or [])]:
        if isinstance(inner, dict):
            problems += _localizations(inner, here)
    return problems


# --------------------------------------------------------------------------------- Telegram
# https://core.telegram.org/bots/api#sendmessage, text: "1-4096 characters after entities
# parsing" (#editmessagetext: the same for the new text); #sendphoto, #sendanimation,
# #senddocument, caption: "0-1024 characters after entities parsing". Telegram counts in
# UTF-16 code units (#messageentity: "Offset in UTF-16 code units"), as the fake always has.
TEXT_AT_MOST = 4096
CAPTION_AT_MOST = 1024
CAPTIONED = {"sendPhoto", "sendAnimation", "sendDocument"}
SENDS = {"sendMessage", "editMessageText", *CAPTIONED}
# https://core.telegram.org/bots/api#inlinekeyboardbutton, callback_data: "1-64 bytes".
CALLBACK_DATA_BYTES = 64
# #answercallbackquery, text: "0-200 characters".
ANSWER_AT_MOST = 200
# #botcommand: command "1-32 characters. Can contain only lowercase English letters, digits
# and underscores", description "1-256 characters"; #setmycommands: "At most 100 commands".
COMMAND = re.compile(r"[a-z0-9_]{1,32}")
COMMAND_DESCRIPTION_AT_MOST = 256
COMMANDS_AT_MOST = 100
# #createforumtopic, name: "Topic name, 1-128 characters".
TOPIC_NAME_AT_MOST = 128
# #formatting-options: the parse modes.
PARSE_MODES = {"HTML", "MarkdownV2", "Markdown"}
# #inlinekeyboardbutton: "Exactly one of the optional fields must be used to specify type of
# the button" (the optional fields that are no type: its style and icon).
BUTTON_KINDS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)


def telegram(method: str, params: Json) -> list[str]:
    """The prose rules of a Bot API call's (decoded) parameters."""
    problems = []
    mode = params.get("parse_mode")
    if mode is not None and mode not in PARSE_MODES:
        problems.append(f"parse_mode {mode!r} is none of {sorted(PARSE_MODES)}")
    if method in SENDS:
        key, low, high = (
            ("text", 1, TEXT_AT_MOST)
            if method in ("sendMessage", "editMessageText")
            else (
                "caption",
                0,
                CAPTION_AT_MOST,
            )
        )
        value = params.get(key)
        if isinstance(value, str):
            visible, errors = (value, []) if mode != "HTML" else parse_html(value)
            problems += [f"{key}: {e}" for e in errors]
            size = utf16_length(visible)
            if not low <= size <= high:
                problems.append(f"{key}: {size} UTF-16 units after parsing ({low}-{high})")
    for n, button in enumerate(buttons(params)):
        problems += [f"reply_markup button {n}: {p}" for p in _button(button, params)]
    if method == "answerCallbackQuery":
        text = params.get("text")
        if isinstance(text, str) and len(text) > ANSWER_AT_MOST:
            problems.append(f"text: {len(text)} characters (at most {ANSWER_AT_MOST})")
    if method == "setMyCommands":
        problems += _commands(params.get("commands"))
    if method == "createForumTopic":
        name = params.get("name")
        if isinstance(name, str) and not 1 <= len(name) <= TOPIC_NAME_AT_MOST:
            problems.append(f"name: {len(name)} characters (1-{TOPIC_NAME_AT_MOST})")
    return problems


def buttons(params: Json) -> Iterator[Json]:
    """The inline keyboard buttons of a call's reply_markup."""
    markup = params.get("reply_markup")
    if isinstance(markup, dict):
        for row in markup.get("inline_keyboard") or []:
            if isinstance(row, list):
                yield from (b for b in row if isinstance(b, dict))


def _button(button: Json, params: Json) -> list[str]:
    problems = []
    kinds = [k for k in BUTTON_KINDS if k in button]
    if len(kinds) != 1:
        problems.append(f"exactly one of the optional fields, not {kinds}")
    data = button.get("callback_data")
    if isinstance(data, str) and not 1 <= len(data.encode()) <= CALLBACK_DATA_BYTES:
        problems.append(f"callback_data of {len(data.encode())} bytes (1-{CALLBACK_DATA_BYTES})")
    url = button.get("url")
    # #inlinekeyboardbutton, url: "HTTP or tg:// URL to be opened when the button is pressed".
    if isinstance(url, str) and not re.match(r"(https?|tg)://", url):
        problems.append(f"url {url!r} is no HTTP or tg:// URL")
    web_app = button.get("web_app")
    if web_app is not None:
        # #inlinekeyboardbutton, web_app: "Available only in private chats between a user and
        # the bot"; private chats' ids are the users' (positive), groups' are negative
        # (#chat: "id: Unique identifier for this chat").
        chat = str(params.get("chat_id", ""))
        if not chat.isdigit():
            problems.append(f"a web_app button in chat {chat} (private chats only)")
        # #webappinfo, url: "An HTTPS URL of a Web App to be opened".
        page = web_app.get("url") if isinstance(web_app, dict) else None
        if not isinstance(page, str) or not page.startswith("https://"):
            problems.append(f"web_app url {page!r} is no HTTPS URL")
    return problems


def _commands(commands: Any) -> list[str]:
    if not isinstance(commands, list):
        return []
    problems = [] if len(commands) <= COMMANDS_AT_MOST else [f"{len(commands)} commands"]
    for command in commands:
        if not isinstance(command, dict):
            continue
        name, text = command.get("command"), command.get("description")
        if not isinstance(name, str) or not COMMAND.fullmatch(name):
            problems.append(f"command {name!r}: 1-32 lowercase letters, digits or _")
        if not isinstance(text, str) or not 1 <= len(text) <= COMMAND_DESCRIPTION_AT_MOST:
            problems.append(f"command {name!r}: description of 1-256 characters")
    return problems


def utf16_length(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


# https://core.telegram.org/bots/api#html-style: the only tags ("Only the tags mentioned above
# are currently supported") and the attributes each may have; "All <, > and & symbols that
# are not a part of a tag or an HTML entity must be replaced with the corresponding HTML
# entities"; "All numerical HTML entities are supported. The API currently supports only the
# following named HTML entities: &lt;, &gt;, &amp; and &quot;".
HTML_TAGS: dict[str, set[str]] = {
    "b": set(),
    "strong": set(),
    "i": set(),
    "em": set(),
    "u": set(),
    "ins": set(),
    "s": set(),
    "strike": set(),
    "del": set(),
    "span": {"class"},  # class="tg-spoiler" only
    "tg-spoiler": set(),
    "a": {"href"},
    "tg-emoji": {"emoji-id"},
    "code": {"class"},  # class="language-..." inside <pre> only
    "pre": set(),
    "blockquote": {"expandable"},
}
_NAMED = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_TAG = re.compile(
    r"<(/?)([a-zA-Z][\w-]*)((?:\s+[\w-]+(?:\s*=\s*(?:\"[^\"]*\"|'[^']*'|[^\s>\"']+))?)*)\s*>"
)
_ATTRIBUTE = re.compile(r"([\w-]+)(?:\s*=\s*(?:\"([^\"]*)\"|'([^']*)'|([^\s>\"']+)))?")
_ENTITY = re.compile(r"&(#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z]+);")


def parse_html(text: str) -> tuple[str, list[str]]:
    """The text a user reads of Telegram HTML, and what Telegram refuses in it ("Can't parse
    entities": a tag or entity it does not support, a tag left open or closed unopened)."""
    visible: list[str] = []
    problems: list[str] = []
    open_tags: list[str] = []
    at = 0
    while at < len(text):
        char = text[at]
        if char == "<":
            tag = _TAG.match(text, at)
            if tag is None:
                problems.append(f"a bare '<' at {at}")
                at += 1
                continue
            closing, name, attributes = tag[1] == "/", tag[2].lower(), tag[3]
            if name not in HTML_TAGS:
                problems.append(f"unsupported tag <{name}>")
            elif closing:
                if not open_tags or open_tags[-1] != name:
                    problems.append(f"</{name}> closes no open <{name}>")
                else:
                    open_tags.pop()
            else:
                problems += _attributes(name, attributes, open_tags)
                open_tags.append(name)
            at = tag.end()
        elif char == "&":
            entity = _ENTITY.match(text, at)
            if entity is None:
                problems.append(f"a bare '&' at {at}")
                visible.append("&")
                at += 1
                continue
            name = entity[1]
            if name.startswith("#"):
                visible.append(html.unescape(entity[0]))
            elif name in _NAMED:
                visible.append(_NAMED[name])
            else:
                problems.append(f"unsupported entity &{name};")
            at = entity.end()
        elif char == ">":
            problems.append(f"a bare '>' at {at}")
            visible.append(char)
            at += 1
        else:
            visible.append(char)
            at += 1
    problems += [f"<{name}> never closed" for name in open_tags]
    return "".join(visible), problems


def _attributes(name: str, attributes: str, open_tags: list[str]) -> list[str]:
    problems = []
    found = {m[1].lower(): m[2] or m[3] or m[4] or "" for m in _ATTRIBUTE.finditer(attributes)}
    for attribute in found.keys() - HTML_TAGS[name]:
        problems.append(f"<{name}> has no attribute {attribute}")
    if name == "span" and found.get("class") != "tg-spoiler":
        problems.append('<span> without class="tg-spoiler"')
    if name == "a" and "href" not in found:
        problems.append("<a> without href")
    if name == "tg-emoji" and "emoji-id" not in found:
        problems.append("<tg-emoji> without emoji-id")
    in_pre = open_tags[-1:] == ["pre"]
    if (
        name == "code"
        and "class" in found
        and not (found["class"].startswith("language-") and in_pre)
    ):
        problems.append('<code class="language-..."> outside <pre>')
    return problems
