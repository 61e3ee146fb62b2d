"""The controls of a seat's move at the table: its legal actions as buttons and drop-downs.

:func:`controls` groups a seat's legal actions by kind (a 2002 action card counts as its own
kind), each group a :class:`Control`: an argument the same for the whole group is part of the
button ("Play Snoop on P2"), one that varies is a :class:`Field` (a drop-down: which suspect,
which room, which card to show...), and a group with a single small choice becomes one button
per option ("Show Rope"). The controls make every legal action and no other (a combination
of drop-downs the rules refuse is refused by the game, with its reason).
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..games.action import Action
from ..games.game import Game
from ..games.seat import Seat, seat_of
from ..rules.errors import IllegalAction

__all__ = ["Control", "Field", "controls", "makeable", "said", "shown"]

EXPAND = 6
"""A choice with at most this many options becomes one button per option (``Show Rope``)."""

VERBS = {"roll": "Roll the dice", "passage": "Secret passage to", "stay": "Stay where you are",
         "move": "Move to", "suggest": "Suggest", "show": "Show", "reveal": "Reveal to all",
         "pass": "Pass (a lie)", "clue": "Clue card: ask", "accuse": "Accuse",
         "check": "Expose false witness", "end": "End the turn", "ask": "Ask about",
         "decline": "Don't accuse", "play": "Play"}
"""Button text of each action kind of the game API."""

FIELD_LABELS = {"to": "to", "destination": "to", "target": "on", "player": "player",
                "card": "card"}
"""A drop-down's label for each action argument that is not a list of cards."""

ARG_ORDER = ("card", "to", "destination", "target", "player", "cards", "items")
"""The order a control names its arguments in."""


def shown(seat: Seat[Game], value: Any) -> str:
    """An action argument in words: card and room ids become names, squares "row 7, column
    17" (as the board numbers its rows down the side and its columns along the top)."""
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"row {value[0]}, column {value[1]}"
    if isinstance(value, tuple):
        return ", ".join(shown(seat, v) for v in value)
    if isinstance(value, str):
        try:
            return seat.game.edition.card(value).name
        except KeyError:
            pass
        room = seat.place_name(value)
        if room is not None:
            return room
    return str(value)


def said(game: Game, action: Action) -> str:
    """A legal action in a player's words, as its button would say it: "Bob: Show Mrs.
    Peacock" (``str(action)`` keeps the ids the records use)."""
    seat = seat_of(game, action.seat)
    order = sorted(action.args, key=lambda kv: ARG_ORDER.index(kv[0]) if kv[0] in ARG_ORDER
                   else len(ARG_ORDER))
    words = [VERBS.get(action.kind, action.kind.title())]
    words += [_phrase(seat, k, v) for k, v in order]
    return f"{game.names[action.seat]}: {' '.join(words)}"


@dataclass(frozen=True)
class Field:
    """One choice of a control: an action argument, or one position of a list of cards."""

    name: str                                  # "to", "target", "cards.0", ...
    label: str                                 # "to", "suspect", "card 1", ...
    options: tuple[tuple[str, Any], ...]       # (text shown, value)
    default: Any


@dataclass(frozen=True)
class Control:
    """A button (with its drop-downs, if any) that makes one kind of legal action."""

    label: str
    kind: str
    fixed: tuple[tuple[str, Any], ...] = ()
    fields: tuple[Field, ...] = ()
    choices: int = 1                           # how many legal actions it can make

    def action(self, seat: int, values: Mapping[str, Any] | None = None) -> Action:
        """The action for these drop-down values (each field's default where none is given).
        It is legal unless the combination is not (then the game says why)."""
        values = dict(values or {})
        unknown = sorted(set(values) - {f.name for f in self.fields})
        if unknown:
            raise IllegalAction(f"{self.label} has no choice {unknown[0]!r}")
        args: dict[str, Any] = dict(self.fixed)
        lists: dict[str, dict[int, Any]] = {}
        for field in self.fields:
            value = values.get(field.name, field.default)
            key, _, index = field.name.partition(".")
            if index:
                lists.setdefault(key, {})[int(index)] = value
            else:
                args[key] = value
        for key, items in lists.items():
            args[key] = [items[i] for i in sorted(items)]
        return Action.make(self.kind, seat, **args)

    def summary(self) -> str:
        if not self.fields:
            return self.label
        return f"{self.label} ({', '.join(f.label for f in self.fields)}: {self.choices} choices)"


def makeable(control: Control, seat: int) -> list[Action]:
    """Every action a control can make, over every combination of its drop-downs."""
    names = [f.name for f in control.fields]
    options = [[v for _, v in f.options] for f in control.fields]
    return [control.action(seat, dict(zip(names, combo, strict=True)))
            for combo in itertools.product(*options)]


