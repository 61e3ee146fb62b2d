"""Play at the table: one seat is yours, bots play the others, any edition.

A :class:`Table` is a thin view over one :class:`~cluedo_lab.game.Game`. Everything about the
game lives in the game object; the table adds only what a seat at a real table sees:

- :func:`controls` turns the game into the controls of your move: the legal actions grouped
  by kind (a 2002 action card counts as its own kind), each group a button, with drop-downs for
  the choices that vary (which suspect, which room, which card to show...).
- :func:`narrate` writes your log. The engine's own log is written for an all-seeing reader
  (every hand, every card shown), so it cannot be shown to a player. Your log says what was
  done in the open (the action's public arguments, the dice) and gives every event *as your
  record holds it* (:meth:`Game.record`), so it hides exactly what the observation model hides.
- Your notepad is the :class:`~cluedo_lab.widgets.Notepad` of your record.

After your action the bots play every other seat until you must act again (your turn, or a
card to show). An illegal action (a stale click, the same card twice) leaves the game unchanged
and shows the engine's reason. ``repr`` and ``_repr_html_`` give the static rendering (whose
move, your hand, the legal actions, the end of your log); :meth:`Table.widget` the live one.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

from ..bots.registry import table_bot
from ..games.factory import new_game
from ..games.game import Action, Game
from ..knowledge.engine import Knowledge
from ..lab.class_settings import student_bots
from ..records import Accuse, Record
from ..rules.edition import Edition, all_editions, load_edition
from ..rules.errors import CluedoLabError, Contradiction, IllegalAction
from .base import InteractiveView, pre, slug
from .board_svg import game_svg
from .learner import LearnerNotepad
from .widgets import Notepad

if TYPE_CHECKING:
    import ipywidgets

__all__ = ["Control", "Field", "NOTES", "Table", "TableChooser", "controls", "ending", "makeable",
           "narrate", "refusal"]

EXPAND = 6
"""A choice with at most this many options becomes one button per option (``Show Rope``)."""

LOG_TAIL = 12
"""Log lines in the static rendering."""

MAX_BOT_ACTIONS = 100_000
"""Bot actions allowed between two of yours before the table gives up (a stuck bot)."""

VERBS = {"roll": "Roll the dice", "passage": "Secret passage to", "stay": "Stay where you are",
         "move": "Move to", "suggest": "Suggest", "show": "Show", "reveal": "Reveal to all",
         "pass": "Pass (a lie)", "clue": "Clue card: ask", "accuse": "Accuse",
         "check": "Expose false witness", "end": "End the turn", "ask": "Ask about",
         "decline": "Don't accuse", "play": "Play"}
"""Button text of each action kind of the game API."""

FIELD_LABELS = {"to": "to", "destination": "to", "target": "on", "player": "player",
                "card": "card"}
ARG_ORDER = ("card", "to", "destination", "target", "player", "cards", "items")

NOTES = {"learner": "My notes", "engine": "The engine's notepad"}
"""The two notepads a table offers: the learner's own page (the default), or the engine's."""
HELPS = frozenset({"reveal", "engine"})
"""The helps a table may offer: the Reveal button of the learner's notepad, and the switch to
the engine's notepad (a class's settings may turn either off: ``helps``)."""


def refusal(reason: str) -> str:
    """An illegal action's message: the rule that applies, as what to do instead (the engine's
    reasons state the rule, e.g. "a question names 2 different cards")."""
    return f"Choose again: {reason}."


# ---------------------------------------------------------------------------------------------
# Games and names
# ---------------------------------------------------------------------------------------------

def _bot(game: Game, kind: Any, seed: int) -> Any:
    """A bot by the table's names (:func:`cluedo_lab.bots.table_bot`); an object
    with a ``choose(game, seat)`` method is used as it is."""
    if not isinstance(kind, str):
        return kind
    return table_bot(kind, seed)


def shown(game: Game, value: Any) -> str:
    """An action argument in words: card and room ids become names, squares "square 7, 17"."""
    if isinstance(value, tuple) and value and all(isinstance(v, int) for v in value):
        return "square " + ", ".join(map(str, value))
    if isinstance(value, tuple):
        return ", ".join(shown(game, v) for v in value)
    if isinstance(value, str):
        try:
            return game.edition.card(value).name
        except KeyError:
            pass
        board = getattr(game, "board", None)
        if board is not None and value in board.rooms:
            return board.room_name(value)
    return str(value)


# ---------------------------------------------------------------------------------------------
# Controls: the legal actions as buttons and drop-downs
# ---------------------------------------------------------------------------------------------

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
        It is legal unless the combination is not (then :meth:`Game.apply` says why)."""
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


def controls(game: Game, seat: int) -> list[Control]:
    """The controls of ``seat``'s move: empty unless ``seat`` must act now.

    Legal actions are grouped by kind (and by action card, and by which arguments they take);
    an argument that is the same for the whole group is part of the button, one that varies is
    a drop-down, and a group with a single small choice becomes one button per option.
    """
    if game.is_over or game.current != seat:
        return []
    groups: dict[tuple, list[Action]] = {}
    for action in game.legal_actions():
        keys = tuple(sorted(k for k, _ in action.args))
        card = action.get("card") if action.kind == "play" else None
        groups.setdefault((action.kind, card, keys), []).append(action)
    out: list[Control] = []
    for (kind, card, keys), actions in groups.items():
        out += _group(game, kind, card, keys, actions)
    labels = [c.label for c in out]
    return [c if labels.count(c.label) == 1 or not c.fields else
            Control(f"{c.label} ({', '.join(f.label for f in c.fields)})", c.kind, c.fixed,
                    c.fields, c.choices)
            for c in out]


