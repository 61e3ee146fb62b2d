"""Dice as exact distributions, so every movement chance in the kit is a Fraction.

The 2023 dice show a magnifying glass on some face (the edition file says which: face 1). The
glass counts as that number for moving, and any glass lets you draw one Clue card, "even if
you roll two icons" (2023 ON YOUR TURN), so a roll has a total *and* a yes/no for the card.
The 1949 rule book says only "the dice": ``Dice.for_edition(edition, count=1)`` gives the
one-die reading of the older printings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Protocol, TypeAlias

from .errors import InvalidArgument, WrongType


@dataclass(frozen=True)
class Dice:
    """``count`` fair dice with ``sides`` faces; ``icon_faces`` also show the magnifying glass."""

    count: int = 2
    sides: int = 6
    icon_faces: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if type(self.count) is not int or self.count < 1:
            raise InvalidArgument(f"dice count must be a whole number >= 1, got {self.count!r}")
        if type(self.sides) is not int or self.sides < 2:
            raise InvalidArgument(f"a die has a whole number >= 2 of sides, got {self.sides!r}")
        icons = tuple(self.icon_faces)
        if len(set(icons)) < len(icons) or not all(
                type(f) is int and 1 <= f <= self.sides for f in icons):
            raise InvalidArgument(f"icon_faces must be distinct faces 1..{self.sides}, got {icons}")
        object.__setattr__(self, "icon_faces", tuple(sorted(icons)))

    @classmethod
    def of(cls, dice: Dice | int) -> Dice:
        """Dice as given, or ``dice`` six-sided dice."""
        if isinstance(dice, Dice):
            return dice
        if isinstance(dice, int) and not isinstance(dice, bool):
            return cls(dice)
        raise WrongType(f"expected dice or a number of dice, got {dice!r}")

    @classmethod
    def for_edition(cls, edition: Equipped, count: int | None = None) -> Dice:
        """The edition's dice; ``count`` overrides how many (1949: one die or two)."""
        dice = edition.dice
        if dice is None:
            raise InvalidArgument(f"{edition!r} has no dice: it is not a board game")
        return dice if count is None else cls(count, dice.sides, dice.icon_faces)

    def total_distribution(self) -> dict[int, Fraction]:
        """``{total: chance}``, totals ascending. Icon faces count as their number."""
        out: dict[int, Fraction] = {}
        for (total, _), chance in self.joint_distribution().items():
            out[total] = out.get(total, Fraction(0)) + chance
        return dict(sorted(out.items()))

    def joint_distribution(self) -> dict[tuple[int, bool], Fraction]:
        """``{(total, draws a Clue card): chance}``: a card is drawn if any die shows an icon
        (one card however many icons), sorted by total then False before True."""
        return dict(_joint(self.count, self.sides, self.icon_faces))

    def icon_chance(self) -> Fraction:
        """Chance that a roll draws a Clue card: 1 - P(no die shows an icon)."""
        return 1 - Fraction(self.sides - len(self.icon_faces), self.sides) ** self.count

    def chance_at_least(self, total: int) -> Fraction:
        """Chance the total is ``total`` or more: the chance of reaching a room that far."""
        return sum((p for t, p in self.total_distribution().items() if t >= total), Fraction(0))

    def mean(self) -> Fraction:
        return self.count * Fraction(self.sides + 1, 2)

    def __str__(self) -> str:
        icons = f", glass on {'/'.join(map(str, self.icon_faces))}" if self.icon_faces else ""
        return f"{self.count}d{self.sides}{icons}"


class Equipped(Protocol):
    """What :meth:`Dice.for_edition` reads of an edition: its dice, if it has any (an
    :class:`~cluedo_lab.rules.edition.Edition` is one; this module sits below it)."""

    @property
    def dice(self) -> Dice | None: ...


DiceLike: TypeAlias = Dice | int | Mapping[int, Fraction]
"""Dice, a number of six-sided dice, or a ready ``{total: chance}`` distribution."""

ONE_DIE = Dice(1)
TWO_DICE = Dice(2)


@cache
def _joint(count: int, sides: int, icons: tuple[int, ...]) -> tuple[tuple[tuple[int, bool],
                                                                         Fraction], ...]:
    """Add one die at a time, keeping (total, any icon yet); each face has chance 1/sides."""
    face = Fraction(1, sides)
    states: dict[tuple[int, bool], Fraction] = {(0, False): Fraction(1)}
    for _ in range(count):
        rolled: dict[tuple[int, bool], Fraction] = {}
        for (total, icon), chance in states.items():
            for f in range(1, sides + 1):
                key = (total + f, icon or f in icons)
                rolled[key] = rolled.get(key, Fraction(0)) + chance * face
        states = rolled
    return tuple(sorted(states.items()))


def total_distribution(dice: DiceLike) -> dict[int, Fraction]:
    """``{total: chance}`` for dice, a number of six-sided dice, or a given distribution
    (checked: whole totals >= 1, Fraction chances adding up to exactly 1)."""
    if isinstance(dice, Mapping):
        if not all(type(t) is int and t >= 1 for t in dice):
            raise InvalidArgument(f"totals must be whole numbers >= 1, got {sorted(dice)}")
        if not all(isinstance(p, Fraction | int) and p >= 0 for p in dice.values()):
            raise InvalidArgument("chances must be exact (Fraction) and not negative")
        if sum(dice.values()) != 1:
            raise InvalidArgument(f"chances add up to {sum(dice.values())}, not 1")
        return {t: Fraction(p) for t, p in sorted(dice.items())}
    return Dice.of(dice).total_distribution()
