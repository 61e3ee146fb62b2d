"""What is certain, and how likely everything else is, from one player's record.

A :class:`Knowledge` holds a record and the exact count of the deals consistent with it. A cell
of the card × place table is *known* exactly when it is the same in every consistent deal, so
deduction is complete by construction: nothing entailed is missed, whatever rule it would take.
Probabilities are the share of consistent deals (weighted by the observation model), as exact
fractions. Adding an event that leaves no consistent deal raises
:class:`~cluedo_lab.rules.errors.Contradiction` naming the smallest set of events in conflict, and
the knowledge stays as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar, cast

from ..records import ENVELOPE, Event, Record
from ..rules import numbers
from ..rules.edition import Card, Edition
from ..rules.errors import (
    Contradiction,
    InvalidArgument,
    NothingToUndo,
    UnknownName,
    WrongType,
)
from . import constraints as cons
from .conflicts import irreducible_conflict
from .counting import MAX_STATES, Solution, solve

if TYPE_CHECKING:
    from .explain import Deduction, Explanation

T = TypeVar("T")


class Knowledge:
    """Exact knowledge of one record under an observation model.

    ``model="uniform"`` counts every consistent deal once. ``model="refuter-uniform"`` also
    assumes a refuter holding several of the named cards shows each with equal chance, so a
    card you were shown counts for more in deals where it was the refuter's only choice.

    ``max_states`` bounds the counting's memory: a count that memoises more DP states, or
    does more work than :data:`~cluedo_lab.rules.limits.MAX_COUNT_WORK`, stops and is refused
    with :class:`~cluedo_lab.rules.errors.ProblemTooLarge`, the record unchanged (None: no
    limit).

    >>> k = Knowledge.from_dict({
    ...     "edition": "cluedo-classic-1949", "players": ["Ann", "Bob", "Cy"],
    ...     "observer": "Ann", "hand": ["Rope", "Hall", "Plum", "Study", "Dagger", "Kitchen"],
    ...     "events": [{"suggest": ["Green", "Candlestick", "Hall"], "by": "Ann",
    ...                 "passed": ["Bob"], "shown_by": "Cy", "card": "Green"}]})
    >>> k
    <Knowledge cluedo-classic-1949 for 'Ann': 1 events, 26,208 consistent deals>
    >>> k.status("Green", "Cy"), k.status("Rope", "envelope")   # known there, known not
    (True, False)
    >>> k.probability("White", "envelope")   # an exact chance
    Fraction(1, 4)
    >>> k.add({"accuse": ["White", "Spanner", "Library"], "by": "Cy", "correct": False}).undo()
    <Knowledge cluedo-classic-1949 for 'Ann': 1 events, 26,208 consistent deals>
    """

    def __init__(self, record: Record, model: str = "uniform",
                 max_states: int | None = MAX_STATES):
        if not isinstance(record, Record):
            raise WrongType(f"Knowledge reads a Record (Record.load, Record.from_dict), not "
                            f"{type(record).__name__}")
        if model not in cons.MODELS:
            raise InvalidArgument(f"unknown observation model {model!r}; expected one of "
                                  f"{cons.MODELS}")
        self.model = model
        self.max_states = max_states
        self._by_event: tuple[Record, dict[int, list[cons.Constraint]]] | None = None
        self._history: list[tuple[Record, Solution]] = []
        self.record = record
        self._envelope: tuple[Solution, dict[tuple[str, ...], int | Fraction]] | None = None
        self._derived: dict[Hashable, Any] = {}
        self._solution = self._solve_or_explain(record)

    # -- building ----------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: Mapping[str, Any], model: str = "uniform",
                  max_states: int | None = MAX_STATES) -> Knowledge:
        return cls(Record.from_dict(data), model, max_states)

    def constraints(self, events: Iterable[Event] | None = None) -> list[cons.Constraint]:
        return cons.all_constraints(self.record, self.model, events)

    def _count(self, record: Record, events: Iterable[Event] | None = None, *,
               marginals: bool = True, extra: Sequence[cons.Constraint] = (),
               envelope: bool = False) -> Solution:
        """Count the deals that fit ``events`` of ``record`` (all of them if None) and the
        ``extra`` constraints. Each event's constraints are made once per record: finding
        conflicts and explanations counts many subsets of the same events."""
        if (events is None or events is record.events) and not extra:
            # The whole record, counted once (a record's first count): nothing to share.
            constraints = cons.all_constraints(record, self.model)
        else:
            if self._by_event is None or self._by_event[0] is not record:
                self._by_event = (record, {})
            cache = self._by_event[1]
            constraints = cons.setup_constraints(record)
            for event in record.events if events is None else events:
                found = cache.get(id(event))
                if found is None:
                    found = cache[id(event)] = cons.event_constraints(record, event,
                                                                      self.model)
                constraints += found
            constraints += extra
        return solve(cons.problem(record, constraints), marginals=marginals,
                     want_envelope=envelope, max_states=self.max_states)

    def _solve_or_explain(self, record: Record) -> Solution:
        solution = self._count(record, record.events)
        if solution.total == 0:
            raise self._contradiction(record)
        return solution

    def _contradiction(self, record: Record) -> Contradiction:
        """Shrink the events to an irreducible set that still admits no deal, by divide and
        conquer (:mod:`.conflicts`): a few counts per event in the conflict, not one per
        event of the record."""
        def consistent(events: list[Event]) -> bool:
            return self._count(record, events, marginals=False).total != 0

        if not consistent([]):
            return Contradiction("the set-up itself admits no deal (check the hand sizes, "
                                 "the hand and the face-up cards)", ())
        needed = irreducible_conflict(record.events, consistent)
        positions = tuple(e.position for e in needed)
        lines = "\n".join("  " + e.describe() for e in needed)
        return Contradiction(f"no deal fits these events together:\n{lines}", positions)

    # -- changing ----------------------------------------------------------------------------
    def add(self, event: Mapping[str, Any]) -> Knowledge:
        """Add one event (a JSON object as in the record format). On a contradiction or a
        malformed event, raise and keep everything as it was."""
        record = self.record.with_events([*self.record.source.get("events", []), event])
        solution = self._solve_or_explain(record)
        self._solution.release()    # history keeps the table, not the DP's memo
        self._history.append((self.record, self._solution))
        self.record, self._solution = record, solution
        self._derived.clear()
        return self

    def undo(self) -> Knowledge:
        """Take back the last event added with :meth:`add`."""
        if not self._history:
            raise NothingToUndo("nothing to undo")
        self.record, self._solution = self._history.pop()
        self._derived.clear()
        return self

    def derived(self, key: Hashable, make: Callable[[], T]) -> T:
        """A figure worked out from this record once and kept until the record changes
        (:meth:`add`, :meth:`undo` let it go): the question advisor of :mod:`.advice`, whose
        DP every question of a position shares."""
        if key not in self._derived:
            self._derived[key] = make()
        return cast(T, self._derived[key])

    # -- reading -----------------------------------------------------------------------------
    @property
    def edition(self) -> Edition:
        return self.record.edition

    @property
    def places(self) -> tuple[str, ...]:
        return self.record.places

    @property
    def consistent_deals(self) -> int | Fraction:
        """How many deals fit the record (a weight under a non-uniform model)."""
        return self._solution.total

    @property
    def card_classes(self) -> list[tuple[str, ...]]:
        """Card ids in groups the record cannot tell apart (same category, same places open,
        same observations): questions differing only within a group are answered alike."""
        return self._solution.classes

    def card(self, card: str | Card) -> Card:
        return self.edition.card(card)

    def _place(self, place: str) -> str:
        if place not in self.places:
            raise UnknownName(f"no place {place!r}; places are {list(self.places)}")
        return place

    def probability(self, card: str | Card, place: str) -> Fraction:
        return self._solution.probability(self.card(card).id, self._place(place))

    def probabilities(self) -> dict[str, dict[str, Fraction]]:
        return {c.id: {p: self._solution.probability(c.id, p) for p in self.places}
                for c in self.edition.cards}

    def status(self, card: str | Card, place: str) -> bool | None:
        """True if the card is there in every consistent deal, False if in none, else None."""
        p = self.probability(card, place)
        return True if p == 1 else False if p == 0 else None

    def known(self) -> dict[tuple[str, str], bool]:
        return {(c.id, p): bool(prob) for c in self.edition.cards for p in self.places
                if (prob := self._solution.probability(c.id, p)) in (0, 1)}

    def envelope_distribution(self) -> dict[tuple[str, ...], Fraction]:
        """The chance of each possible envelope (card ids in category order). Computed on
        first use, from the DP that counted the table (one more pass over its moves)."""
        if self._envelope is None or self._envelope[0] is not self._solution:
            weights = self._solution.envelope_weights()
            if weights is None:     # a solution from before an undo has let its DP go
                weights = self._count(self.record, self.record.events, marginals=False,
                                      envelope=True).envelope
            self._envelope = (self._solution, weights)
        total = self._solution.total
        if isinstance(total, int):      # whole counts: one normalisation per envelope
            return {k: Fraction(v, total) for k, v in sorted(self._envelope[1].items()) if v}
        return {k: Fraction(v) / total for k, v in sorted(self._envelope[1].items()) if v}

    def solution(self) -> tuple[str, ...] | None:
        """The envelope's cards if they are certain, else None."""
        certain = [c.id for c in self.edition.cards
                   if self._solution.probability(c.id, ENVELOPE) == 1]
        return tuple(certain) if len(certain) == self.edition.envelope_size else None

    def entails(self, card: str | Card, place: str, value: bool,
                events: Iterable[Event] | None = None) -> bool:
        """Does the record (or just ``events``) force the cell to ``value``?"""
        card_id = self.card(card).id
        opposite = cons.Constraint(cons.LACKS if value else cons.HOLDS, self._place(place),
                                   (card_id,), -1, "supposed")
        chosen = self.record.events if events is None else events
        return self._count(self.record, chosen, marginals=False,
                           extra=[opposite]).total == 0

    def explain(self, card: str | Card, place: str) -> Explanation:
        """Why a known cell is known: see :func:`cluedo_lab.knowledge.explain.explain`."""
        from .explain import explain
        return explain(self, card, self._place(place))

    def deduction(self) -> Deduction:
        """The rule-by-rule deduction of the whole record, for replaying step by step."""
        from .explain import Deduction
        return Deduction(self.record)

    # -- display -----------------------------------------------------------------------------
    def __repr__(self) -> str:
        record = self.record
        who = f"for {record.observer!r}" if record.observer else "public"
        model = "" if self.model == "uniform" else f", {self.model} model"
        return (f"<Knowledge {record.edition.id} {who}: {len(record.events)} events, "
                f"{format_weight(self.consistent_deals)} consistent deals{model}>")

    def notepad(self) -> str:
        """The card × place table as text: ✓ known there, · known not, else the chance (in the
        style of :mod:`cluedo_lab.rules.numbers`)."""
        places = self.places
        width = max(len(c.name) for c in self.edition.cards) + 1
        rows = [(card.id, [cell_text(self.probability(card, p)) for p in places])
                for card in self.edition.cards]
        column = max(8, *(len(text) + 2 for _, cells in rows for text in cells))
        head = " " * width + "".join(f"{_short(p):>{column}}" for p in places)
        lines = [head]
        cells_of = dict(rows)
        for category in self.edition.categories:
            lines.append(category.name.upper())
            for card in category.cards:
                cells = "".join(f"{text:>{column}}" for text in cells_of[card.id])
                lines.append(f"{card.name:<{width}}{cells}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.notepad()


def format_weight(value: int | Fraction) -> str:
    """A deal count with thousands separators; a weight (non-uniform model) as a fraction."""
    return numbers.count(value)


def _short(place: str) -> str:
    return "env" if place == ENVELOPE else place[:7]


def cell_text(p: Fraction) -> str:
    """A notepad cell: ✓, · or the chance in the learner's chosen style (rules.numbers)."""
    return numbers.cell(p)
