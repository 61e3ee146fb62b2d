"""The learner's notepad: the student fills the grid, the engine checks, hints and reveals.

A thin skin over :class:`~cluedo_lab.lab.learner.LearnerMarks`. A click on a cell cycles its
mark (blank → ✓ holds → ✗ not there → ? maybe → blank); **Check** counts wrong and
not-yet-justified marks without saying which, **Which?** then outlines them, wrong ones in solid
red and unjustified ones in dashed orange; **Hint** first points at a wrong mark (the events
that rule it out), else names the next real deduction's rule and events, and a second and third
press add the cells it uses and its result; **Reveal** switches the grid to the engine's exact
notepad (and back). An optional helper crosses off the rest of a row when a ✓ is written, as
logic-grid sites do. Every button calls an ordinary method, so tests and notebooks can drive it
without a browser.

The four marks differ in shape as well as colour: ✓ bold on green, ✗ on grey, ? on yellow, and
a blank cell empty inside a dashed border. A blank cell's button carries a no-break space, not
an empty text: the browser's Button view leaves its old text in place when given an empty
one, so a blank written after Reveal would keep showing the engine's "·" or chance.

The learner's page comes back by itself. A hidden widget holds it as JSON (saved with the
notebook's widget state, so a handed-in notebook carries it), keyed by the record it is written
over and by the notepad's place in the notebook (its cell, and its turn among the notepads over
that record the cell makes). A notepad made in a JupyterLab kernel (which knows its notebook
from ``JPY_SESSION_NAME``) reads that notebook's saved state and takes back the page saved
under its key: a learner who reopens a saved lesson and runs it finds their marks, and a cell
run again in the same kernel keeps the page it had. Voilà and the static site set no notebook
path, so there a notepad starts blank.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Mapping
from html import escape
from typing import TYPE_CHECKING, Any

from ..knowledge.engine import Knowledge
from ..lab.learner import (
    HOLDS,
    LACKS,
    MAYBE,
    CheckResult,
    LearnerMarks,
    Mistake,
    record_key,
    saved_page,
)
from ..rules import numbers
from ..rules.files import parse_json
from .base import CellLooks, InteractiveView, beside, cell_grid, live_box, pre, restyle, shade, slug
from .reprs import knowledge_html

if TYPE_CHECKING:
    import ipywidgets

MARK_COLOURS = {HOLDS: "#c8e6c9", LACKS: "#e0e0e0", MAYBE: "#fff9c4", None: "#ffffff"}
MARK_WEIGHTS = {HOLDS: "bold", LACKS: "normal", MAYBE: "normal", None: "normal"}
MARK_WORDS = {HOLDS: "✓ holds", LACKS: "✗ does not hold", MAYBE: "? not sure", None: "blank"}
CELL_BORDER = "1px solid #9e9e9e"
BLANK_BORDER = "1px dashed #9e9e9e"
FLAGGED_BORDER = "3px solid #c62828"
UNJUSTIFIED_BORDER = "3px dashed #ef6c00"
BLANK_FACE = "\u00a0"
"""What a blank cell's button says: a no-break space (an empty text would not repaint)."""
LEGEND = ("Click a cell to cycle its mark: ✓ holds the card, ✗ does not, ? not sure. "
          "Check counts your mistakes; Hint points to the next step; Reveal shows the "
          "engine's notepad.")
LEGEND_NO_REVEAL = LEGEND.replace("; Reveal shows the engine's notepad.", ".")
MARKS_CLASS = "cluedo-learner-marks"
"""The CSS class of the hidden widget that holds the learner's marks as JSON: saved with the
notebook's widget state, so a handed-in notebook carries the page the learner wrote."""

_made: Counter[tuple[str, str, str]] = Counter()
"""How many notepads over each record each cell run has made (the kernel's tally)."""
_pages: dict[str, str] = {}
"""The latest page of each key written in this kernel: a cell run again starts from it."""


def _cell_run() -> tuple[str, str]:
    """The id of the notebook cell running now and of its run, as the front end sent them
    (both empty outside a kernel, or from a front end that sends no cell id: then the kernel
    counts every notepad over a record in one tally)."""
    try:
        from IPython import get_ipython

        parent = get_ipython().kernel.get_parent()
        cell = str(parent.get("metadata", {}).get("cellId", ""))
        return (cell, str(parent.get("header", {}).get("msg_id", ""))) if cell else ("", "")
    except Exception:   # no kernel (a script, a test): no cell to name
        return "", ""


def notebook_path() -> str | None:
    """The notebook this kernel runs, as JupyterLab's server tells a kernel it starts."""
    path = os.environ.get("JPY_SESSION_NAME", "")
    return path if path.endswith(".ipynb") else None


