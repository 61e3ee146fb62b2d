"""An action: one thing a seat does, compared by value and saved as a line of JSON; and the
one way to look actions up among a game's legal actions (:func:`of_kind`, :func:`find`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..rules.errors import IllegalAction

__all__ = ["Action", "of_kind", "find"]


@dataclass(frozen=True)
class Action:
    """One thing a seat does. ``args`` holds the details as sorted (key, value) pairs, so
    actions compare and hash by value; values are JSON-friendly (str, int, bool, tuples)."""

    kind: str
    seat: int
    args: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def make(cls, kind: str, seat: int, **args: Any) -> Action:
        return cls(kind, seat, tuple(sorted((k, _freeze(v)) for k, v in args.items())))

    def __getitem__(self, key: str) -> Any:
        for k, v in self.args:
            if k == key:
                return v
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, **{k: _thaw(v) for k, v in self.args}}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        if not isinstance(data, Mapping) or not isinstance(data.get("kind"), str) or \
                type(data.get("seat")) is not int:      # a bool is an int, but no seat
            raise IllegalAction(f"not an action: {data!r} (needs 'kind' and 'seat')")
        rest = {k: v for k, v in data.items() if k not in ("kind", "seat")}
        return cls.make(data["kind"], data["seat"], **rest)

    def __str__(self) -> str:
        details = ", ".join(f"{k}={_thaw(v)}" for k, v in self.args)
        return f"seat {self.seat}: {self.kind}" + (f" ({details})" if details else "")


def _freeze(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    return value


def _thaw(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_thaw(v) for v in value]
    return value


def of_kind(legal: Iterable[Action], *kinds: str) -> list[Action]:
    """The actions of these kinds, in their order among ``legal``."""
    return [a for a in legal if a.kind in kinds]


def find(legal: Iterable[Action], kind: str, **want: Any) -> Action:
    """The first action of ``kind`` among ``legal`` whose arguments are ``want``: equal, or,
    for a wanted set, naming exactly its members in any order (``cards={"plum", "rope"}``).
    Raises :class:`IllegalAction` when there is none (a bot that asks for one has a bug)."""
    for action in legal:
        if action.kind == kind and all(_matches(action.get(k), v) for k, v in want.items()):
            return action
    raise IllegalAction(f"no legal {kind} with {want}")


def _matches(value: Any, wanted: Any) -> bool:
    if isinstance(wanted, set | frozenset):
        return set(value or ()) == wanted
    return bool(value == wanted)
