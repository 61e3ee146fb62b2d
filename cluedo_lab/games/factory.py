"""Making and loading games: the one place that picks the engine for an edition.

A board edition is played by :class:`~cluedo_lab.games.board_game.BoardGame`; a card edition
by :class:`~cluedo_lab.games.card_2002.CardGame2002` when it has an action deck, else by
:class:`~cluedo_lab.games.card_2018.CardGame2018`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..rules.edition import Edition
from ..rules.variant import Variant, VariantError, board_support, variant_from_dict
from .board_game import BoardGame
from .card_2002 import CardGame2002
from .card_2018 import CardGame2018
from .game import Game, edition_of

__all__ = ["new_game", "game_class", "game_from_json"]


def game_class(edition: Edition) -> type[Game]:
    """The engine that plays ``edition``."""
    if edition.family == "board":
        return BoardGame
    return CardGame2002 if edition.actions else CardGame2018


def new_game(edition: Edition | str | Variant | Mapping[str, Any],
             players: int | Sequence[str] | None = None, seed: int = 0,
             **options: Any) -> Game:
    """A new game of ``edition``: an Edition, an edition id or path, a :class:`Variant` or a
    saved variant (``{"base": <edition id>, <option>: ...}``).

    ``players`` is a number of seats or their names; a variant that fixes its number of
    players may leave it out. The board engine reads only some rules from the edition: a board
    variant that changes another one raises :class:`VariantError` saying which (see
    :func:`~cluedo_lab.rules.variant.board_support`).
    """
    if isinstance(edition, Mapping):
        edition = variant_from_dict(edition)
    if isinstance(edition, Variant):
        if players is None or isinstance(players, int):
            players = edition.player_count(players)
        else:
            edition.player_count(len(players))
        if edition.edition.family == "board":
            problems = board_support(edition)
            if problems:
                raise VariantError("board games support " + "; ".join(p for _, p in problems)
                                   + " only", [o for o, _ in problems])
        edition = edition.edition
    ed = edition_of(edition)
    if players is None:
        raise ValueError(f"{ed.name} is for {ed.min_players}-{ed.max_players} players: "
                         "say how many")
    return game_class(ed)(ed, players, seed, **options)


def game_from_json(text: str) -> Game:
    """Load a saved game of any edition by replaying its actions from the seeded deal."""
    data = json.loads(text)
    return game_class(edition_of(data["edition"])).from_dict(data)
