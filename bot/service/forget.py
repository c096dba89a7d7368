"""`/fc forget me`: a person's name and id removed from every kept result, rating, board and
history, after they confirm with a button. The games stay, with an anonymous seat; others'
ratings keep what those games taught them."""

from __future__ import annotations

from ..actor import Actor
from ..games import MODULES
from ..i18n import tr
from ..refused import Refused
from ..replies import Button, Message, Reply
from ..results import Result
from .context import Context
from .results import sweep


async def forget(ctx: Context, actor: Actor, args: list[str], lang: str) -> Reply:
    """`/fc forget me`: asks for a confirmation, privately."""
    if [a.lower() for a in args] != ["me"]:
        raise Refused(tr(lang, "Write /fc forget me to have your results forgotten."))
    data = f"fc:fg:{actor.channel_id}:0:{actor.user_id}"
    text = tr(
        lang,
        "Forget you? Your name and id are removed from every finished game, rating, "
        "leaderboard and history; the games stay, with an anonymous seat. This cannot be "
        "undone.",
    )
    buttons = [[Button(tr(lang, "Yes, forget me"), data, "danger")]]
    return Reply(private=[Message(text, buttons=buttons)])


async def confirmed(ctx: Context, actor: Actor, user_id: str, lang: str) -> Reply:
    """The confirmation button, pressed by the person it was made for."""
    if user_id != actor.user_id:
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
    await ctx.store.forget_user(actor.platform, actor.user_id)
    return Reply(private=[Message(tr(lang, "Done: you are forgotten."))])
