"""Interactive views for the notebooks: thin ipywidgets skins over the engine's objects.

Every view holds one engine object (a :class:`~cluedo_lab.knowledge.Knowledge`, a
:class:`~cluedo_lab.knowledge.explain.Deduction`, a :class:`~cluedo_lab.rules.board.Board`) and
asks it for everything it shows, so a view can never disagree with the library. Each view has a
static rendering (``repr`` and ``_repr_html_``) that reads well on GitHub and compares stably
under nbval; :meth:`widget` builds the live ipywidgets version on first call (ipywidgets is imported
only then), and the buttons and drop-downs call the view's ordinary methods, which tests and
notebooks can call too. Widgets carry ``cluedo-...`` CSS classes so a browser test can find them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from fractions import Fraction
from html import escape
from typing import TYPE_CHECKING, Any

from ..knowledge.advice import Option, outcome_table, rank_questions
from ..knowledge.engine import Knowledge, cell_text, format_weight
from ..knowledge.explain import Deduction, Step
from ..lab.learner import BOOKKEEPING, ProofShape, proof_shape, same_argument
from ..rules import numbers
from ..rules.board import (
    Board,
    Node,
    load_board,
    reach_chance,
    room_distances,
    shortest_route,
)
from ..rules.dice import Dice, DiceLike
from ..rules.edition import Edition
from .base import (
    CellLooks,
    InteractiveView,
    beside,
    cell_grid,
    live_box,
    place_phrase,
    pre,
    restyle,
    shade,
)
from .board_svg import origin, render_svg
from .reprs import knowledge_html, legend

if TYPE_CHECKING:
    import ipywidgets

CONCLUDED = "#ffca28"
PREMISE = "#a5d6a7"
SELECTED_BORDER = "3px solid #e65100"
ROUTE = "#0d47a1"
PASSAGE = "#6a1b9a"


# ---------------------------------------------------------------------------------------------
# EngineNotepad
# ---------------------------------------------------------------------------------------------

class EngineNotepad(InteractiveView):
    """One record's card × place table: ✓ certain, · certainly not, else the exact chance.

    Clicking a cell (or calling :meth:`select`) shows why a certain cell is certain, using
    :meth:`Knowledge.explain`; :meth:`add` and :meth:`undo` change the record and every cell
    follows, because each cell is re-read from the knowledge.
    """

    def __init__(self, knowledge: Knowledge):
        self.knowledge = knowledge
        self.selected: tuple[str, str] | None = None
        self._buttons: dict[tuple[str, str], Any] = {}

    # -- reading -----------------------------------------------------------------------------
    def cell(self, card: str, place: str) -> str:
        """The text a cell shows: ✓, · or the chance (a decimal when the fraction is long)."""
        return cell_text(self.knowledge.probability(card, place))

    def explanation(self, card: str, place: str) -> str:
        """Why a cell is what it is: the engine's explanation if certain, else its exact chance."""
        k = self.knowledge
        name = k.card(card).name
        if k.status(card, place) is not None:
            return str(k.explain(card, place))
        p = k.probability(card, place)
        total = k.consistent_deals
        share = (f"{numbers.count(p * total)} of the {numbers.count(total)} deals"
                 if isinstance(total, int) else f"a share {p} of the weighted deals")
        return (f"Not certain: {place_phrase(place)} holds {name} in {share} that fit the "
                f"record ({numbers.chance(p)}; exactly {p}).\nOnly certain cells have a "
                f"chain of reasons; the chance is a count of deals (notebook 02).")

    # -- changing ----------------------------------------------------------------------------
    def select(self, card: str, place: str) -> str:
        """Pick a cell, as a click does; returns the explanation now shown."""
        self.selected = (self.knowledge.card(card).id, place)
        self._update()
        return self.explanation(*self.selected)

    def add(self, event: Mapping[str, Any]) -> EngineNotepad:
        """Add an event to the record (a JSON object, as in a record file). A contradiction
        raises and leaves the notepad as it was."""
        self.knowledge.add(event)
        self._update()
        return self

    def undo(self) -> EngineNotepad:
        self.knowledge.undo()
        self._update()
        return self

    def follow(self, knowledge: Knowledge) -> EngineNotepad:
        """Show ``knowledge`` instead, the knowledge of a longer record (a game goes on): every
        cell is re-read, and a cell still selected shows its new explanation."""
        self.knowledge = knowledge
        self._update()
        return self

    # -- static ------------------------------------------------------------------------------
    def _caption(self) -> str:
        record = self.knowledge.record
        who = f"{record.observer}'s notepad" if record.observer else "Public notepad"
        events = len(record.events)
        return (f"{who} after {events} event{'s' * (events != 1)}: "
                f"{format_weight(self.knowledge.consistent_deals)} consistent deals")

    def __repr__(self) -> str:
        text = f"{self._caption()}\n{self.knowledge.notepad()}"
        if self.selected:
            text += "\n\n" + self.explanation(*self.selected)
        return text

    def _repr_html_(self) -> str:
        html = f"<p><b>{escape(self._caption())}</b></p>" + knowledge_html(self.knowledge)
        if self.selected:
            html += pre(self.explanation(*self.selected))
        return html

    # -- live --------------------------------------------------------------------------------
    def cell_button(self, card: str, place: str) -> ipywidgets.Button:
        """The button of one cell in the live view (built if needed)."""
        self.widget()
        return self._buttons[(self.knowledge.card(card).id, place)]

    def _build(self) -> ipywidgets.Widget:
        import ipywidgets as w

        k = self.knowledge
        self._looks = CellLooks()
        table = cell_grid(k.edition, k.places, self.select, self._buttons, css="cluedo-cell",
                          column="6.5em", look=self._look, looks=self._looks)
        table.add_class("cluedo-notepad-grid")
        self._caption_widget = w.HTML()
        self._caption_widget.add_class("cluedo-notepad-caption")
        self._explanation = beside(w.HTML())
        self._explanation.add_class("cluedo-explanation")
        key = beside(w.HTML(f"<small>{escape(legend())}</small>"))
        key.add_class("cluedo-legend")
        box = live_box(self, [self._caption_widget, table, key, self._explanation])
        box.add_class("cluedo-notepad")
        self._parts = {"caption": self._caption_widget, "explanation": self._explanation}
        return box

    def _look(self, card: str, place: str) -> dict[str, Any]:
        """A cell's button traits: its chance, colour, border and tooltip."""
        k = self.knowledge
        p = k.probability(card, place)
        return {"description": cell_text(p),
                "tooltip": f"{k.card(card).name} / {place}: {numbers.exact(p)}",
                "style": self._looks.style(shade(p), "bold" if p in (0, 1) else "normal"),
                "layout": self._looks.layout(SELECTED_BORDER if (card, place) == self.selected
                                             else "")}

    def _refresh(self) -> None:
        for (card, place), button in self._buttons.items():
            restyle(button, self._look(card, place))
            if (card, place) == self.selected:
                button.add_class("cluedo-selected")
            else:
                button.remove_class("cluedo-selected")
        self._caption_widget.value = f"<b>{escape(self._caption())}</b>"
        self._explanation.value = (
            f"<pre style='white-space:pre-wrap'>{escape(self.explanation(*self.selected))}"
            "</pre>" if self.selected
            else "<i>Click a cell to see why it is what it is.</i>")


