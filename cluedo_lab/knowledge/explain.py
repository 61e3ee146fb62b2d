"""Explanations a learner can follow: named rules, each step citing its premises.

Counting (:mod:`cluedo_lab.knowledge.engine`) decides what is known; this module says *why*.
A :class:`Deduction` applies a small set of named rules to the card × place table until nothing
changes, recording every step with the facts and events it used, so it can be replayed one step
at a time. To explain one fact, :func:`explain` first shrinks the record to an irreducible set
of events that still forces it (checked by exact counting), then looks for a chain of rule steps
from those events; where no direct chain exists, it argues by contradiction, then by cases, and
as a last resort cites the exhaustive count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Protocol

from ..records import ENVELOPE, FACE_UP, Event, Record
from ..rules.edition import Card, Edition
from . import constraints as cons
from .conflicts import irreducible_conflict


class Known(Protocol):
    """What :func:`explain` asks of the counted knowledge it explains (a
    :class:`~cluedo_lab.knowledge.engine.Knowledge` is one; the engine imports this module)."""

    @property
    def record(self) -> Record: ...

    def card(self, card: str | Card) -> Card: ...

    def status(self, card: str | Card, place: str) -> bool | None: ...

    def probability(self, card: str | Card, place: str) -> Fraction: ...

    def entails(self, card: str | Card, place: str, value: bool,
                events: Iterable[Event] | None = None) -> bool: ...

RULES = {
    "observed": "Observed",
    "one-place": "One place per card",
    "last-place": "Last place left",
    "full-hand": "Hand is full",
    "needs-all": "Hand needs every remaining card",
    "envelope-one": "One of each kind in the envelope",
    "showed-one": "Showed one of them",
    "wrong-accusation": "A wrong accusation",
    "hand-lock": "Separate groups fill the hand",
    "assume": "Suppose",
    "contradiction": "Contradiction",
}


@dataclass(frozen=True)
class Fact:
    card: str
    place: str
    holds: bool

    def text(self, edition: Edition) -> str:
        name = edition.card(self.card).name
        if self.place == FACE_UP:
            return f"{name} is {'' if self.holds else 'not '}face up"
        verb = "holds" if self.holds else "does not hold"
        place = "the envelope" if self.place == ENVELOPE else self.place
        return f"{place} {verb} {name}"

    def negated(self) -> Fact:
        return Fact(self.card, self.place, not self.holds)


@dataclass(frozen=True)
class Step:
    number: int
    rule: str
    fact: Fact | None
    premises: tuple[Fact, ...]
    events: tuple[int, ...]
    text: str

    @property
    def rule_name(self) -> str:
        return RULES[self.rule]


class Deduction:
    """Rule propagation over the card × place table, one recorded step at a time."""

    def __init__(self, record: Record, events: Iterable[Event] | None = None,
                 assume: Sequence[Fact] = ()):
        self.record = record
        self.edition = record.edition
        self.places = record.places
        self.sizes = {p.name: p.size for p in cons.places(record)}
        self.constraints = cons.all_constraints(record, "uniform", events)
        self.cells: dict[tuple[str, str], Step] = {}
        self.steps: list[Step] = []
        self.contradiction: Step | None = None
        self.clauses = [c for c in self.constraints
                        if c.kind in (cons.HOLDS_ONE_OF, cons.NOT_ALL)]
        for fact in assume:
            self._add("assume", fact, (), (), f"Suppose {fact.text(self.edition)}.")
        for con in self.constraints:
            if con.kind in (cons.HOLDS, cons.LACKS):
                fact = Fact(con.card, con.place, con.kind == cons.HOLDS)
                where = "the set-up" if con.source == 0 else f"event {con.source}"
                self._add("observed", fact, (), (con.source,),
                          f"{fact.text(self.edition)}: {con.reason} ({where}).")
        self.run()

    # -- bookkeeping -------------------------------------------------------------------------
    def value(self, card: str, place: str) -> bool | None:
        step = self.cells.get((card, place))
        if step is None:
            return None
        assert step.fact is not None  # only _add fills cells, always with a fact
        return step.fact.holds

    def _add(self, rule: str, fact: Fact, premises: Sequence[Fact], events: Sequence[int],
             text: str) -> bool:
        if self.contradiction is not None:
            return False
        key = (fact.card, fact.place)
        old = self.cells.get(key)
        if old is not None:
            assert old.fact is not None  # only _add fills cells, always with a fact
            if old.fact.holds != fact.holds:
                self._contradict((old.fact, *premises), events,
                                 f"{fact.text(self.edition)}, yet step {old.number} found "
                                 f"the opposite.")
            return False
        step = Step(len(self.steps) + 1, rule, fact, tuple(premises), tuple(events), text)
        self.steps.append(step)
        self.cells[key] = step
        return True

    def _contradict(self, premises: Sequence[Fact], events: Sequence[int], text: str) -> None:
        if self.contradiction is None:
            self.contradiction = Step(len(self.steps) + 1, "contradiction", None,
                                      tuple(premises), tuple(events), text)
            self.steps.append(self.contradiction)

    def _name(self, card: str) -> str:
        return self.edition.card(card).name

    def _place(self, place: str) -> str:
        return "the envelope" if place == ENVELOPE else place

    # -- the rules ---------------------------------------------------------------------------
    def run(self) -> None:
        rules = (self._one_place, self._last_place, self._hands, self._envelope,
                 self._showed_one, self._wrong_accusation, self._hand_lock)
        changed = True
        while changed and self.contradiction is None:
            changed = False
            for rule in rules:
                if rule():
                    changed = True
                    break  # restart with the simplest rules first: shorter explanations

    def _one_place(self) -> bool:
        changed = False
        for (card, place), step in list(self.cells.items()):
            assert step.fact is not None  # only _add fills cells, always with a fact
            if not step.fact.holds:
                continue
            for other in self.places:
                if other != place and self.value(card, other) is None:
                    changed |= self._add(
                        "one-place", Fact(card, other, False), (step.fact,), (),
                        f"{self._name(card)} is in {self._place(place)} and a card lies in one "
                        f"place only, so {self._place(other)} does not hold it.")
        return changed

    def _last_place(self) -> bool:
        changed = False
        for card in self.edition.cards:
            values = {p: self.value(card.id, p) for p in self.places}
            if True in values.values():
                continue
            open_places = [p for p, v in values.items() if v is None]
            lacking = tuple(Fact(card.id, p, False) for p, v in values.items() if v is False)
            if not open_places:
                self._contradict(lacking, (), f"{card.name} can be in no place at all.")
                return True
            if len(open_places) == 1:
                changed |= self._add(
                    "last-place", Fact(card.id, open_places[0], True), lacking, (),
                    f"Every other place lacks {card.name}, so it is in "
                    f"{self._place(open_places[0])}.")
        return changed

    def _hands(self) -> bool:
        changed = False
        for place in self.places:
            if place == ENVELOPE:
                continue
            size = self.sizes[place]
            held = [c.id for c in self.edition.cards if self.value(c.id, place) is True]
            open_cards = [c.id for c in self.edition.cards if self.value(c.id, place) is None]
            held_facts = tuple(Fact(c, place, True) for c in held)
            if len(held) > size:
                self._contradict(held_facts, (), f"{place} would hold more than {size} cards.")
                return True
            if len(held) + len(open_cards) < size:
                lacks = tuple(Fact(c.id, place, False) for c in self.edition.cards
                              if self.value(c.id, place) is False)
                self._contradict(held_facts + lacks, (),
                                 f"{place} could hold only {len(held) + len(open_cards)} "
                                 f"cards, but holds {size}.")
                return True
            if open_cards and len(held) == size:
                names = ", ".join(self._name(c) for c in held)
                for card in open_cards:
                    fact = Fact(card, place, False)
                    row = "card is" if size == 1 else "cards are"
                    whole = f"The face-up {row} {names}" if place == FACE_UP else \
                        f"{place} holds {_cards(size)} and all are known ({names})"
                    changed |= self._add("full-hand", fact, held_facts, (),
                                         f"{whole}, so {fact.text(self.edition)}.")
            elif open_cards and len(held) + len(open_cards) == size:
                lacks = tuple(Fact(c.id, place, False) for c in self.edition.cards
                              if self.value(c.id, place) is False)
                for card in open_cards:
                    changed |= self._add(
                        "needs-all", Fact(card, place, True), held_facts + lacks, (),
                        f"{place} holds {_cards(size)} and only {len(held) + len(open_cards)} "
                        f"could still be there, so it holds {self._name(card)}.")
        return changed

    def _envelope(self) -> bool:
        changed = False
        for category in self.edition.categories:
            need = self.edition.deal.envelope[category.id]
            held = [c.id for c in category.cards if self.value(c.id, ENVELOPE) is True]
            open_cards = [c.id for c in category.cards if self.value(c.id, ENVELOPE) is None]
            lacks = tuple(Fact(c.id, ENVELOPE, False) for c in category.cards
                          if self.value(c.id, ENVELOPE) is False)
            held_facts = tuple(Fact(c, ENVELOPE, True) for c in held)
            if len(held) > need or len(held) + len(open_cards) < need:
                self._contradict(held_facts + lacks, (),
                                 f"the envelope must hold {_cards(need, category.name)}.")
                return True
            if open_cards and len(held) == need:
                for card in open_cards:
                    changed |= self._add(
                        "envelope-one", Fact(card, ENVELOPE, False), held_facts, (),
                        f"The envelope holds {_cards(need, category.name)}, and "
                        f"{', '.join(self._name(c) for c in held)} is there, so "
                        f"{self._name(card)} is not.")
            elif open_cards and len(held) + len(open_cards) == need:
                for card in open_cards:
                    changed |= self._add(
                        "envelope-one", Fact(card, ENVELOPE, True), held_facts + lacks, (),
                        f"The envelope holds one {category.name}, and every other "
                        f"{category.name} is ruled out, so it is {self._name(card)}.")
        return changed

    def _showed_one(self) -> bool:
        changed = False
        for clause in self.clauses:
            if clause.kind != cons.HOLDS_ONE_OF:
                continue
            values = {c: self.value(c, clause.place) for c in clause.cards}
            if True in values.values():
                continue
            open_cards = [c for c, v in values.items() if v is None]
            lacks = tuple(Fact(c, clause.place, False) for c, v in values.items()
                          if v is False)
            if not open_cards:
                self._contradict(lacks, (clause.source,),
                                 f"{clause.place} showed a card (event {clause.source}) but "
                                 f"holds none of them.")
                return True
            if len(open_cards) == 1:
                others = ", ".join(self._name(c) for c in clause.cards if c != open_cards[0])
                changed |= self._add(
                    "showed-one", Fact(open_cards[0], clause.place, True), lacks,
                    (clause.source,),
                    f"{clause.place} showed one of them (event {clause.source}) and does "
                    f"not hold {others}, so {clause.place} holds "
                    f"{self._name(open_cards[0])}.")
        return changed

    def _wrong_accusation(self) -> bool:
        changed = False
        for clause in self.clauses:
            if clause.kind != cons.NOT_ALL:
                continue
            values = {c: self.value(c, clause.place) for c in clause.cards}
            if False in values.values():
                continue
            open_cards = [c for c, v in values.items() if v is None]
            held = tuple(Fact(c, clause.place, True) for c, v in values.items() if v)
            if not open_cards:
                self._contradict(held, (clause.source,),
                                 f"the accusation in event {clause.source} was wrong, yet "
                                 f"the envelope would hold all of it.")
                return True
            if len(open_cards) == 1:
                changed |= self._add(
                    "wrong-accusation", Fact(open_cards[0], clause.place, False), held,
                    (clause.source,),
                    f"The accusation in event {clause.source} was wrong, and the envelope "
                    f"holds the others, so it does not hold {self._name(open_cards[0])}.")
        return changed

    def _hand_lock(self) -> bool:
        """k separate (disjoint) open clauses in a place that needs exactly k more cards: every
        card outside them lies elsewhere."""
        changed = False
        for place in self.places:
            if place == ENVELOPE:
                continue
            held = [c.id for c in self.edition.cards if self.value(c.id, place) is True]
            need = self.sizes[place] - len(held)
            if need <= 0:
                continue
            open_clauses = []
            for clause in self.clauses:
                if clause.kind != cons.HOLDS_ONE_OF or clause.place != place:
                    continue
                live = frozenset(c for c in clause.cards if self.value(c, place) is None)
                if any(self.value(c, place) for c in clause.cards) or not live:
                    continue
                open_clauses.append((live, clause))
            chosen: list[tuple[frozenset[str], cons.Constraint]] = []
            used: set[str] = set()
            for live, clause in sorted(open_clauses, key=lambda item: len(item[0])):
                if not live & used:
                    chosen.append((live, clause))
                    used |= live
            deck_order = {c.id: i for i, c in enumerate(self.edition.cards)}
            groups = "; ".join(
                "{" + ", ".join(self._name(c)
                                for c in sorted(live, key=deck_order.__getitem__)) + "}"
                for live, _ in chosen)
            events = tuple(sorted({clause.source for _, clause in chosen}))
            # The cards held, and the cards each group has lost (why only these are left).
            premises = tuple(Fact(c, place, True) for c in held) + tuple(
                Fact(c, place, False) for live, clause in chosen for c in clause.cards
                if c not in live)
            if len(chosen) > need:
                self._contradict(premises, events,
                                 f"{place} has room for {_cards(need)} more but must hold one "
                                 f"from each of {len(chosen)} separate groups {groups}.")
                return True
            if len(chosen) != need:
                continue
            for card in self.edition.cards:
                if card.id in used or self.value(card.id, place) is not None:
                    continue
                changed |= self._add(
                    "hand-lock", Fact(card.id, place, False), premises, events,
                    f"{place} needs {_cards(need)} more and must hold one from each of the "
                    f"separate groups {groups} ({_events_text(events)}), so "
                    f"{place} has no room for {card.name}.")
        return changed

    # -- reading -----------------------------------------------------------------------------
    def chain(self, fact: Fact | None = None) -> list[Step]:
        """The steps that lead to ``fact`` (or to the contradiction), in order."""
        target = self.contradiction if fact is None else self.cells.get((fact.card,
                                                                         fact.place))
        if target is None:
            return []
        needed: dict[int, Step] = {}
        todo = [target]
        while todo:
            step = todo.pop()
            if step.number in needed:
                continue
            needed[step.number] = step
            for premise in step.premises:
                todo.append(self.cells[(premise.card, premise.place)])
        return [needed[n] for n in sorted(needed)]

    def __len__(self) -> int:
        return len(self.steps)


@dataclass
class Explanation:
    """Why a cell is known: the steps, the events they rest on, and how it was argued."""

    fact: Fact
    method: str  # "rules", "contradiction", "cases" or "count"
    events: tuple[int, ...]
    edition: Edition
    steps: list[Step] = field(default_factory=list)
    cases: list[tuple[Fact, list[Step]]] = field(default_factory=list)
    event_texts: dict[int, str] = field(default_factory=dict)

    def __str__(self) -> str:
        ed = self.edition
        lines = [f"Why {self.fact.text(ed)}:"]
        if self.events:
            lines.append("It follows from these events alone (none can be left out):")
            lines += [f"  - {self.event_texts[e]}" for e in self.events]
        else:
            lines.append("It follows from the set-up alone.")
        if self.method == "rules":
            lines += _numbered(self.steps)
        elif self.method == "contradiction":
            lines.append("Proof by contradiction:")
            lines += _numbered(self.steps)
        elif self.method == "cases":
            lines.append(f"Proof by cases: suppose the opposite, {self.fact.negated().text(ed)}"
                         f"; every case ends in a contradiction.")
            for number, (case, steps) in enumerate(self.cases, start=1):
                lines.append(f" Case {number}: {case.text(ed)}.")
                lines += ["  " + line for line in _numbered(steps)]
        else:
            lines.append("No short chain of the kit's rules reaches it; counting every deal "
                         "consistent with those events finds it true in all of them.")
        return "\n".join(lines)


def _cards(n: int, kind: str = "") -> str:
    """"1 card", "2 Weapon cards"."""
    noun = "card" if n == 1 else "cards"
    return f"{n} {kind} {noun}" if kind else f"{n} {noun}"


def _events_text(events: Sequence[int]) -> str:
    word = "event" if len(events) == 1 else "events"
    return f"{word} {', '.join(map(str, events))}"


def _numbered(steps: Sequence[Step]) -> list[str]:
    return [f"  {i}. [{s.rule_name}] {s.text}" for i, s in enumerate(steps, start=1)]


def minimal_events(knowledge: Known, fact: Fact) -> tuple[Event, ...]:
    """An irreducible set of events that still forces ``fact``: the events in conflict with
    its opposite, found by divide and conquer (:mod:`.conflicts`)."""
    def consistent(events: list[Event]) -> bool:
        return not knowledge.entails(fact.card, fact.place, fact.holds, events)

    return tuple(irreducible_conflict(knowledge.record.events, consistent))


def explain(knowledge: Known, card: str | Card, place: str) -> Explanation:
    """Explain a known cell of ``knowledge`` (a :class:`~cluedo_lab.knowledge.engine.Knowledge`)."""
    card_id = knowledge.card(card).id
    status = knowledge.status(card_id, place)
    if status is None:
        p = knowledge.probability(card_id, place)
        raise ValueError(f"{knowledge.card(card_id).name} in {place} is not known "
                         f"(probability {p}); only known facts have explanations")
    fact = Fact(card_id, place, status)
    record = knowledge.record
    events = minimal_events(knowledge, fact)
    positions = tuple(e.position for e in events)
    result = Explanation(fact, "count", positions, edition=record.edition,
                         event_texts={e.position: e.describe() for e in record.events})

    direct = Deduction(record, events)
    if direct.value(card_id, place) == status:
        result.method, result.steps = "rules", direct.chain(fact)
        return result
    supposed = Deduction(record, events, assume=[fact.negated()])
    if supposed.contradiction is not None:
        result.method, result.steps = "contradiction", supposed.chain()
        return result
    for split in _case_splits(supposed):
        branches = []
        for case in split:
            branch = Deduction(record, events, assume=[fact.negated(), case])
            if branch.contradiction is None:
                break
            branches.append((case, branch.chain()))
        else:
            result.method, result.cases = "cases", branches
            return result
    return result


def _case_splits(deduction: Deduction, limit: int = 30) -> Iterable[list[Fact]]:
    """Ways to split into cases that cover every deal: an open clause (one case per card it
    could be), or an unknown card (one case per place it could be)."""
    count = 0
    for clause in deduction.clauses:
        if clause.kind != cons.HOLDS_ONE_OF:
            continue
        if any(deduction.value(c, clause.place) for c in clause.cards):
            continue
        live = [c for c in clause.cards if deduction.value(c, clause.place) is None]
        if len(live) >= 2:
            count += 1
            yield [Fact(c, clause.place, True) for c in live]
        if count >= limit:
            return
    for card in deduction.edition.cards:
        open_places = [p for p in deduction.places if deduction.value(card.id, p) is None]
        if len(open_places) >= 2 and not any(deduction.value(card.id, p)
                                             for p in deduction.places):
            count += 1
            yield [Fact(card.id, p, True) for p in open_places]
        if count >= limit:
            return
