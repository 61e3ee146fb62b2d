"""The board game's actions as shared values: each action is built once and handed out again
(actions are immutable), so listing the legal moves of a long bot game stays cheap."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ..rules.board import Node, Square
from .game import Action

__all__ = ["make", "moves", "cached"]

_T = TypeVar("_T")

_TABLES: dict[tuple[Any, ...], Any] = {}


def cached(key: tuple[Any, ...], build: Callable[[], _T]) -> _T:
    """A table of actions, built by ``build()`` the first time ``key`` is asked for and
    shared between games from then on."""
    if key not in _TABLES:
        _TABLES[key] = build()
    table: _T = _TABLES[key]
    return table


_ACTIONS: dict[tuple[Any, ...], Action] = {}


def make(kind: str, seat: int, **args: Any) -> Action:
    """An action of the board game, each built once and shared (they are immutable values)."""
    key = (kind, seat, tuple(sorted((k, tuple(v) if isinstance(v, list) else v)
                                    for k, v in args.items())))
    action = _ACTIONS.get(key)
    if action is None:
        action = _ACTIONS[key] = Action.make(kind, seat, **args)
    return action


_MOVES: dict[tuple[int, Node], Action] = {}


def _move(seat: int, to: Node) -> Action:
    """``move(to=...)``: the most frequent action, looked up by its plain key."""
    action = _MOVES.get((seat, to))
    if action is None:
        action = _MOVES[seat, to] = Action.make("move", seat, to=to)
    return action


_MOVE_LISTS: dict[tuple[int, tuple[tuple[str, ...], tuple[Square, ...]]],
                  tuple[Action, ...]] = {}


def moves(seat: int, reachable: tuple[tuple[str, ...], tuple[Square, ...]]
          ) -> tuple[Action, ...]:
    """The move actions to ``reachable``'s rooms and squares (the same few target lists come
    back roll after roll; the table is emptied when it grows large)."""
    key = (seat, reachable)
    found = _MOVE_LISTS.get(key)
    if found is None:
        if len(_MOVE_LISTS) > 20_000:
            _MOVE_LISTS.clear()
        rooms, squares = reachable
        found = _MOVE_LISTS[key] = (*(_move(seat, room) for room in rooms),
                                    *(_move(seat, square) for square in squares))
    return found