# ---------------------------------------------------------------------------------------------
# Deduction stepper
# ---------------------------------------------------------------------------------------------

class DeductionStepper(InteractiveView):
    """Replay a :class:`~cluedo_lab.knowledge.explain.Deduction` one rule application at a time.

    Position 0 is before any step; position n shows the table after step n, with the cell
    step n concludes in yellow, the cells it uses in green, and the events it rests on marked.
    """

    def __init__(self, deduction: Deduction, position: int = 0):
        self.deduction = deduction
        self.position = 0
        self._moving = False
        self.go(position)

    @classmethod
    def from_knowledge(cls, knowledge: Knowledge) -> DeductionStepper:
        return cls(knowledge.deduction())

    # -- moving ------------------------------------------------------------------------------
    def go(self, position: int) -> DeductionStepper:
        if not 0 <= position <= len(self.deduction.steps):
            raise IndexError(f"position {position} is outside 0..{len(self.deduction.steps)}")
        self.position = position
        self._update()
        return self

    def forward(self) -> DeductionStepper:
        return self.go(min(self.position + 1, len(self.deduction.steps)))

    def back(self) -> DeductionStepper:
        return self.go(max(self.position - 1, 0))

    def _new_argument(self, n: int) -> bool:
        """Step n really infers something and is not the argument of the step before it
        again, applied to one more card."""
        steps = self.deduction.steps
        step = steps[n - 1]
        return step.rule not in BOOKKEEPING and not (
            n > 1 and same_argument(step, steps[n - 2]))

    def next_inference(self) -> DeductionStepper:
        """Jump over the bookkeeping (observed facts, a placed card crossed off elsewhere) and
        over the same argument repeated card by card, to the next step that really infers
        something new."""
        steps = self.deduction.steps
        later = (n for n in range(self.position + 1, len(steps) + 1) if self._new_argument(n))
        return self.go(next(later, len(steps)))

    def previous_inference(self) -> DeductionStepper:
        earlier = (n for n in range(self.position - 1, 0, -1) if self._new_argument(n))
        return self.go(next(earlier, 0))

    def same_argument_steps(self) -> list[Step]:
        """The steps right after the current real inference that make the same argument
        (another card crossed off by the same rule, facts and events)."""
        steps, step = self.deduction.steps, self.step
        run: list[Step] = []
        if step is None or step.rule in BOOKKEEPING:
            return run
        for later in steps[self.position:]:
            if not same_argument(step, later):
                break
            run.append(later)
        return run

    def shape(self) -> ProofShape:
        """The deduction's shape: observed facts, inferences by rule, the deepest chain."""
        return proof_shape(self.deduction.steps)

    # -- reading -----------------------------------------------------------------------------
    @property
    def step(self) -> Step | None:
        """The step just taken (None at position 0)."""
        return self.deduction.steps[self.position - 1] if self.position else None

    def facts(self) -> dict[tuple[str, str], bool]:
        """Every cell settled by the steps so far."""
        return {(s.fact.card, s.fact.place): s.fact.holds
                for s in self.deduction.steps[:self.position] if s.fact is not None}

    def text(self) -> str:
        """The current step in words: rule, conclusion, what it used."""
        total = len(self.deduction.steps)
        step = self.step
        if step is None:
            return (f"Step 0 of {total}: nothing deduced yet. Step forward to watch the rules "
                    f"fill the table, or jump to the next inference.\n{self.shape()}")
        ed = self.deduction.edition
        lines = [f"Step {step.number} of {total} [{step.rule_name}]", step.text]
        if step.premises:
            lines.append("Uses: " + "; ".join(f.text(ed) for f in step.premises))
        if step.events:
            lines.append("Rests on: " + "; ".join(self._event_text(e) for e in step.events))
        if more := self.same_argument_steps():
            which = (f"step {more[0].number}" if len(more) == 1
                     else f"steps {more[0].number}-{more[-1].number}")
            lines.append(f"The same argument gives {len(more)} more ({which}); Inference » "
                         "skips them.")
        return "\n".join(lines)

    def _event_text(self, position: int) -> str:
        if position == 0:
            return "the set-up (your hand, the hand sizes)"
        return self.deduction.record.events[position - 1].describe()

    # -- static ------------------------------------------------------------------------------
    def __repr__(self) -> str:
        return self.text()

    def _grid_html(self) -> str:
        d = self.deduction
        known = self.facts()
        step = self.step
        concluded = {(step.fact.card, step.fact.place)} if step and step.fact else set()
        used = {(f.card, f.place) for f in step.premises} if step else set()
        head = "".join(f"<th>{escape(p)}</th>" for p in d.places)
        rows = []
        for category in d.edition.categories:
            rows.append(f"<tr><th colspan='{len(d.places) + 1}' style='text-align:left'>"
                        f"{escape(category.name)}</th></tr>")
            for card in category.cards:
                cells = []
                for place in d.places:
                    key = (card.id, place)
                    mark = {True: "✓", False: "·", None: ""}[known.get(key)]
                    css, colour = ("cluedo-concluded", CONCLUDED) if key in concluded else (
                        ("cluedo-premise", PREMISE) if key in used else ("", ""))
                    style = "text-align:center;min-width:3em"
                    if colour:
                        style += f";background:{colour}"
                    cls = f" class='{css}'" if css else ""
                    cells.append(f"<td{cls} style='{style}'>{mark}</td>")
                rows.append(f"<tr><td>{escape(card.name)}</td>{''.join(cells)}</tr>")
        return (f"<table class='cluedo-step-table'><tr><th></th>{head}</tr>{''.join(rows)}"
                f"</table>")

    def _events_html(self) -> str:
        used = set(self.step.events) if self.step else set()
        items = []
        for position in range(len(self.deduction.record.events) + 1):
            text = escape(self._event_text(position))
            if position in used:
                items.append(f"<li class='cluedo-event-used' style='background:{CONCLUDED}'>"
                             f"<b>{text}</b></li>")
            else:
                items.append(f"<li>{text}</li>")
        return f"<ul class='cluedo-step-events'>{''.join(items)}</ul>"

    def _repr_html_(self) -> str:
        return pre(self.text()) + self._grid_html() + self._events_html()

    # -- live --------------------------------------------------------------------------------
    def _build(self) -> ipywidgets.Widget:
        import ipywidgets as w

        total = len(self.deduction.steps)
        self._back = w.Button(description="◀ Back", tooltip="undo the last step")
        self._back.add_class("cluedo-back")
        self._forward = w.Button(description="Forward ▶", tooltip="apply the next rule")
        self._forward.add_class("cluedo-forward")
        # A number box, not a slider: ipywidgets' slider handle has no name a screen reader
        # can read, and the box takes arrow keys and a typed step alike.
        self._step_box = w.BoundedIntText(min=0, max=total, description="go to step",
                                        continuous_update=False, layout=w.Layout(width="12em"),
                                        style={"description_width": "initial"})
        self._step_box.add_class("cluedo-step-box")
        self._previous = w.Button(description="« Inference",
                                  tooltip="back to the previous step that infers something")
        self._previous.add_class("cluedo-previous-inference")
        self._next = w.Button(description="Inference »",
                              tooltip="skip the bookkeeping: on to the next real inference")
        self._next.add_class("cluedo-next-inference")
        self._back.on_click(lambda _b: self.back())
        self._forward.on_click(lambda _b: self.forward())
        self._previous.on_click(lambda _b: self.previous_inference())
        self._next.on_click(lambda _b: self.next_inference())
        self._step_box.observe(lambda change: self.go(change["new"]), names="value")
        self._text = w.HTML()
        self._text.add_class("cluedo-step-text")
        self._grid = w.HTML()
        self._grid.add_class("cluedo-step-grid")
        self._events = w.HTML()
        self._events.add_class("cluedo-step-events-box")
        box = live_box(self, [w.HBox([self._previous, self._back, self._forward, self._next,
                                      self._step_box]), self._text,
                              w.HBox([self._grid, self._events])])
        box.add_class("cluedo-stepper")
        self._parts = {"previous": self._previous, "back": self._back, "forward": self._forward,
                       "next": self._next, "step": self._step_box, "text": self._text,
                       "grid": self._grid, "events": self._events}
        return box

    def _refresh(self) -> None:
        if self._moving:
            return
        self._moving = True  # setting the step box calls go() again: don't recurse
        try:
            self._step_box.value = self.position
            self._back.disabled = self.position == 0
            self._forward.disabled = self.position == len(self.deduction.steps)
            self._previous.disabled = self._back.disabled
            self._next.disabled = self._forward.disabled
            # Lines wrap between words only (a pre may otherwise break "left" as "le ft").
            self._text.value = (f"<pre style='white-space:pre-wrap;word-break:normal;"
                                f"overflow-wrap:break-word'>{escape(self.text())}</pre>")
            self._grid.value = self._grid_html()
            self._events.value = self._events_html()
        finally:
            self._moving = False


