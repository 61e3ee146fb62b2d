"""Bots: players that choose actions from what their seat may see, found by name.

``make_bot("detective@0.8", seed)`` gives a player; :func:`bot_names` and :func:`catalogue`
list them. Every bot follows the :class:`Bot` protocol: ``choose(game, seat) -> Action``.
"""

from .registry import BOTS, FOR_TESTS, Bot, bot_names, catalogue, make_bot

__all__ = ["BOTS", "FOR_TESTS", "Bot", "bot_names", "catalogue", "make_bot"]
