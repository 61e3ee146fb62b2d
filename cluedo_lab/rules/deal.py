"""A seeded deal: the envelope, face-down piles, hands and face-up spares.

The deal follows the rule books' order of play: one card per category (as many as the edition's
envelope asks) goes into the envelope first, then any face-down cards, then the rest is shuffled
and dealt one card at a time, starting with the seat after the dealer (seat 0 unless the
edition's ``deal.dealer`` is ``"first-seat"``). ``random.Random``
with a given seed makes the same deal on every machine and Python version since 3.2.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from .edition import Card, Edition
from .errors import InvalidArgument

ENVELOPE = "envelope"
FACE_UP = "face-up"


@dataclass(frozen=True)
class Deal:
    """Where every card went. The seat after the dealer (seat 0 unless the edition's
    ``deal.dealer`` says otherwise) gets the first card and any extra card; ``face_down`` pairs
    each pile's place name with its card."""

    edition: Edition
    envelope: tuple[Card, ...]
    hands: tuple[tuple[Card, ...], ...]
    face_up: tuple[Card, ...] = ()
    face_down: tuple[tuple[str, Card], ...] = ()
    seed: int | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    def place_of(self, card: Card | str) -> str | int:
        """Where a card lies: a seat number, ``"envelope"``, ``"face-up"`` or a pile name."""
        card = self.edition.card(card)
        if card in self.envelope:
            return ENVELOPE
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return seat
        if card in self.face_up:
            return FACE_UP
        for pile, pile_card in self.face_down:
            if pile_card == card:
                return pile
        raise KeyError(card)

    def __repr__(self) -> str:
        return (f"<Deal {self.edition.id}: {self.players} players, seed {self.seed}, "
                f"envelope {', '.join(c.id for c in self.envelope)}>")

    def __str__(self) -> str:
        lines = [f"Envelope: {', '.join(c.name for c in self.envelope)}"]
        lines += [f"Seat {seat}: {', '.join(c.name for c in hand)}"
                  for seat, hand in enumerate(self.hands)]
        if self.face_up:
            lines.append(f"Face up: {', '.join(c.name for c in self.face_up)}")
        lines += [f"Face down in {pile}: {card.name}" for pile, card in self.face_down]
        return "\n".join(lines)


def deal(edition: Edition, players: int, seed: int | None = None,
         envelope: Sequence[Card | str] | None = None) -> Deal:
    """Deal ``edition`` for ``players`` seats. ``envelope`` fixes the solution (the 2002
    one-against-all fugitive chooses it); otherwise it is drawn at random."""
    edition.check_players(players)
    rng = random.Random(seed)
    if envelope is None:
        chosen: list[Card] = []
        for category in edition.categories:
            pile = list(category.cards)
            rng.shuffle(pile)
            chosen += pile[: edition.deal.envelope[category.id]]
    else:
        if isinstance(envelope, str | Card):
            raise InvalidArgument("give the envelope as a list of cards, e.g. ['Plum', 'Rope', "
                                  "'Hall']")
        chosen = []
        for given in envelope:
            try:
                card = edition.card(given)
            except KeyError:
                raise InvalidArgument(f"{edition.name} has no card {given!r}") from None
            if card not in edition.cards:
                raise InvalidArgument(f"{card.name} is not a card of {edition.name}")
            if card in chosen:
                raise InvalidArgument(f"{card.name} is named twice for the envelope")
            chosen.append(card)
        for category in edition.categories:
            count = sum(1 for c in chosen if c.category == category.id)
            if count != edition.deal.envelope[category.id]:
                raise InvalidArgument(f"the envelope needs {edition.deal.envelope[category.id]} "
                                 f"{category.name} card(s), got {count}")
        chosen.sort(key=edition.cards.index)  # category order, as a random envelope has
    rest = [c for c in edition.cards if c not in chosen]
    rng.shuffle(rest)
    face_down = tuple(zip(edition.deal.face_down_places, rest[: edition.deal.face_down],
                          strict=True))
    rest = rest[edition.deal.face_down:]
    sizes = edition.hand_sizes(players)
    hands: list[list[Card]] = [[] for _ in range(players)]
    seat = (edition.dealer_seat(players) + 1) % players
    for card in rest[: sum(sizes)]:
        while len(hands[seat]) >= sizes[seat]:
            seat = (seat + 1) % players
        hands[seat].append(card)
        seat = (seat + 1) % players
    return Deal(edition, tuple(chosen), tuple(tuple(h) for h in hands),
                tuple(rest[sum(sizes):]), face_down, seed)
