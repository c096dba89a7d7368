"""Spans of time as people write them: "45 min", "5 h 20 min", "2 d 3 h", in each language.

Two units at most, the larger first: a turn that has waited two days is not read to the minute.
"""

from __future__ import annotations

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
    return tr(lang, "less than a minute")
