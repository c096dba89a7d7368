"""Table images (Pillow), one package per game, drawn from views and never from a game.

- `render.forbidden_city`: Reiner Knizia's tile game (the table, a seat's tile and spots, the
  preview of a move, the end);
- `render.verbotene_stadt`: Die Verbotene Stadt (the board, a seat's bribe, a move's preview).

What the games share lives here: fonts for names in any script (`fonts`), caches of drawn parts
(`memo`) and the translation hook (`texts`). `python -m render bench|gallery` covers both games.
"""
