"""What a seat knows about the cards: the notes a bot chooses its moves from.

Two ways to take notes from a seat's record: :func:`exact_notes` reads them off the knowledge
engine (complete deduction, exact chances), :func:`paper_notes` applies the few rules a player
ticks off on a paper notepad (fast, incomplete, and still usable when a lie has made the record
contradictory). Both give :class:`PaperNotes`, so a bot's policy does not care which it has.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, TypeVar

from ..games.game import Game
from ..knowledge import constraints as cons
from ..knowledge.engine import Knowledge
from ..records import ENVELOPE, Record
from ..rules.edition import Card

__all__ = ["PaperNotes", "SeatKnowledge", "exact_notes", "paper_notes", "PaperOdds",
           "UntilNextEvent"]

_V = TypeVar("_V")


class UntilNextEvent(Generic[_V]):
    """A value a bot works out from one seat's record (its knowledge, its notes, its rooms'
    worth), kept until the game has a new event: recounting a seat's knowledge costs far
    more than a decision, and a seat's record changes only with an event. The one such cache
    of the bots."""

    _value: _V

    def __init__(self) -> None:
        self._game: Game | None = None
        self._key = (-1, -1)        # (seat, events): no seat is -1

    def get(self, game: Game, seat: int, work: Callable[[], _V]) -> _V:
        """The kept value for ``seat`` of ``game``, or ``work()`` when something happened."""
        key = (seat, game.event_count)
        if self._game is not game or self._key != key:
            self._value = work()
            self._game, self._key = game, key
        return self._value


@dataclass(frozen=True)
class PaperNotes:
    """Each card's chance of being in the envelope, the cards known to be in each place, the
    places each card may still be, and the solution once it is certain. ``exact`` tells
    whether the knowledge engine counted them (True) or the notepad's rules estimated them."""

    envelope: Mapping[str, Fraction]
    located: Mapping[str, str]
    possible: Mapping[str, frozenset[str]]
    solution: tuple[str, ...] | None
    exact: bool


@dataclass(frozen=True)
class SeatKnowledge:
    """A seat's knowledge at one moment: its record, the notes its moves are chosen from, and
    the exact knowledge behind them (None for paper notes)."""

    record: Record
    notes: PaperNotes
    knowledge: Knowledge | None


def exact_notes(knowledge: Knowledge) -> PaperNotes:
    """The knowledge engine's complete answer (raises Contradiction on an impossible record)."""
    table = knowledge.probabilities()
    envelope = {card: row[ENVELOPE] for card, row in table.items()}
    located = {card: place for card, row in table.items() for place, p in row.items() if p == 1}
    possible = {card: frozenset(p for p, v in row.items() if v > 0)
                for card, row in table.items()}
    return PaperNotes(envelope, located, possible, knowledge.solution(), True)


def paper_notes(record: Record) -> PaperNotes:
    """A fast, incomplete deduction: cards seen in a place, "lacks" from passes, a refuter who
    lacks all but one named card holds that one, a card missing from every place but one lies
    there, and the envelope's one card per category. Hand sizes and wrong accusations are not
    used. Envelope chances are spread evenly over each category's remaining candidates."""
    edition = record.edition
    places = list(record.places)
    where: dict[str, str] = {}
    lacks: dict[str, set[str]] = {c.id: set() for c in edition.cards}
    ones: list[cons.Constraint] = []
    try:
        constraints = cons.all_constraints(record)
    except Exception:  # pragma: no cover - a malformed record gives no cheap facts either
        constraints = []
    for con in constraints:
        if con.kind == cons.HOLDS:
            where[con.card] = con.place
        elif con.kind == cons.LACKS:
            lacks[con.card].add(con.place)
        elif con.kind == cons.HOLDS_ONE_OF:
            ones.append(con)
    categories = [[c.id for c in cat.cards] for cat in edition.categories]
    changed = True
    while changed:
        changed = False
        for card, place in where.items():
            others = set(places) - {place}
            if not others <= lacks[card]:
                lacks[card] |= others
                changed = True
        for card, missing in lacks.items():
            if card not in where:
                left = [p for p in places if p not in missing]
                if len(left) == 1:
                    where[card] = left[0]
                    changed = True
        for con in ones:
            open_cards = [c for c in con.cards if con.place not in lacks[c]]
            if len(open_cards) == 1 and open_cards[0] not in where:
                where[open_cards[0]] = con.place
                changed = True
        for ids in categories:
            inside = [c for c in ids if where.get(c) == ENVELOPE]
            candidates = [c for c in ids if ENVELOPE not in lacks[c]]
            if inside:
                for c in ids:
                    if c not in inside and ENVELOPE not in lacks[c]:
                        lacks[c].add(ENVELOPE)
                        changed = True
            elif len(candidates) == 1 and candidates[0] not in where:
                where[candidates[0]] = ENVELOPE
                changed = True
    envelope: dict[str, Fraction] = {}
    solution: list[str] = []
    for ids in categories:
        candidates = [c for c in ids if ENVELOPE not in lacks[c]]
        for c in ids:
            envelope[c] = Fraction(1, len(candidates)) if c in candidates and candidates \
                else Fraction(0)
        if len(candidates) == 1:
            solution.append(candidates[0])
    possible = {card: frozenset(places) - missing for card, missing in lacks.items()}
    solved = tuple(solution) if len(solution) == len(categories) else None
    return PaperNotes(envelope, where, possible, solved, False)


class PaperOdds:
    """Paper notes read as chances of each card in each place (even over the places still
    possible), so a policy written for :class:`Knowledge` can use them."""

    def __init__(self, record: Record, notes: PaperNotes):
        self.record, self.notes = record, notes

    def probability(self, card: Card | str, place: str) -> Fraction:
        card_id = card.id if isinstance(card, Card) else card
        if self.notes.located.get(card_id) == place:
            return Fraction(1)
        possible = self.notes.possible[card_id]
        return Fraction(1, len(possible)) if place in possible else Fraction(0)
