"""Die Verbotene Stadt (Randolph & Rüttinger): a pure rules engine.

>>> from engine.verbotene_stadt import Game
>>> game = Game(4, seed=7)
>>> [t.kind for t in game.to_act]
['bribe', 'bribe', 'bribe', 'bribe']
"""
