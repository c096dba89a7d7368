"""What the held attacks of tests/security send, made here rather than borrowed from the bot,
so a test cannot pass because the attack and the defence share a mistake: raw HTTP requests
(no client tidies a path before it leaves), the escape forms tried on the paths, Telegram
Mini App launch data signed as Telegram documents it, and reading a response's policy."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, urlsplit

REPO = Path(__file__).resolve().parents[2]
STATIC = REPO / "bot" / "web" / "static"

# Files outside bot/web/static that an escape would reach, each from where it aims: the
# static folder is bot/web/static, so `..` once is bot/web, twice bot, thrice the repository.
OUTSIDE = (
    REPO / "bot" / "web" / "server.py",
    REPO / "bot" / "config.py",
    REPO / "pyproject.toml",
    REPO / "README.md",
    Path("/etc/passwd"),
)

# Request targets that try to leave the static folder or send the browser elsewhere, written
# as they go on the wire: dots and slashes plain, percent-encoded, double-encoded, overlong,
# backslashed, doubled slashes, and escapes through the table and replay routes.
TRAVERSALS = (
    "/static/../server.py",
    "/static/../../config.py",
    "/static/../../../pyproject.toml",
    "/static/../../../README.md",
    "/static/./../../config.py",
    "/static/vendor/../../server.py",
    "/static/vendor/../../../pyproject.toml",
    "/static/../../../../../../../../etc/passwd",
    "/static/%2e%2e/server.py",
    "/static/%2e%2e/%2e%2e/config.py",
    "/static/%2e%2e/%2e%2e/%2e%2e/pyproject.toml",
    "/static/%2E%2E/%2E%2E/%2E%2E/README.md",
    "/static/.%2e/.%2e/config.py",
    "/static/..%2fserver.py",
    "/static/..%2f..%2fconfig.py",
    "/static/..%2f..%2f..%2fREADME.md",
    "/static/..%2F..%2F..%2Fpyproject.toml",
    "/static/%2e%2e%2f%2e%2e%2f%2e%2e%2fpyproject.toml",
    "/static/vendor%2f..%2f..%2fserver.py",
    "/static/..\\server.py",
    "/static/..\\..\\..\\pyproject.toml",
    "/static/..%5c..%5c..%5cpyproject.toml",
    "/static/..%5C..%5C..%5CREADME.md",
    "/static/%252e%252e/%252e%252e/%252e%252e/pyproject.toml",
    "/static/..%252f..%252f..%252fpyproject.toml",
    "/static/%252e%252e%252f%252e%252e%252fconfig.py",
    "/static/%c0%ae%c0%ae/%c0%ae%c0%ae/config.py",
    "/static/%c0%af..%c0%af..%c0%afconfig.py",
    "/static/....//....//....//pyproject.toml",
    "/static/.../.../pyproject.toml",
    "/static//etc/passwd",
    "/static/%2fetc%2fpasswd",
    "/static/%2Fetc/passwd",
    "/static/\\etc\\passwd",
    "/static/",
    "/static/vendor/",
    "/static/..",
    "/static/%2e%2e",
    "//evil.example/",
    "//evil.example/static/table.css",
    "///evil.example/",
    "/\\evil.example/",
    "/\\\\evil.example/",
    "/%5cevil.example/",
    "/%2f%2fevil.example/",
    "/%2F%2Fevil.example/%2e%2e",
    "/t/console/..%2f..%2f/x",
    "/t/console/..%2f..%2f..%2fstatic/table.css",
    "/t/%2e%2e/%2e%2e/%2e%2e",
    "/t/console/room1/..%2f..%2f..%2fpyproject.toml",
    "/t/console/room1/x/..%2f..%2fstate",
    "/r/console/%2e%2e/%2e%2e",
    "/r/console/..%2f..%2f/x/frame/..%2f..%2f0.png",
    "/top/..%2f..%2fpyproject.toml",
    "/p/console/..%2f..%2f..%2fREADME.md",
)


@dataclass(frozen=True)
class Raw:
    """A response as it came over the wire: no client followed, decoded or tidied it."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str | None:
        for key, value in self.headers:
            if key.lower() == name.lower():
                return value
        return None


def _unchunked(body: bytes) -> bytes:
    out = b""
    while body:
        size_line, _, body = body.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out, body = out + body[:size], body[size + 2 :]
    return out


