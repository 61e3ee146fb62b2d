"""A learner's own notepad: their marks, checked and hinted by the engine, never filled in by it.

The exact notepad (:class:`~cluedo_lab.knowledge.Knowledge`) knows every cell; a student learns
by working the cells out. :class:`LearnerMarks` holds what the student wrote — "holds", "lacks"
or "maybe" in a cell, and optionally a chance in percent — and answers three questions without
giving the game away:

* :meth:`LearnerMarks.check` counts marks that are wrong and marks that the events do not yet
  justify, without saying which (unless asked);
* :meth:`LearnerMarks.hint` names the next deduction that follows from what is on the page: the
  rule and the events it rests on, then (at a deeper level) the cells it uses, never its result;
* :meth:`LearnerMarks.reveal` shows the engine's cell, on request.

"On the page" means the student's correct marks: the next hint is the first step of the
engine's rule-by-rule deduction whose conclusion the student has not written down yet, so every
earlier step — its premises among them — is already there.

A page is saved as JSON (:meth:`LearnerMarks.page`), keyed by the record it was written over
(:func:`record_key`), and read back from a notebook's saved widget state (:func:`saved_page`)
with the kit's bounded readers: a page over another record is never read back, and an entry
that no longer fits the record is dropped and named, not guessed at.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..knowledge.engine import Knowledge, cell_text
from ..knowledge.explain import Fact, Step
from ..rules.files import parse_json, read_text, shown
from .grading import MAX_NOTEBOOK_BYTES, widget_values

__all__ = ["HOLDS", "LACKS", "MAYBE", "MARKS", "CheckResult", "Hint", "LearnerMarks", "Mistake",
           "ProofShape", "proof_shape", "same_argument", "BOOKKEEPING", "record_key",
           "saved_page", "MAX_PAGE_CHARS"]

HOLDS, LACKS, MAYBE = "holds", "lacks", "maybe"
BOOKKEEPING = ("observed", "one-place")
"""Rules that copy what the events say, or cross a card off everywhere else once it is placed."""
MARKS = (HOLDS, LACKS, MAYBE)
SYMBOLS = {HOLDS: "✓", LACKS: "✗", MAYBE: "?"}

Cell = tuple[str, str]

MAX_PAGE_CHARS = 200_000
"""The longest saved page read back (a full page of the largest edition is under 20,000)."""
CHANCE_TEXT = re.compile(r"\d{1,9}(?:/\d{1,9})?")
"""A saved chance: a fraction of two short integers (never a float or an exponent)."""


@dataclass(frozen=True)
class CheckResult:
    """How a page of marks stands against the record: counts first, the cells on request."""

    right: int
    wrong: tuple[Cell, ...]
    unjustified: tuple[Cell, ...]
    chances_off: tuple[Cell, ...]
    still_open: int

    @property
    def all_right(self) -> bool:
        return not (self.wrong or self.unjustified or self.chances_off)

    def __str__(self) -> str:
        parts = [f"{_count(self.right, 'mark')} right"]
        if self.wrong:
            parts.append(f"{_count(len(self.wrong), 'mark')} wrong (the events rule it out)")
        if self.unjustified:
            parts.append(f"{_count(len(self.unjustified), 'mark')} not yet justified "
                         "(it could be so, but the events do not force it)")
        if self.chances_off:
            parts.append(f"{_count(len(self.chances_off), 'chance')} off by more than one "
                         "percentage point")
        text = "; ".join(parts) + "."
        if self.still_open:
            text += (f" {_count(self.still_open, 'more cell')} can be worked out from the "
                     "events.")
        elif self.all_right:
            text += " Everything that can be deduced is on your page."
        return text


@dataclass(frozen=True)
class Hint:
    """The next deduction: its rule and events always, its premises at level 2, its cell at 3."""

    step: Step
    premises: tuple[str, ...]
    events: tuple[str, ...]
    answer: str
    row: str
    missing: tuple[str, ...] = ()
    """The premises not on the page yet (bookkeeping the hint skipped over)."""

    @property
    def rule(self) -> str:
        return self.step.rule_name

    def text(self, level: int = 1) -> str:
        if self.step.rule == "observed":
            where = self.events[0] if self.events else "the set-up"
            lines = [f"Something is written in plain view: read {where} again."]
        else:
            lines = [f"Try the rule \u201c{self.rule}\u201d."]
            if self.events:
                lines.append("It rests on " + "; ".join(self.events) + ".")
        if level >= 2 and self.step.rule == "observed":
            lines.append(f"Look at the {self.row} row.")
        elif level >= 2 and self.premises:
            written = [p for p in self.premises if p not in self.missing]
            if written:
                lines.append("Use what your page already says: " + "; ".join(written) + ".")
            if self.missing:
                lines.append("It also uses what the events give at once (not on your page "
                             "yet): " + "; ".join(self.missing) + ".")
        if level >= 3:
            lines.append(f"It gives: {self.answer}.")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text(1)


@dataclass(frozen=True)
class Mistake:
    """A wrong mark on the page, pointed at before any new deduction: which kind of mark and
    the events that rule it out first, its row at level 2, the cell only at level 3."""

    cell: Cell
    mark: str
    events: tuple[str, ...]
    row: str
    truth: str

    def text(self, level: int = 1) -> str:
        symbol = SYMBOLS[self.mark]
        by = " and ".join(self.events) if self.events else "the set-up"
        if self.mark == HOLDS:
            first = f"One of your {symbol} is ruled out by {by}."
        elif self.mark == LACKS:
            first = f"One of your {symbol} cannot be right: {by} puts that card there."
        else:
            first = f"One of your {symbol} is already settled by {by}."
        lines = [first]
        if level >= 2:
            lines.append(f"Look at the {self.row} row.")
        if level >= 3:
            lines.append(f"The events say: {self.truth}.")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.text(1)


class LearnerMarks:
    """A student's marks over one record's card × place table.

    The notes follow ``knowledge``: after ``knowledge.add(event)`` the same notes are checked
    against the longer record, as a notepad at the table would be.
    """

    def __init__(self, knowledge: Knowledge):
        self.knowledge = knowledge
        self.marks: dict[Cell, str] = {}
        self.chances: dict[Cell, Fraction] = {}
        self._deduction: tuple[int, list[Step]] | None = None

    def follow(self, knowledge: Knowledge) -> LearnerMarks:
        """Keep the marks and check them against ``knowledge`` from now on (the same game's
        longer record, as at a table)."""
        if knowledge.edition.id != self.knowledge.edition.id or \
                knowledge.places != self.knowledge.places:
            raise ValueError("the notes follow one game: the new knowledge has another deck "
                             "or other places")
        self.knowledge = knowledge
        self._deduction = None
        return self

    # -- writing -----------------------------------------------------------------------------
    def _cell(self, card: str, place: str) -> Cell:
        k = self.knowledge
        card_id = k.card(card).id
        if place not in k.places:
            raise KeyError(f"no place {place!r}; places are {list(k.places)}")
        return card_id, place

    def mark(self, card: str, place: str, mark: str | None) -> LearnerMarks:
        """Write ``"holds"``, ``"lacks"`` or ``"maybe"`` in a cell (None rubs it out)."""
        cell = self._cell(card, place)
        if mark is None:
            self.marks.pop(cell, None)
        elif mark not in MARKS:
            raise ValueError(f"a mark is one of {', '.join(MARKS)}, not {mark!r}")
        else:
            self.marks[cell] = mark
        return self

    def cycle(self, card: str, place: str) -> str | None:
        """The next mark in the order blank → holds → lacks → maybe → blank (one click)."""
        cell = self._cell(card, place)
        order: list[str | None] = [None, *MARKS]
        new = order[(order.index(self.marks.get(cell)) + 1) % len(order)]
        self.mark(*cell, new)
        return new

    def estimate(self, card: str, place: str, percent: float | Fraction | None) -> LearnerMarks:
        """Write the student's chance for a cell, in percent (None rubs it out)."""
        cell = self._cell(card, place)
        if percent is None:
            self.chances.pop(cell, None)
            return self
        value = Fraction(percent)
        if not 0 <= value <= 100:
            raise ValueError(f"a chance in percent is between 0 and 100, not {percent}")
        self.chances[cell] = value / 100
        return self

    def symbol(self, card: str, place: str) -> str:
        """What the student's cell shows: ✓, ✗, ? or their chance, else blank."""
        cell = self._cell(card, place)
        if cell in self.marks:
            return SYMBOLS[self.marks[cell]]
        if cell in self.chances:
            return f"{float(self.chances[cell] * 100):.1f}%"
        return ""

    # -- saving ------------------------------------------------------------------------------
    def page(self, key: str = "") -> dict[str, Any]:
        """The page as saved: ``{"notepad": key, "marks": [[card, place, mark], ...],
        "chances": [[card, place, "p/q"], ...]}``, cards by their printed names."""
        k = self.knowledge
        return {"notepad": key,
                "marks": [[k.card(c).name, p, m] for (c, p), m in sorted(self.marks.items())],
                "chances": [[k.card(c).name, p, str(v)]
                            for (c, p), v in sorted(self.chances.items())]}

    def read_page(self, data: object) -> list[str]:
        """Replace the page with a saved one (from :meth:`page`) and return the entries that
        no longer fit the record ("Knife / Dan"), dropped. A page of the wrong shape raises
        ValueError and changes nothing; only ✓, ✗, ? and chances in percent come back."""
        if not isinstance(data, dict) or not all(
                isinstance(data.get(part, []), list) for part in ("marks", "chances")):
            raise ValueError("a saved page is {\"marks\": [...], \"chances\": [...]}")
        notes = LearnerMarks(self.knowledge)
        dropped = []
        for part, write in (("marks", notes.mark), ("chances", notes._estimate_saved)):
            for entry in data.get(part, []):
                if not (isinstance(entry, list) and len(entry) == 3
                        and all(isinstance(x, str) for x in entry)):
                    raise ValueError(f"a saved {part[:-1]} is [card, place, value], not "
                                     f"{shown(repr(entry))[:60]}")
                card, place, value = entry
                try:
                    write(card, place, value)
                except (KeyError, ValueError):
                    dropped.append(shown(f"{card[:40]} / {place[:40]}"))
        self.marks, self.chances = notes.marks, notes.chances
        return dropped

    def _estimate_saved(self, card: str, place: str, chance: str) -> LearnerMarks:
        if not CHANCE_TEXT.fullmatch(chance) or Fraction(chance) > 1:
            raise ValueError(f"a saved chance is a fraction from 0 to 1, not {chance!r}")
        return self.estimate(card, place, Fraction(chance) * 100)

    # -- checking ----------------------------------------------------------------------------
    def check(self) -> CheckResult:
        """Count right, wrong and not-yet-justified marks, and the cells still to work out."""
        k = self.knowledge
        known = k.known()
        right: list[Cell] = []
        wrong: list[Cell] = []
        unjustified: list[Cell] = []
        for cell, mark in sorted(self.marks.items()):
            if mark == MAYBE:
                (wrong if cell in known else right).append(cell)
                continue
            if cell not in known:  # open: the mark could be so, but nothing forces it
                unjustified.append(cell)
            elif known[cell] == (mark == HOLDS):
                right.append(cell)
            else:
                wrong.append(cell)
        off = tuple(cell for cell, chance in sorted(self.chances.items())
                    if abs(chance - k.probability(*cell)) > Fraction(1, 100))
        written = {cell for cell in right if self.marks[cell] != MAYBE}
        still_open = sum(1 for cell in known if cell not in written)
        return CheckResult(len(right), tuple(wrong), tuple(unjustified), off, still_open)

    def on_page(self, fact: Fact) -> bool:
        """Whether the page says ``fact`` (a ✓ where it holds, a ✗ where it does not)."""
        mark = self.marks.get((fact.card, fact.place))
        return mark == (HOLDS if fact.holds else LACKS)

    def _steps(self) -> list[Step]:
        """The engine's deduction of the current record (kept until the record grows)."""
        size = len(self.knowledge.record.events)
        if self._deduction is None or self._deduction[0] != size:
            self._deduction = (size, self.knowledge.deduction().steps)
        return self._deduction[1]

    def hint(self) -> Hint | None:
        """The next real inference whose conclusion is not on the page yet, or None when the
        rules reach no further (a fact that needs cases or counting is left to
        :meth:`Knowledge.explain`).

        Bookkeeping (a fact read off an event, a placed card crossed off elsewhere) is skipped:
        the hint names those of its premises the page still lacks. Only when every real
        inference is written down does a hint point at the bookkeeping left over."""
        missing = [s for s in self._steps() if s.fact is not None and not self.on_page(s.fact)]
        step = next((s for s in missing if s.rule not in BOOKKEEPING), None) or \
            next(iter(missing), None)
        if step is None or step.fact is None:
            return None
        edition = self.knowledge.edition
        premises = tuple(p.text(edition) for p in step.premises)
        lacking = tuple(p.text(edition) for p in step.premises if not self.on_page(p))
        return Hint(step, premises, self._cite(step.events), step.fact.text(edition),
                    edition.card(step.fact.card).name, lacking)

    def _cite(self, positions: tuple[int, ...]) -> tuple[str, ...]:
        events = {e.position: e for e in self.knowledge.record.events}
        return tuple(f"event {n} ({events[n].describe()})" if n in events
                     else "the set-up (your own cards and the hand sizes)" for n in positions)

    def mistake(self) -> Mistake | None:
        """The first wrong mark on the page (in card order), with the events that rule it
        out; None when no mark is wrong. A not-yet-justified mark is no mistake."""
        wrong = self.check().wrong
        if not wrong:
            return None
        k = self.knowledge
        cell = wrong[0]
        why = k.explain(*cell)
        return Mistake(cell, self.marks[cell], self._cite(why.events),
                       k.card(cell[0]).name, why.fact.text(k.edition))

    def cross_off_row(self, card: str, place: str) -> tuple[Cell, ...]:
        """The logic-grid helper: with ✓ in (card, place), write ✗ in the card's other blank
        cells (a card lies in one place). Returns the cells it wrote; a row without that ✓
        is left alone."""
        cell = self._cell(card, place)
        if self.marks.get(cell) != HOLDS:
            return ()
        crossed = tuple((cell[0], p) for p in self.knowledge.places
                        if p != place and (cell[0], p) not in self.marks)
        for other in crossed:
            self.marks[other] = LACKS
        return crossed

    def reveal(self, card: str, place: str) -> str:
        """The engine's cell, as the exact notepad shows it."""
        return cell_text(self.knowledge.probability(*self._cell(card, place)))

    def __repr__(self) -> str:
        record = self.knowledge.record
        who = record.observer or "the public"
        return (f"<LearnerMarks {record.edition.id} for {who}: {len(self.marks)} marks, "
                f"{len(self.chances)} chances>")


