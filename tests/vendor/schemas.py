"""The platforms' published descriptions as the fakes' oracle: every request body the bot sends
is checked against them, and what the real platform would refuse is a `Violation`.

Discord's OpenAPI 3.1 schemas are JSON Schema 2020-12, checked with `jsonschema` as they are.
The Telegram description lists methods and types (name, types, required): it is turned into
JSON Schema here, and the form fields python-telegram-bot posts are decoded by their declared
types first (JSON for objects, arrays, integers, booleans). What both document only in prose
is in `tests.vendor.limits`.

A fake that finds a violation answers 400 as the platform would and `record`s it; the
`refused_payloads` fixture (tests/conftest.py) fails any test that leaves one, so a bot that
swallows the 400 cannot hide it. A test that sends a bad payload on purpose `take`s them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match, relevance

from tests.vendor import limits

HERE = Path(__file__).parent
Json = dict[str, Any]


@dataclass(frozen=True)
class Violation:
    """A request the platform would refuse: which one, and why."""

    platform: str  # "discord" or "telegram"
    request: str  # "POST /channels/{channel_id}/messages", "sendMessage"
    problems: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.platform} {self.request}: " + "; ".join(self.problems)


_violations: list[Violation] = []


def record(platform: str, request: str, problems: list[str]) -> None:
    _violations.append(Violation(platform, request, tuple(problems)))


def take() -> list[Violation]:
    """The violations recorded since the last `take`, forgotten here."""
    found = list(_violations)
    _violations.clear()
    return found


# ---------------------------------------------------------------------------------- Discord
@cache
def _discord_spec() -> Json:
    spec: Json = json.loads((HERE / "discord-api-spec" / "openapi.json").read_text())
    # The one place the description is stricter than Discord: it types a snowflake as a
    # string, as Discord returns them ("always returned as strings in the HTTP API",
    # discord.com/developers/docs/reference#snowflakes), but Discord takes integers too, as
    # discord.py has always sent them (allowed_mentions' users and roles, among others).
    snowflake = spec["components"]["schemas"]["SnowflakeType"]
    spec["components"]["schemas"]["SnowflakeType"] = {
        "anyOf": [snowflake, {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}]
    }
    return spec


@cache
def _discord_routes() -> list[tuple[str, re.Pattern[str], str, Draft202012Validator | None]]:
    """(method, path pattern, the spec's path, the body's validator) of each vendored route."""
    spec = _discord_spec()
    routes = []
    for path, item in spec["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$")
        for method, operation in item.items():
            if method == "parameters":
                continue
            content = operation.get("requestBody", {}).get("content", {})
            schema = content.get("application/json", {}).get("schema")
            validator = None
            if schema is not None:
                # The body's schema, with the components its $refs ("#/components/...") name.
                root = {**schema, "components": spec["components"]}
                validator = Draft202012Validator(root)
            routes.append((method.upper(), pattern, path, validator))
    # Literal segments first: /webhooks/{id}/{token}/messages/@original before /webhooks/...
    routes.sort(key=lambda r: -len(r[2]))
    return routes


def _discord_route_index(method: str, path: str) -> int | None:
    """Which vendored route (its place in `_discord_routes`) a request is, if any."""
    for index, (verb, pattern, _spec_path, _validator) in enumerate(_discord_routes()):
        if verb == method and pattern.match(path):
            return index
    return None


def discord_route(method: str, path: str) -> str | None:
    """The spec's name of a request ("POST /channels/{channel_id}/messages"), if vendored."""
    index = _discord_route_index(method, path)
    if index is None:
        return None
    verb, _pattern, spec_path, _validator = _discord_routes()[index]
    return f"{verb} {spec_path}"


def discord_problems(method: str, path: str, body: Any) -> list[str]:
    """What Discord refuses in this request's JSON body (or multipart `payload_json`): its
    schema in the OpenAPI description, then the rules its documentation states in prose."""
    index = _discord_route_index(method, path)
    return [] if index is None else list(_discord_verdict(index, _canonical(body)))


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@lru_cache(maxsize=4096)
def _discord_verdict(route: int, body: str) -> tuple[str, ...]:
    """The problems of one body on one route, kept: a bot sends the same body many times (300
    autocompletes with the same spots), and the verdict depends on nothing else, while
    validating against the description's unions costs milliseconds, in the tests' own time."""
    verb, _pattern, spec_path, validator = _discord_routes()[route]
    instance = json.loads(body)
    problems = [] if validator is None else _schema_problems(validator, instance)
    return (*problems, *limits.discord(f"{verb} {spec_path}", instance))


