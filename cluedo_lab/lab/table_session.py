"""A seat at a game with bots in the other seats: what its player may do, and what they are told.

A :class:`TableSession` is everything a table is except its widgets (those are
:class:`~cluedo_lab.views.table.Table`'s), so it can be played and read without ipywidgets:

- what you may do: :meth:`~TableSession.controls` (:mod:`.table_controls`), and
  :meth:`~TableSession.act`, :meth:`~TableSession.press` and an accusation that waits for
  :meth:`~TableSession.confirm` (with a warning when you hold one of its cards);
- what you are told: :meth:`~TableSession.log` (:mod:`.table_story`), your record and its
  knowledge, :meth:`~TableSession.ending` once the game is over, and the static text
  :meth:`~TableSession.text`;
- what you wrote: with a learner's notepad (:attr:`~TableSession.notes`), the marks on it as
  they stood when each event arrived (:meth:`~TableSession.marks`), saved with the game
  (:meth:`~TableSession.save`) for the game review to check event by event.

After your action the bots play every other seat through the one game loop
(:func:`~cluedo_lab.games.loop.run`, your seat waiting for you) until you must act again (your
turn, or a card to show). An illegal action (a stale click, the same card twice) leaves the
game unchanged and :attr:`~TableSession.message` gives the engine's reason. What the seat sees
of the game comes only through its :class:`~cluedo_lab.games.seat.Seat`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..bots.registry import Bot, make_bot
from ..games.action import Action
from ..games.game import Game, required
from ..games.loop import run
from ..games.seat import Seat, seat_of
from ..knowledge.engine import Knowledge
from ..records import Record
from ..rules.errors import ActionLimit, CluedoLabError, Contradiction
from .learner import Cell, LearnerMarks
from .table_controls import Control, controls, shown
from .table_story import Before, Entry, accusation_warnings, ending, narrate, opening

__all__ = ["LOG_TAIL", "MAX_BOT_ACTIONS", "TableSession", "marks_by_event", "refusal",
           "table_player"]

LOG_TAIL = 12
"""Log lines in the static rendering."""

MAX_BOT_ACTIONS = 100_000
"""Bot actions allowed between two of yours before the table gives up (a stuck bot)."""


def refusal(reason: str) -> str:
    """An illegal action's message: the rule that applies, as what to do instead (the engine's
    reasons state the rule, e.g. "a question names 2 different cards")."""
    return f"Choose again: {reason}."


def table_player(kind: str | Bot, seed: int) -> Bot:
    """A bot by its registry name (:func:`cluedo_lab.bots.make_bot`); a bot object (anything
    with ``choose(game, seat)``) is used as it is."""
    return make_bot(kind, seed) if isinstance(kind, str) else kind


def _nothing() -> None:
    """No one to tell that the bots are about to play."""


class TableSession:
    """Seat ``seat`` of ``game``, with the bots named in ``bots`` in the other seats (in seat
    order, the last one filling the seats left over). Bots play at once, until it is your
    move. :attr:`before_bots` is called just before the bots play after your action (a view
    shows that they are playing)."""

    def __init__(self, game: Game, seat: int = 0,
                 bots: Sequence[str | Bot] = ("quick-detective",)):
        self.seat: Seat[Game] = seat_of(game, seat)
        if not bots:
            raise ValueError("name at least one bot")
        others = [s for s in range(len(game.names)) if s != seat]
        self.bots: dict[int, Bot] = {
            s: table_player(bots[min(k, len(bots) - 1)], game.seed * 1000 + s)
            for k, s in enumerate(others)}
        self.message = ""
        self.pending: Action | None = None
        self.before_bots: Callable[[], None] = _nothing
        self._entries: list[Entry] = []
        self._joined: list[bool] = []
        self._told = -1
        self._before: Before | None = None
        self._asked = seat
        self._record: tuple[int, Record | None] = (-1, None)
        self._known: tuple[int, Knowledge | None] = (-1, None)
        self.notes: LearnerMarks | None = None
        """The learner's own notepad, once the table gives one: its marks are kept."""
        self._pages: dict[int, dict[Cell, str]] = {}
        self.catch_up()
        self.run_bots()

    def __repr__(self) -> str:
        return f"<TableSession: {self.seat!r}>"

    @property
    def game(self) -> Game:
        return self.seat.game

    @property
    def me(self) -> str:
        return self.seat.name

    # -- acting ------------------------------------------------------------------------------
    def controls(self) -> list[Control]:
        """The buttons and drop-downs of your move (none unless you must act)."""
        return controls(self.seat)

    def act(self, action: Action | Mapping[str, Any]) -> bool:
        """Do your ``action`` (an Action or its JSON form), then let the bots play until it is
        your move again. An illegal action changes nothing: :attr:`message` says why and the
        result is False."""
        if not self.do(action):
            return False
        self.before_bots()
        self.run_bots()
        return True

    def do(self, action: Action | Mapping[str, Any]) -> bool:
        """Your action alone (the bots wait): False, with :attr:`message` saying why, when the
        rules refuse it."""
        self.catch_up()
        try:
            if not isinstance(action, Action):
                action = Action.from_dict(action)
            self._step(self.seat.legal_form(action))
        except CluedoLabError as error:
            self.message = refusal(str(error))
            return False
        self.message = ""
        self.pending = None
        return True

    def play(self, kind: str, **args: Any) -> bool:
        """``act`` for your seat: ``session.play("ask", items=["Plum", "Rope"])``."""
        return self.act(Action.make(kind, self.seat.index, **args))

    def press(self, label: str, **values: Any) -> bool:
        """Press the control labelled ``label`` with these drop-down values (field names as
        in :class:`~.table_controls.Field`, e.g. ``{"cards.0": "plum"}``), as a click does."""
        found = [c for c in self.controls() if c.label == label]
        if not found:
            self.message = ("Choose again: the buttons now are "
                            + "; ".join(c.label for c in self.controls()) + ".")
            return False
        return self.use(found[0], values)

    def use(self, control: Control, values: Mapping[str, Any]) -> bool:
        """A click on ``control`` with these drop-down values (the control may be stale: the
        game then refuses its action)."""
        try:
            action = control.action(self.seat.index, values)
        except CluedoLabError as error:
            self.message = refusal(str(error))
            return False
        return self.choose(action)

    def choose(self, action: Action) -> bool:
        """A button's action: an accusation waits for :meth:`confirm`, anything else is done."""
        if action.kind != "accuse":
            return self.act(action)
        try:
            self.pending = self.seat.legal_form(action)
        except CluedoLabError as error:
            self.message = refusal(str(error))
            return False
        self.message = ""
        return False

    def confirmation(self) -> str:
        """The question asked before a pending accusation is made, with any warning."""
        if self.pending is None:
            return ""
        named = ", ".join(shown(self.seat, c) for c in self.pending["cards"])
        lines = [f"Accuse {named}? A wrong accusation puts you out of the game: you would "
                 "only answer questions from then on."]
        lines += ["Careful! " + w for w in accusation_warnings(self.seat, self.pending)]
        return "\n".join(lines)

    def confirm(self) -> bool:
        """Make the pending accusation (after :meth:`press` or a click on Accuse)."""
        if self.pending is None:
            self.message = "Choose an accusation first, then confirm it."
            return False
        action, self.pending = self.pending, None
        return self.act(action)

    def cancel(self) -> None:
        """Think again: drop the pending accusation."""
        self.pending = None
        self.message = ""

    # -- the bots, and telling what happens --------------------------------------------------
    def run_bots(self) -> None:
        """The bots play through the game loop until you must act (or the game is over); a
        bot that fails or never stops is reported in :attr:`message`, not raised."""
        game = self.game
        players: list[Bot | None] = [None if s == self.seat.index else _Told(self.bots[s], self)
                                     for s in range(len(game.names))]
        try:
            run(game, players, MAX_BOT_ACTIONS)
        except ActionLimit:
            self.message = f"The bots made {MAX_BOT_ACTIONS} actions without reaching your move"
        except Exception as error:  # a bot's bug must not lose the table
            self.message = (f"The bot in seat {self._asked} ({game.names[self._asked]}) "
                            f"failed: {error!r}")
        finally:
            self._tell_last()

    def _bot_asked(self, seat: int) -> None:
        """A bot is asked for ``seat``'s action: the loop has applied the one before."""
        self._tell_last()
        self._before = Before.at(self.seat)
        self._asked = seat

    def _tell_last(self) -> None:
        """Tell the last bot action, if the game took it."""
        before, self._before = self._before, None
        if before is not None and len(self.game.history) > before.actions:
            self._tell(before)

    def _step(self, action: Action) -> None:
        before = Before.at(self.seat)
        self.game.apply(action)
        self._tell(before)

    def _tell(self, before: Before) -> None:
        """Tell the action just applied (the game was as ``before`` took it)."""
        action = self.game.history[-1]
        if action.kind == "accuse":
            self._joined.append(before.joins(action))
        self._entries += narrate(self.seat, action, before)
        self._told = len(self.game.history)
        if self.notes is not None and len(self.game.events) > before.events:
            self._pages[before.events] = dict(self.notes.marks)

    # -- the learner's marks -----------------------------------------------------------------
    def marks(self) -> dict[int, dict[Cell, str]]:
        """The learner's marks after each number of events seen, from the first kept on: as
        they stood when the next event arrived, and after the last event as they stand now.
        Empty without a learner's notepad."""
        if self.notes is None:
            return {}
        return marks_by_event({**self._pages, len(self.game.events): dict(self.notes.marks)},
                              len(self.game.events))

    def saved(self) -> dict[str, Any]:
        """The game as saved (:meth:`Game.to_dict <cluedo_lab.games.game.Game.to_dict>`), with
        the learner's marks under ``marks``: this seat's, for this seat's review only."""
        data = self.game.to_dict()
        kept = self.marks()
        if kept:
            pages, last = [], None
            for events, page in kept.items():
                if page != last:
                    pages.append({"events": events, "marks": [[c, p, m] for (c, p), m
                                                              in sorted(page.items())]})
                last = page
            data["marks"] = {"seat": self.me, "pages": pages}
        return data

    def save(self, path: str | Path) -> Path:
        """Save the game (and the learner's marks) as JSON at ``path``."""
        path = Path(path)
        path.write_text(json.dumps(self.saved(), indent=1) + "\n", encoding="utf-8")
        return path

    def catch_up(self) -> None:
        """Tell the game's past again if it moved without this session (or on sitting down):
        replay the saved actions on a twin game and narrate each."""
        game = self.game
        if self._told == len(game.history):
            return
        twin = seat_of(type(game)(game.edition, list(game.names), game.seed, **game.options),
                       self.seat.index)
        entries = opening(twin)
        joined = []
        for action in game.history:
            before = Before.at(twin)
            if action.kind == "accuse":
                joined.append(before.joins(action))
            twin.game.apply(action)
            entries += narrate(twin, action, before)
        self._entries = entries
        self._joined = joined
        self._told = len(game.history)

    # -- reading -----------------------------------------------------------------------------
    def record(self) -> Record:
        """Your record: what your seat has seen (parsed again only after new events)."""
        events, record = self._record
        if record is None or events != len(self.game.events):
            record = self.seat.record()
            self._record = (len(self.game.events), record)
        return record

    def log(self) -> list[str]:
        """Your log: what happened, as far as you could see it."""
        self.catch_up()
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

    def ending(self) -> list[str]:
        """Once the game is over: who won and why, and the solution
        (:func:`~.table_story.ending`)."""
        self.catch_up()
        return ending(self.seat, self._joined)

    def whose_move(self) -> str:
        g = self.game
        if g.is_over:
            return ("Game over: " + ("nobody won" if g.winner is None else
                                     "you won!" if g.winner == self.seat.index else
                                     f"{g.names[g.winner]} won"))
        if self.seat.to_act:
            kinds = sorted({a.kind for a in self.seat.legal_actions()})
            return f"Your move ({self.me}): {', '.join(kinds)}"
        return f"{g.names[required(g.current, 'seat to act')]} to act"

    def facts(self) -> list[str]:
        """Your hand and the public state beside it."""
        seat = self.seat
        lines = [f"You: {self.me}. Your hand: {', '.join(c.name for c in self.record().hand)}"]
        cards = seat.action_cards
        if cards is not None:
            lines.append(f"Your action cards: {', '.join(cards) or 'none'}")
        markers = seat.markers
        if markers is not None:
            lines.append("Destination markers: " + ", ".join(
                f"{name} {shown(seat, place)}" for name, place in markers))
        return lines + seat.board_lines()

    def move_squares(self) -> list[tuple[int, int]]:
        """The corridor squares your move may end on now (rooms are named on the buttons)."""
        return list(dict.fromkeys(a["to"] for a in self.seat.legal_actions()
                                  if a.kind == "move" and not isinstance(a["to"], str)))

    def board_moves(self) -> dict[tuple[int, int] | str, Action]:
        """Where your piece may go now by a click on the board: each corridor square (row,
        col) and room id your move or a secret passage may end in, with the legal action that
        goes there (a move before a passage to the same room)."""
        targets: dict[tuple[int, int] | str, Action] = {}
        for action in self.seat.legal_actions():
            if action.kind in ("move", "passage"):
                to = action["to"]
                targets.setdefault(to if isinstance(to, str) else (to[0], to[1]), action)
        return targets

    def click_board(self, where: Sequence[int] | str) -> bool:
        """A click on the board at (row, col), or on a room (its id): your piece goes there,
        or into the room that square is part of, by the same action as the drop-down's (then
        the bots play). Anywhere else changes nothing and :attr:`message` says so."""
        board_game = self.seat.board_game
        if board_game is None:
            self.message = "This game has no board."
            return False
        board = board_game.board
        if isinstance(where, str):
            board.room_name(where)  # checks the room id
            room: str | None = where
        else:
            where = (where[0], where[1])
            room = board.room_at(where)
        action = self.board_moves().get(room or where)
        if action is None:
            shown_where = f"the {board.room_name(room)}" if room else shown(self.seat, where)
            self.message = (f"Choose again: your piece cannot go to {shown_where} now"
                            + ("; the highlighted squares and rooms show where it can."
                               if self.board_moves() else "."))
            return False
        return self.choose(action)

    def text(self) -> str:
        """The static rendering: whose move, your hand, the legal actions, your log's end."""
        log = self.log()
        lines = [self.whose_move(), *self.ending(), *self.facts()]
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


class _Told:
    """A bot whose actions the session tells. The game loop asks a bot for an action right
    after it applied the one before, so that is when the session tells that one."""

    def __init__(self, bot: Bot, session: TableSession):
        self.bot = bot
        self.session = session

    def choose(self, game: Game, seat: int) -> Action:
        self.session._bot_asked(seat)
        return self.bot.choose(game, seat)


def marks_by_event(pages: Mapping[int, Mapping[Cell, str]], events: int
                   ) -> dict[int, dict[Cell, str]]:
    """The marks after each number of events seen, from the first page on: each page holds
    until the next (the learner wrote nothing new in between)."""
    out: dict[int, dict[Cell, str]] = {}
    page: dict[Cell, str] = {}
    for seen in range(min(pages, default=events + 1), events + 1):
        page = dict(pages.get(seen, page))
        out[seen] = page
    return out