def _phrase(game: Game, key: str, value: Any) -> str:
    text = shown(game, value)
    return {"target": f"on {text}", "destination": f"to {text}"}.get(key, text)


def _group(game: Game, kind: str, card: str | None, keys: tuple[str, ...],
           actions: list[Action]) -> list[Control]:
    base = VERBS.get(kind, kind.title()) + (f" {card}" if card else "")
    order = sorted(keys, key=lambda k: ARG_ORDER.index(k) if k in ARG_ORDER else len(ARG_ORDER))
    fixed = [(k, actions[0][k]) for k in order if all(a[k] == actions[0][k] for a in actions)]
    varying = [k for k in order if k not in dict(fixed)]
    label = " ".join([base] + [_phrase(game, k, v) for k, v in fixed
                               if not (kind == "play" and k == "card")])
    if not varying:
        return [Control(label, kind, tuple(fixed))]
    if len(varying) == 1 and len(actions) <= EXPAND and not _is_card_list(actions, varying[0]):
        key = varying[0]
        return [Control(f"{label} {_phrase(game, key, a[key])}", kind,
                        (*fixed, (key, a[key]))) for a in actions]
    fields: list[Field] = []
    for key in varying:
        if _is_card_list(actions, key):
            fields += _list_fields(game, key, actions)
        else:
            values = list(dict.fromkeys(a[key] for a in actions))
            fields.append(Field(key, FIELD_LABELS.get(key, key),
                                tuple((shown(game, v), v) for v in values), values[0]))
    return [Control(label, kind, tuple(fixed), tuple(fields), len(actions))]


def _is_card_list(actions: list[Action], key: str) -> bool:
    """Is ``key`` a list of card ids (split into one drop-down per position)?"""
    return all(isinstance(a[key], tuple) and all(isinstance(v, str) for v in a[key])
               for a in actions) and len({len(a[key]) for a in actions}) == 1


def _list_fields(game: Game, key: str, actions: list[Action]) -> list[Field]:
    """One drop-down per position of a card list: named after its category when every action
    has the same category there (suspect, weapon, room), else "card 1", "card 2" over every
    card that may be named (the 2018 game asks about any two items)."""
    size = len(actions[0][key])
    columns = [list(dict.fromkeys(a[key][i] for a in actions)) for i in range(size)]
    cats = [{game.edition.card(c).category for c in col} for col in columns]
    if all(len(c) == 1 for c in cats) and len({next(iter(c)) for c in cats}) == size:
        names = {cat.id: cat.name.lower() for cat in game.edition.categories}
        return [Field(f"{key}.{i}", names.get(next(iter(cats[i])), f"card {i + 1}"),
                      tuple((shown(game, v), v) for v in col), col[0])
                for i, col in enumerate(columns)]
    order = {c.id: n for n, c in enumerate(game.edition.cards)}
    every = sorted({v for col in columns for v in col}, key=lambda v: order.get(v, len(order)))
    options = tuple((shown(game, v), v) for v in every)
    return [Field(f"{key}.{i}", f"card {i + 1}", options, every[min(i, len(every) - 1)])
            for i in range(size)]


# ---------------------------------------------------------------------------------------------
# Your log
# ---------------------------------------------------------------------------------------------

Entry = str | int
"""A log entry: a line of text, or the index of an event (shown as your record holds it)."""


def opening(game: Game, seat: int) -> list[Entry]:
    """The first lines of a seat's log: the game, who you are, your cards."""
    record = game.record(seat)
    me = game.names[seat]
    who = f"You are {me}"
    characters = getattr(game, "characters", None)
    if characters:
        who += f", playing {shown(game, characters[seat])}"
    lines: list[Entry] = [
        f"{game.edition.name}, {len(game.names)} players ({', '.join(game.names)}), "
        f"seed {game.seed}. {who}.",
        f"Your hand: {', '.join(c.name for c in record.hand) or 'no cards'}"]
    if record.face_up:
        lines.append(f"Face up for everyone: {', '.join(c.name for c in record.face_up)}")
    if record.fugitive:
        lines.append(f"{record.fugitive} is the fugitive")
    return lines + _turn_line(game, seat)


def _turn_line(game: Game, seat: int) -> list[Entry]:
    """A "-- P2's turn --" line (nothing once the game is over)."""
    if game.is_over or game.current is None:
        return []
    turn = getattr(game, "turn", game.current)
    whose = "your" if turn == seat else f"{game.names[turn]}'s"
    return [f"-- {whose} turn --"]


def _private_tip(game: Game, action: Action) -> bool:
    """Is this action card a Private Tip (2002), whose wording only two players read?"""
    kind_of = getattr(game, "action_kind", None)
    return kind_of is not None and kind_of(action["card"]).kind == "private-tip"


