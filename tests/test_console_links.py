"""The console's personal links outlive a restart: its secret is kept in the data folder,
for its owner's eyes only, as the README says."""

from __future__ import annotations

import re
import stat
import urllib.request
from pathlib import Path

from bot.links.console_secret import FILE, console_secret
from bot.local_redis.server import free_port
from tests.test_bot_process import Bot


def test_the_secret_is_made_once_and_readable_by_its_owner_only(tmp_path: Path) -> None:
    first = console_secret(tmp_path / "data")
    assert len(first) == 64 and console_secret(tmp_path / "data") == first
    kept = tmp_path / "data" / FILE
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    kept.write_text("")  # emptied by hand: made anew, not an empty secret
    assert console_secret(tmp_path / "data") not in ("", first)


def _seat(port: int, path: str, token: str) -> int:
    asked = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}/seat", headers={"Authorization": f"Bearer {token}"}
    )
    try:
        with urllib.request.urlopen(asked, timeout=10) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return error.code


def test_a_personal_link_plays_on_after_the_console_restarts(tmp_path: Path) -> None:
    data, port = tmp_path / "data", free_port()
    first = Bot(data, WEB_PORT=str(port))
    for line in ("ann new", "bob join", "ann start"):
        first.type(line)
    first.wait_for("Play on the board")
    told = next(line for line in first.said if "#seat=" in line)
    link = re.search(r"http://127\.0\.0\.1:\d+(/t/\S+)#seat=(\S+)", told)
    assert link is not None
    assert _seat(port, link[1], link[2]) == 200
    first.type("quit")
    assert first.process.wait(timeout=30) == 0
    again = Bot(data, WEB_PORT=str(port))
    again.wait_for("Forbidden City in the terminal")
    assert _seat(port, link[1], link[2]) == 200  # the same link, after the restart
    again.type("quit")
    assert again.process.wait(timeout=30) == 0
