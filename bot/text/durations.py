"""Spans of time as people write them: "45 min", "5 h 20 min", "2 d 3 h", in each language,
and a turn's time: when it started and how long it has left.

Two units at most, the larger first: a turn that has waited two days is not read to the minute;
a span under a minute (a time limit set that short) is read in seconds.
"""

from __future__ import annotations

import math

from .i18n import tr

MINUTE, HOUR, DAY = 60, 3600, 86400


def duration_text(seconds: float, lang: str) -> str:
    whole = max(0, int(seconds))
    days, rest = divmod(whole, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes = rest // MINUTE
    if days:
        if hours:
            return tr(lang, "{d} d {h} h", d=days, h=hours)
        return tr(lang, "{d} d", d=days)
    if hours:
        if minutes:
            return tr(lang, "{h} h {m} min", h=hours, m=minutes)
        return tr(lang, "{h} h", h=hours)
    if minutes:
        return tr(lang, "{m} min", m=minutes)
    if seconds > 0:  # a span that short is a limit set so (tests, a lively table): its seconds
        return tr(lang, "{s} s", s=max(1, math.ceil(seconds)))
    return tr(lang, "less than a minute")


def turn_text(waited: float, left: float | None, lang: str) -> str:
    """When the turn started and how long it has left: "turn started 3 h ago, 2 d 21 h left".
    `left` is None when no time limit runs (a computer player's turn), and at most 0 once it
    has passed. A turn of less than a minute has "just" started ("for less than a minute"
    read as if the player had that long left), and what is left counts a started minute as
    whole: a limit of 3 days reads "3 d left" when the turn begins, not "2 d 23 h"."""
    if waited < MINUTE:
        started = tr(lang, "turn started just now")
    else:
        started = tr(lang, "turn started {duration} ago", duration=duration_text(waited, lang))
    if left is None:
        return started
    if left <= 0:
        return started + ", " + tr(lang, "time limit passed")
    whole = math.ceil(left / MINUTE) * MINUTE
    return started + ", " + tr(lang, "{duration} left", duration=duration_text(whole, lang))