def narrate(game: Game, seat: int, action: Action, log_from: int, events_from: int,
            turn_before: Any = None) -> list[Entry]:
    """What ``seat`` learns from ``action``, just applied to ``game``.

    ``log_from`` and ``events_from`` are the lengths of ``game.log`` and ``game.events``
    before the action. The action is told from its public arguments only (a card shown
    privately is never named here); its events follow as indices into ``seat``'s record.
    The engine's log is read only for a roll (its first line is the dice) and at the end (its
    last line gives the winner and the envelope, which everybody sees then).
    """
    g, kind = game, action.kind
    who = g.names[action.seat]
    new_events = len(g.events) - events_from
    out: list[Entry] = []
    if kind == "roll":
        out.append(g.log[log_from] if len(g.log) > log_from else f"{who} rolls")
        clue = getattr(g, "clue_card", None)
        if clue is not None:
            out.append(f"{who} draws a Clue card: {clue}")
    elif kind == "passage":
        out.append(f"{who} takes the secret passage to the {shown(g, action['to'])}")
    elif kind == "stay":
        room = g.room_of(action.seat) if hasattr(g, "room_of") else None
        out.append(f"{who} stays in the {shown(g, room)}" if room else f"{who} stays")
    elif kind == "move":
        to = action["to"]
        out.append(f"{who} moves into the {shown(g, to)}" if isinstance(to, str)
                   else f"{who} moves to {shown(g, to)}")
    elif kind in ("suggest", "ask") and not new_events:
        named = shown(g, action.get("cards") or action.get("items") or ())
        room = g.room_of(action.seat) if hasattr(g, "room_of") else None
        where = f" in the {shown(g, room)}" if room else ""
        out.append(f"{who} asks about {named}{where}; {g.names[g.current]} must choose a card "
                   f"to show")
    elif kind in ("show", "reveal") and action.seat == seat and not new_events:
        out.append(f"You ({who}) show {shown(g, action['card'])}")
    elif kind == "pass":
        out.append(f"{who} says they cannot show a card")
    elif kind == "clue":
        out.append(f"{who} picks {action['player']} for the Clue card")
    elif kind == "accuse" and not new_events:
        out.append(f"{who} makes an accusation, face down")
    elif kind == "decline":
        out.append(f"{who} does not accuse")
    elif kind == "end":
        out.append(f"{who} ends the turn")
    elif kind == "play" and _private_tip(g, action) and seat != action.seat and \
            g.names[seat] != action.get("target"):
        # A Private Tip is passed face down: onlookers see who passed it to whom, not its words.
        out.append(f"{who} passes {action['target']} a Private Tip")
    elif kind == "play":
        text = f"{who} plays {action['card']}"
        for key in ("target", "destination", "cards"):
            if action.get(key) is not None:
                text += " " + {"target": "on", "destination": "to",
                               "cards": "naming"}[key] + " " + shown(g, action[key])
        out.append(text)
    out += range(events_from, len(g.events))
    if g.is_over:
        out.append(g.log[-1])
    elif getattr(g, "turn", None) != turn_before:
        out += _turn_line(g, seat)
    return out


def joins_accusation(game: Game, action: Action) -> bool:
    """Does ``action`` (about to be applied) join an accusation already declared this turn (the
    2018 game: "Ask if anyone else wants to accuse")? Then it is turned over with that one."""
    return action.kind == "accuse" and bool(getattr(game, "accusing", None))


def ending(game: Game, seat: int, joined: Sequence[bool]) -> list[str]:
    """Why the game ended, told to ``seat``: every accusation in the order it was judged (its
    cards as ``seat``'s record holds them, so a wrong accusation made face down stays face
    down), who won and why, and the solution, which everybody sees at the end.

    ``joined[i]`` says whether the i-th accuse action joined the one before it (see
    :func:`joins_accusation`); accusations made together are judged in the order agreed, and
    the first right one wins, so a learner who was right too can still lose.
    """
    if not game.is_over:
        return []
    events = [e for e in game.record(seat).events if isinstance(e, Accuse)]

    def who(name: str) -> str:
        return "you" if name == game.names[seat] else name

    def cards(event: Any) -> str:
        return (", ".join(c.name for c in event.named) if event.named
                else "three cards, face down")

    rounds: list[list[Any]] = []
    for n, event in enumerate(events):
        if rounds and n < len(joined) and joined[n]:
            rounds[-1].append(event)
        else:
            rounds.append([event])
    winner = game.winner
    lines = [("You won!" if winner == seat else "Nobody won." if winner is None
              else f"{game.names[winner]} won.")]
    for group in rounds:
        if len(group) == 1:
            event = group[0]
            was = "were" if who(event.by) == "you" else "was"
            verdict = (f"{was} right: the crime is solved" if event.correct else
                       f"{was} wrong, so {who(event.by)} could only answer questions from "
                       "then on")
            lines.append(f"{who(event.by).capitalize()} accused {cards(event)}, and {verdict}.")
            continue
        first, others = group[0].by, [who(e.by) for e in group[1:]]
        lines.append(f"{who(first).capitalize()} said they were ready to accuse and "
                     f"{' and '.join(others)} accused too. The accusations were turned over "
                     "together and judged in the order agreed; the first right one wins:")
        right = [e for e in group if e.correct]
        for k, event in enumerate(group, start=1):
            lines.append(f"  {k}. {who(event.by)}: {cards(event)}: "
                         f"{'right' if event.correct else 'wrong'}")
        if not right:
            lines.append("Nobody was right: the criminal outwitted every accuser.")
        else:
            lines.append(f"{who(right[0].by).capitalize()} came first of those who were "
                         f"right, so {who(right[0].by)} won.")
            if any(e.by == game.names[seat] for e in right[1:]):
                lines.append(f"You were right too, but {right[0].by} came before you in the "
                             "order.")
    if winner is not None and not any(e.correct for e in events) and game.log:
        lines.append(f"How: {game.log[-1]}.")   # a win by another rule than accusing
    if not events and winner is None:
        lines.append("Nobody could accuse any more.")
    envelope = getattr(game, "deal", None)
    if envelope is not None:
        lines.append("The solution: " + ", ".join(c.name for c in envelope.envelope) + ".")
    return lines