async def raw_request(
    address: str,
    target: str,
    *,
    method: str = "GET",
    headers: dict[str, str] | None = None,
    body: bytes = b"",
) -> Raw:
    """`target` sent byte for byte as the request line's path, over a socket of our own: an
    HTTP client would resolve `..` and re-encode the path before the server saw it."""
    where = urlsplit(address)
    assert where.hostname is not None and where.port is not None
    reader, writer = await asyncio.open_connection(where.hostname, where.port)
    sent = {"Host": where.netloc, "Connection": "close", **(headers or {})}
    if body or method == "POST":
        sent["Content-Length"] = str(len(body))
    head = f"{method} {target} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in sent.items())
    try:
        writer.write(head.encode("latin-1") + b"\r\n" + body)
        await writer.drain()
        async with asyncio.timeout(10):
            answer = await reader.read()
    finally:
        writer.close()
    top, _, content = answer.partition(b"\r\n\r\n")
    status_line, *lines = top.decode("latin-1").split("\r\n")
    got = [(k.strip(), v.strip()) for k, _, v in (line.partition(":") for line in lines)]
    raw = Raw(int(status_line.split()[1]), got, content)
    if (raw.header("Transfer-Encoding") or "").lower() == "chunked":
        return Raw(raw.status, got, _unchunked(content))
    return raw


def outside_markers() -> list[bytes]:
    """A line from each file outside the static folder that an escape would serve."""
    markers = []
    for path in OUTSIDE:
        lines = [x for x in path.read_bytes().splitlines() if len(x.strip()) > 12]
        markers.append(lines[0].strip())
    return markers


def init_data(bot_token: str, fields: list[tuple[str, str]]) -> str:
    """Mini App launch data as Telegram makes it (core.telegram.org/bots/webapps, "Validating
    data received via the Mini App"): secret_key = HMAC_SHA256(key="WebAppData",
    msg=bot_token); hash = hex HMAC_SHA256(key=secret_key, msg=data_check_string), where
    data_check_string is every field but `hash` as `key=<value>`, sorted by key, joined by
    "\\n". Fields go out percent-encoded in the order given, the hash last, as Telegram sends
    them."""
    data_check_string = "\n".join(f"{k}={v}" for k, v in sorted(fields, key=lambda kv: kv[0]))
    secret_key = hmac.new(b"WebAppData", bot_token.encode(), hashlib.sha256).digest()
    digest = hmac.new(secret_key, data_check_string.encode(), hashlib.sha256).hexdigest()
    return "&".join(f"{k}={quote(v, safe='')}" for k, v in [*fields, ("hash", digest)])


def replaced(query: str, key: str, value: str) -> str:
    """Signed launch data with one field changed after signing, its hash kept."""
    parts = [part.partition("=") for part in query.split("&")]
    assert key in [k for k, _, _ in parts]
    return "&".join(f"{k}={quote(value, safe='') if k == key else v}" for k, _, v in parts)


def telegram_user(user_id: int, first_name: str) -> str:
    """The `user` field as Telegram writes it: compact JSON with its slashes escaped."""
    person = {
        "id": user_id,
        "first_name": first_name,
        "last_name": "Øster",
        "username": first_name.lower(),
        "language_code": "en",
        "is_premium": True,
        "allows_write_to_pm": True,
        "photo_url": f"https://t.me/i/userpic/320/{first_name.lower()}.svg",
    }
    return json.dumps(person, separators=(",", ":"), ensure_ascii=False).replace("/", "\\/")


def launch_fields(user: str, auth_date: float) -> list[tuple[str, str]]:
    """A private chat's launch, the fields in Telegram's order."""
    return [
        ("query_id", "AAHdF6IQAAAAAN0XohDhrOrc"),
        ("user", user),
        ("auth_date", str(int(auth_date))),
        ("signature", "mB5YSn8cZ8T8OoGzVc_Xkq0vOuR6M5DuJQW3t2nq8sv0q0qyNgYQb7uwMX1JnJ1g"),
    ]


def policy(header: str) -> dict[str, list[str]]:
    """A Content-Security-Policy header as its directives and their sources."""
    directives: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *sources = part.split()
        directives[name.lower()] = sources
    return directives
