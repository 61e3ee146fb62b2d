"""What happens in a game, as a record holds it: one frozen class per kind of event.

The places a card can be are the players, the :data:`ENVELOPE`, the :data:`FACE_UP` cards and
any face-down piles; events name players and cards, never positions in a list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..rules.edition import Card

ENVELOPE = "envelope"
FACE_UP = "face-up"


@dataclass(frozen=True)
class Event:
    """Base of all events. ``position`` counts from 1; ``raw`` is the JSON object as given."""

    position: int
    raw: Mapping[str, Any] = field(repr=False, compare=False)

    @property
    def kind(self) -> str:
        return type(self).__name__.lower()

    def describe(self) -> str:
        return f"event {self.position}"


def _names(cards: Sequence[Card]) -> str:
    return ", ".join(c.name for c in cards)


@dataclass(frozen=True)
class Suggest(Event):
    """A question. When the first player who can answers (every edition here), ``shown_by``
    and ``card`` say who showed what; when every player who can answers (a house rule),
    ``showed`` pairs each shower with their card (None if the observer did not see it) and
    ``shown_by`` stays None. ``passed`` lists who had none of the cards, in the order asked."""

    named: tuple[Card, ...] = ()
    by: str = ""
    passed: tuple[str, ...] = ()
    shown_by: str | None = None
    card: Card | None = None
    showed: tuple[tuple[str, Card | None], ...] = ()

    @property
    def showers(self) -> tuple[str, ...]:
        """Everyone who showed a card, under either answering rule."""
        if self.shown_by is not None:
            return (self.shown_by,)
        return tuple(who for who, _ in self.showed)

    def describe(self) -> str:
        text = f"event {self.position}: {self.by} asked about {_names(self.named)}"
        if self.passed:
            text += f"; {', '.join(self.passed)} had none"
        answers = [(self.shown_by, self.card)] if self.shown_by else list(self.showed)
        for who, card in answers:
            text += f"; {who} showed " + (card.name if card else "a card")
        if not answers:
            text += "; nobody showed a card"
        return text


@dataclass(frozen=True)
class Accuse(Event):
    """An accusation. ``named`` is empty when it was made face down and the observer did not
    see its cards; ``envelope`` is the solution, set only in the accuser's own record, or in
    every record when the accusations were turned up ``together`` (2018: the first accuser
    turns over the cards under the Crime card)."""

    named: tuple[Card, ...] = ()
    by: str = ""
    correct: bool = False
    envelope: tuple[Card, ...] | None = None
    together: bool = False

    @property
    def face_down(self) -> bool:
        return not self.named

    def describe(self) -> str:
        verdict = "rightly" if self.correct else "wrongly"
        what = _names(self.named) if self.named else "three cards face down"
        text = f"event {self.position}: {self.by} {verdict} accused {what}"
        if self.envelope is not None:
            seen = "everybody saw the solution" if self.together else "saw the solution"
            text += f" and {seen}: {_names(self.envelope)}"
        return text


@dataclass(frozen=True)
class Snoop(Event):
    """A Snoop (2002): ``by`` looked at one card of ``target``'s hand; ``card`` only when
    the observer is ``by``."""

    target: str = ""
    by: str = ""
    card: Card | None = None

    def describe(self) -> str:
        seen = f" and saw {self.card.name}" if self.card else ""
        return f"event {self.position}: {self.by} snooped on {self.target}{seen}"


@dataclass(frozen=True)
class AllSnoop(Event):
    """An All Snoop (2002): every hand passes face down towards ``direction`` and each
    player looks at one card of the hand they get; ``card`` is the one the observer saw, of
    ``seen_from``'s hand."""

    direction: str = "left"
    by: str = ""
    card: Card | None = None
    seen_from: str | None = None

    def describe(self) -> str:
        seen = f"; the observer saw {self.card.name} from {self.seen_from}" if self.card else ""
        return f"event {self.position}: {self.by} played All Snoop ({self.direction}){seen}"


@dataclass(frozen=True)
class SuperSleuth(Event):
    """A Super Sleuth (2002): each opponent of ``by`` shows ``by`` one card with the
    printed ``feature`` = ``value``, or nothing. ``showed`` pairs who showed with the card (None
    when the observer did not see which); ``nothing`` lists who had none."""

    feature: str = ""
    value: str = ""
    by: str = ""
    showed: tuple[tuple[str, Card | None], ...] = ()
    nothing: tuple[str, ...] = ()

    def describe(self) -> str:
        parts = [f"{who} showed {card.name if card else 'a card'}" for who, card in self.showed]
        parts += [f"{who} had none" for who in self.nothing]
        return (f"event {self.position}: {self.by} asked everyone for a {self.value} card "
                f"({self.feature}); " + "; ".join(parts))


@dataclass(frozen=True)
class PrivateTip(Event):
    """A private tip. Onlookers do not read it: ``category`` is empty for them and only
    ``returned`` (how many cards came back, if known) is set."""

    by: str = ""
    to: str = ""
    category: str = ""
    all: bool = False
    feature: str | None = None
    value: str | None = None
    cards: tuple[Card, ...] | None = None
    returned: int | None = None

    @property
    def unread(self) -> bool:
        """The observer did not read the tip."""
        return not self.category

    def describe(self) -> str:
        if self.unread:
            back = ("" if self.returned is None else "; 1 card came back" if self.returned == 1
                    else f"; {self.returned} cards came back")
            return f"event {self.position}: {self.by} passed {self.to} a private tip{back}"
        what = f"all their {self.category} cards" if self.all else f"one {self.value} card"
        got = "" if self.cards is None else f": {_names(self.cards) or 'none'}"
        return f"event {self.position}: {self.to} gave {self.by} a private tip of {what}{got}"


@dataclass(frozen=True)
class RoomCard(Event):
    """A face-down card looked at (2023, two players): ``by`` looked at the card in
    ``pile``; ``card`` when the observer saw it."""

    pile: str = ""
    by: str = ""
    card: Card | None = None

    def describe(self) -> str:
        seen = f" and saw {self.card.name}" if self.card else ""
        return f"event {self.position}: {self.by} looked at the card in {self.pile}{seen}"


@dataclass(frozen=True)
class Show(Event):
    """A card shown on demand (2023 Clue cards): ``shower`` showed ``to`` a card of their
    choice; ``card`` only when the observer saw it."""

    shower: str = ""
    to: str = ""
    card: Card | None = None

    def describe(self) -> str:
        seen = self.card.name if self.card else "a card"
        return f"event {self.position}: {self.shower} showed {self.to} {seen}"


@dataclass(frozen=True)
class Reveal(Event):
    """``by`` laid ``card`` face up for everybody (a Clue card, or a card found in an
    accuser's hand)."""

    card: Card | None = None
    by: str = ""

    def describe(self) -> str:
        assert self.card is not None  # a reveal always names its card
        return f"event {self.position}: {self.by} revealed {self.card.name} to everybody"
