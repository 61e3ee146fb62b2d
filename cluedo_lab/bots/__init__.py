"""Bots: players that choose actions from what their seat may see, found by name.

``make_bot("detective@0.8", seed)`` gives a player; :func:`bot_names` and :func:`catalogue`
list them. Every bot follows the :class:`Bot` protocol: ``choose(game, seat) -> Action``.
"""

from .registry import BOTS, Bot, bot_names, catalogue, make_bot, table_bot

__all__ = ["BOTS", "Bot", "bot_names", "catalogue", "make_bot", "table_bot"]
