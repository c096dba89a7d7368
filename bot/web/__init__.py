"""The web adapter: each table's live page, served by every bot process (`serve`).

Like Discord and Telegram it only translates: requests become `GameService` calls, and what
the service returns becomes HTML, JSON, images and server-sent events. It holds nothing of
its own: a table's page reads the table from Redis, and learns of a move made by any process
from the changes the store publishes (`hub`).
"""

from .server import serve

__all__ = ["serve"]
