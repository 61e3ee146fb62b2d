"""The classroom app's page (``make app``): play at a table, and the board of the same edition.

:class:`Classroom` puts a :class:`~cluedo_lab.views.table.TableChooser` on one tab and the
:class:`~cluedo_lab.views.widgets.BoardExplorer` of the game's edition on another: the board
follows each new game, and a card game says it has no board instead of showing another
edition's. Both tabs fit a 1280-pixel classroom screen.

A class's settings (:mod:`cluedo_lab.lab.class_settings`: ``class.toml`` beside the notebook,
or ``settings=``) choose what the page offers: the editions and bots in the drop-downs
(never a bot meant for tests), whether the learner's notepad has Reveal and whether the
engine's notepad can be switched on, and how chances are written.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from ..lab.class_settings import ClassSettings, class_settings, student_bots
from ..rules.edition import Edition
from ..rules.numbers import set_chance_style
from .base import InteractiveView, live_box
from .table import HELPS, Table, TableChooser
from .widgets import BoardExplorer

if TYPE_CHECKING:
    import ipywidgets

__all__ = ["Classroom"]

TABS = ("Play at the table", "The board")
TAB_STYLE = ("<style>.cluedo-classroom .lm-TabBar-tab:not(.lm-mod-current) "
             "{ color: #424242 !important; }</style>")
"""The names of the tabs not shown, darker than the theme's grey (#6d6d6d on #eeeeee is
4.45:1; #424242 is 8.6:1): every learner can read them."""
COMPACT = "22px"
"""The height of a notepad row on the classroom page: 24 rows (21 cards under 3 headings)
and the notepad's buttons fit beside the board on an 800-pixel screen."""
PLAY_STYLE = "".join((
    "<style>",
    ".cluedo-classroom :is(.cluedo-learner-notepad, .cluedo-notepad) .widget-gridbox "
    "{ grid-gap: 1px 4px !important; }",
    ".cluedo-classroom :is(.cluedo-learner-cell, .cluedo-cell) "
    f"{{ height: {COMPACT} !important; line-height: 20px !important; margin: 0 !important; }}",
    ".cluedo-classroom :is(.cluedo-learner-notepad, .cluedo-notepad) .widget-gridbox "
    f"> .widget-html {{ height: {COMPACT}; margin: 0 2px; }}",
    ".cluedo-classroom :is(.cluedo-learner-notepad, .cluedo-notepad) .widget-gridbox "
    f"> .widget-html > .widget-html-content {{ height: {COMPACT}; line-height: {COMPACT}; }}",
    ".cluedo-classroom .cluedo-table-status p { margin: .2em 0; }",
    ".cluedo-classroom .cluedo-table-action { white-space: normal; height: auto; "
    "min-height: var(--jp-widgets-inline-height); max-width: 100%; }",
    "</style>"))
"""The classroom page's notepads in compact rows (the lessons keep the roomier ones), and
action buttons whose long names wrap instead of being cut off."""


class Classroom(InteractiveView):
    """A table chooser and the board explorer of the game being played."""

    def __init__(self, edition: str = "cluedo-card-game-2018", players: int = 3, seed: int = 0,
                 bots: str = "quick-detective", settings: ClassSettings | None = None):
        self.settings = settings = settings if settings is not None else class_settings()
        if settings != ClassSettings():      # a class's file: its number style for the page
            set_chance_style(settings.numbers)
        editions = settings.edition_ids()
        bot_choices = list(student_bots(settings.bots))
        helps = {h for h, on in (("reveal", settings.reveal),
                                 ("engine", settings.engine_notepad)) if on} & HELPS
        self.chooser = TableChooser(edition if edition in editions else editions[0], players,
                                    seed, bots if bots in bot_choices else bot_choices[0],
                                    helps=helps)
        self.chooser.editions = {k: v for k, v in self.chooser.editions.items()
                                 if k in editions}
        self.chooser.bot_choices = bot_choices
        self.chooser.followers.append(self._follow)
        self._explorers: dict[str, BoardExplorer] = {}

    @property
    def table(self) -> Table:
        return self.chooser.table

    @property
    def edition(self) -> Edition:
        return self.table.game.edition

    @property
    def explorer(self) -> BoardExplorer | None:
        """The board explorer of the game's edition (one per edition, kept), None for a card
        game."""
        ed = self.edition
        if ed.board is None:
            return None
        if ed.id not in self._explorers:
            self._explorers[ed.id] = BoardExplorer.for_edition(ed, show_passages=True)
        return self._explorers[ed.id]

    def board_note(self) -> str:
        ed = self.edition
        if ed.board is None:
            return (f"{ed.name} is a card game: it has no board. Choose a board edition and "
                    "press New game to explore its board.")
        return (f"The board of {ed.name} ({ed.publisher} {ed.year}). Click a square or a room "
                "to put a piece there: each room shows the exact chance of getting in this "
                "turn.")

    def new(self, edition: str, players: int = 3, seed: int = 0, bots: str | None = None
            ) -> Table:
        return self.chooser.new(edition, players, seed, bots)

    def _follow(self, _table: Table) -> None:
        self._update()

    def __repr__(self) -> str:
        return f"{self.chooser!r}\n\n{self.board_note()}"

    def _repr_html_(self) -> str:
        explorer = self.explorer
        return (self.chooser._repr_html_() + f"<p>{escape(self.board_note())}</p>"
                + (explorer._repr_html_() if explorer else ""))

    def _build(self) -> ipywidgets.Widget:
        import ipywidgets as w

        self._note = w.HTML()
        self._note.add_class("cluedo-classroom-board-note")
        self._board = w.VBox()
        self._tabs = w.Tab([self.chooser.widget(), w.VBox([self._note, self._board])],
                           titles=TABS)
        # The board (a button per square) is built when its tab is opened, not at each game.
        self._tabs.observe(lambda _c: self._refresh(), names="selected_index")
        box = live_box(self, [w.HTML(TAB_STYLE + PLAY_STYLE), self._tabs])
        box.add_class("cluedo-classroom")
        self._parts = {"tabs": self._tabs, "note": self._note, "board": self._board}
        return box

    def _refresh(self) -> None:
        self._note.value = f"<p>{escape(self.board_note())}</p>"
        if self._tabs.selected_index != TABS.index("The board"):
            return
        explorer = self.explorer
        children: tuple[Any, ...] = (explorer.widget(),) if explorer else ()
        if self._board.children != children:
            self._board.children = children