def _schema_problems(validator: Draft202012Validator, instance: Any) -> list[str]:
    return [_describe(error) for error in validator.iter_errors(instance)]


def _describe(error: ValidationError) -> str:
    """The most specific reason: inside a oneOf/anyOf, the variant that came closest."""
    while error.context:
        picked = _discriminated(error) or best_match(error.context)
        if picked is None:
            break
        error = picked
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return f"${where}: {error.message}"


def _discriminated(error: ValidationError) -> ValidationError | None:
    """For a union of objects told apart by their `type` (components, options, callbacks),
    the errors of the variant whose `type` the instance has, not of the others."""
    if not isinstance(error.instance, dict):
        return None
    variants: dict[object, list[ValidationError]] = {}
    for inner in error.context or []:
        variants.setdefault(inner.relative_schema_path[0], []).append(inner)
    for errors in variants.values():
        wrong_kind = any(
            list(e.relative_path)[:1] == ["type"] or (not e.relative_path and e.validator == "type")
            for e in errors
        )
        if not wrong_kind:  # the first of its errors; `_describe` goes on inside it
            return max(errors, key=relevance)
    return None


# --------------------------------------------------------------------------------- Telegram
_SCALARS: dict[str, Json] = {
    "Integer": {"type": "integer"},
    "Float": {"type": "number"},
    "String": {"type": "string"},
    "Boolean": {"type": "boolean"},
    "True": {"const": True},
}


@cache
def _telegram_spec() -> Json:
    spec: Json = json.loads((HERE / "telegram-bot-api-spec" / "api.json").read_text())
    return spec


def _field_schema(types: list[str]) -> Json:
    """JSON Schema of a field declared with these Bot API types ("Array of X", a type, ...)."""
    variants: list[Json] = []
    for name in types:
        depth = 0
        while name.startswith("Array of "):
            name, depth = name.removeprefix("Array of "), depth + 1
        schema = _SCALARS.get(name) or {"$ref": f"#/$defs/{name}"}
        for _ in range(depth):
            schema = {"type": "array", "items": schema}
        variants.append(schema)
    return variants[0] if len(variants) == 1 else {"anyOf": variants}


def _object_schema(fields: list[Json]) -> Json:
    return {
        "type": "object",
        "properties": {f["name"]: _field_schema(f["types"]) for f in fields},
        "required": [f["name"] for f in fields if f["required"]],
    }


@cache
def _telegram_validators() -> dict[str, Draft202012Validator]:
    spec = _telegram_spec()
    defs: Json = {}
    for name, kind in spec["types"].items():
        if kind.get("subtypes"):
            defs[name] = {"anyOf": [{"$ref": f"#/$defs/{s}"} for s in kind["subtypes"]]}
        elif name == "InputFile":
            defs[name] = {}  # a file part of the multipart form: its bytes, not JSON
        else:
            defs[name] = _object_schema(kind.get("fields", []))
    return {
        name: Draft202012Validator({**_object_schema(method.get("fields", [])), "$defs": defs})
        for name, method in spec["methods"].items()
    }


def telegram_params(method: str, form: dict[str, str], files: dict[str, bytes]) -> Json:
    """The form python-telegram-bot posts, decoded by the types the description declares:
    a field that may be a String stays text, the others are JSON (objects, arrays, numbers,
    booleans); an uploaded file stands for its field (an InputFile)."""
    fields = {f["name"]: f["types"] for f in _telegram_spec()["methods"][method].get("fields", [])}
    params: Json = {}
    for name, value in form.items():
        if "String" in fields.get(name, ["String"]):
            params[name] = value
            continue
        try:
            params[name] = json.loads(value)
        except ValueError:
            params[name] = value  # not JSON: the schema then says what it should have been
    for name in files:
        params.setdefault(name, {"file": name})
    return params


def telegram_problems(method: str, form: dict[str, str], files: dict[str, bytes]) -> list[str]:
    """What Telegram refuses in this call: the description's types and required fields, then
    the limits it states in prose. An unvendored method is not checked (the fake 404s it)."""
    if method not in _telegram_validators():
        return []
    return list(_telegram_verdict(method, _canonical(form), tuple(sorted(files))))


@lru_cache(maxsize=4096)
def _telegram_verdict(method: str, form: str, files: tuple[str, ...]) -> tuple[str, ...]:
    """One call's problems, kept as Discord's are (`_discord_verdict`); a file's bytes are
    not checked, only that it is there."""
    params = telegram_params(method, json.loads(form), dict.fromkeys(files, b""))
    return (
        *_schema_problems(_telegram_validators()[method], params),
        *limits.telegram(method, params),
    )