def accusation_warnings(game: Game, seat: int, action: Action) -> list[str]:
    """What a careful detective checks before accusing: a named card that ``seat`` holds, or
    that lies face up, cannot be in the envelope."""
    record = game.record(seat)
    named = [game.edition.card(c) for c in action.get("cards") or ()]
    lines = []
    held = [c.name for c in named if c in record.hand]
    if held:
        lines.append(f"You hold {' and '.join(held)}: "
                     f"{'it is' if len(held) == 1 else 'they are'} not in the envelope.")
    seen = [c.name for c in named if c in record.face_up]
    if seen:
        lines.append(f"{' and '.join(seen)} {'is' if len(seen) == 1 else 'are'} face up on "
                     "the table: not in the envelope.")
    return lines


# ---------------------------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------------------------

class Table(InteractiveView):
    """Your seat at a game of any edition, with bots in the other seats.

    ``Table(edition, players=3, seed=0, seat=0, bots=("detective",), **options)`` starts a new
    game (``options`` go to the game: e.g. ``dice=1``); :meth:`for_game` sits down at a game
    already made. ``bots`` names the bot of each other seat in seat order (``detective``,
    ``random`` or ``explorer``, or any object with ``choose(game, seat)``); the last one fills
    the seats left over. Bots play at once, until it is your move.

    ``notes="learner"`` (the default) gives you your own notepad to fill in, checked and
    hinted by the engine (:class:`~cluedo_lab.views.learner.LearnerNotepad`);
    ``notes="engine"`` shows the engine's exact notepad instead. :meth:`use_notes` switches.
    ``helps`` (a class's settings) may leave out ``"reveal"`` (no Reveal on your notepad) or
    ``"engine"`` (no engine's notepad).
    An accusation from a button waits for :meth:`confirm` (warning you if you hold one of its
    cards); at the end, :meth:`ending` says who won and why.
    """

    def __init__(self, edition: Edition | str, players: int | Sequence[str] = 3,
                 seed: int = 0, seat: int = 0, bots: Sequence[Any] = ("detective",),
                 notes: str = "learner", helps: Collection[str] = HELPS, **options: Any):
        self.helps = frozenset(helps)
        self._sit(new_game(edition, players, seed, **options), seat, bots, notes)

    @classmethod
    def for_game(cls, game: Game, seat: int = 0, bots: Sequence[Any] = ("detective",),
                 notes: str = "learner") -> Table:
        """A table at ``game`` as it stands (its past is told from ``seat``'s view)."""
        table = cls.__new__(cls)
        table.helps = HELPS
        table._sit(game, seat, bots, notes)
        return table

    def _sit(self, game: Game, seat: int, bots: Sequence[Any], notes: str) -> None:
        if not 0 <= seat < len(game.names):
            raise ValueError(f"there is no seat {seat} (seats 0-{len(game.names) - 1})")
        if not bots:
            raise ValueError("name at least one bot")
        if notes not in NOTES:
            raise ValueError(f"notes is one of {', '.join(NOTES)}, not {notes!r}")
        if notes == "engine" and "engine" not in self.helps:
            raise ValueError("the engine's notepad is turned off at this table")
        self.notes = notes
        self.pending: Action | None = None
        self._joined: list[bool] = []
        self._learner: LearnerNotepad | None = None
        self.game = game
        self.seat = seat
        others = [s for s in range(len(game.names)) if s != seat]
        self.bots = {s: _bot(game, bots[min(k, len(bots) - 1)], game.seed * 1000 + s)
                     for k, s in enumerate(others)}
        self.message = ""
        self._entries: list[Entry] = []
        self._told = -1
        self._record: tuple[int, Any] = (-1, None)
        self._known: tuple[int, Knowledge | None] = (-1, None)
        self._notepad: Notepad | None = None
        self._catch_up()
        self._run_bots()

    # -- acting ------------------------------------------------------------------------------
    @property
    def me(self) -> str:
        return self.game.names[self.seat]

    def controls(self) -> list[Control]:
        return controls(self.game, self.seat)

    def act(self, action: Action | Mapping[str, Any]) -> bool:
        """Do your ``action`` (an Action or its JSON form), then let the bots play until it is
        your move again. An illegal action changes nothing: :attr:`message` says why and the
        result is False."""
        self._catch_up()
        try:
            if not isinstance(action, Action):
                action = Action.from_dict(action)
            if action.seat != self.seat:
                raise IllegalAction(f"you sit in seat {self.seat} ({self.me}), not seat "
                                    f"{action.seat}")
            self._step(action)
        except CluedoLabError as error:
            self.message = refusal(str(error))
            self._update()
            return False
        self.message = ""
        self.pending = None
        self._busy()
        self._run_bots()
        self._update()
        return True

    def play(self, kind: str, **args: Any) -> bool:
        """``act`` for your seat: ``table.play("ask", items=["Plum", "Rope"])``."""
        return self.act(Action.make(kind, self.seat, **args))

    def press(self, label: str, **values: Any) -> bool:
        """Press the control labelled ``label`` with these drop-down values (field names as
        in :class:`Field`, e.g. ``{"cards.0": "plum"}``), as a click does."""
        found = [c for c in self.controls() if c.label == label]
        if not found:
            self.message = ("Choose again: the buttons now are "
                            + "; ".join(c.label for c in self.controls()) + ".")
            self._update()
            return False
        try:
            action = found[0].action(self.seat, values)
        except CluedoLabError as error:
            self.message = refusal(str(error))
            self._update()
            return False
        return self._chosen(action)

    def _chosen(self, action: Action) -> bool:
        """A button's action: an accusation waits for :meth:`confirm`, anything else is done."""
        if action.kind != "accuse":
            return self.act(action)
        g = self.game
        if not g.is_legal(action):
            action = g._canonical(action)
            if not g.is_legal(action):
                self.message = refusal(g.why_illegal(action))
                self._update()
                return False
        self.pending = action
        self.message = ""
        self._update()
        return False

    def confirmation(self) -> str:
        """The question asked before a pending accusation is made, with any warning."""
        if self.pending is None:
            return ""
        named = ", ".join(shown(self.game, c) for c in self.pending["cards"])
        lines = [f"Accuse {named}? A wrong accusation puts you out of the game: you would "
                 "only answer questions from then on."]
        lines += ["Careful! " + w for w in accusation_warnings(self.game, self.seat,
                                                               self.pending)]
        return "\n".join(lines)

    def confirm(self) -> bool:
        """Make the pending accusation (after :meth:`press` or a click on Accuse)."""
        if self.pending is None:
            self.message = "Choose an accusation first, then confirm it."
            self._update()
            return False
        action, self.pending = self.pending, None
        return self.act(action)

    def cancel(self) -> None:
        """Think again: drop the pending accusation."""
        self.pending = None
        self.message = ""
        self._update()

    def _step(self, action: Action) -> None:
        g = self.game
        log_from, events_from, turn = len(g.log), len(g.events), getattr(g, "turn", None)
        joined = joins_accusation(g, action)
        g.apply(action)
        if action.kind == "accuse":
            self._joined.append(joined)
        self._entries += narrate(g, self.seat, g.history[-1], log_from, events_from, turn)
        self._told = len(g.history)

    def _run_bots(self) -> None:
        g = self.game
        for _ in range(MAX_BOT_ACTIONS):
            if g.is_over or g.current == self.seat:
                return
            seat = g.current
            try:
                self._step(self.bots[seat].choose(g, seat))
            except Exception as error:  # a bot's bug must not lose the table
                self.message = f"The bot in seat {seat} ({g.names[seat]}) failed: {error!r}"
                return
        self.message = f"The bots made {MAX_BOT_ACTIONS} actions without reaching your move"

    def _catch_up(self) -> None:
        """Tell the game's past again if it moved without this table (or on sitting down):
        replay the saved actions on a twin game and narrate each."""
        g = self.game
        if self._told == len(g.history):
            return
        twin = type(g)(g.edition, list(g.names), g.seed, **g.options)
        entries = opening(twin, self.seat)
        joined = []
        for action in g.history:
            log_from, events_from, turn = len(twin.log), len(twin.events), getattr(
                twin, "turn", None)
            if action.kind == "accuse":
                joined.append(joins_accusation(twin, action))
            twin.apply(action)
            entries += narrate(twin, self.seat, action, log_from, events_from, turn)
        self._entries = entries
        self._joined = joined
        self._told = len(g.history)

    # -- reading -----------------------------------------------------------------------------
    def record(self) -> Record:
        """Your record: what your seat has seen (parsed again only after new events)."""
        if self._record[0] != len(self.game.events):
            self._record = (len(self.game.events), self.game.record(self.seat))
        return self._record[1]

    def log(self) -> list[str]:
        """Your log: what happened, as far as you could see it."""
        self._catch_up()
        events = self.record().events
        return [e if isinstance(e, str) else events[e].describe() for e in self._entries]

    def knowledge(self) -> Knowledge | None:
        """The knowledge engine on your record (None if your record is contradictory, as after
        a lie when false witnesses are allowed)."""
        if self._known[0] != len(self.game.events):
            try:
                known: Knowledge | None = Knowledge(self.record())
            except Contradiction:
                known = None
            self._known = (len(self.game.events), known)
        return self._known[1]

    @property
    def notepad(self) -> LearnerNotepad | Notepad | None:
        """The notepad shown beside your log (:attr:`notes` says which), following your record."""
        return self.learner_notepad if self.notes == "learner" else self.engine_notepad

    @property
    def learner_notepad(self) -> LearnerNotepad | None:
        """Your own notepad: your marks, checked against your record."""
        self._follow_record()
        return self._learner

    @property
    def engine_notepad(self) -> Notepad | None:
        """The engine's exact notepad of your record."""
        self._follow_record()
        return self._notepad

    def use_notes(self, notes: str) -> Table:
        """Switch the notepad beside your log: ``"learner"`` (yours) or ``"engine"``."""
        if notes not in NOTES:
            raise ValueError(f"notes is one of {', '.join(NOTES)}, not {notes!r}")
        if notes == "engine" and "engine" not in self.helps:
            raise ValueError("the engine's notepad is turned off at this table")
        self.notes = notes
        self._update()
        return self

    def _follow_record(self) -> None:
        known = self.knowledge()
        if known is None:
            return
        if self._notepad is None:
            self._notepad = Notepad(known)
        elif self._notepad.knowledge is not known:
            self._notepad.knowledge = known
            self._notepad._update()
        if self._learner is None:
            self._learner = LearnerNotepad(known, can_reveal="reveal" in self.helps)
        elif self._learner.knowledge is not known:
            self._learner.follow(known)

    def ending(self) -> list[str]:
        """Once the game is over: who won and why, and the solution (see :func:`ending`)."""
        self._catch_up()
        return ending(self.game, self.seat, self._joined)

    def whose_move(self) -> str:
        g = self.game
        if g.is_over:
            return ("Game over: " + ("nobody won" if g.winner is None else
                                     "you won!" if g.winner == self.seat else
                                     f"{g.names[g.winner]} won"))
        if g.current == self.seat:
            kinds = sorted({a.kind for a in g.legal_actions()})
            return f"Your move ({self.me}): {', '.join(kinds)}"
        return f"{g.names[g.current]} to act"

    def _facts(self) -> list[str]:
        """Your hand and the public state beside it."""
        g = self.game
        record = self.record()
        lines = [f"You: {self.me}. Your hand: {', '.join(c.name for c in record.hand)}"]
        if hasattr(g, "action_cards"):
            cards = g.action_cards(self.seat)
            lines.append(f"Your action cards: {', '.join(cards) or 'none'}")
        markers = getattr(g, "markers", None)
        if markers is not None:
            lines.append("Destination markers: " + ", ".join(
                f"{n} {shown(g, m)}" for n, m in zip(g.names, markers, strict=True)
                if m is not None))
        if hasattr(g, "board"):   # where the pieces and weapons stand
            lines += g.status().splitlines()
        return lines

    def board_svg(self) -> str:
        """The board with every piece, rows and columns numbered (the buttons name squares as
        "square 7, 17"); during your move, the squares you may move to are shaded (the rooms
        you may enter are named on the buttons)."""
        if not hasattr(self.game, "board"):
            return ""
        squares = {a["to"]: 1 for c in self.controls() if c.kind == "move"
                   for a in makeable(c, self.seat) if not isinstance(a["to"], str)}
        return game_svg(self.game, heat=squares or None, coordinates=True)

    def text(self) -> str:
        """The static rendering: whose move, your hand, the legal actions, your log's end."""
        log = self.log()
        lines = [self.whose_move(), *self.ending(), *self._facts()]
        if self.message:
            lines.append(self.message)
        if self.pending is not None:
            lines.append(self.confirmation())
        if self.controls():
            lines.append("Legal actions:")
            lines += ["  " + c.summary() for c in self.controls()]
        lines.append(f"Log (last {min(LOG_TAIL, len(log))} of {len(log)} lines):")
        lines += ["  " + line for line in log[-LOG_TAIL:]]
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        notepad = self.notepad
        board = self.board_svg()
        return (f"<div class='cluedo-table' style='display:flex;gap:1.5em;flex-wrap:wrap;"
                f"align-items:flex-start'><div>{pre(self.text())}</div>"
                f"<div>{notepad._repr_html_() if notepad else ''}</div>"
                f"{f'<div>{board}</div>' if board else ''}</div>")

    # -- live --------------------------------------------------------------------------------
    def button(self, label: str) -> ipywidgets.Button:
        """The live button labelled ``label`` (for tests and notebooks)."""
        self.widget()
        for control, _fields, button in self._rows:
            if control.label == label:
                return button
        raise KeyError(f"no button {label!r}; buttons: "
                       + "; ".join(c.label for c, _, _ in self._rows))

    def dropdown(self, label: str, field: str) -> ipywidgets.Dropdown:
        """The live drop-down ``field`` (a Field name such as ``"cards.0"``, or its label such
        as ``"suspect"``) of the control labelled ``label``."""
        self.widget()
        for control, fields, _button in self._rows:
            if control.label == label:
                for f in control.fields:
                    if field in (f.name, f.label):
                        return fields[f.name]
        raise KeyError(f"no drop-down {field!r} for {label!r}")

    def _build(self) -> ipywidgets.Widget:
        import ipywidgets as w

        self._rows: list[tuple[Control, dict[str, Any], Any]] = []
        self._status = w.HTML()
        self._status.add_class("cluedo-table-status")
        self._message = w.HTML()
        self._message.add_class("cluedo-table-message")
        self._controls = w.VBox()
        self._controls.add_class("cluedo-table-controls")
        self._log = w.HTML()
        self._log.add_class("cluedo-table-log")
        self._question = w.HTML()
        self._yes = w.Button(description="Yes, accuse", button_style="danger")
        self._yes.add_class("cluedo-confirm-accuse")
        self._yes.on_click(lambda _b: self.confirm())
        self._no = w.Button(description="Cancel: think again")
        self._no.add_class("cluedo-cancel-accuse")
        self._no.on_click(lambda _b: self.cancel())
        self._confirm = w.VBox([self._question, w.HBox([self._yes, self._no])],
                               layout=w.Layout(border="2px solid #b71c1c", padding="0 .6em .4em",
                                               display="none"))
        self._confirm.add_class("cluedo-table-confirm")
        left = w.VBox([self._status, self._controls, self._confirm, self._message, self._log],
                      layout=w.Layout(width="40em", max_width="100%"))
        self._switch = w.ToggleButtons(options=[(text, key) for key, text in NOTES.items()],
                                       value=self.notes, style={"button_width": "auto"})
        self._switch.add_class("cluedo-table-notes-switch")
        if "engine" not in self.helps:
            self._switch.layout.display = "none"   # one notepad: nothing to switch
        self._switch.observe(lambda c: c["new"] != self.notes and self.use_notes(c["new"]),
                             names="value")
        self._notes_box = w.VBox()
        right = w.VBox([self._switch, self._notes_box], layout=w.Layout(max_width="100%"))
        parts: list[Any] = [w.HBox([left, right], layout=w.Layout(flex_flow="row wrap",
                                                                   grid_gap="1em 1.5em"))]
        self._board = None
        if hasattr(self.game, "board"):
            self._board = w.HTML()
            self._board.add_class("cluedo-table-board")
            parts.append(self._board)
        box = w.VBox(parts)
        box.add_class("cluedo-table")
        return box

    def _busy(self) -> None:
        """Show that the bots are playing (the widget's messages reach the page at once)."""
        if self._ui is None:
            return
        self._status.value = "<b>The bots are playing…</b>"
        for _control, _fields, button in self._rows:
            button.disabled = True

    def _refresh(self) -> None:
        facts = "<br>".join(escape(line) for line in self._facts())
        ending = "".join(f"<div>{escape(line)}</div>" for line in self.ending()[1:])
        if ending:
            ending = (f"<div class='cluedo-table-ending' style='white-space:pre-wrap;"
                      f"background:#fff8e1;padding:.3em .5em'>{ending}</div>")
        self._status.value = (f"<div style='line-height:1.4'><p style='font-size:110%'><b>"
                              f"{escape(self.whose_move())}</b></p>{ending}<p>{facts}</p>"
                              "</div>")
        self._message.value = (f"<p style='color:#b71c1c'><b>{escape(self.message)}</b></p>"
                               if self.message else "")
        controls = tuple(self.controls())
        if controls == tuple(c for c, _, _ in self._rows):
            # The same choices as on screen: keep the widgets, so that a drop-down the learner
            # is changing right now is not swapped for a new one (the change would be lost).
            for _control, _fields, button in self._rows:
                button.disabled = False
        else:
            self._build_controls(controls)
        self._question.value = "<div style='line-height:1.4'>" + "".join(
            f"<p><b>{escape(line)}</b></p>" if n == 0 else
            f"<p style='color:#b71c1c'>{escape(line)}</p>"
            for n, line in enumerate(self.confirmation().splitlines())) + "</div>"
        self._confirm.layout.display = "none" if self.pending is None else "flex"
        if self._board is not None:
            self._board.value = self.board_svg()
        self._switch.value = self.notes
        notepad = self.notepad
        if notepad is not None and self._notes_box.children != (notepad.widget(),):
            self._notes_box.children = (notepad.widget(),)
        # Last, so that a page waiting for a new log line sees every other part updated.
        # column-reverse keeps the scroll box at its end: the newest lines show first.
        log = self.log()[-200:]
        self._log.value = (
            "<div style='display:flex;flex-direction:column-reverse;max-height:24em;"
            "overflow-y:auto;border:1px solid #ddd;padding:.3em .5em'>"
            "<div class='cluedo-table-lines' style='font-family:monospace;font-size:90%;"
            f"white-space:pre-wrap;line-height:1.35'>{escape(chr(10).join(log))}</div></div>")

    def _build_controls(self, controls: tuple[Control, ...]) -> None:
        import ipywidgets as w

        # Keep what the learner picked in drop-downs that are still offered.
        picked = {(c.label, name): d.value for c, fields, _ in self._rows
                  for name, d in fields.items()}
        self._rows = []
        rows = []
        for control in controls:
            fields = {}
            for f in control.fields:
                value = picked.get((control.label, f.name), f.default)
                if value not in {v for _, v in f.options}:
                    value = f.default
                # Classes given at opening: add_class would send a message each (see
                # views.base.CellLooks on why a new game counts its messages).
                dropdown = w.Dropdown(options=list(f.options), value=value,
                                      description=f.label,
                                      style={"description_width": "initial"},
                                      layout=w.Layout(width="auto"),
                                      _dom_classes=("cluedo-table-field",
                                                    f"cluedo-field-{slug(f.label)}"))
                fields[f.name] = dropdown
            button = w.Button(description=control.label, layout=w.Layout(width="auto"),
                              button_style="primary" if control.kind != "accuse" else "danger",
                              tooltip=control.summary(),
                              _dom_classes=("cluedo-table-action",
                                            f"cluedo-action-{control.kind}"))
            button.on_click(self._clicker(control, fields))
            self._rows.append((control, fields, button))
            rows.append(w.HBox([*fields.values(), button],
                               layout=w.Layout(flex_flow="row wrap", align_items="center")))
        self._controls.children = rows

    def _clicker(self, control: Control, fields: Mapping[str, Any]) -> Callable[[Any], None]:
        def click(_button: Any) -> None:
            try:
                action = control.action(self.seat, {k: d.value for k, d in fields.items()})
            except CluedoLabError as error:
                self.message = refusal(str(error))
                self._update()
                return
            self._chosen(action)
        return click


