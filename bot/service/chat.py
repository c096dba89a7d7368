"""Chat settings and private messages: the chat's language, turn notices on or off, and what
the bot does when a platform will not let it write to someone privately."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import timedelta

from ..exchange.actor import Actor
from ..exchange.refused import Refused
from ..exchange.replies import Message, Reply, mention
from ..games import MODULES
from ..store import AlreadyExists, Channel, Conflict, NotFound, StoreUnavailable
from ..text.i18n import LANGUAGE_NAMES, LANGUAGES, tr
from .context import Context, user_names
from .schedule import DEADLINE_KINDS

# After a platform refuses a private message to someone, the bot stops trying for this long,
# or until they use the bot privately or turn notices on again.
DMS_RETRY_AFTER = timedelta(days=1)
log = logging.getLogger(__name__)


async def lang(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """`/fc lang [code]`: shows or sets the chat's language."""
    channel = Channel.of(actor.platform, actor.channel_id)
    if not args:
        options = ", ".join(f"{code} ({LANGUAGE_NAMES[code]})" for code in LANGUAGES)
        text = tr(
            lang,
            "Language: {lang}. Choose with /fc lang <code>: {options}.",
            lang=lang,
            options=options,
        )
        return Reply(private=[Message(text)])
    code = args[0].lower()
    if code not in LANGUAGES:
        raise Refused(
            tr(lang, "Unknown language “{code}”. Choose en, fr, it or de.", code=code[:10])
        )
    await ctx.store.set_chat_language(channel, code)
    return Reply(public=[Message(tr(code, "This chat now plays in English."))])


async def notify(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """`/fc notify on|off`: private turn messages for the actor in this chat."""
    if not args or args[0].lower() not in ("on", "off"):
        raise Refused(tr(lang, "Use /fc notify on or /fc notify off."))
    enabled = args[0].lower() == "on"
    await ctx.store.set_notify(Channel.of(actor.platform, actor.channel_id), actor.user_id, enabled)
    if enabled:  # perhaps they opened their DMs: try again
        await ctx.store.clear_dms_closed(actor.platform, actor.user_id)
    text = (
        tr(lang, "You will get a private message when it is your turn here.")
        if enabled
        else tr(lang, "No more private turn messages for you here. /fc hand shows your tile.")
    )
    return Reply(private=[Message(text)])


async def dm_failed(
    ctx: Context, platform: str, channel_id: str, user_id: str, link: str | None = None
) -> Reply:
    """A turn notice could not reach `user_id` privately: tell the channel, once per game.
    `link` opens a private chat with the bot, where the platform has one (Telegram)."""
    channel = Channel.of(platform, channel_id)
    for _ in range(3):
        try:
            loaded = await ctx.load(channel)
            if loaded is None or user_id in loaded.table.hinted:
                return Reply()
            loaded.table.hinted.append(user_id)
            await ctx.save(loaded)
        except Conflict:
            continue
        except (StoreUnavailable, Refused, NotFound):
            return Reply()
        language = await ctx.channel_language(channel)
        text = _hint(language, platform, user_id, tr(language, loaded.table.module.secret), link)
        return Reply(public=[Message(text, names=user_names(loaded.table))])
    return Reply()


def _hint(lang: str, platform: str, user_id: str, secret: str, link: str | None) -> str:
    """How to let the bot write privately, on this platform."""
    if platform == "telegram" and link:
        return tr(
            lang,
            "{who}, I cannot write to you privately. Open {link} and press Start, so I "
            "can send you {secret} and tell you when it is your turn.",
            who=mention(user_id),
            link=link,
            secret=secret,
        )
    if platform == "telegram":
        return tr(
            lang,
            "{who}, I cannot write to you privately. Open a private chat with me and "
            "press Start, so I can send you {secret} and tell you when it is your turn.",
            who=mention(user_id),
            secret=secret,
        )
    return tr(
        lang,
        "{who}, I cannot send you direct messages. Allow direct messages from "
        "server members, or use /fc hand here to see {secret} when it is your turn.",
        who=mention(user_id),
        secret=secret,
    )


async def dms_closed(ctx: Context, platform: str, user_id: str) -> bool:
    """Whether `user_id` refused private messages lately: adapters then send them none
    (a turn notice goes to `dm_failed` as if refused) instead of asking the platform again."""
    try:
        since = await ctx.store.dms_closed_at(platform, user_id)
    except StoreUnavailable:
        return False
    return since is not None and ctx.clock() - since < DMS_RETRY_AFTER.total_seconds()


async def dms_refused(ctx: Context, platform: str, user_id: str) -> None:
    """The platform refused a private message to `user_id` (DMs closed, bot blocked)."""
    with contextlib.suppress(StoreUnavailable):
        await ctx.store.set_dms_closed(platform, user_id, ctx.clock(), keep=DMS_RETRY_AFTER)


async def dms_open(ctx: Context, actor: Actor) -> None:
    """Someone using the bot in a private chat may be written to there again."""
    if actor.private:
        with contextlib.suppress(StoreUnavailable):
            await ctx.store.clear_dms_closed(actor.platform, actor.user_id)


async def moved(ctx: Context, platform: str, old_id: str, new_id: str) -> bool:
    """A chat got a new id (a Telegram group upgraded to a supergroup): its table, settings,
    deadlines and players' index go with it, and its history and leaderboard follow. Safe to
    call again, and from several processes; an outage is waited out a little, since nothing
    would ask again: five tries, a pause between each and the next (none after the last).
    Whether a table moved."""
    old, new = Channel.of(platform, old_id), Channel.of(platform, new_id)
    for attempt in range(5):
        if attempt:
            await asyncio.sleep(0.5 * attempt)
        try:
            await ctx.store.move_results(old, new)
            await ctx.store.merge_community(list(MODULES), str(old), str(new))
            return await ctx.store.move_channel(old, new) is not None
        except StoreUnavailable:
            continue
        except AlreadyExists:
            log.error("%s moved to %s, which has a table of its own: kept apart", old, new)
            return False
    log.error("%s moved to %s while the store was away: its table stays at the old id", old, new)
    return False


async def closed(ctx: Context, platform: str, channel_id: str) -> Reply:
    """A table's place was closed or deleted under it (a forum topic, a thread): nobody can
    play there any more, so its table closes at once and none of its deadlines fires again.
    Kept results stay (only a finished game has one). The reply is for the place around it
    (the forum's General topic, the thread's channel: its `channel_id`, unset if the table
    knows none), or empty if no table was there."""
    channel = Channel.of(platform, channel_id)
    for _ in range(5):
        loaded = await ctx.load(channel)
        if loaded is None:
            return Reply()
        try:
            await ctx.store.archive(channel, loaded.record.version, cancel_deadlines=DEADLINE_KINDS)
        except Conflict:  # a move was saved meanwhile: close the newer table
            continue
        except NotFound:
            return Reply()
        table = loaded.table
        lang = await ctx.channel_language(channel)
        text = tr(
            lang,
            "The {game} table of {place} is closed: that place was closed or deleted.",
            game=tr(lang, table.module.title),
            place=table.place or channel_id,
        )
        log.info("%s was closed under its table: the table is closed", channel)
        return Reply(public=[Message(text)], channel_id=table.parent or None)
    log.error("%s was closed under its table, which kept changing: left open", channel)
    return Reply()