# ---------------------------------------------------------------------------------------------
# Board explorer
# ---------------------------------------------------------------------------------------------

class BoardExplorer(InteractiveView):
    """The board with one piece: where can it get this turn, and how?

    Pick a position (a suspect's start square, a room, or any corridor square: click it on the
    board) to shade every room by the exact chance of entering it this turn
    (:func:`~cluedo_lab.rules.board.reach_chance`); choose a room to draw a shortest route to it,
    and show the secret passages.

    A secret passage is counted as the edition's rule book says (``roll``, the edition's
    ``turns.roll``): ``"or-passage"`` (1949, 2014) takes the passage *instead of* rolling, so
    the room at its far end needs no roll; ``"first"`` (2023) rolls first and may then take the
    passage instead of moving, so that room is certain too, after the roll.
    """

    CELL = 20
    ROLLS = {"or-passage": "by the secret passage, instead of rolling: no roll needed",
             "first": "roll first, then take the secret passage instead of moving"}

    def __init__(self, board: Board | str, dice: DiceLike = 2, position: Node | None = None,
                 *, target: str | None = None, show_route: bool = False,
                 show_passages: bool = False, names: Mapping[str, str] | None = None,
                 roll: str = "or-passage"):
        if roll not in self.ROLLS:
            raise ValueError(f"roll is one of {', '.join(self.ROLLS)}, not {roll!r}")
        self.board = load_board(board) if isinstance(board, str) else board
        self.dice = dice
        self.roll = roll
        self.names = dict(names or {})
        self.position: Node = next(iter(self.board.starts))
        self.target = target or self.board.rooms[0]
        self.show_route = show_route
        self.show_passages = show_passages
        self.message = ""
        self._squares: dict[Node, Any] = {}
        self.pick(self.position if position is None else position)

    @classmethod
    def for_edition(cls, edition: Edition, **options: Any) -> BoardExplorer:
        """The edition's board, dice and passage rule, with its suspects' names on the start
        squares."""
        if edition.board is None:
            raise ValueError(f"{edition.id} is a card game: it has no board")
        names = {c.id: c.name for c in edition.cards}
        options.setdefault("roll", edition.turns.roll)
        return cls(edition.board, Dice.for_edition(edition), names=names, **options)

    # -- choosing ----------------------------------------------------------------------------
    def choices(self) -> list[tuple[str, Node]]:
        """Positions offered in the drop-down: the start squares, then the rooms."""
        starts: list[tuple[str, Node]] = [(f"{self._who(s)}'s start {sq}", s)
                                           for s, sq in self.board.starts.items()]
        return starts + [(self.board.room_name(r), r) for r in self.board.rooms]

    def pick(self, position: Node | Sequence[int]) -> BoardExplorer:
        """Move the piece: a suspect id (its start square), a room id, or a (row, col) square.
        Raises ValueError for anywhere a piece cannot stand."""
        if not isinstance(position, str):
            position = (position[0], position[1])
        self.board.locate(position)
        self.position = position
        self.message = ""
        self._update()
        return self

    def click(self, square: Sequence[int]) -> BoardExplorer:
        """A click on the board at (row, col): a corridor square or a start square is picked
        as it is, a square of a room picks the room; anywhere else keeps the position and says
        why in :attr:`message`."""
        row, col = square[0], square[1]
        room = self.board.room_at((row, col))
        start = next((s for s, sq in self.board.starts.items() if sq == (row, col)), None)
        try:
            self.pick(room or start or (row, col))
        except ValueError as exc:
            self.message = f"Pick a corridor square or a room: {exc}"
            self._update()
        return self

    def pick_text(self, text: str) -> BoardExplorer:
        """Pick from typed text: "row, col", a room id or a suspect id. A bad entry keeps the
        old position and sets :attr:`message`."""
        numbers = re.fullmatch(r"\s*\(?\s*(\d+)\s*[, ]\s*(\d+)\s*\)?\s*", text)
        try:
            self.pick((int(numbers[1]), int(numbers[2])) if numbers else text.strip())
        except ValueError as exc:
            self.message = str(exc)
            self._update()
        return self

    def route_to(self, room: str, show: bool = True) -> BoardExplorer:
        self.board.room_name(room)  # checks the room
        self.target, self.show_route = room, show
        self._update()
        return self

    def passages(self, show: bool = True) -> BoardExplorer:
        self.show_passages = show
        self._update()
        return self

    # -- reading -----------------------------------------------------------------------------
    def _who(self, suspect: str) -> str:
        return self.names.get(suspect, suspect.title())

    def where(self) -> str:
        """The position in words."""
        node = self.board.locate(self.position)
        if isinstance(self.position, str) and self.position in self.board.starts:
            return f"{self._who(self.position)}'s start square {node}"
        if isinstance(node, str):
            return f"the {self.board.room_name(node)}"
        return f"square {node}"

    def passage_rooms(self) -> tuple[str, ...]:
        """Rooms a secret passage leads to from here (none unless the piece is in a room)."""
        here = self.board.locate(self.position)
        return self.board.passage_from(here) if isinstance(here, str) else ()

    def chances(self) -> dict[str, Fraction]:
        """Exact chance of entering each other room this turn: the engine's reach_chance by
        dice, and certainty for a room at the far end of a secret passage."""
        chances = reach_chance(self.board, self.position, self.dice)
        for room in self.passage_rooms():
            chances[room] = Fraction(1)
        return chances

    def moves(self) -> dict[str, int]:
        """Moves by dice to each room (a secret passage is no move by dice)."""
        return room_distances(self.board, self.position)

    def how(self, room: str) -> str:
        """How the piece gets into ``room`` this turn, in words."""
        if room in self.passage_rooms():
            return self.ROLLS[self.roll]
        moves = self.moves().get(room)
        return "no way in" if moves is None else f"{moves} moves by dice"

    def route(self) -> list[Node] | None:
        return shortest_route(self.board, self.position, self.target)

    def _passage_lines(self) -> list[str]:
        here = self.board.locate(self.position)
        lines = []
        for a, b in self.board.passages:
            note = f" (from here: {self.ROLLS[self.roll]})" if here in (a, b) else ""
            lines.append(f"{self.board.room_name(a)} <-> {self.board.room_name(b)}{note}")
        return lines

    def table(self) -> list[tuple[str, int | None, Fraction]]:
        """(room id, moves by dice, chance this turn) for every other room, nearest first (a
        room by secret passage first of all)."""
        chances, moves = self.chances(), self.moves()
        near = self.passage_rooms()
        order = {r: i for i, r in enumerate(self.board.rooms)}
        rows = [(r, moves.get(r), chances[r]) for r in chances]
        return sorted(rows, key=lambda row: (row[0] not in near, row[1] is None, row[1] or 0,
                                             order[row[0]]))

    def _dice_text(self) -> str:
        return "the given dice" if isinstance(self.dice, Mapping) else str(Dice.of(self.dice))

    def _moves_text(self, room: str, moves: int | None) -> str:
        return "passage" if room in self.passage_rooms() else "-" if moves is None else str(moves)

    def __repr__(self) -> str:
        lines = [f"From {self.where()} with {self._dice_text()}:",
                 f"{'room':16}{'moves':>8}  chance this turn"]
        for room, moves, chance in self.table():
            lines.append(f"{self.board.room_name(room):16}{self._moves_text(room, moves):>8}"
                         f"  {numbers.chance(chance)}")
        lines += [f"{self.board.room_name(r)}: {self.how(r)}." for r in self.passage_rooms()]
        if self.show_route:
            lines.append(self._route_text(self.route()))
        if self.show_passages:
            lines += ["Secret passages:"] + ["  " + line for line in self._passage_lines()]
        return "\n".join(lines)

    def _route_text(self, route: list[Node] | None) -> str:
        name = self.board.room_name(self.target)
        if route is None:
            return f"No way into the {name} from here."
        if len(route) == 1:
            return f"Already in the {name}."
        text = f"Shortest route to the {name}: {len(route) - 1} moves."
        if self.target in self.passage_rooms():
            text += f" Or {self.ROLLS[self.roll]}."
        return text

    # -- drawing -----------------------------------------------------------------------------
    def svg(self) -> str:
        """The board with the piece, the reach chances as heat, the row and column numbers,
        and the chosen overlays (the secret passages drawn only when asked for)."""
        board = self.board
        node = board.locate(self.position)
        if isinstance(self.position, str) and self.position in board.starts:
            pieces = {self.position: node}
        else:
            pieces = {"you": node}
        heat: dict[Node, Fraction] = {room: p for room, p in self.chances().items()}
        drawing = render_svg(board, pieces=pieces, heat=heat, cell=self.CELL,
                             colours={"you": "#212121"}, passages=self.show_passages,
                             coordinates=True)
        extra = []
        if self.show_passages:
            extra += self._passages_svg()
        if self.show_route and (route := self.route()) and len(route) > 1:
            extra.append(self._route_svg(route))
        if not extra:
            return drawing
        return drawing.replace("</svg>\n", "\n".join(extra) + "\n</svg>\n")

    def _xy(self, square: tuple[float, float]) -> tuple[str, str]:
        """SVG coordinates of a square's centre (render_svg's origin, no title)."""
        cell = self.CELL
        left, top = origin(cell, coordinates=True)
        return (f"{left + (square[1] + 0.5) * cell:g}", f"{top + (square[0] + 0.5) * cell:g}")

    def _room_anchor(self, room: str) -> tuple[float, float]:
        """Where a passage line ends: the room's staircase, else the middle of the room."""
        for sq, r in sorted(self.board.staircases.items()):
            if r == room:
                return sq
        squares = self.board.room_squares[room]
        return (sum(r for r, _ in squares) / len(squares) - 0.5,
                sum(c for _, c in squares) / len(squares) - 0.5)

    def _passages_svg(self) -> list[str]:
        out = []
        for a, b in self.board.passages:
            (xa, ya), (xb, yb) = (self._xy(self._room_anchor(r)) for r in (a, b))
            out.append(f'<line class="cluedo-passage" x1="{xa}" y1="{ya}" x2="{xb}" y2="{yb}" '
                       f'stroke="{PASSAGE}" stroke-width="4" stroke-dasharray="10 6">'
                       f'<title>secret passage: {escape(self.board.room_name(a))} - '
                       f'{escape(self.board.room_name(b))}</title></line>')
        return out

    def _route_svg(self, route: list[Node]) -> str:
        doors = {(d.room, d.corridor): d.square for d in self.board.doors}
        points = []
        for i, node in enumerate(route):
            if isinstance(node, str):  # a room at either end: draw to its door square
                neighbour = route[1] if i == 0 else route[i - 1]
                assert not isinstance(neighbour, str), "a route enters rooms from corridors"
                node = doors[(node, neighbour)]
            points.append(",".join(self._xy(node)))
        return (f'<polyline class="cluedo-route" points="{" ".join(points)}" fill="none" '
                f'stroke="{ROUTE}" stroke-width="5" stroke-linejoin="round" '
                f'stroke-opacity="0.8"><title>{escape(self._route_text(route))}</title>'
                f'</polyline>')

    def _table_html(self) -> str:
        rows = []
        for room, moves, chance in self.table():
            css = " class='cluedo-reachable'" if chance else ""
            rows.append(f"<tr{css}><td>{escape(self.board.room_name(room))}</td>"
                        f"<td style='text-align:right'>{self._moves_text(room, moves)}</td>"
                        f"<td style='text-align:right' title='exactly {chance}'>"
                        f"{numbers.chance(chance)}</td></tr>")
        notes = [f"The {escape(self.board.room_name(r))}: {escape(self.how(r))}."
                 for r in self.passage_rooms()]
        if self.show_route:
            notes.append(escape(self._route_text(self.route())))
        if self.show_passages:
            notes.append("Secret passages: " + "; ".join(escape(line)
                                                         for line in self._passage_lines()))
        if self.message:
            notes.append(f"<span style='color:#b71c1c'>{escape(self.message)}</span>")
        return (f"<p class='cluedo-where'>From {escape(self.where())}:</p>"
                "<table class='cluedo-reach-table'><tr><th>room</th><th>moves</th>"
                f"<th>chance this turn</th></tr>{''.join(rows)}</table>"
                + "".join(f"<p>{n}</p>" for n in notes))

    def _repr_html_(self) -> str:
        return (f"<div style='display:flex;gap:1em;align-items:flex-start;flex-wrap:wrap'>"
                f"<div>{self.svg()}</div><div>{self._table_html()}</div></div>")

    # -- live --------------------------------------------------------------------------------
    def square_button(self, square: Sequence[int]) -> ipywidgets.Button:
        """The clickable square at (row, col) laid over the live drawing."""
        self.widget()
        return self._squares[(square[0], square[1])]

    def _clickable(self) -> ipywidgets.GridBox:
        """One transparent button per square, laid over the drawing: a click picks that square
        (or its room). The buttons share one layout and one style, so the board costs one
        widget per square and no more."""
        import ipywidgets as w

        cell = self.CELL
        left, top = origin(cell, coordinates=True)
        shared = w.Layout(width=f"{cell}px", height=f"{cell}px", margin="0", padding="0",
                          border="0")
        style = w.ButtonStyle(button_color="transparent")
        buttons = []
        for row in range(self.board.rows):
            for col in range(self.board.cols):
                room = self.board.room_at((row, col))
                tip = f"{row}, {col}" + (f": {self.board.room_name(room)}" if room else "")
                button = w.Button(layout=shared, style=style, tooltip=tip)
                button.on_click(lambda _b, sq=(row, col): self.click(sq))
                self._squares[(row, col)] = button
                buttons.append(button)
        grid = w.GridBox(buttons, layout=w.Layout(
            grid_template_columns=f"repeat({self.board.cols}, {cell}px)",
            grid_template_rows=f"repeat({self.board.rows}, {cell}px)", grid_gap="0",
            padding=f"{top:g}px 0 0 {left:g}px", margin="0", grid_area="1 / 1",
            align_self="flex-start", width="max-content"))
        grid.add_class("cluedo-board-squares")
        return grid

    def _build(self) -> ipywidgets.Widget:
        import ipywidgets as w

        options = self.choices()
        self._where = w.Dropdown(options=options, description="piece at",
                                 value=self.position if self.position in dict(options).values()
                                 else None)
        self._where.add_class("cluedo-board-where")
        self._target = w.Dropdown(options=[(self.board.room_name(r), r)
                                           for r in self.board.rooms],
                                  value=self.target, description="route to")
        self._target.add_class("cluedo-board-target")
        self._show_route = w.Checkbox(value=self.show_route, description="shortest route")
        self._show_route.add_class("cluedo-board-route")
        self._show_passages = w.Checkbox(value=self.show_passages,
                                         description="secret passages")
        self._show_passages.add_class("cluedo-board-passages")
        self._drawing = w.HTML(layout=w.Layout(grid_area="1 / 1", margin="0"))
        self._drawing.add_class("cluedo-board-svg")
        self._table = w.HTML()
        self._table.add_class("cluedo-board-table")

        self._where.observe(lambda c: c["new"] is not None and self.pick(c["new"]),
                            names="value")
        self._target.observe(lambda c: self.route_to(c["new"], self.show_route),
                             names="value")
        self._show_route.observe(lambda c: self.route_to(self.target, c["new"]),
                                 names="value")
        self._show_passages.observe(lambda c: self.passages(c["new"]), names="value")
        hint = w.HTML("<div style='line-height:1.3'><small>Click a square or a room on the "
                      "board to put the piece there (rows are numbered down the side, columns "
                      "along the top).</small></div>")
        controls = w.VBox([self._where, hint, self._target, self._show_route,
                           self._show_passages, self._table],
                          layout=w.Layout(width="26em"))
        board = w.GridBox([self._drawing, self._clickable()],
                          layout=w.Layout(grid_template_columns="max-content",
                                          grid_template_rows="max-content"))
        box = live_box(self, [w.HBox([board, controls],
                                     layout=w.Layout(flex_flow="row wrap", grid_gap="1em"))])
        box.add_class("cluedo-board-explorer")
        self._parts = {"where": self._where, "target": self._target,
                       "show_route": self._show_route, "show_passages": self._show_passages,
                       "drawing": self._drawing, "table": self._table}
        return box

    def _refresh(self) -> None:
        self._drawing.value = f"<div style='line-height:0'>{self.svg()}</div>"
        self._table.value = f"<div style='line-height:1.35'>{self._table_html()}</div>"
        if self.position in dict(self.choices()).values():
            self._where.value = self.position
        else:
            self._where.value = None
        self._show_route.value = self.show_route
        self._show_passages.value = self.show_passages
        self._target.value = self.target