def controls(seat: Seat[Game]) -> list[Control]:
    """The controls of ``seat``'s move: empty unless ``seat`` must act now.

    Legal actions are grouped by kind (and by action card, and by which arguments they take);
    an argument that is the same for the whole group is part of the button, one that varies is
    a drop-down, and a group with a single small choice becomes one button per option.
    """
    groups: dict[tuple[str, str | None, tuple[str, ...]], list[Action]] = {}
    for action in seat.legal_actions():
        keys = tuple(sorted(k for k, _ in action.args))
        card = action.get("card") if action.kind == "play" else None
        groups.setdefault((action.kind, card, keys), []).append(action)
    out: list[Control] = []
    for (kind, card, keys), actions in groups.items():
        out += _group(seat, kind, card, keys, actions)
    labels = [c.label for c in out]
    return [c if labels.count(c.label) == 1 or not c.fields else
            Control(f"{c.label}: {_purpose(c.fields)}", c.kind, c.fixed, c.fields, c.choices)
            for c in out]


PURPOSES = {"cards": "suggest", "items": "ask about", "to": "move", "destination": "move",
            "target": "pick", "player": "pick", "card": "pick"}
"""What a control's first drop-down says it does, when two buttons of one card would read
alike (the 2002 "from present destination" card suggests or moves)."""


def _purpose(fields: tuple[Field, ...]) -> str:
    """Two controls of one action card told apart in a player's words: "suggest a suspect and
    a vehicle", "move (choose where to)"."""
    what = PURPOSES.get(fields[0].name.partition(".")[0], "choose")
    if any(f.label == "to" for f in fields):
        return f"{what} (choose where to)"
    return f"{what} {' and '.join(f'a {f.label}' for f in fields)}"


def _phrase(seat: Seat[Game], key: str, value: Any) -> str:
    text = shown(seat, value)
    return {"target": f"on {text}", "destination": f"to {text}"}.get(key, text)


def _group(seat: Seat[Game], kind: str, card: str | None, keys: tuple[str, ...],
           actions: list[Action]) -> list[Control]:
    base = VERBS.get(kind, kind.title()) + (f" {card}" if card else "")
    order = sorted(keys, key=lambda k: ARG_ORDER.index(k) if k in ARG_ORDER else len(ARG_ORDER))
    fixed = [(k, actions[0][k]) for k in order if all(a[k] == actions[0][k] for a in actions)]
    varying = [k for k in order if k not in dict(fixed)]
    label = " ".join([base] + [_phrase(seat, k, v) for k, v in fixed
                               if not (kind == "play" and k == "card")])
    if not varying:
        return [Control(label, kind, tuple(fixed))]
    if len(varying) == 1 and len(actions) <= EXPAND and not _is_card_list(actions, varying[0]):
        key = varying[0]
        return [Control(f"{label} {_phrase(seat, key, a[key])}", kind,
                        (*fixed, (key, a[key]))) for a in actions]
    fields: list[Field] = []
    for key in varying:
        if _is_card_list(actions, key):
            fields += _list_fields(seat, key, actions)
        else:
            values = list(dict.fromkeys(a[key] for a in actions))
            fields.append(Field(key, FIELD_LABELS.get(key, key),
                                tuple((shown(seat, v), v) for v in values), values[0]))
    return [Control(label, kind, tuple(fixed), tuple(fields), len(actions))]


def _is_card_list(actions: list[Action], key: str) -> bool:
    """Is ``key`` a list of card ids (split into one drop-down per position)?"""
    return all(isinstance(a[key], tuple) and all(isinstance(v, str) for v in a[key])
               for a in actions) and len({len(a[key]) for a in actions}) == 1


def _list_fields(seat: Seat[Game], key: str, actions: list[Action]) -> list[Field]:
    """One drop-down per position of a card list: named after its category when every action
    has the same category there (suspect, weapon, room), else "card 1", "card 2" over every
    card that may be named (the 2018 game asks about any two items)."""
    edition = seat.game.edition
    size = len(actions[0][key])
    columns = [list(dict.fromkeys(a[key][i] for a in actions)) for i in range(size)]
    cats = [{edition.card(c).category for c in col} for col in columns]
    if all(len(c) == 1 for c in cats) and len({next(iter(c)) for c in cats}) == size:
        names = {cat.id: cat.name.lower() for cat in edition.categories}
        return [Field(f"{key}.{i}", names.get(next(iter(cats[i])), f"card {i + 1}"),
                      tuple((shown(seat, v), v) for v in col), col[0])
                for i, col in enumerate(columns)]
    order = {c.id: n for n, c in enumerate(edition.cards)}
    every = sorted({v for col in columns for v in col}, key=lambda v: order.get(v, len(order)))
    options = tuple((shown(seat, v), v) for v in every)
    return [Field(f"{key}.{i}", f"card {i + 1}", options, every[min(i, len(every) - 1)])
            for i in range(size)]
