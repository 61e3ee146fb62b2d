"""Making and loading games: the one place that picks the engine for an edition.

A board edition is played by :class:`~cluedo_lab.games.board_game.BoardGame`; a card edition
by :class:`~cluedo_lab.games.card_2002.CardGame2002` when it has an action deck, else by
:class:`~cluedo_lab.games.card_2018.CardGame2018`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..rules.edition import Edition
from ..rules.errors import (
    CluedoLabError,
    EditionError,
    InvalidArgument,
    SavedGameError,
    UnknownName,
    WrongType,
)
from ..rules.files import parse_json
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

    >>> game = new_game("cluedo-card-game-2018", ["Ann", "Bob", "Cy"], seed=1)
    >>> game
    <CardGame2018('cluedo-card-game-2018', ['Ann', 'Bob', 'Cy'], seed=1): 0 actions, seat 0 to act>
    >>> action = game.legal_actions()[0]
    >>> action.kind
    'ask'
    >>> game.apply(action); len(game.history)
    1
    >>> game.undo() == action
    True
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
        raise InvalidArgument(f"{ed.name} is for {ed.min_players}-{ed.max_players} players: "
                              "say how many")
    return game_class(ed)(ed, players, seed, **options)


SAVED_KEYS = {"game", "edition", "players", "seed", "options", "deal", "actions", "marks"}
"""A saved game's fields; ``marks`` (a learner's notepad, event by event) is for the game
review only: the game itself does not read it."""
MAX_ACTIONS = 1_000_000
"""More actions than any game takes (a long six-player board game takes a few thousand)."""


def game_from_json(text: str, source: str = "saved game") -> Game:
    """Load a saved game of any edition by replaying its actions from the seeded deal.

    Every field is checked before anything is built; a problem raises
    :class:`~cluedo_lab.rules.errors.SavedGameError` naming the field (an action the rules
    refuse raises :class:`~cluedo_lab.rules.errors.IllegalAction` with its position)."""
    def fail(problem: str) -> SavedGameError:
        return SavedGameError(problem if problem.startswith(source) else
                              f"{source}: {problem}")

    data = parse_json(text, source, fail)
    if not isinstance(data, dict):
        raise fail("a saved game is a JSON object")
    unknown = sorted(set(data) - SAVED_KEYS)
    if unknown:
        raise fail(f"field {unknown[0]!r}: unknown; expected some of {sorted(SAVED_KEYS)}")
    for key in ("edition", "players", "seed", "actions"):
        if key not in data:
            raise fail(f"field {key!r}: missing")
    if not isinstance(data["edition"], str | dict):
        raise fail("field 'edition': expected an edition id or a variant table")
    players = data["players"]
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise fail("field 'players': expected a list of player names")
    if type(data["seed"]) is not int:
        raise fail("field 'seed': expected a whole number")
    if not isinstance(data.get("options", {}), dict):
        raise fail("field 'options': expected a table of game options")
    if data.get("deal") is not None and not isinstance(data["deal"], str):
        raise fail("field 'deal': expected the deal's fingerprint (a string)")
    actions = data["actions"]
    if not isinstance(actions, list) or not all(isinstance(a, dict) for a in actions):
        raise fail("field 'actions': expected a list of actions")
    if len(actions) > MAX_ACTIONS:
        raise fail(f"field 'actions': {len(actions):,} actions is more than any game takes")
    try:
        edition = edition_of(data["edition"])
    except EditionError as error:      # a variant's own errors name its options already
        raise fail(f"field 'edition': {error}") from None
    try:
        cls = game_class(edition)
        if data.get("game") not in (None, cls.family):
            raise ValueError(f"field 'game': {data['game']!r}, but {edition.name} is a "
                             f"{cls.family} game")
        return cls.from_dict(data)
    except (InvalidArgument, UnknownName, WrongType) as error:   # from the file's values
        raise fail(str(error)) from None
    except CluedoLabError:
        raise                   # the kit's own errors already say what and where
    except (ValueError, TypeError, KeyError) as error:
        message = str(error.args[0]) if isinstance(error, KeyError) and error.args \
            else str(error)
        raise fail(message) from None