# ---------------------------------------------------------------------------------------------
# Choosing a game
# ---------------------------------------------------------------------------------------------

class TableChooser(InteractiveView):
    """Pick an edition, the number of players, a seed and the bots, and sit down at a new
    :class:`Table` (the classroom app's first screen).

    Every press of **New game** answers: a new table (the same settings deal the same cards
    again, and the note under the buttons says so), a numbered note, and the old table's
    widgets closed so a long lesson does not pile them up in the page. Functions in
    :attr:`followers` are called with each new table (the classroom's board follows it).
    """

    def __init__(self, edition: str = "cluedo-card-game-2018", players: int = 3, seed: int = 0,
                 bots: str = "detective", notes: str = "learner",
                 helps: Collection[str] = HELPS):
        self.editions = {e.id: e for e in all_editions()}
        self.bot_choices = list(student_bots(("detective", "random", "explorer")))
        """The bots the drop-down offers (never one meant only for tests; a class may offer
        fewer)."""
        self.helps = frozenset(helps)
        self._settings = (edition, self._players(edition, players), seed, bots)
        self.table = Table(edition, self._settings[1], seed, bots=(bots,), notes=notes,
                           helps=self.helps)
        self.bots = bots
        self.games = 1
        self.note = ""
        self.followers: list[Callable[[Table], Any]] = []

    def _players(self, edition: str, players: int) -> int:
        ed = self.editions[edition] if edition in self.editions else load_edition(edition)
        return min(max(players, ed.min_players), ed.max_players)

    def new(self, edition: str, players: int = 3, seed: int = 0, bots: str | None = None
            ) -> Table:
        """Start a new game (players are kept within the edition's range)."""
        self.bots = bots or self.bots
        old = self.table
        settings = (edition, self._players(edition, players), seed, self.bots)
        same, self._settings = settings == self._settings, settings
        self.table = Table(edition, settings[1], seed, bots=(self.bots,), notes=old.notes,
                           helps=self.helps)
        self.games += 1
        game = self.table.game
        ed = game.edition
        self.note = (f"Game {self.games} started: {ed.name} ({ed.publisher} {ed.year}), "
                     f"{len(game.names)} "
                     f"players, seed {seed}, {self.bots} bots."
                     + (" The same settings deal the same cards: change the seed for another "
                        "deal." if same else ""))
        if self._ui is not None:
            self._table_box.children = [self.table.widget()]
            if old._ui is not None:
                close_tree(old._ui)
            self._refresh()
        for follow in self.followers:
            follow(self.table)
        return self.table

    def __repr__(self) -> str:
        return repr(self.table)

    def _repr_html_(self) -> str:
        return self.table._repr_html_()

    def start_button(self) -> ipywidgets.Button:
        self.widget()
        return self._start

    def _build(self) -> ipywidgets.Widget:
        import ipywidgets as w

        self._edition = w.Dropdown(options=[(f"{e.name} — {e.publisher} {e.year}", e.id)
                                            for e in self.editions.values()],
                                   value=self.table.game.edition.id, description="edition",
                                   style={"description_width": "initial"},
                                   layout=w.Layout(width="38em"))
        self._edition.add_class("cluedo-chooser-edition")
        short = {"description_width": "initial"}
        game = self.table.game
        # Both boxes send every keystroke (continuous_update) and nothing else ever writes to
        # them while the learner may be typing: see _refresh.
        self._players_box = w.BoundedIntText(description="players", value=len(game.names),
                                             min=2, max=6, continuous_update=True, style=short,
                                             layout=w.Layout(width="8.5em"))
        self._players_box.add_class("cluedo-chooser-players")
        self._seed = w.IntText(description="seed", value=self.table.game.seed, style=short,
                               continuous_update=True, layout=w.Layout(width="9em"))
        self._seed.add_class("cluedo-chooser-seed")
        bots = [*self.bot_choices, *([] if self.bots in self.bot_choices else [self.bots])]
        self._bots = w.Dropdown(options=bots, value=self.bots,
                                description="bots", style=short,
                                layout=w.Layout(width="11em"))
        self._start = w.Button(description="New game", button_style="success")
        self._start.add_class("cluedo-chooser-start")
        self._start.on_click(lambda _b: self._press_new())
        self._note = w.HTML()
        self._note.add_class("cluedo-chooser-note")
        self._table_box = w.VBox([self.table.widget()])
        box = w.VBox([w.HBox([self._edition, self._players_box, self._seed, self._bots,
                              self._start], layout=w.Layout(flex_flow="row wrap")),
                      self._note, self._table_box])
        box.add_class("cluedo-chooser")
        return box

    def _press_new(self) -> None:
        """New game from the controls; the button is off while the bots make their first
        moves, so a second click cannot start a game the first one then replaces."""
        self._start.disabled = True
        self._start.description = "Dealing…"
        try:
            self.new(self._edition.value, self._players_box.value, self._seed.value,
                     self._bots.value)
        finally:
            self._start.description = "New game"
            self._start.disabled = False

    def _refresh(self) -> None:
        """Show the game being played. The boxes are written only when they differ from it (a
        game started from code, or a number of players the edition does not allow): the old
        chooser rewrote the players box at every edition change, and the page then reset a
        number typed just after it, so New game dealt the old game again ("ignored")."""
        game = self.table.game
        if self._edition.value != game.edition.id:
            self._edition.value = game.edition.id
        if self._players_box.value != len(game.names):
            self._players_box.value = len(game.names)
        if self._seed.value != game.seed:
            self._seed.value = game.seed
        self._note.value = (f"<p style='color:#1b5e20'>{escape(self.note)}</p>" if self.note
                            else "")


def close_tree(widget: Any) -> None:
    """Close a widget and every widget under it (its children, layout and style, and the looks
    a notepad's cells share): a view replaced for good, so the page and the kernel can forget
    its models."""
    for child in getattr(widget, "children", ()):
        close_tree(child)
    for part in (getattr(widget, "layout", None), getattr(widget, "style", None),
                 *getattr(widget, "shared_models", list)()):
        if part is not None and hasattr(part, "close"):
            part.close()
    widget.close()
