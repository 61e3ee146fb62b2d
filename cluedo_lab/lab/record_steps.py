"""A record's positions event by event: how many deals still fit, and the envelope's chances.

The record chart (:mod:`cluedo_lab.views.record_chart`) draws these; they are counted here, by
the engine, once per prefix of the record (the deal alone, then after each event), so the
picture and the numbers a learner can check are the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..knowledge.engine import Knowledge
from ..records import Record

__all__ = ["Step", "record_steps", "leading_cards"]


@dataclass(frozen=True)
class Step:
    """The position after ``event`` events (0: the deal), what that event was in words
    ("" for the deal), how many deals fit, and the envelope chance of each card followed."""

    event: int
    said: str
    deals: int | Fraction
    chances: tuple[tuple[str, Fraction], ...]


def leading_cards(knowledge: Knowledge) -> tuple[str, ...]:
    """For each kind of card, the card likeliest to be in the envelope (as printed)."""
    edition = knowledge.edition
    return tuple(max(category.cards, key=lambda c: knowledge.probability(c, "envelope")).name
                 for category in edition.categories)


def record_steps(record: Record, cards: tuple[str, ...] | None = None) -> list[Step]:
    """One step per prefix of ``record``. ``cards`` names the cards whose envelope chance is
    followed (default: the likeliest of each kind once every event is in)."""
    raw = list(record.source.get("events", []))
    followed = cards if cards is not None else leading_cards(Knowledge(record))
    steps = []
    for count in range(len(raw) + 1):
        k = Knowledge(record.with_events(raw[:count]))
        said = record.events[count - 1].describe() if count else ""
        steps.append(Step(count, said, k.consistent_deals,
                          tuple((card, k.probability(card, "envelope")) for card in followed)))
    return steps
