"""The deal lister: every deal of the cards still open, place by place.

Near the end of a game a few cards are still open and a record has a handful of deals:
listing them costs less than setting up a DP (see :data:`~.routes.LISTING_LIMIT` for the
figures). A place takes every set of its size among the cards left that may go there; a card
goes at the latest to the last place it may lie in. The deals are gathered by class, as the
DPs give them (:class:`~.counter.Counter`).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Mapping

from .prepared import Prepared
from .problem import Weight, weighed


class _OverBudget(Exception):
    """Listing the deals took more fillings of a hand than its budget."""


class Listing:
    """Every deal of a prepared problem, listed (a :class:`~.counter.Counter`)."""

    def __init__(self, total: Weight, cells: dict[tuple[int, int], Weight],
                 envelopes: dict[tuple[tuple[int, int], ...], Weight]):
        self._total = total
        self._cells = cells
        self._envelopes = envelopes

    def count(self) -> Weight:
        return self._total

    def cells(self) -> Iterable[tuple[int, int, Weight]]:
        return ((k, where, weight) for (k, where), weight in self._cells.items())

    def envelopes(self) -> Iterable[tuple[Mapping[int, int], Weight]]:
        return ((dict(mix), weight) for mix, weight in self._envelopes.items())

    def memoised(self) -> int:
        return 0


def list_deals(prep: Prepared, budget: int | None = None) -> Listing | None:
    """Every deal of ``prep``; None if more than ``budget`` fillings of a hand were tried."""
    places = [i for i in prep.order if prep.caps[i] > 0]
    class_of = {card: k for k, klass in enumerate(prep.classes) for card in klass.members}
    allowed = {card: klass.places for klass in prep.classes for card in klass.members}
    category = prep.categories
    factors_at: dict[int, list[tuple[frozenset[str], tuple[Weight, ...]]]] = defaultdict(list)
    for where, cards, weights in prep.factors:
        factors_at[where].append((cards, weights))
    # A card must go to the place where its last chance is: after that place, none is left.
    last_chance = {card: max(places.index(i) for i in where) for card, where in allowed.items()}
    env = prep.env_index
    total: Weight = 0
    cells: dict[tuple[int, int], Weight] = defaultdict(int)
    envelopes: dict[tuple[tuple[int, int], ...], Weight] = defaultdict(int)
    chosen: list[tuple[int, tuple[str, ...]]] = []
    tried = 0

    def fills(step: int, left: list[str]) -> Iterable[tuple[str, ...]]:
        place = places[step]
        may = [c for c in left if place in allowed[c]]
        must = [c for c in may if last_chance[c] == step]
        per_category = prep.cat_caps[place]
        if per_category is None:
            if len(must) > prep.caps[place]:
                return ()
            rest = [c for c in may if last_chance[c] != step]
            return (tuple(must) + more for more in
                    itertools.combinations(rest, prep.caps[place] - len(must)))
        pools = [list(itertools.combinations([c for c in may if category[c] == cat], n))
                 for cat, n in per_category.items()]
        needed = frozenset(must)
        return (cards for parts in itertools.product(*pools)
                for cards in [tuple(c for part in parts for c in part)]
                if spend() and needed.issubset(cards))

    def spend() -> bool:
        """Count one filling tried against the budget."""
        nonlocal tried
        tried += 1
        if budget is not None and tried > budget:
            raise _OverBudget
        return True

    def deal(step: int, left: list[str], weight: Weight) -> None:
        nonlocal total
        if step == len(places):
            if left:
                return
            total += weight
            mix: dict[int, int] = defaultdict(int)
            for where, cards in chosen:
                for c in cards:
                    cells[(class_of[c], where)] += weight
                    if where == env:
                        mix[class_of[c]] += 1
            envelopes[tuple(sorted(mix.items()))] += weight
            return
        place = places[step]
        hand = prep.cat_caps[place] is None
        for cards in fills(step, left):
            if hand:
                spend()
            w = weighed(weight, factors_at[place], cards)
            if w:
                chosen.append((place, cards))
                deal(step + 1, [c for c in left if c not in cards], w)
                chosen.pop()

    try:
        deal(0, list(allowed), 1)
    except _OverBudget:
        return None
    return Listing(total, dict(cells), dict(envelopes))
