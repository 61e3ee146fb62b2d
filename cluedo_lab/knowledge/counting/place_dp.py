"""The place DP: fill the places one at a time, remembering how many cards of each class
are left."""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Iterable, Iterator

from .problem import Weight
from .step_dp import CardClass, StepDP, compositions


class PlaceDP(StepDP[tuple[int, ...], dict[int, int]]):
    """Fill the places in ``order``; the state is how many cards of each class remain."""

    def __init__(self, classes: list[CardClass], order: list[int], caps: list[int],
                 cat_caps: list[dict[str, int] | None],
                 factors: list[tuple[int, frozenset[str], tuple[Weight, ...]]],
                 envelope: int | None = None):
        self.classes = classes
        self.start = tuple(len(k.members) for k in classes)
        self.envelope = envelope
        self.order = order
        self.caps = caps
        self.cat_caps = cat_caps
        # Per step: which classes may go there, and the factors evaluated there as
        # (weights, classes whose count adds up to the factor's k).
        self.eligible = [[k for k, klass in enumerate(classes) if place in klass.places]
                         for place in order]
        self.local_factors = [
            [(weights, [k for k, klass in enumerate(classes) if f in klass.factors])
             for f, (where, _, weights) in enumerate(factors) if where == place]
            for place in order]
        self.steps = len(order)
        self._fillings: dict[tuple[int, tuple[int, ...], tuple[int, ...]],
                             list[tuple[tuple[tuple[int, int], ...], Weight,
                                        dict[int, int]]]] = {}
        self._ways: list[dict[tuple[int, ...], Weight]] = [{} for _ in order]
        self._moves: list[dict[tuple[int, ...],
                               list[tuple[tuple[int, ...], Weight, dict[int, int]]]]] = [
            {} for _ in order]
        # Look-ahead, to drop partial fillings that cannot be completed: after step i, each
        # later place must still find enough cards, each later "at least one of" factor must
        # keep a card available, and each class must still fit in its later places.
        self.later_fill = []
        self.later_needs = []
        self.room_after = []
        for step in range(len(order)):
            fill = []
            for j in range(step + 1, len(order)):
                place = order[j]
                per_category = cat_caps[place]
                if per_category is None:
                    fill.append((caps[place], frozenset(self.eligible[j])))
                else:
                    fill += [(n, frozenset(k for k in self.eligible[j]
                                           if classes[k].category == cat))
                             for cat, n in per_category.items() if n]
            self.later_fill.append(fill)
            self.later_needs.append([frozenset(members) for j in range(step + 1, len(order))
                                     for weights, members in self.local_factors[j]
                                     if weights[0] == 0])
            self.room_after.append([sum(caps[order[j]] for j in range(step + 1, len(order))
                                        if order[j] in klass.places) for klass in classes])
        # Both kinds as (minimum, classes): a later place needs its size, a later "at least
        # one" factor needs one card; `touches[step][k]` lists those that class k feeds.
        self.later_limits = [fill + [(1, members) for members in needs]
                             for fill, needs in zip(self.later_fill, self.later_needs,
                                                    strict=True)]
        self.touches = [[[i for i, (_, members) in enumerate(limits) if k in members]
                         for k in range(len(classes))] for limits in self.later_limits]

    def transitions(self, step: int, state: tuple[int, ...]
                    ) -> list[tuple[tuple[int, ...], Weight, dict[int, int]]]:
        """The ways to fill the place at ``step`` from ``state``: (next state, weight, counts
        taken per class), only those the later places can still complete."""
        cached = self._moves[step].get(state)
        if cached is not None:
            return cached
        # The fillings and their weights depend only on the counts of the classes that may
        # go here and on what each class must put here at least: states alike in these
        # (many, late in the deal) share them.
        room = self.room_after[step]
        lower = tuple([n - room[k] if n > room[k] else 0 for k, n in enumerate(state)])
        key = (step, tuple([state[k] for k in self.eligible[step]]), lower)
        fillings = self._fillings.get(key)
        if fillings is None:
            fillings = self._fillings[key] = self._weighed(step, state)
        moves: list[tuple[tuple[int, ...], Weight, dict[int, int]]] = []
        # Look-ahead: how many cards each later requirement can still draw on from this
        # state; a candidate only subtracts what it takes from the requirements it touches.
        supply = [sum(state[k] for k in members) - need
                  for need, members in self.later_limits[step]]
        # A move takes the place's size in all, so only a requirement with less to spare
        # can be broken by one: the others need no check.
        size = self.caps[self.order[step]]
        touches = [[i for i in touching if supply[i] < size] for touching in self.touches[step]]
        for items, weight, ks in fillings:
            new = list(state)
            spare: dict[int, int] | None = None
            for k, n in items:
                new[k] -= n
                for i in touches[k]:
                    if spare is None:
                        spare = {}
                    spare[i] = spare.get(i, supply[i]) - n
            if spare and min(spare.values()) < 0:
                continue
            moves.append((tuple(new), weight, ks))
        self._moves[step][state] = moves
        return moves

    def _weighed(self, step: int, state: tuple[int, ...]
                 ) -> list[tuple[tuple[tuple[int, int], ...], Weight, dict[int, int]]]:
        """Each filling of the place at ``step`` from ``state`` with a weight: the ways to
        pick its cards times the factors evaluated here."""
        out = []
        factors = self.local_factors[step]
        comb = math.comb
        for ks in self._choices(step, state):
            weight: Weight = 1
            for k, n in ks.items():
                weight *= comb(state[k], n)
            for weights, members in factors:
                weight *= weights[sum([ks.get(k, 0) for k in members])]
                if not weight:
                    break
            if weight:
                out.append((tuple(ks.items()), weight, ks))
        return out

    def _choices(self, step: int, state: tuple[int, ...]) -> Iterator[dict[int, int]]:
        place = self.order[step]
        room = self.room_after[step]
        eligible = set(self.eligible[step])
        # Cards that cannot all fit in later places must go here: a lower bound per class.
        lower: dict[int, int] = {}
        for k, n in enumerate(state):
            if n > room[k]:
                if k not in eligible:
                    return
                lower[k] = n - room[k]
        free = [k for k in self.eligible[step] if state[k] > lower.get(k, 0)]
        spare = {k: state[k] - lower.get(k, 0) for k in free}
        per_category_caps = self.cat_caps[place]
        if per_category_caps is None:
            need = self.caps[place] - sum(lower.values())
            if need < 0:
                return
            # Classes with one card to spare are chosen by plain combinations, at C speed;
            # only the others need compositions (a record leaves few such classes).
            singles = [k for k in free if spare[k] == 1]
            several = [k for k in free if spare[k] > 1]
            most = sum(spare[k] for k in several)
            for count in range(max(0, need - len(singles)), min(need, most) + 1):
                for part in (compositions(count, several, spare) if several else [{}]):
                    for combo in itertools.combinations(singles, need - count):
                        taken = dict(lower)
                        for k, n in part.items():
                            taken[k] = taken.get(k, 0) + n
                        for k in combo:
                            taken[k] = taken.get(k, 0) + 1
                        yield taken
            return
        per_category = []
        for category, cap in per_category_caps.items():
            if cap == 0:
                continue
            in_cat = [k for k in free if self.classes[k].category == category]
            need = cap - sum(n for k, n in lower.items() if self.classes[k].category == category)
            per_category.append(list(compositions(need, in_cat, spare)) if need >= 0 else [])
        for parts in itertools.product(*per_category):
            merged = dict(lower)
            for part in parts:
                merged = _combine(merged, part)
            yield merged

    def finished(self, state: tuple[int, ...]) -> bool:
        return not any(state)

    def class_weights(self, start: tuple[int, ...]) -> dict[tuple[int, int], Weight]:
        """Σ over deals of (cards of class k at step s)."""
        result: dict[tuple[int, int], Weight] = defaultdict(int)
        for step, through, ks in self.flows(start):
            for k, n in ks.items():
                if n:
                    result[(step, k)] += through * n
        return result

    # -- the counter's interface (:class:`~.counter.Counter`) ----------------------------------
    def count(self) -> Weight:
        return self.ways(0, self.start)

    def cells(self) -> Iterator[tuple[int, int, Weight]]:
        return ((k, self.order[step], weight)
                for (step, k), weight in self.class_weights(self.start).items())

    def envelopes(self) -> Iterable[tuple[dict[int, int], Weight]]:
        """With the envelope first: its fillings, each times the ways to complete them."""
        if not (self.order and self.order[0] == self.envelope):
            return [({}, self.count())]
        return ((ks, weight * self.ways(1, new)) for new, weight, ks
                in self.transitions(0, self.start))


def _combine(base: dict[int, int], extra: dict[int, int]) -> dict[int, int]:
    merged = dict(base)
    for k, n in extra.items():
        merged[k] = merged.get(k, 0) + n
    return merged