def record_key(knowledge: Knowledge) -> str:
    """A short digest of the record a page is written over: a page saved over one record is
    read back over the same record only."""
    canonical = json.dumps(knowledge.record.to_dict(), ensure_ascii=False, sort_keys=True,
                           separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()[:16]


def saved_page(notebook: str | Path, key: str, css_class: str) -> dict[str, Any] | None:
    """The page saved under ``key`` in a notebook's widget state: the value of the newest
    hidden widget of class ``css_class`` whose page names ``key``, or None. The notebook is
    read with the kit's bounded readers (size capped, never evaluated); a notebook that cannot
    be read raises ValueError with one line saying why."""
    path = Path(notebook)

    def fail(why: str) -> ValueError:
        return ValueError(f"your saved marks could not be read: {why}")

    data = parse_json(read_text(path, fail, MAX_NOTEBOOK_BYTES), shown(path.name), fail)
    found = None
    for value in widget_values(data, css_class):
        if not isinstance(value, str) or len(value) > MAX_PAGE_CHARS:
            continue
        try:
            page = parse_json(value, "a saved page", fail)
        except ValueError:
            continue
        if isinstance(page, dict) and page.get("notepad") == key:
            found = page   # the newest such widget is the last in the saved state
    return found


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@dataclass(frozen=True)
class ProofShape:
    """What a deduction is made of: how much is read off the events, how much is bookkeeping,
    what is really inferred and by which rules, and how deep the longest chain goes."""

    observed: int
    bookkeeping: int
    by_rule: tuple[tuple[str, int], ...]
    depth: int
    contradiction: bool

    @property
    def inferences(self) -> int:
        return sum(n for _, n in self.by_rule)

    def __str__(self) -> str:
        total = self.observed + self.bookkeeping + self.inferences + self.contradiction
        lines = [f"{_count(total, 'step')}: {self.observed} read straight from the events and "
                 f"the set-up, {self.bookkeeping} crossing a placed card off elsewhere, "
                 f"{_count(self.inferences, 'real inference')}."]
        if self.by_rule:
            lines.append("Real inferences by rule: "
                         + ", ".join(f"{rule} {n}" for rule, n in self.by_rule) + ".")
            lines.append(f"The longest chain is {self.depth} inferences deep: a fact that "
                         f"needs {self.depth - 1} earlier ones before it."
                         if self.depth > 1 else "Every inference uses observed facts only.")
        if self.contradiction:
            lines.append("It ends in a contradiction: the record cannot be true.")
        return "\n".join(lines)


def same_argument(a: Step, b: Step) -> bool:
    """Two steps make one argument: the same rule on the same facts and events, applied to
    another card ("Ann's hand is full" crossing off each card she cannot hold)."""
    return (a.rule, frozenset(a.premises), a.events) == (b.rule, frozenset(b.premises), b.events)


def proof_shape(steps: list[Step]) -> ProofShape:
    """Summarise a deduction's steps (``Deduction.steps``) for a learner. A chain's depth
    counts real inferences only: bookkeeping steps pass their premises' depth on."""
    depth: dict[tuple[str, str], int] = {}
    counts: dict[str, int] = {}
    observed = bookkeeping = deepest = 0
    contradiction = False
    for step in steps:
        below = max((depth.get((p.card, p.place), 0) for p in step.premises), default=0)
        if step.rule == "observed":
            observed += 1
        elif step.rule in BOOKKEEPING:
            bookkeeping += 1
        elif step.fact is None:
            contradiction = True
        else:
            counts[step.rule_name] = counts.get(step.rule_name, 0) + 1
            below += 1
        if step.fact is not None:
            depth[(step.fact.card, step.fact.place)] = below
        deepest = max(deepest, below)
    by_rule = tuple(sorted(counts.items(), key=lambda item: (-item[1], item[0])))
    return ProofShape(observed, bookkeeping, by_rule, deepest, contradiction)