class LearnerNotepad(InteractiveView):
    """A student's own card × place grid over one record, with Check, Hint and Reveal."""

    def __init__(self, knowledge: Knowledge | LearnerMarks, *, can_reveal: bool = True,
                 place: str | None = None):
        self.notes = knowledge if isinstance(knowledge, LearnerMarks) else LearnerMarks(knowledge)
        self.can_reveal = can_reveal
        """False when a class turns Reveal off: no Reveal button, and :meth:`reveal` refuses."""
        self.revealed = False
        self.message = LEGEND if can_reveal else LEGEND_NO_REVEAL
        self.flagged: tuple[tuple[str, str], ...] = ()
        self.unjustified: tuple[tuple[str, str], ...] = ()
        self.cross_off = False
        """The logic-grid helper: a ✓ crosses off the rest of its row (off by default)."""
        self._last_check: CheckResult | None = None
        self._hint_level = 0
        self._hint_step: object = None
        self._buttons: dict[tuple[str, str], Any] = {}
        if place is None:
            cell, run = _cell_run()
            digest = record_key(self.knowledge)
            _made[digest, cell, run] += 1
            place = f"{cell or 'kernel'}-{_made[digest, cell, run]}"
        self.place = place
        """Where the notepad is in its notebook, so that its page comes back to it: by default
        its cell and its turn among the notepads over the same record that one run of the cell
        makes; a name given instead stays the same wherever the cell moves."""
        self._come_back()

    @property
    def key(self) -> str:
        """The key its page is saved under: the record it checks against, and its place."""
        return f"{record_key(self.knowledge)}-{self.place}"

    @property
    def knowledge(self) -> Knowledge:
        return self.notes.knowledge

    # -- what the buttons do -----------------------------------------------------------------
    def click(self, card: str, place: str) -> str | None:
        """One click on a cell: the next mark (while the engine's notepad is hidden)."""
        if self.revealed:
            self.message = "Switch Reveal off to write on your own page."
            self._update()
            return self.notes.marks.get((self.knowledge.card(card).id, place))
        mark = self.notes.cycle(card, place)
        if self.cross_off and mark == HOLDS:
            self.notes.cross_off_row(card, place)
        self._unflag()
        self._update()
        return mark

    def mark(self, card: str, place: str, mark: str | None) -> LearnerNotepad:
        self.notes.mark(card, place, mark)
        self._unflag()
        self._update()
        return self

    def crossing_off(self, on: bool = True) -> LearnerNotepad:
        """Switch the helper that crosses off the rest of a row when you write ✓."""
        self.cross_off = on
        self._update()
        return self

    def saved_marks(self) -> str:
        """The learner's page as JSON (cards by their printed names), as the notebook keeps
        it: ``{"notepad": key, "marks": [[card, place, mark], ...], "chances": [[card,
        place, "p/q"], ...]}`` (see :meth:`LearnerMarks.page`)."""
        return json.dumps(self.notes.page(self.key), ensure_ascii=False)

    def restore(self, saved: str) -> LearnerNotepad:
        """Write back a page of :meth:`saved_marks`, replacing this one; entries that no
        longer fit the record are dropped and named in the message. Text that is not such a
        page raises ValueError and changes nothing. Reveal is off afterwards: only the
        learner's marks come back."""
        def fail(why: str) -> ValueError:
            return ValueError(f"not a saved page of marks: {why}")

        dropped = self.notes.read_page(parse_json(saved, "the saved page", fail))
        count = len(self.notes.marks) + len(self.notes.chances)
        self.revealed = False
        lines = [f"Your saved page is back: {count} mark{'s' * (count != 1)}."] if count else []
        if dropped:
            lines.append(f"{len(dropped)} saved mark{'s' * (len(dropped) != 1)} no longer fit "
                         "this record and were left out: " + ", ".join(dropped[:5])
                         + (", ..." if len(dropped) > 5 else "") + ".")
        self.message = "\n".join([*lines, LEGEND if self.can_reveal else LEGEND_NO_REVEAL])
        self._unflag()
        self._update()
        return self

    def _come_back(self) -> None:
        """Take back this notepad's page: from an earlier run of its cell in this kernel, else
        from the notebook's saved widget state (JupyterLab only; a notebook that cannot be
        read leaves the page blank and says why)."""
        saved = _pages.get(self.key)
        try:
            if saved is None and (path := notebook_path()) is not None:
                page = saved_page(path, self.key, MARKS_CLASS)
                saved = None if page is None else json.dumps(page)
            if saved is not None:
                self.restore(saved)
        except (OSError, ValueError) as error:
            self.message = f"{str(error)[:200]}\n{self.message}"

    def _unflag(self) -> None:
        self.flagged, self.unjustified, self._last_check = (), (), None

    def check(self) -> str:
        self._last_check = self.notes.check()
        self.flagged, self.unjustified = (), ()
        self.message = str(self._last_check)
        self._update()
        return self.message

    def which(self) -> str:
        """After Check: outline the wrong marks (solid red) apart from the marks the events do
        not force yet (dashed orange)."""
        result = self._last_check or self.notes.check()
        self.flagged = result.wrong + result.chances_off
        self.unjustified = result.unjustified
        parts = []
        if self.flagged:
            parts.append(f"Solid red: wrong, the events rule it out ({len(self.flagged)}).")
        if self.unjustified:
            parts.append("Dashed orange: not yet justified, it could be so but the events "
                         f"do not force it ({len(self.unjustified)}).")
        self.message = "\n".join(parts) or "No mark needs another look."
        self._update()
        return self.message

    def hint(self) -> str:
        """A wrong mark first (the events that rule it out, then its row, then the cell), else
        the next real deduction: press again for more of it (rule, then cells, then result)."""
        hint: Mistake | Any = self.notes.mistake() or self.notes.hint()
        if hint is None:
            self.message = ("The rules reach nothing more from your page. Cells still open "
                            "need a count of deals or a case split: see the exact notepad.")
        else:
            key = hint.cell if isinstance(hint, Mistake) else hint.step.number
            if key != self._hint_step:
                self._hint_step, self._hint_level = key, 0
            self._hint_level = min(self._hint_level + 1, 3)
            self.message = hint.text(self._hint_level)
        self._update()
        return self.message

    def reveal(self, on: bool | None = None) -> LearnerNotepad:
        """Show the engine's exact notepad instead of the student's (again to hide it)."""
        if not self.can_reveal:
            self.message = "Reveal is turned off for this class: Check and Hint still help."
            self._update()
            return self
        self.revealed = (not self.revealed) if on is None else on
        self.message = ("The engine's notepad: ✓ certain, · certainly not, else the exact "
                        "chance." if self.revealed else LEGEND)   # only when allowed
        self._update()
        return self

    def follow(self, knowledge: Knowledge) -> LearnerNotepad:
        """Check the same marks against a new knowledge of a longer record (a game goes on)."""
        self.notes.follow(knowledge)
        self._unflag()
        self._update()
        return self

    def add(self, event: Mapping[str, Any]) -> LearnerNotepad:
        """A new event at the table: the student's marks stay, the checks follow the record."""
        self.knowledge.add(event)
        self._last_check = None
        self._update()
        return self

    # -- static ------------------------------------------------------------------------------
    def _caption(self) -> str:
        record = self.knowledge.record
        who = f"{record.observer}'s own notes" if record.observer else "Your notes"
        events = len(record.events)
        return f"{who} after {events} event{'s' * (events != 1)}"

    def cell(self, card: str, place: str) -> str:
        """What a cell shows now: the student's mark, or the engine's value when revealed."""
        if self.revealed:
            return self.notes.reveal(card, place)
        return self.notes.symbol(card, place)

    def __repr__(self) -> str:
        k = self.knowledge
        width = max(len(c.name) for c in k.edition.cards) + 1
        lines = [self._caption(), " " * width + "".join(f"{p[:7]:>8}" for p in k.places)]
        for card in k.edition.cards:
            lines.append(f"{card.name:<{width}}"
                         + "".join(f"{self.cell(card.id, p):>8}" for p in k.places))
        return "\n".join([*lines, "", self.message])

    def _repr_html_(self) -> str:
        if self.revealed:
            grid = knowledge_html(self.knowledge)
        else:
            k = self.knowledge
            head = "".join(f"<th>{escape(p)}</th>" for p in k.places)
            rows = []
            for category in k.edition.categories:
                rows.append(f"<tr><th colspan='{len(k.places) + 1}' style='text-align:left'>"
                            f"{escape(category.name)}</th></tr>")
                for card in category.cards:
                    cells = "".join(
                        f"<td style='text-align:center;min-width:3em;background:"
                        f"{MARK_COLOURS[self.notes.marks.get((card.id, p))]}'>"
                        f"{escape(self.cell(card.id, p))}</td>" for p in k.places)
                    rows.append(f"<tr><td>{escape(card.name)}</td>{cells}</tr>")
            grid = (f"<table class='cluedo-learner-grid'><tr><th></th>{head}</tr>"
                    + "".join(rows) + "</table>")
        return f"<p><b>{escape(self._caption())}</b></p>{grid}{pre(self.message)}"

    # -- live --------------------------------------------------------------------------------
    def cell_button(self, card: str, place: str) -> ipywidgets.Button:
        self.widget()
        return self._buttons[(self.knowledge.card(card).id, place)]

    def cell_buttons(self) -> dict[tuple[str, str], ipywidgets.Button]:
        """Every cell's button by (card id, place), as drawn now."""
        self.widget()
        return dict(self._buttons)

    @property
    def cross_off_checkbox(self) -> ipywidgets.Checkbox:
        """The checkbox of the row helper (ticking it is :meth:`crossing_off`)."""
        self.widget()
        return self._cross

    @property
    def marks_widget(self) -> ipywidgets.Text:
        """The hidden widget whose value is :meth:`saved_marks`, saved with the notebook."""
        self.widget()
        return self._saved

    def _build(self) -> ipywidgets.Widget:
        import ipywidgets as w

        k = self.knowledge
        self._looks = CellLooks()
        table = cell_grid(k.edition, k.places, self.click, self._buttons,
                          css="cluedo-learner-cell", column="minmax(4.5em, max-content)",
                          look=self._look, looks=self._looks)
        buttons = []
        for label, action, tip in (
                ("Check", self.check, "How many of my marks are wrong or not yet justified?"),
                ("Which?", self.which, "Outline the marks that need another look"),
                ("Hint", self.hint, "The next step (press again for more of it)"),
                ("Reveal", self.reveal, "Show or hide the engine's exact notepad")):
            if label == "Reveal" and not self.can_reveal:
                continue
            button = w.Button(description=label, tooltip=tip, layout=w.Layout(width="auto"))
            button.add_class(f"cluedo-learner-{slug(label)}")
            button.on_click(lambda _b, act=action: act())
            buttons.append(button)
        self._cross = w.Checkbox(value=self.cross_off, indent=False,
                                 description="✓ crosses off the rest of its row",
                                 layout=w.Layout(width="auto"))
        self._cross.add_class("cluedo-learner-cross-off")
        self._cross.observe(lambda c: self.crossing_off(c["new"]), names="value")
        buttons.append(self._cross)
        self._caption_widget = w.HTML()
        self._caption_widget.add_class("cluedo-learner-caption")
        self._message = beside(w.HTML())
        self._message.add_class("cluedo-learner-message")
        # The marks as JSON, saved with the notebook's widget state; never shown.
        self._saved = w.Text(disabled=True, layout=w.Layout(display="none"))
        self._saved.add_class(MARKS_CLASS)
        # The buttons and their answer above the grid: on a classroom screen they stay in view.
        box = live_box(self, [self._caption_widget, w.HBox(buttons), self._message, table,
                              self._saved])
        box.add_class("cluedo-learner-notepad")
        return box

    def _look(self, card: str, place: str) -> dict[str, Any]:
        """A cell's button traits: its mark, colour, border and tooltip."""
        k = self.knowledge
        if self.revealed:
            p = k.probability(card, place)
            colour, tip = shade(p), f"{numbers.chance(p)} of the deals (exactly {p})"
            weight, border = "bold" if p in (0, 1) else "normal", CELL_BORDER
        else:
            mark = self.notes.marks.get((card, place))
            colour, weight = MARK_COLOURS[mark], MARK_WEIGHTS[mark]
            border = CELL_BORDER if mark or (card, place) in self.notes.chances else BLANK_BORDER
            tip = f"your mark: {MARK_WORDS[mark]}; click to change it"
        if (card, place) in self.flagged:
            border, tip = FLAGGED_BORDER, tip + " (wrong: the events rule it out)"
        elif (card, place) in self.unjustified:
            border, tip = UNJUSTIFIED_BORDER, tip + " (not yet justified)"
        return {"description": self.cell(card, place) or BLANK_FACE,
                "style": self._looks.style(colour, weight),
                "layout": self._looks.layout(border),
                "tooltip": f"{k.card(card).name} / {place}: {tip}"}

    def _refresh(self) -> None:
        for (card, place), button in self._buttons.items():
            restyle(button, self._look(card, place))
        self._cross.value = self.cross_off
        self._saved.value = _pages[self.key] = self.saved_marks()
        self._caption_widget.value = f"<b>{escape(self._caption())}</b>"
        # Lines wrap between words only (a pre may otherwise break "does" as "doe s").
        self._message.value = (f"<pre style='white-space:pre-wrap;word-break:normal;"
                               f"overflow-wrap:break-word;line-height:1.4'>"
                               f"{escape(self.message)}</pre>")
