"""Seeded "speed" games: questions answered truthfully, no board, recorded from one seat.

Positions for the benchmark and the lessons: deal an edition, let random players ask random
legal questions (and, where the edition has them, play snoops, super sleuths and private tips,
or look at face-down room cards), answer each one truthfully by the rules, and write what one
seat saw as a game record. The board games' and card games' full rules live in their own
modules; this is only the knowledge side of play.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..records.seats import seat_view
from ..rules.deal import Deal, deal
from ..rules.edition import Edition

Event = dict[str, Any]
"""A record event as in a record file (``docs/records.md``), with who saw it."""


@dataclass
class SpeedGame:
    """A dealt game, its truthful events and the seat whose record it gives."""

    deal: Deal
    names: tuple[str, ...]
    events: list[Event]
    observer: str | None

    def record(self, events: int | None = None) -> dict[str, Any]:
        """The record from the observer's seat (public if None), after ``events`` events."""
        chosen = self.events if events is None else self.events[:events]
        data: dict[str, Any] = {"edition": self.deal.edition.id,
                      "players": [{"name": n, "hand_size": len(h)}
                                  for n, h in zip(self.names, self.deal.hands, strict=True)],
                      "events": [seat_view(e, self.observer) for e in chosen]}
        if self.deal.face_up:
            data["face_up"] = [c.id for c in self.deal.face_up]
        if self.observer is not None:
            data["observer"] = self.observer
            data["hand"] = [c.id for c in self.deal.hands[self.names.index(self.observer)]]
        return data


def speed_game(edition: Edition, players: int, seed: int, events: int = 20,
             observer_seat: int | None = 0, kinds: Sequence[str] | None = None
             ) -> SpeedGame:
    """Play ``events`` truthful events of ``edition`` with ``players`` seats."""
    rng = random.Random(seed)
    dealt = deal(edition, players, seed)
    names = tuple(f"P{i + 1}" for i in range(players))
    hands = {n: {c.id for c in h} for n, h in zip(names, dealt.hands, strict=True)}
    available = list(kinds) if kinds else _kinds(edition)
    out: list[Event] = []
    for _ in range(events):
        by = rng.choice(names)
        kind = rng.choice(available)
        make: Callable[[str], Event | None] = getattr(
            _Events(edition, names, hands, dealt, rng), kind)
        event = make(by)
        if event is not None:
            out.append(event)
    observer = None if observer_seat is None else names[observer_seat]
    return SpeedGame(dealt, names, out, observer)


def _kinds(edition: Edition) -> list[str]:
    kinds = ["suggest"] * 6
    if edition.deal.face_down:
        kinds.append("room_card")
    for action in edition.actions:
        if action.kind in ("snoop", "super-sleuth", "private-tip", "all-snoop"):
            kinds.append(action.kind.replace("-", "_"))
    return kinds


class _Events:
    """One event of each kind, answered truthfully (the method's name is the kind)."""

    def __init__(self, edition: Edition, names: tuple[str, ...], hands: dict[str, set[str]],
                 dealt: Deal, rng: random.Random):
        self.edition, self.names, self.hands, self.deal, self.rng = (
            edition, names, hands, dealt, rng)

    def _order(self, by: str) -> list[str]:
        i = self.names.index(by)
        return list(self.names[i + 1:] + self.names[:i])

    def suggest(self, by: str) -> Event:
        edition = self.edition
        if edition.question.form == "one-per-category":
            named = [self.rng.choice(c.cards).id for c in edition.categories]
        else:
            named = [c.id for c in self.rng.sample(edition.cards, edition.question.items)]
        event: Event = {"suggest": named, "by": by, "passed": []}
        for other in self._order(by):
            held = sorted(c for c in named if c in self.hands[other])
            if held:
                event["shown_by"] = other
                event["card"] = self.rng.choice(held)
                event["_seen_by"] = (by, other)
                return event
            event["passed"].append(other)
        return event

    def snoop(self, by: str) -> Event:
        target = self.rng.choice([n for n in self.names if n != by])
        card = self.rng.choice(sorted(self.hands[target]))
        return {"snoop": target, "by": by, "card": card, "_seen_by": (by,)}

    def all_snoop(self, by: str) -> Event:
        direction = self.rng.choice(["left", "right"])
        step = -1 if direction == "left" else 1  # hands pass towards `direction`
        seen: dict[str, str] = {}
        for i, name in enumerate(self.names):
            source = self.names[(i + step) % len(self.names)]
            seen[name] = self.rng.choice(sorted(self.hands[source]))
        return {"all_snoop": direction, "by": by, "_card_for": seen}

    def super_sleuth(self, by: str) -> Event:
        feature = self.rng.choice(sorted(self.edition.features))
        value = self.rng.choice(self.edition.features[feature].values)
        wanted = {c.id for c in self.edition.cards_with(feature, value)}
        showed: dict[str, str] = {}
        nothing: list[str] = []
        for other in self._order(by):
            held = sorted(wanted & self.hands[other])
            if held:
                showed[other] = self.rng.choice(held)
            else:
                nothing.append(other)
        return {"super_sleuth": {"feature": feature, "value": value}, "by": by,
                "showed": showed, "nothing": nothing, "_seen_by": (by,)}

    def private_tip(self, by: str) -> Event:
        to = self.rng.choice([n for n in self.names if n != by])
        if self.rng.random() < 0.5:
            category = self.rng.choice(self.edition.categories)
            cards = sorted(c.id for c in category.cards if c.id in self.hands[to])
            spec: dict[str, Any] = {"category": category.id, "all": True}
        else:
            feature = self.rng.choice(sorted(self.edition.features))
            value = self.rng.choice(self.edition.features[feature].values)
            held = sorted(c.id for c in self.edition.cards_with(feature, value)
                          if c.id in self.hands[to])
            cards = [self.rng.choice(held)] if held else []
            spec = {"feature": feature, "value": value}
        return {"private_tip": spec, "by": by, "to": to, "cards": cards, "_seen_by": (by, to)}

    def room_card(self, by: str) -> Event | None:
        if not self.deal.face_down:
            return None
        pile, card = self.rng.choice(self.deal.face_down)
        return {"room_card": pile, "by": by, "card": card.id, "_seen_by": (by,)}
