"""How a game is played: one loop for every edition, every bot and every seat a person takes.

:func:`run` asks the player of the seat that must act (:attr:`Game.current`) for an action and
applies it, again and again, until the game is over or a seat played by a person (``None``
among the players) must act. A game that goes on past ``limit`` actions stops with
:class:`~cluedo_lab.rules.errors.ActionLimit`: bots that never finish are a bug, or a
tournament's sign to count the game as unfinished.

``Game.play``, tournaments, the puzzles that play a game forward and the Table all play
through :func:`run`, so a game is played the same way wherever it is played:

>>> from cluedo_lab.bots import make_bot
>>> from cluedo_lab.games import new_game
>>> game = new_game("cluedo-card-game-2018", 3, seed=1)
>>> you = None                                  # a person plays seat 0
>>> run(game, [you, make_bot("random", 1), make_bot("random", 2)]).waiting
0
>>> game.current
0
>>> run(game, [make_bot("eliminator", s) for s in range(3)]).over
True
>>> game.is_over
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from ..rules.errors import ActionLimit
from .action import Action

__all__ = ["Playable", "Player", "Outcome", "run", "LIMIT"]

LIMIT = 100_000
"""More actions than any game takes (a long six-player board game takes a few thousand)."""


class Playable(Protocol):
    """What :func:`run` needs of a game (every :class:`~cluedo_lab.games.game.Game` has it)."""

    @property
    def names(self) -> tuple[str, ...]: ...

    @property
    def current(self) -> int | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def winner(self) -> int | None: ...

    def apply(self, action: Action) -> None: ...


G = TypeVar("G", bound=Playable, contravariant=True)
P = TypeVar("P", bound=Playable)


class Player(Protocol[G]):
    """A player: chooses seat ``seat``'s next action through the game's public API only (its
    legal actions, the seat's own record, the public table), seeded, never reading the deal.
    Every bot is a ``Player[Game]``."""

    def choose(self, game: G, seat: int) -> Action: ...


@dataclass(frozen=True)
class Outcome:
    """Where :func:`run` stopped: after ``actions`` actions, either with the game over
    (``winner`` the winning seat, None when nobody won) or with ``waiting`` the seat a
    person plays, which must act now."""

    actions: int
    waiting: int | None = None
    winner: int | None = None

    @property
    def over(self) -> bool:
        """Did the game end (rather than wait for a person)?"""
        return self.waiting is None


def run(game: P, players: Sequence[Player[P] | None], limit: int = LIMIT) -> Outcome:
    """Play ``game`` on: ``players[s]`` chooses seat ``s``'s actions, and ``None`` marks a
    seat a person plays, where the loop stops to wait. Raises
    :class:`~cluedo_lab.rules.errors.ActionLimit` once ``limit`` actions are played and the
    game still wants a bot's action (the actions stay played)."""
    if len(players) != len(game.names):
        raise ValueError(f"need {len(game.names)} players (None for a person), "
                         f"got {len(players)}")
    played = 0
    while not game.is_over:
        seat = game.current
        assert seat is not None, "a game that is not over has a seat to act"
        player = players[seat]
        if player is None:
            return Outcome(played, waiting=seat)
        if played == limit:
            raise ActionLimit(limit)
        game.apply(player.choose(game, seat))
        played += 1
    return Outcome(played, winner=game.winner)