# ---------------------------------------------------------------------------------------------
# Suggestion advisor
# ---------------------------------------------------------------------------------------------

class SuggestionAdvisor(InteractiveView):
    """The legal questions ranked by exact expected information gain about the envelope
    (:func:`~cluedo_lab.knowledge.advice.rank_questions`), optionally only those naming one room.

    Ranking every question can take seconds on a big position, so a ranking is computed on
    first look and kept per room until the knowledge's record changes.
    """

    def __init__(self, knowledge: Knowledge, room: str | None = None, *, top: int = 8,
                 asker: str | None = None):
        self.knowledge = knowledge
        self.asker = asker
        self.top = top
        self.room = None if room is None else knowledge.card(room).id
        self.chosen = 0
        self._rankings: dict[str | None, list[Option]] = {}
        self._record = knowledge.record

    # -- choosing ----------------------------------------------------------------------------
    def rooms(self) -> list[tuple[str, str]]:
        """(name, id) of the cards a question may be pinned to: the rooms, if the deck has any."""
        return [(c.name, c.id) for cat in self.knowledge.edition.categories
                if cat.id == "room" for c in cat.cards]

    def restrict(self, room: str | None) -> SuggestionAdvisor:
        """Only questions naming ``room`` (the room your piece stands in); None for all."""
        self.room = None if room is None else self.knowledge.card(room).id
        self.chosen = 0
        self._update()
        return self

    def choose(self, index: int) -> SuggestionAdvisor:
        """Show the possible answers of the ``index``-th best question."""
        if not 0 <= index < len(self.best()):
            raise IndexError(f"choose 0..{len(self.best()) - 1}")
        self.chosen = index
        self._update()
        return self

    # -- reading -----------------------------------------------------------------------------
    def ranking(self) -> list[Option]:
        """Every legal question (naming :attr:`room` if set), best first."""
        if self._record is not self.knowledge.record:  # an event was added or undone
            self._rankings, self._record = {}, self.knowledge.record
        if self.room not in self._rankings:
            fixed = [self.room] if self.room else []
            self._rankings[self.room] = rank_questions(self.knowledge, self.asker, fixed)
        return self._rankings[self.room]

    def best(self) -> list[Option]:
        return self.ranking()[:self.top]

    def _names(self, option: Option) -> str:
        return ", ".join(self.knowledge.card(c).name for c in option.named)

    def describe(self, option: Option) -> str:
        """One question as a learner reads it: the cards by name and the bits it gains."""
        return f"{self._names(option)}: {option.gain:.3f} bits expected"

    def answers(self, index: int | None = None) -> str:
        """The chosen question's possible answers, their chances and the bits left after."""
        option = self.best()[self.chosen if index is None else index]
        names = {c.id: c.name for c in self.knowledge.edition.cards}
        return f"Ask about {self._names(option)}:\n{outcome_table(option, names)}"

    def _heading(self) -> str:
        record = self.knowledge.record
        who = self.asker or record.observer
        scope = (f"naming the {self.knowledge.card(self.room).name}" if self.room
                 else "of every kind")
        return (f"Best questions for {who} ({len(self.ranking())} questions {scope}), "
                f"by expected information gain")

    def __repr__(self) -> str:
        lines = [self._heading(), f"{'#':>2}  {'bits':>6}  question"]
        for i, option in enumerate(self.best(), start=1):
            lines.append(f"{i:>2}  {option.gain:6.3f}  {self._names(option)}")
        return "\n".join(lines + ["", self.answers()])

    def _table_html(self) -> str:
        rows = []
        for i, option in enumerate(self.best()):
            css = " class='cluedo-advisor-chosen' style='background:#fff3c4'" if (
                i == self.chosen) else ""
            rows.append(f"<tr{css}><td>{i + 1}</td><td>{escape(self._names(option))}</td>"
                        f"<td style='text-align:right'>{option.gain:.3f}</td></tr>")
        return (f"<p><b>{escape(self._heading())}</b></p><table class='cluedo-advisor-ranking'>"
                f"<tr><th>#</th><th>question</th><th>bits gained (expected)</th></tr>"
                f"{''.join(rows)}</table>")

    def _repr_html_(self) -> str:
        return self._table_html() + pre(self.answers())

    # -- live --------------------------------------------------------------------------------
    def _build(self) -> ipywidgets.Widget:
        import ipywidgets as w

        rooms = self.rooms()
        self._room = w.Dropdown(options=[("any room", None), *rooms], value=self.room,
                                description="room", disabled=not rooms)
        self._room.add_class("cluedo-advisor-room")
        self._question = w.Dropdown(description="answers to", layout=w.Layout(width="32em"))
        self._question.add_class("cluedo-advisor-question")
        self._ranking = w.HTML()
        self._ranking.add_class("cluedo-advisor-table")
        self._answers = w.HTML()
        self._answers.add_class("cluedo-advisor-answers")
        self._syncing = False
        self._room.observe(lambda c: self.restrict(c["new"]), names="value")
        self._question.observe(
            lambda c: None if self._syncing or c["new"] is None else self.choose(c["new"]),
            names="value")
        box = live_box(self, [self._room, self._ranking, self._question, self._answers])
        box.add_class("cluedo-advisor")
        self._parts = {"room": self._room, "ranking": self._ranking,
                       "question": self._question, "answers": self._answers}
        return box

    def _refresh(self) -> None:
        self._syncing = True
        try:
            self._room.value = self.room
            self._question.options = [(f"{i + 1}. {self._names(o)}", i)
                                      for i, o in enumerate(self.best())]
            self._question.value = self.chosen
        finally:
            self._syncing = False
        self._ranking.value = self._table_html()
        self._answers.value = pre(self.answers())


__all__ = ["BoardExplorer", "DeductionStepper", "EngineNotepad", "SuggestionAdvisor",
           "shortest_route"]
