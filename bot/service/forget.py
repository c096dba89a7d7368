"""`/fc forget me`: a person's name and id removed from every kept result, rating, board,
history and ended game's archive, after they confirm with a button, and then from Redis' files
on disk. The games stay, with an anonymous seat; others' ratings keep what those games taught
them, and the channel's final table still shows for the others."""

from __future__ import annotations

import logging

from ..exchange.actor import Actor
from ..exchange.buttons import FORGET, user_mark
from ..exchange.refused import Refused
from ..exchange.replies import Button, Message, Reply
from ..games import MODULES
from ..records.finished import Result
from ..records.table import Seat, Table
from ..store.forgetting import Archived
from ..text.i18n import tr
from .context import Context
from .results import sweep
from .standings import shown_name

log = logging.getLogger(__name__)

# How long the person waits for Redis to write its files again: a rewrite takes seconds a GB,
# and a Discord answer must come within 15 minutes.
FILES_PATIENCE = 300.0
# Reads of the archives: one moved to another chat meanwhile is found again on the next.
ARCHIVE_PASSES = 3
ANONYMOUS_ID = "~anon{n}"  # no platform user has it, like a computer player's id


async def forget(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """`/fc forget me`: asks for a confirmation, privately."""
    if [a.lower() for a in args] != ["me"]:
        raise Refused(tr(lang, "Write /fc forget me to have your results forgotten."))
    data = FORGET.encode(actor.channel_id, 0, user_mark(actor.user_id))
    text = tr(
        lang,
        "Forget you? Your name and id are removed from every finished game, rating, "
        "leaderboard and history; the games stay, with an anonymous seat. This cannot be "
        "undone.",
    )
    buttons = [[Button(tr(lang, "Yes, forget me"), data, "danger")]]
    return Reply(private=[Message(text, buttons=buttons)])


async def confirmed(ctx: Context, actor: Actor, user_id: str, lang: str) -> Reply:
    """The confirmation button, pressed by the person it was made for. They are told it is
    done once Redis has written its files again, or that the files may still hold them."""
    if user_id != user_mark(actor.user_id):
        raise Refused(tr(lang, "Only the person who asked can confirm this."))
    if await ctx.store.user_games(actor.platform, actor.user_id):
        raise Refused(tr(lang, "Finish or leave your games under way first, then ask again."))
    await sweep(ctx)  # every result of theirs is in their history before it is rewritten
    player = f"{actor.platform}:{actor.user_id}"
    refs = await ctx.store.history(player, None)
    for ref, text in zip(refs, await ctx.store.results(refs), strict=True):
        if text is None:
            continue
        result = Result.model_validate_json(text)
        for seat in result.seats:
            if seat.user_id == actor.user_id:
                seat.user_id, seat.name = None, ""
        await ctx.store.rewrite_result(ref, result.model_dump_json())
    await ctx.store.forget_player(player, list(MODULES))
    await _archives(ctx, actor)
    await ctx.store.forget_user(actor.platform, actor.user_id)
    if await ctx.store.rewrite_files(FILES_PATIENCE):
        return Reply(private=[Message(tr(lang, "Done: you are forgotten."))])
    log.error("a person was forgotten, but Redis' files may still hold their name and id")
    text = tr(
        lang,
        "Done: you are forgotten. The database could not rewrite its files just now, so "
        "they may still hold your name until they are next rewritten; the bot's operator "
        "has been told.",
    )
    return Reply(private=[Message(text)])


async def _archives(ctx: Context, actor: Actor) -> None:
    """Each ended game's archive the person sat at, with their seat anonymous; one whose
    table cannot be read (or that keeps changing under us) is deleted instead."""
    for attempt in range(ARCHIVE_PASSES + 1):
        found = await ctx.store.archives_of(actor.platform, actor.user_id)
        for archived in found:
            if attempt == ARCHIVE_PASSES:
                await ctx.store.drop_archive(archived)
                continue
            name = shown_name("", await ctx.channel_language(archived.channel))
            table = anonymous(archived, actor.user_id, name)
            if table is None:
                await ctx.store.drop_archive(archived)
                continue
            people = [p for p in archived.players if p != actor.user_id]
            creator = table.creator if archived.creator == actor.user_id else archived.creator
            await ctx.store.rewrite_archive(archived, table.model_dump_json(), people, creator)
        if not found:
            return


def anonymous(archived: Archived, user_id: str, name: str) -> Table | None:
    """The archived table with the person's seat made anonymous: a made-up id, the name
    forgotten people have everywhere, and no mention (a seat no person plays now is never
    mentioned); None if the table cannot be read."""
    try:
        table = Table.model_validate_json(archived.data)
    except ValueError:
        return None
    made_up = ANONYMOUS_ID.format(n=0)  # who opened the table, if they left it before
    for index, seat in enumerate(table.seats):
        if seat.user_id == user_id and seat.bot is None:
            made_up = ANONYMOUS_ID.format(n=index + 1)
            table.seats[index] = Seat(user_id=made_up, name=name, away=True)
    if table.creator == user_id:
        table.creator = made_up
    table.hinted = [uid for uid in table.hinted if uid != user_id]
    table.votes.pop(user_id, None)
    return table
