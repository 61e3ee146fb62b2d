"""One observation model: every event of every edition becomes a few constraint kinds.

The card × place table has one cell per (card, place). What anyone learns is one of:

- ``holds``: the card is in the place;
- ``lacks``: the card is not in the place;
- ``holds_one_of``: at least one of the cards is in the place (an unseen refutation);
- ``not_all``: not every one of the cards is in the place (a wrong accusation);
- ``choice``: (observation model only) the refuter picked the shown card among those held;

plus the rules of the deal: each card in one place, each place its number of cards, the
envelope one card per category. Every constraint remembers the event it came from (0 for the
set-up), so explanations and contradiction reports can cite events.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from ..records import (
    ENVELOPE,
    FACE_UP,
    Accuse,
    AllSnoop,
    Event,
    PrivateTip,
    Record,
    Reveal,
    RoomCard,
    Show,
    Snoop,
    Suggest,
    SuperSleuth,
)
from ..rules.edition import Card
from .counting.problem import (
    Factor,
    Place,
    Problem,
    at_least_one,
    chosen_uniformly,
    not_all,
)

MODELS = ("uniform", "refuter-uniform")
HOLDS, LACKS, HOLDS_ONE_OF, NOT_ALL, CHOICE = (
    "holds", "lacks", "holds_one_of", "not_all", "choice")


class Constraint(NamedTuple):
    """One fact about the card × place table, and the event it came from. A named tuple, not a
    frozen dataclass: a long record makes hundreds of them on every count, and a tuple is built
    in a third of the time."""

    kind: str
    place: str
    cards: tuple[str, ...]
    source: int
    reason: str = ""

    @property
    def card(self) -> str:
        return self.cards[0]

    def __str__(self) -> str:
        cards = ", ".join(self.cards)
        text = {HOLDS: f"{self.place} holds {cards}",
                LACKS: f"{self.place} lacks {cards}",
                HOLDS_ONE_OF: f"{self.place} holds at least one of {cards}",
                NOT_ALL: f"{self.place} does not hold all of {cards}",
                CHOICE: f"{self.place} chose among {cards}"}[self.kind]
        return f"{text} ({self.reason})" if self.reason else text


def _c(kind: str, place: str, cards: Iterable[Card], source: int, reason: str) -> Constraint:
    """One constraint on several cards together."""
    return Constraint(kind, place, tuple(card.id for card in cards), source, reason)


def _one(kind: str, place: str, card: Card, source: int, reason: str) -> Constraint:
    """One constraint on one card."""
    return Constraint(kind, place, (card.id,), source, reason)


def _each(kind: str, place: str, cards: Iterable[Card], source: int, reason: str
          ) -> list[Constraint]:
    """One constraint per card, all for the same reason."""
    return [Constraint(kind, place, (card.id,), source, reason) for card in cards]


def setup_constraints(record: Record) -> list[Constraint]:
    """What the observer knows before anything happens: their hand, the face-up cards and,
    for a one-against-all fugitive, the escape plan they chose (the envelope's cards)."""
    out = []
    if record.observer is not None:
        out += _each(HOLDS, record.observer, record.hand, 0, "your hand")
    out += _each(HOLDS, ENVELOPE, record.escape_plan, 0, "your escape plan")
    out += _each(HOLDS, FACE_UP, record.face_up, 0, "face up for everyone")
    return out


def event_constraints(record: Record, event: Event, model: str = "uniform"
                      ) -> list[Constraint]:
    """The constraints one event adds, from the record's observer's point of view."""
    observer = record.observer
    n = event.position
    out: list[Constraint] = []
    if isinstance(event, Suggest):
        for name in event.passed:
            out += _each(LACKS, name, event.named, n, f"{name} could not answer")
        if event.shown_by is not None:
            if event.card is not None:
                out.append(_one(HOLDS, event.shown_by, event.card, n,
                                f"{event.shown_by} showed it"))
                if model == "refuter-uniform" and observer == event.by:
                    out.append(_c(CHOICE, event.shown_by, event.named, n,
                                  f"{event.shown_by} chose which card to show"))
            else:
                out.append(_c(HOLDS_ONE_OF, event.shown_by, event.named, n,
                              f"{event.shown_by} showed one of them"))
        for name, card in event.showed:     # every player who can shows a card
            if card is not None:
                out.append(_one(HOLDS, name, card, n, f"{name} showed it"))
                if model == "refuter-uniform" and observer == event.by:
                    out.append(_c(CHOICE, name, event.named, n,
                                  f"{name} chose which card to show"))
            else:
                out.append(_c(HOLDS_ONE_OF, name, event.named, n,
                              f"{name} showed one of them"))
    elif isinstance(event, Accuse):
        if event.envelope is not None:      # the accuser looked at the solution
            out += _each(HOLDS, ENVELOPE, event.envelope, n,
                         f"{event.by} looked at the solution")
        if event.correct:
            out += _each(HOLDS, ENVELOPE, event.named, n, "a correct accusation")
        elif event.named:                   # one made face down tells onlookers nothing
            out.append(_c(NOT_ALL, ENVELOPE, event.named, n,
                          f"{event.by}'s accusation was wrong"))
    elif isinstance(event, Snoop):
        if event.card is not None:
            out.append(_one(HOLDS, event.target, event.card, n, "seen by snooping"))
    elif isinstance(event, AllSnoop):
        if event.card is not None:
            assert event.seen_from is not None  # set whenever the observer saw a card
            out.append(_one(HOLDS, event.seen_from, event.card, n, "seen in All Snoop"))
    elif isinstance(event, SuperSleuth):
        feature_cards = record.edition.cards_with(event.feature, event.value)
        for name in event.nothing:
            out += _each(LACKS, name, feature_cards, n, f"{name} had no {event.value} card")
        for name, card in event.showed:
            if card is not None:
                out.append(_one(HOLDS, name, card, n, f"{name} showed it"))
                if model == "refuter-uniform" and observer == event.by:
                    out.append(_c(CHOICE, name, feature_cards, n,
                                  f"{name} chose which {event.value} card to show"))
            else:
                out.append(_c(HOLDS_ONE_OF, name, feature_cards, n,
                              f"{name} showed a {event.value} card"))
    elif isinstance(event, PrivateTip):
        if event.cards is not None:
            out += _each(HOLDS, event.to, event.cards, n, "a private tip")
            if event.all:
                rest = [c for c in record.edition.category(event.category).cards
                        if c not in event.cards]
                out += _each(LACKS, event.to, rest, n,
                             f"{event.to} gave all their {event.category} cards")
            elif not event.cards:
                assert event.feature is not None and event.value is not None  # a feature tip
                out += _each(LACKS, event.to,
                             record.edition.cards_with(event.feature, event.value), n,
                             f"{event.to} had no {event.value} card")
    elif isinstance(event, RoomCard):
        if event.card is not None:
            out.append(_one(HOLDS, event.pile, event.card, n, f"seen in {event.pile}"))
    elif isinstance(event, Show):
        if event.card is not None:
            out.append(_one(HOLDS, event.shower, event.card, n, f"{event.shower} showed it"))
    elif isinstance(event, Reveal):
        assert event.card is not None  # a reveal always names its card
        out.append(_one(HOLDS, event.by, event.card, n, "revealed to everybody"))
    return out


def all_constraints(record: Record, model: str = "uniform",
                    events: Iterable[Event] | None = None) -> list[Constraint]:
    if model not in MODELS:
        raise ValueError(f"unknown observation model {model!r}; expected one of {MODELS}")
    chosen = record.events if events is None else events
    out = setup_constraints(record)
    for event in chosen:
        out += event_constraints(record, event, model)
    return out


def places(record: Record) -> tuple[Place, ...]:
    """The places of the card × place table, with how many cards each holds."""
    edition = record.edition
    out = [Place(p.name, p.hand_size) for p in record.players]
    out.append(Place(ENVELOPE, edition.envelope_size, dict(edition.deal.envelope)))
    if record.face_up:
        out.append(Place(FACE_UP, len(record.face_up)))
    out += [Place(pile, 1) for pile in record.face_down]
    return tuple(out)


def problem(record: Record, constraints: Iterable[Constraint]) -> Problem:
    """The counting problem: where each card may lie, and the factors that weigh deals."""
    table = places(record)
    names = frozenset(p.name for p in table)
    only = {name: frozenset((name,)) for name in names}
    nowhere: frozenset[str] = frozenset()
    categories = record.edition.category_of
    allowed = dict.fromkeys(categories, names)
    factors: list[Factor] = []
    for kind, place, cards, _, _ in constraints:
        if kind == LACKS:
            options = allowed[cards[0]]
            if place in options:
                allowed[cards[0]] = options - only[place]
        elif kind == HOLDS:
            allowed[cards[0]] = only[place] if place in allowed[cards[0]] else nowhere
        elif kind == HOLDS_ONE_OF:
            factors.append(at_least_one(place, cards))
        elif kind == NOT_ALL:
            factors.append(not_all(place, cards))
        elif kind == CHOICE:
            factors.append(chosen_uniformly(place, cards))
    return Problem(categories, table, allowed, tuple(factors))


def violated(record: Record, where: dict[str, str], model: str = "uniform"
             ) -> list[Constraint]:
    """The constraints of ``record`` that a full deal breaks (``where``: card id → place).

    A direct check, no counting: games use it to confirm that the true deal is consistent with
    every seat's record. The sizes of the places are checked too (as a pseudo-constraint).
    """
    broken = []
    for con in all_constraints(record, model):
        inside = [where[c] == con.place for c in con.cards]
        ok = {HOLDS: all(inside), LACKS: not any(inside), HOLDS_ONE_OF: any(inside),
              NOT_ALL: not all(inside), CHOICE: any(inside)}[con.kind]
        if not ok:
            broken.append(con)
    category = record.edition.category_of
    for place in places(record):
        held = [c for c, p in where.items() if p == place.name]
        counts = {cat: sum(1 for c in held if category[c] == cat)
                  for cat in (place.per_category or {})}
        if len(held) != place.size or any(counts[cat] != n
                                          for cat, n in (place.per_category or {}).items()):
            broken.append(Constraint("size", place.name, tuple(sorted(held)), 0,
                                     f"{place.name} holds {place.size} cards"))
    return broken
