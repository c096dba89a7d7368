"""The webhook: Telegram's updates POSTed to this process (behind a reverse proxy), each
answered 200 only once it is handled.

Telegram sends an update again until some process answers 200 (python-telegram-bot's own
webhook answers before handling, so a process killed at that moment lost the update). Here a
process claims the update in Redis, handles it, marks it handled, and only then answers: a
process killed while handling one never answered, and the claim it left runs out, so the
next delivery, to any process, handles it. A delivery of an update already handled is
answered 200 and dropped; one that another process is handling now gets 503, and Telegram
tries again later.
"""

from __future__ import annotations

import hmac
import logging
from typing import Final, Protocol
from urllib.parse import urlsplit

from aiohttp import web
from telegram import Update

from bot.config import Settings
from bot.store import Claim, StoreUnavailable

from .app import ALLOWED_UPDATES, TelegramApp
from .contract import PLATFORM

__all__ = ["Deliveries", "Webhook"]

log = logging.getLogger(__name__)
SECRET_HEADER: Final = "X-Telegram-Bot-Api-Secret-Token"


class Deliveries(Protocol):
    """The service's side of an update delivered more than once."""

    async def claim_delivery(self, platform: str, update_id: int) -> Claim: ...

    async def delivered(self, platform: str, update_id: int) -> None: ...


class Webhook:
    """The HTTP server Telegram delivers to; `start`, then `stop`."""

    def __init__(
        self, application: TelegramApp, settings: Settings, deliveries: Deliveries
    ) -> None:
        assert settings.telegram_webhook_url is not None
        self.application, self.settings, self.deliveries = application, settings, deliveries
        secret = settings.telegram_webhook_secret
        self.secret = None if secret is None else secret.get_secret_value().encode()
        self.path = urlsplit(settings.telegram_webhook_url).path or "/"
        self._runner: web.AppRunner | None = None

    @property
    def serving(self) -> bool:
        return self._runner is not None

    async def start(self) -> None:
        """Listen, then tell Telegram where to deliver (setWebhook)."""
        app = web.Application()
        app.router.add_post(self.path, self._handle)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(
            runner, self.settings.telegram_webhook_listen, self.settings.telegram_webhook_port
        )
        try:
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        await self.application.bot.set_webhook(
            url=self.settings.telegram_webhook_url or "",
            secret_token=None if self.secret is None else self.secret.decode(),
            allowed_updates=ALLOWED_UPDATES,
        )
        log.info(
            "Telegram webhook served on %s:%d",
            self.settings.telegram_webhook_listen,
            self.settings.telegram_webhook_port,
        )

    async def stop(self) -> None:
        """Stop taking deliveries; those under way are finished first."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        if self.secret is not None and not hmac.compare_digest(
            request.headers.get(SECRET_HEADER, "").encode(), self.secret
        ):
            return web.Response(status=403)
        try:
            update = Update.de_json(await request.json(), self.application.bot)
        except (ValueError, TypeError, KeyError):
            return web.Response(status=400)
        try:
            claim = await self.deliveries.claim_delivery(PLATFORM, update.update_id)
        except StoreUnavailable:
            return web.Response(status=503)  # Telegram delivers it again later
        if claim == "handled":
            log.info("update %d came again: already handled", update.update_id)
            return web.Response()
        if claim == "busy":
            return web.Response(status=503)
        await self.application.process_update(update)
        try:
            await self.deliveries.delivered(PLATFORM, update.update_id)
        except StoreUnavailable:
            # Its claim runs out instead: a later delivery would handle it a second time.
            log.warning("update %d handled, but could not be marked so", update.update_id)
        return web.Response()
