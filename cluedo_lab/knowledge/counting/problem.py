"""The counting problem: places, factors that weigh deals, and exact weights."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

Weight = int | Fraction


class Place(NamedTuple):
    """A place that holds ``size`` cards; ``per_category`` fixes how many of each category
    (the envelope), in which case ``size`` is their sum. A named tuple, quick to build: every
    count of a record makes its places anew."""

    name: str
    size: int
    per_category: Mapping[str, int] | None = None


@dataclass(frozen=True)
class Factor:
    """Weigh each deal by ``weights[k]``, k = how many of ``cards`` lie in ``place``."""

    place: str
    cards: frozenset[str]
    weights: tuple[Weight, ...]
    label: str = ""

    def __post_init__(self) -> None:
        if len(self.weights) != len(self.cards) + 1:
            raise ValueError("a factor needs one weight for each possible count")


def at_least_one(place: str, cards: Sequence[str]) -> Factor:
    members = frozenset(cards)
    return Factor(place, members, (0,) + (1,) * len(members))


def not_all(place: str, cards: Sequence[str]) -> Factor:
    members = frozenset(cards)
    return Factor(place, members, (1,) * len(members) + (0,))


def chosen_uniformly(place: str, cards: Sequence[str]) -> Factor:
    """A refuter holding k of ``cards`` shows a given one with chance 1/k."""
    members = frozenset(cards)
    return Factor(place, members,
                  (0,) + tuple(Fraction(1, k) for k in range(1, len(members) + 1)))


@dataclass(frozen=True)
class Problem:
    """Cards (id → category), places, where each card may lie, and the factors."""

    categories: Mapping[str, str]
    places: tuple[Place, ...]
    allowed: Mapping[str, frozenset[str]]
    factors: tuple[Factor, ...] = ()


def weighed(weight: Weight, factors: Sequence[tuple[frozenset[str], Sequence[Weight]]],
            cards: Iterable[str]) -> Weight:
    """``weight`` times each factor's weight for how many of its cards are among ``cards`` (the
    cards a filling puts in the factors' place): how a listed deal is weighed, one place at a
    time. Stops at zero."""
    if factors:
        taken = set(cards)
        for members, weights in factors:
            weight *= weights[len(members & taken)]
            if not weight:
                break
    return weight


def exact(value: Weight) -> Weight:
    """Keep whole numbers as ints so uniform counts stay integers."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def check_sizes(problem: Problem) -> None:
    if sum(p.size for p in problem.places) != len(problem.categories):
        raise ValueError(f"places hold {sum(p.size for p in problem.places)} cards, "
                         f"the deck has {len(problem.categories)}")
    for place in problem.places:
        if place.per_category and sum(place.per_category.values()) != place.size:
            raise ValueError(f"{place.name}: per-category counts do not add up to its size")


def divide(weight: Weight, n: int) -> Weight:
    """Exact division that stays an int when it can (uniform counts are whole numbers)."""
    quotient = Fraction(weight) / n
    return int(quotient) if quotient.denominator == 1 else quotient
