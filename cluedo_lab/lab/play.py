"""Watching bots play: one seeded game of any edition as a readable log (``cluedo-lab play``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..bots import make_bot
from ..games.factory import new_game
from ..games.game import Game
from ..rules.edition import Edition

__all__ = ["play_game", "play_log"]


def play_log(edition: Edition | str, players: int | Sequence[str], seed: int = 0,
             bots: Sequence[str] = ("quick-detective",), **options: Any) -> str:
    """Play one seeded game with bots and return its readable log.

    ``bots`` names one bot per seat (names of :func:`cluedo_lab.bots.make_bot`: the quick
    ``quick-detective``, ``random``, the exact ``detective``, ...); the last name fills any
    seats left over.
    """
    game, kinds = play_game(edition, players, seed, bots, **options)
    head = [f"# {game.edition.name} ({game.edition.id}), seed {seed}",
            "# seats: " + ", ".join(f"{n} ({k})" for n, k in zip(game.names, kinds, strict=True)),
            f"# {len(game.history)} actions"]
    return "\n".join(head + list(game.log))


def play_game(edition: Edition | str, players: int | Sequence[str], seed: int = 0,
              bots: Sequence[str] = ("quick-detective",), **options: Any
              ) -> tuple[Game, list[str]]:
    """The finished game :func:`play_log` tells (to save it), and the bot of each seat."""
    game = new_game(edition, players, seed, **options)
    if not bots:
        raise ValueError("name at least one bot")
    kinds = [bots[min(seat, len(bots) - 1)] for seat in range(len(game.names))]
    game.play([make_bot(kind, seed * 1000 + seat) for seat, kind in enumerate(kinds)])
    return game, kinds
