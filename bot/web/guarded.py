"""The headers every response carries, and the connection handler that gives them to the
answers aiohttp makes by itself.

A request too long or malformed to route (a 9,000-byte path, a byte that is no character) is
answered by aiohttp's own `RequestHandler.handle_error`, before any route or response hook of
the app runs: that answer echoed the request and named aiohttp's version, without the policy.
`Guarded` answers it like every other response: the status in words, the same headers, one
line in the log at the most.
"""

from __future__ import annotations

import logging
from http import HTTPStatus

from aiohttp import web

__all__ = ["SECURITY", "SERVER", "Guarded"]

log = logging.getLogger(__name__)

SECURITY = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
    "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}
SERVER = "fc-bot"  # no versions for a scanner to match


class Guarded(web.RequestHandler):
    """aiohttp's connection handler, whose own error answers carry the app's headers."""

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        if request.writer.output_size > 0:  # part of an answer went: the connection is broken
            raise ConnectionError("an answer was under way when the request failed")
        try:
            said = f"{status} {HTTPStatus(status).phrase}"
        except ValueError:
            said = str(status)
        if status >= 500:
            log.error("a request failed before its handler: %s", type(exc).__name__)
        else:
            log.debug("a request refused before routing: %s", said)
        response = web.Response(
            status=status, text=said + "\n", headers={**SECURITY, "Server": SERVER}
        )
        response.force_close()
        return response
