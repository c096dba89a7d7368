"""The deadlines of a stored turn: derived from the table, written in the same step as the turn.

A person who must act is reminded after `REMINDER_AFTER` and timed out after `TURN_LIMIT`; a
computer player acts after `BOT_PAUSE` and is neither reminded nor timed. Deadlines are written
with every move, so they always match the stored turn, and derived again at start-up if lost.
A move also owes its news (`NEWS_AFTER`), until the reply that tells them is ready.
"""

from __future__ import annotations

from ..records.table import Table
from .context import Context

DEADLINE_KINDS = ("remind", "limit", "bot", "news")
# A move's news (the channel's words, the next player's prompt) are owed until its reply is
# ready: a save whose reply was lost, or whose process died first, is told this long after it.
NEWS_AFTER = 30.0


def turn_deadlines(ctx: Context, table: Table) -> dict[str, float | None]:
    """Each deadline kind's time for the stored turn (None: not set). A limit already
    announced is not armed again."""
    started = table.turn_started
    waited = {w.split(" ", 1)[0] for w in table.waiting}
    computers = waited & set(table.computer_seats())
    people = bool(waited - computers)
    settings = ctx.settings
    return {
        "remind": started + settings.reminder_after.total_seconds() if people else None,
        "limit": None
        if table.limit_passed or not people
        else started + settings.turn_limit.total_seconds(),
        "bot": ctx.clock() + settings.bot_pause.total_seconds() if computers else None,
    }


def saved_deadlines(ctx: Context, table: Table) -> dict[str, float | None]:
    """The deadlines written with a decision. While the turn goes on (one of several seats
    decided), a reminder whose time has passed has been sent, or is being sent: armed
    again at that time it would remind the others at once a second time, so it comes one
    interval from now instead."""
    deadlines = turn_deadlines(ctx, table)
    remind, now = deadlines["remind"], ctx.clock()
    if remind is not None and remind <= now:
        deadlines["remind"] = now + ctx.settings.reminder_after.total_seconds()
    return deadlines
