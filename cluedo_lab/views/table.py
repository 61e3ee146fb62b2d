"""Play at the table: one seat is yours, bots play the others, any edition.

A :class:`Table` is the widgets of a :class:`~cluedo_lab.lab.table_session.TableSession`,
which is everything else: your controls (:mod:`cluedo_lab.lab.table_controls`), what you are
told (:mod:`cluedo_lab.lab.table_story`), the bots playing the other seats, accusations that
wait for a confirmation, the ending. The table adds buttons and drop-downs for the controls,
the log, the board of a board game (beside the notepad: the squares and rooms your piece may
reach are highlighted, and a click on one moves it there), and the notepad: your own
(:class:`~cluedo_lab.views.learner.LearnerNotepad`) or the engine's
(:class:`~cluedo_lab.views.widgets.EngineNotepad`) of your record.

``repr`` and ``_repr_html_`` give the static rendering (whose move, your hand, the legal
actions, the end of your log); :meth:`Table.widget` the live one.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..bots.registry import Bot, bot_names
from ..games.action import Action
from ..games.factory import new_game
from ..games.game import Game
from ..knowledge.engine import Knowledge
from ..lab.table_controls import Control
from ..lab.table_session import TableSession
from ..records import Record
from ..rules.edition import Edition, all_editions, load_edition
from ..rules.errors import IllegalAction
from .base import InteractiveView, pre, slug
from .board_svg import game_svg, origin
from .learner import LearnerNotepad
from .review import Review
from .widgets import EngineNotepad

if TYPE_CHECKING:
    import ipywidgets

__all__ = ["NOTES", "Table", "TableChooser"]

NOTES = {"learner": "My notes", "engine": "The engine's notepad"}
"""The two notepads a table offers: the learner's own page (the default), or the engine's."""
HELPS = frozenset({"reveal", "engine"})
"""The helps a table may offer: the Reveal button of the learner's notepad, and the switch to
the engine's notepad (a class's settings may turn either off: ``helps``)."""

BOARD_CELL = 16
"""Pixels per board square at the table: every edition's board and a six-player notepad fit
side by side on a 1280 x 800 screen."""


class Table(InteractiveView):
    """Your seat at a game of any edition, with bots in the other seats.

    ``Table(edition, players=3, seed=0, seat=0, bots=("quick-detective",), **options)``
    starts a new game (``options`` go to the game: e.g. ``dice=1``); :meth:`for_game` sits
    down at a game already made. ``bots`` names the bot of each other seat in seat order (a
    name of :func:`cluedo_lab.bots.make_bot`: ``quick-detective``, ``random``, ...; or any
    object with ``choose(game, seat)``); the last one fills the seats left over. Bots play at
    once, until it is your move.

    ``notes="learner"`` (the default) gives you your own notepad to fill in, checked and
    hinted by the engine (:class:`~cluedo_lab.views.learner.LearnerNotepad`);
    ``notes="engine"`` shows the engine's exact notepad instead. :meth:`use_notes` switches.
    ``helps`` (a class's settings) may leave out ``"reveal"`` (no Reveal on your notepad) or
    ``"engine"`` (no engine's notepad).
    An accusation from a button waits for :meth:`confirm` (warning you if you hold one of its
    cards); at the end, :meth:`ending` says who won and why. Everything but the widgets is
    :attr:`session`'s (a :class:`~cluedo_lab.lab.table_session.TableSession`).
    """

    def __init__(self, edition: Edition | str, players: int | Sequence[str] = 3,
                 seed: int = 0, seat: int = 0,
                 bots: Sequence[str | Bot] = ("quick-detective",), notes: str = "learner",
                 helps: Collection[str] = HELPS, **options: Any):
        self.helps = frozenset(helps)
        self._sit(new_game(edition, players, seed, **options), seat, bots, notes)

    @classmethod
    def for_game(cls, game: Game, seat: int = 0,
                 bots: Sequence[str | Bot] = ("quick-detective",), notes: str = "learner"
                 ) -> Table:
        """A table at ``game`` as it stands (its past is told from ``seat``'s view)."""
        table = cls.__new__(cls)
        table.helps = HELPS
        table._sit(game, seat, bots, notes)
        return table

    def _sit(self, game: Game, seat: int, bots: Sequence[str | Bot], notes: str) -> None:
        self._check_notes(notes)
        self.notes = notes
        self._learner: LearnerNotepad | None = None
        self._notepad: EngineNotepad | None = None
        self.session = TableSession(game, seat, bots)
        self.session.before_bots = self._busy

    # -- the session's ------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        return self.session.game

    @property
    def seat(self) -> int:
        return self.session.seat.index

    @property
    def me(self) -> str:
        return self.session.me

    @property
    def bots(self) -> dict[int, Bot]:
        return self.session.bots

    @property
    def message(self) -> str:
        """Why your last action was refused, or a bot's failure ("" when all is well)."""
        return self.session.message

    @property
    def pending(self) -> Action | None:
        """The accusation waiting for :meth:`confirm`."""
        return self.session.pending

    def controls(self) -> list[Control]:
        return self.session.controls()

    def act(self, action: Action | Mapping[str, Any]) -> bool:
        """Do your ``action`` (an Action or its JSON form), then let the bots play until it is
        your move again. An illegal action changes nothing: :attr:`message` says why and the
        result is False."""
        return self._updated(self.session.act(action))

    def play(self, kind: str, **args: Any) -> bool:
        """``act`` for your seat: ``table.play("ask", items=["Plum", "Rope"])``."""
        return self._updated(self.session.play(kind, **args))

    def press(self, label: str, **values: Any) -> bool:
        """Press the control labelled ``label`` with these drop-down values (field names as
        in :class:`~cluedo_lab.lab.table_controls.Field`, e.g. ``{"cards.0": "plum"}``), as a
        click does."""
        return self._updated(self.session.press(label, **values))

    def confirmation(self) -> str:
        """The question asked before a pending accusation is made, with any warning."""
        return self.session.confirmation()

    def confirm(self) -> bool:
        """Make the pending accusation (after :meth:`press` or a click on Accuse)."""
        return self._updated(self.session.confirm())

    def click_board(self, where: Sequence[int] | str) -> bool:
        """A click on the board at (row, col), or on a room (its id): your piece goes there by
        the drop-down's own action, then the bots play; anywhere it cannot go changes nothing
        and :attr:`message` says so."""
        return self._updated(self.session.click_board(where))

    def cancel(self) -> None:
        """Think again: drop the pending accusation."""
        self.session.cancel()
        self._update()

    def _updated(self, done: bool) -> bool:
        self._update()
        return done

    def record(self) -> Record:
        """Your record: what your seat has seen."""
        return self.session.record()

    def log(self) -> list[str]:
        """Your log: what happened, as far as you could see it."""
        return self.session.log()

    def knowledge(self) -> Knowledge | None:
        """The knowledge engine on your record (None if your record is contradictory, as after
        a lie when false witnesses are allowed)."""
        return self.session.knowledge()

    def ending(self) -> list[str]:
        """Once the game is over: who won and why, and the solution."""
        return self.session.ending()

    def whose_move(self) -> str:
        return self.session.whose_move()

    def text(self) -> str:
        """The static rendering: whose move, your hand, the legal actions, your log's end."""
        return self.session.text()

    # -- notepads ----------------------------------------------------------------------------
    @property
    def notepad(self) -> LearnerNotepad | EngineNotepad | None:
        """The notepad shown beside your log (:attr:`notes` says which), following your record."""
        return self.learner_notepad if self.notes == "learner" else self.engine_notepad

    @property
    def learner_notepad(self) -> LearnerNotepad | None:
        """Your own notepad: your marks, checked against your record."""
        self._follow_record()
        return self._learner

    @property
    def engine_notepad(self) -> EngineNotepad | None:
        """The engine's exact notepad of your record."""
        self._follow_record()
        return self._notepad

    def review(self) -> Review:
        """The review of the game just played, from your seat (the end screen's "Review this
        game"): every question graded, when you could have known, the curve."""
        if not self.game.is_over:
            raise IllegalAction("the review comes when the game is over")
        review = Review.from_game(self.game, self.seat, self.session.marks() or None)
        if self._ui is not None:
            self._review_box.children = (review.widget(),)
            self._review_button.layout.display = "none"
        return review

    def save(self, path: str | Path) -> Path:
        """Save the game at ``path``, with your notepad's marks as they stood at each event
        (the review checks them: ``cluedo-lab review GAME.json --seat NAME``)."""
        return self.session.save(path)

    def _check_notes(self, notes: str) -> None:
        if notes not in NOTES:
            raise ValueError(f"notes is one of {', '.join(NOTES)}, not {notes!r}")
        if notes == "engine" and "engine" not in self.helps:
            raise ValueError("the engine's notepad is turned off at this table")

    def use_notes(self, notes: str) -> Table:
        """Switch the notepad beside your log: ``"learner"`` (yours) or ``"engine"``."""
        self._check_notes(notes)
        self.notes = notes
        self._update()
        return self

    def _follow_record(self) -> None:
        known = self.knowledge()
        if known is None:
            return
        if self._notepad is None:
            self._notepad = EngineNotepad(known)
        elif self._notepad.knowledge is not known:
            self._notepad.follow(known)
        if self._learner is None:
            self._learner = LearnerNotepad(known, can_reveal="reveal" in self.helps)
            self.session.notes = self._learner.notes    # its marks are kept, event by event
        elif self._learner.knowledge is not known:
            self._learner.follow(known)

    # -- static ------------------------------------------------------------------------------
    def board_svg(self) -> str:
        """The board with every piece, rows and columns numbered (the drop-downs name squares
        "row 7, column 17"); during your move, the squares and rooms your piece may reach are
        highlighted in blue."""
        board = self.session.seat.board_game
        if board is None:
            return ""
        return game_svg(board, coordinates=True, cell=BOARD_CELL,
                        reachable=list(self.session.board_moves()))

    def __repr__(self) -> str:
        return self.text()

    def _repr_html_(self) -> str:
        notepad = self.notepad
        board = self.board_svg()
        return (f"<div class='cluedo-table' style='display:flex;gap:1.5em;flex-wrap:wrap;"
                f"align-items:flex-start'><div>{pre(self.text())}</div>"
                f"{f'<div>{board}</div>' if board else ''}"
                f"<div>{notepad._repr_html_() if notepad else ''}</div></div>")

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

    def close(self) -> None:
        """Close the live widgets, if they were built (a table replaced for good: the page and
        the kernel may forget their models)."""
        if self._ui is not None:
            close_tree(self._ui)

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
        self._facts = w.HTML()
        self._facts.add_class("cluedo-table-facts")
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
        self._review_button = w.Button(description="Review this game", icon="search",
                                       tooltip="Every question you asked graded against the "
                                       "best one, the moment you could have known, the curve",
                                       layout=w.Layout(display="none", width="auto"))
        self._review_button.add_class("cluedo-table-review")
        self._review_button.on_click(lambda _b: self.review())
        self._review_box = w.VBox()
        self._switch = w.ToggleButtons(options=[(text, key) for key, text in NOTES.items()],
                                       value=self.notes, style={"button_width": "auto"})
        self._switch.add_class("cluedo-table-notes-switch")
        if "engine" not in self.helps:
            self._switch.layout.display = "none"   # one notepad: nothing to switch
        self._switch.observe(lambda c: c["new"] != self.notes and self.use_notes(c["new"]),
                             names="value")
        self._notes_box = w.VBox()
        right = w.VBox([self._switch, self._notes_box], layout=w.Layout(max_width="100%"))
        row = w.Layout(flex_flow="row wrap", grid_gap="1em 1.5em")
        self._board: ipywidgets.HTML | None = None
        self._targets: dict[tuple[int, int] | str, Any] = {}
        if self.session.seat.board_game is None:
            left = w.VBox([self._status, self._facts, self._controls, self._confirm,
                           self._message, self._log],
                          layout=w.Layout(width="40em", max_width="100%"))
            parts: list[Any] = [w.HBox([left, right], layout=row)]
        else:
            # Your move and the board in one column beside the notepad, both from the top of
            # the table (so the play fits a 1280 x 800 screen); where everything stands and
            # the log under the board, as wide as the board.
            game = self.session.seat.board_game
            assert game is not None
            width = game.board.cols * BOARD_CELL + origin(BOARD_CELL, coordinates=True)[0] \
                + BOARD_CELL / 2
            board = w.VBox([self._status, self._controls, self._confirm, self._message,
                            self._board_widget(), self._facts, self._log],
                           layout=w.Layout(width=f"{width:g}px", max_width="100%"))
            parts = [w.HBox([board, right], layout=row)]
        box = w.VBox([*parts, self._review_button, self._review_box])
        box.add_class("cluedo-table")
        named: dict[str, Any] = {
            "status": self._status, "facts": self._facts, "controls": self._controls,
            "confirm": self._confirm, "question": self._question, "yes": self._yes,
            "no": self._no, "message": self._message, "log": self._log, "notes": self._switch,
            "notepad": self._notes_box, "review": self._review_button,
            "review_box": self._review_box}
        if self._board is not None:
            named |= {"board": self._board, "targets": self._target_layer}
        self._parts = named
        return box

    def _board_widget(self) -> ipywidgets.Widget:
        """The drawing with a layer of buttons over it, one on each square and room your piece
        may reach now (:meth:`_refresh_targets` keeps them), stacked in one grid cell."""
        import ipywidgets as w

        board = self.session.seat.board_game
        assert board is not None
        self._board = w.HTML(layout=w.Layout(grid_area="1 / 1", margin="0"))
        self._board.add_class("cluedo-table-board")
        left, top = origin(BOARD_CELL, title="-", coordinates=True)
        self._target_layer = w.GridBox(layout=w.Layout(
            grid_template_columns=f"repeat({board.board.cols}, {BOARD_CELL}px)",
            grid_template_rows=f"repeat({board.board.rows}, {BOARD_CELL}px)", grid_gap="0",
            padding=f"{top:g}px 0 0 {left:g}px", margin="0", grid_area="1 / 1",
            align_self="flex-start", width="max-content", height="max-content"))
        self._target_layer.add_class("cluedo-table-board-targets")
        self._target_style = w.ButtonStyle(button_color="transparent")
        return w.GridBox([self._board, self._target_layer], layout=w.Layout(
            grid_template_columns="max-content", grid_template_rows="max-content",
            overflow="hidden"))

    def board_button(self, where: Sequence[int] | str) -> ipywidgets.Button:
        """The live button over a square (row, col) or a room (its id) your piece may reach
        now (KeyError anywhere else)."""
        self.widget()
        key = where if isinstance(where, str) else (where[0], where[1])
        return self._targets[key]

    def _refresh_targets(self) -> None:
        """One button per place your piece may reach (a room's covers its squares' box; the
        squares' come after, so they lie on top): built anew only when the places change."""
        import ipywidgets as w

        game = self.session.seat.board_game
        assert game is not None
        board = game.board
        targets = sorted(self.session.board_moves(), key=lambda t: (not isinstance(t, str),
                                                                     str(t)))
        if targets == list(self._targets):
            for button in self._targets.values():
                button.disabled = False
            return
        old = list(self._targets.values())
        self._targets = {}
        for target in targets:
            if isinstance(target, str):
                rows = [r for r, _ in board.room_squares[target]]
                cols = [c for _, c in board.room_squares[target]]
                area = f"{min(rows) + 1} / {min(cols) + 1} / {max(rows) + 2} / {max(cols) + 2}"
                tip, css = f"Move into the {board.room_name(target)}", target
            else:
                area = f"{target[0] + 1} / {target[1] + 1}"
                tip = f"Move to row {target[0]}, column {target[1]}"
                css = f"{target[0]}-{target[1]}"
            button = w.Button(tooltip=tip, style=self._target_style,
                              layout=w.Layout(grid_area=area, width="auto", height="auto",
                                              margin="0", padding="0", border="0"),
                              _dom_classes=("cluedo-board-target",
                                            f"cluedo-board-target-{css}"))
            button.on_click(lambda _b, t=target: self.click_board(t))
            self._targets[target] = button
        self._target_layer.children = tuple(self._targets.values())
        for button in old:
            button.layout.close()
            button.close()

    def _busy(self) -> None:
        """Show that the bots are playing (the widget's messages reach the page at once)."""
        if self._ui is None:
            return
        self._status.value = "<b>The bots are playing…</b>"
        for button in [*(b for _c, _f, b in self._rows), *self._targets.values()]:
            button.disabled = True

    def _refresh(self) -> None:
        facts = "<br>".join(escape(line) for line in self.session.facts())
        ending = "".join(f"<div>{escape(line)}</div>" for line in self.ending()[1:])
        if ending:
            ending = (f"<div class='cluedo-table-ending' style='white-space:pre-wrap;"
                      f"background:#fff8e1;padding:.3em .5em'>{ending}</div>")
        self._status.value = (f"<div style='line-height:1.4'><p style='font-size:110%'><b>"
                              f"{escape(self.whose_move())}</b></p>{ending}</div>")
        self._facts.value = f"<div style='line-height:1.4'><p>{facts}</p></div>"
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
            self._board.value = f"<div style='line-height:0'>{self.board_svg()}</div>"
            self._refresh_targets()
        self._review_button.layout.display = ("flex" if self.game.is_over
                                              and not self._review_box.children else "none")
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
            self._updated(self.session.use(control, {k: d.value for k, d in fields.items()}))
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
                 bots: str = "quick-detective", notes: str = "learner",
                 helps: Collection[str] = HELPS):
        self.editions = {e.id: e for e in all_editions()}
        self.bot_choices = bot_names(for_students=True)
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
            old.close()
            self._refresh()
        for follow in self.followers:
            follow(self.table)
        return self.table

    def __repr__(self) -> str:
        return repr(self.table)

    def _repr_html_(self) -> str:
        return self.table._repr_html_()

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
        # A darker green than button_style="success": white on it has a 4.5:1 contrast.
        self._start = w.Button(description="New game", style={"button_color": "#2e7d32",
                                                              "text_color": "white"})
        self._start.add_class("cluedo-chooser-start")
        self._start.on_click(lambda _b: self._press_new())
        self._note = w.HTML()
        self._note.add_class("cluedo-chooser-note")
        self._table_box = w.VBox([self.table.widget()])
        box = w.VBox([w.HBox([self._edition, self._players_box, self._seed, self._bots,
                              self._start], layout=w.Layout(flex_flow="row wrap")),
                      self._note, self._table_box])
        box.add_class("cluedo-chooser")
        self._parts = {"edition": self._edition, "players": self._players_box,
                       "seed": self._seed, "bots": self._bots, "start": self._start,
                       "note": self._note}
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
