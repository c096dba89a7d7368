"""What the bot says about a game: moves, closed rooms, scores, help and rules, in any language.

Messages are gettext ids (English); `make messages` collects them for the translators.
"""

from __future__ import annotations

from engine.forbidden_city import Game, MoveResult, RoomClosed, TileDiscarded, TilePlaced

from .durations import duration_text
from .i18n import N_, tr
from .replies import mention
from .table import Table

# Seat and room colours are translated where they are shown (`tr(lang, colour)`).
COLOUR_WORDS = (
    N_("purple"),
    N_("yellow"),
    N_("red"),
    N_("blue"),
    N_("green"),
    N_("pink"),
    N_("white"),
    N_("temple"),
)


def describe(table: Table, result: MoveResult, lang: str) -> str:
    """One move in a sentence or two: who placed where, what closed, who was paid."""
    parts = []
    for event in result.events:
        if isinstance(event, TilePlaced):
            parts.append(
                tr(
                    lang,
                    "{who} places a tile at {x},{y}.",
                    who=table.user_of(event.seat).name,
                    x=event.x,
                    y=event.y,
                )
            )
        elif isinstance(event, RoomClosed):
            parts.append(closed_text(table, event, lang))
        elif isinstance(event, TileDiscarded):
            parts.append(tr(lang, "{who}'s tile is set aside.", who=table.user_of(event.seat).name))
    return " ".join(parts)


def closed_text(table: Table, event: RoomClosed, lang: str) -> str:
    colour = tr(lang, event.colour)
    if not event.paid:
        return tr(
            lang,
            "A {colour} room closes, worth {value}: no advisor there, nobody is paid.",
            colour=colour,
            value=event.value,
        )
    paid = ", ".join(f"{table.user_of(c).name} +{n}" for c, n in event.paid.items())
    return tr(
        lang,
        "A {colour} room closes, worth {value}: {paid}.",
        colour=colour,
        value=event.value,
        paid=paid,
    )


def final_text(table: Table, game: Game, lang: str) -> str:
    assert game.ended is not None
    ranking = sorted(game.players, key=lambda c: -game.scores[c])
    scores = ", ".join(
        tr(
            lang,
            "{who} {coins} coins (bonus {bonus})",
            who=table.user_of(c).name,
            coins=game.scores[c],
            bonus=game.ended.bonus[c],
        )
        for c in ranking
    )
    winners = ", ".join(mention(table.user_of(c).user_id) for c in game.winners)
    return tr(lang, "Game over! {scores}. Winner: {winners}.", scores=scores, winners=winners)


def status_text(table: Table, game: Game, lang: str, now: float) -> str:
    seats = "; ".join(
        tr(
            lang,
            "{colour} {who}: {coins} coins, {left} tiles left",
            colour=tr(lang, colour),
            who=table.user_of(colour).name,
            coins=game.scores[colour],
            left=game.tiles_left(colour),
        )
        for colour in game.players
    )
    turn = tr(
        lang,
        "{who} to play (for {duration}).",
        who=table.user_of(game.current).name,
        duration=duration_text(now - table.turn_started, lang),
    )
    return f"{seats}. {turn}"


HELP = (
    N_("Forbidden City commands (type them after /fc):"),
    N_("new [beginner|advanced]: open a table here"),
    N_("join / leave: sit down or stand up before the start"),
    N_("start: deal and begin (the creator)"),
    N_(
        "play <spot> <rotation>: place your tile on a numbered spot of your private image, "
        "or at x,y; the rotation is 0-3 quarter turns clockwise"
    ),
    N_("hand: your tile, privately"),
    N_("board: the table"),
    N_("status (or score): coins, tiles left, whose turn"),
    N_("rules: the rules in short"),
    N_("abort: end the game (the creator or an admin)"),
    N_("lang <en|fr|it|de>: the chat's language"),
    N_("notify on|off: private turn messages"),
    N_("games: your games everywhere"),
    N_("vote skip|end: when a turn runs past the time limit"),
)

RULES = (
    N_("Forbidden City (Reiner Knizia), in short:"),
    N_(
        "- On your turn, place your tile next to a tile on the table. Where two open edges meet "
        "they must have the same colour; different colours may only meet at a wall."
    ),
    N_(
        "- A room is closed when walls surround it (archways count as walls). It is worth 1 coin "
        "per tile and 3 per dragon, plus the tiles and dragons of every room directly behind one "
        "of its archways."
    ),
    N_(
        "- Most advisors in the closed room take the whole value, a single second takes half. "
        "Tied for most: half each and nobody else. Tied for second: nothing."
    ),
    N_(
        "- When everyone has 2 tiles left the game ends: those tiles pay 2 coins per advisor and "
        "3 per dragon. Most coins wins; ties share the victory."
    ),
)
