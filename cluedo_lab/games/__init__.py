"""Playable games of every edition: :func:`new_game` makes one, :class:`Game` is their API."""

from .factory import game_class, game_from_json, new_game
from .game import Action, Game

__all__ = ["Action", "Game", "game_class", "game_from_json", "new_game"]
