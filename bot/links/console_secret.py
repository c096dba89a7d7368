"""The console's `WEB_SECRET` when none is set: made once, kept in the data folder.

The console serves its tables' pages and signs its players' personal links with a secret of its
own. A new one each start ended every link at each restart ("This link no longer plays for
you"); kept beside the data, readable by its owner only, the links live as long as the data
(each until `WEB_LINK_TTL`), and deleting the file ends them all.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

__all__ = ["FILE", "console_secret"]

FILE = "web-secret"


def console_secret(data_dir: Path) -> str:
    """The secret kept in `data_dir`, made (owner-only) on first use."""
    path = data_dir / FILE
    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        made = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        kept = path.read_text().strip()
        if kept:
            return kept
        made = os.open(path, os.O_WRONLY | os.O_TRUNC)  # an empty file: made anew
    secret = secrets.token_hex(32)
    with os.fdopen(made, "w") as file:
        file.write(secret + "\n")
    os.chmod(path, 0o600)
    return secret
