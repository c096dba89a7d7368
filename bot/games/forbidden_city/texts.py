"""What the bot says of a tile game: moves, closed rooms, scores, help and rules, in any language.

Messages are gettext ids (English); `make messages` collects them for the translators.
"""

from __future__ import annotations

from engine.forbidden_city import Game, MoveResult, RoomClosed, TileDiscarded, TilePlaced

from ...text.i18n import N_, tr
from .. import At

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


def describe(at: At, result: MoveResult) -> str:
    """One move in a sentence or two: who placed where, what closed, who was paid."""
    parts = []
    for event in result.events:
        if isinstance(event, TilePlaced):
            parts.append(
                tr(
                    at.lang,
                    "{who} places a tile at {x},{y}.",
                    who=at.name(event.seat),
                    x=event.x,
                    y=event.y,
                )
            )
        elif isinstance(event, RoomClosed):
            parts.append(closed_text(at, event))
        elif isinstance(event, TileDiscarded):
            parts.append(tr(at.lang, "{who}'s tile is set aside.", who=at.name(event.seat)))
    return " ".join(parts)


def closed_text(at: At, event: RoomClosed) -> str:
    colour = tr(at.lang, event.colour)
    if not event.paid:
        return tr(
            at.lang,
            "A {colour} room closes, worth {value}: no advisor there, nobody is paid.",
            colour=colour,
            value=event.value,
        )
    paid = ", ".join(f"{at.name(c)} +{n}" for c, n in event.paid.items())
    return tr(
        at.lang,
        "A {colour} room closes, worth {value}: {paid}.",
        colour=colour,
        value=event.value,
        paid=paid,
    )


def coins_text(lang: str, n: int) -> str:
    return tr(lang, "1 coin") if n == 1 else tr(lang, "{n} coins", n=n)


def left_text(lang: str, n: int) -> str:
    return tr(lang, "1 tile left") if n == 1 else tr(lang, "{n} tiles left", n=n)


def final_text(at: At, game: Game) -> str:
    assert game.ended is not None
    ranking = sorted(game.players, key=lambda c: -game.scores[c])
    scores = ", ".join(
        tr(
            at.lang,
            "{who} {coins} (bonus {bonus})",
            who=at.name(c),
            coins=coins_text(at.lang, game.scores[c]),
            bonus=game.ended.bonus[c],
        )
        for c in ranking
    )
    winners = ", ".join(at.mention(c) for c in game.winners)
    return tr(at.lang, "Game over! {scores}. Winner: {winners}.", scores=scores, winners=winners)


def status_text(at: At, game: Game, waited: str) -> str:
    seats = "; ".join(
        tr(
            at.lang,
            "{colour} {who}: {coins}, {left}",
            colour=tr(at.lang, colour),
            who=at.name(colour),
            coins=coins_text(at.lang, game.scores[colour]),
            left=left_text(at.lang, game.tiles_left(colour)),
        )
        for colour in game.players
    )
    turn = tr(at.lang, "{who} to play ({turn}).", who=at.name(game.current), turn=waited)
    return f"{seats}. {turn}"


HELP = (
    N_("Forbidden City commands (type them after /fc):"),
    N_("new [beginner|advanced]: open a table here"),
    N_("start: deal and begin (the creator)"),
    N_(
        "play <spot> <rotation>: place your tile on a numbered spot of your private image, "
        "or at x,y; the rotation is 0-3 quarter turns clockwise"
    ),
    N_("hand: your tile, privately"),
    N_("status (or score): coins, tiles left, whose turn"),
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
