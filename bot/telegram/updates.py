"""Where updates come from: long polling (the zero-configuration default, one process at a
time) or a webhook (any number of processes behind one URL).

Only one process may poll a bot (Telegram answers a second `getUpdates` with a conflict), so
polling is held by a lease in Redis: a second process says so and waits, and takes over
polling when the first one stops (at once: a clean stop hands the lease back) or dies (when
its lease runs out). A webhook may be served by many processes; Telegram retries an
update it got no answer to, so each update is handled only the first time it is seen.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from typing import Final, Protocol

from bot.config import Settings
from bot.runtime.ops import Health
from bot.store import Held

from .app import ALLOWED_UPDATES, TelegramApp, build_application
from .contract import GameServiceApi
from .webhook import Deliveries, Webhook

__all__ = ["POLL_RETRY", "Coordinated", "run"]

log = logging.getLogger(__name__)
POLL_JOB: Final = "telegram-poller"
# How often a process that does not poll asks for the lease: a poller that stops cleanly
# gives it back, and another one should be polling within this.
POLL_RETRY: Final = 1.0


class Coordinated(GameServiceApi, Deliveries, Protocol):
    """The service, with what processes agree on through the store."""

    async def hold(self, job: str, holder: str, seconds: float) -> Held | None: ...

    async def let_go(self, job: str, holder: str) -> None: ...


def resumed(held: Held) -> str:
    """The log line of a process that starts polling: after how long, and why so long."""
    if held.idle is None:
        return "polling Telegram for updates"
    why = (
        "the last poller handed its lease back"
        if held.handed_back
        else "the last poller's lease ran out"
    )
    return f"polling Telegram for updates: polling resumed after {held.idle:.1f} s ({why})"


class Poller:
    """Long polling under the lease: poll while holding it (renewed every third of `lease`
    seconds), ask for it every `POLL_RETRY` seconds otherwise, give it back on the way out."""

    def __init__(self, application: TelegramApp, service: Coordinated, lease: float) -> None:
        self.application = application
        self.service = service
        self.lease = lease
        self.holder = uuid.uuid4().hex
        self.polling = False

    async def run(self) -> None:
        told = False
        try:
            while True:
                held = await self._hold()
                if held is not None and not self.polling:
                    await self._start_polling(held)
                elif held is None and self.polling:  # lost it (Redis was away too long)
                    await self._stop_polling()
                elif held is None and not told:
                    log.warning(
                        "another process polls Telegram: this one does not (it still sends "
                        "reminders and turns); set TELEGRAM_WEBHOOK_URL to serve from many"
                    )
                    told = True
                renewal = self.lease / 3
                await asyncio.sleep(renewal if self.polling else min(POLL_RETRY, renewal))
        finally:
            await self._leave()

    async def _hold(self) -> Held | None:
        try:
            return await self.service.hold(POLL_JOB, self.holder, self.lease)
        except Exception:
            log.exception("could not renew the polling lease")
            return None

    async def _start_polling(self, held: Held) -> None:
        updater = self.application.updater
        assert updater is not None
        self.polling = True  # from here on, a stop must stop the updater before letting go
        await updater.start_polling(allowed_updates=ALLOWED_UPDATES)
        log.info(resumed(held))

    async def _stop_polling(self) -> None:
        updater = self.application.updater
        self.polling = False
        if updater is not None and updater.running:
            # Cancels the long poll under way, then confirms the updates already fetched.
            await updater.stop()

    async def _leave(self) -> None:
        """Stop polling, then give the lease back, so another process polls at once rather
        than when the lease runs out. Not before the poll has ended, or two would poll; but
        even if stopping failed, since this process is on its way out."""
        try:
            await self._stop_polling()
        finally:
            with contextlib.suppress(Exception):
                await self.service.let_go(POLL_JOB, self.holder)


async def run(
    settings: Settings,
    service: Coordinated,
    stop: asyncio.Event | None = None,
    health: Health | None = None,
) -> None:
    """Serve Telegram until `stop` is set (or the task is cancelled).

    The lifecycle is spelled out instead of `run_polling()` or `run_webhook()`, which want
    their own event loop while the service's Redis connection lives in the caller's.
    """
    application = build_application(settings, service)
    webhook = (
        None if settings.telegram_webhook_url is None else Webhook(application, settings, service)
    )
    async with application:  # initialize / shutdown
        if application.post_init is not None:
            await application.post_init(application)
        await application.start()
        updater = application.updater
        assert updater is not None
        lease = settings.telegram_poll_lease.total_seconds()
        poller = None if webhook else Poller(application, service, lease)
        if health is not None:
            health.add(
                "telegram",
                lambda: (
                    webhook.serving
                    if webhook is not None
                    else updater.running or (poller is not None and not poller.polling)
                ),
            )
        polling = None if poller is None else asyncio.create_task(poller.run(), name="fc-poller")
        try:
            if webhook is not None:
                await webhook.start()
            await (stop or asyncio.Event()).wait()
        finally:
            if webhook is not None:
                await webhook.stop()
            if polling is not None:
                polling.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await polling
            if updater.running:
                await updater.stop()
            await application.stop()
            if application.post_stop is not None:
                await application.post_stop(application)
