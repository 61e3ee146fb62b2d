"""A problem reduced for the DPs: fixed cards set aside, classes formed, places ordered."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from .capacity_dp import CapacityDP
from .problem import Place, Problem, Weight, check_sizes, exact
from .step_dp import CardClass
from .sweep_dp import SweepDP


@dataclass
class Prepared:
    """A problem reduced for the DP: fixed cards set aside, classes formed, places ordered."""

    places: list[Place]
    fixed: dict[str, int]
    constant: Weight
    classes: list[CardClass]
    order: list[int]
    caps: list[int]
    cat_caps: list[dict[str, int] | None]
    factors: list[tuple[int, frozenset[str], tuple[Weight, ...]]]
    start: tuple[int, ...]
    env_index: int | None
    categories: Mapping[str, str]

    @cached_property
    def sweep_dp(self) -> SweepDP:
        return SweepDP(self.classes, self.sweep_order(), self.caps, self.cat_caps, self.factors,
                       self.env_index)

    def sweep_order(self) -> list[int]:
        """The envelope first (its choices are the envelope distribution, and after it the
        categories no longer matter), then greedily the place after which the fewest groups
        of cards stay apart: the sweep DP's states are counts per group."""
        open_places = [i for i in range(len(self.places)) if self.caps[i] > 0]
        order = [self.env_index] if self.env_index in open_places else []
        todo = [i for i in open_places if i not in order]
        where = {where for where, _, _ in self.factors}

        def groups_after(done: set[int]) -> int:
            later = frozenset(i for i in open_places if i not in done)
            by_category = any(self.cat_caps[i] is not None for i in later)
            return len({(k.category if by_category else None, k.places & later,
                         frozenset(f for f in k.factors if self.factors[f][0] in later))
                        for k in self.classes})

        while todo:
            done = set(order)
            best = min(todo, key=lambda i: (groups_after(done | {i}), i not in where, i))
            order.append(best)
            todo.remove(best)
        return order

    @cached_property
    def capacity_dp(self) -> CapacityDP:
        return CapacityDP(self.classes, self.caps, self.cat_caps, self.factors)

    def envelope_count(self) -> int:
        """A bound on the possible envelopes: per category, the ways to choose its cards
        among those that may lie there."""
        assert self.env_index is not None, "only a problem with an envelope has its cards"
        per_category = self.places[self.env_index].per_category
        assert per_category is not None, "the envelope holds cards by category"
        limits = self.cat_caps[self.env_index] or {}
        count = 1
        for category in per_category:
            open_cards = sum(len(k.members) for k in self.classes
                             if k.category == category and self.env_index in k.places)
            count *= math.comb(open_cards, limits.get(category, 0))
        return count

    def envelope_cards(self, ks: Mapping[int, int]) -> list[tuple[tuple[str, ...], Fraction]]:
        """The envelopes a choice of classes stands for, each with its equal share."""
        keys = self.envelope_keys(ks)
        share = Fraction(1, len(keys))
        return [(key, share) for key in keys]

    def envelope_keys(self, ks: Mapping[int, int]) -> list[tuple[str, ...]]:
        """The envelopes (card ids in category order) a choice of how many cards of each
        class lie there stands for: one per way to pick those cards from their classes."""
        rank, fixed_here = self._envelope_order
        pools = [list(itertools.combinations(self.classes[k].members, n))
                 for k, n in ks.items() if n]
        return [tuple(sorted(fixed_here + [c for part in combo for c in part],
                             key=rank.__getitem__))
                for combo in itertools.product(*pools)]

    @cached_property
    def _envelope_order(self) -> tuple[dict[str, int], list[str]]:
        """Each card's category rank in the envelope, and the cards fixed there."""
        assert self.env_index is not None, "only a problem with an envelope has its cards"
        per_category = self.places[self.env_index].per_category
        assert per_category is not None, "the envelope holds cards by category"
        order = {c: i for i, c in enumerate(per_category)}
        rank = {card: order.get(category, len(order))
                for card, category in self.categories.items()}
        return rank, [c for c, w in self.fixed.items() if w == self.env_index]


def prepare(problem: Problem, envelope: str | None, distinguish: frozenset[str] = frozenset(),
             first: Sequence[str] = ()) -> Prepared | None:
    """Steps 1-4 of counting; None when no deal can exist."""
    places = list(problem.places)
    index = {p.name: i for i, p in enumerate(places)}
    check_sizes(problem)

    # 1. Fix every card that has only one place left; recompute until nothing changes (a
    #    card's options shrink only when a place, or the envelope's share of a category,
    #    fills up: only then is another pass needed). Cards alike (same places, same
    #    category) are fixed or kept together: a record has few such kinds.
    caps = [p.size for p in places]
    cat_caps = [dict(p.per_category) if p.per_category else None for p in places]
    categories = problem.categories
    allowed_in = problem.allowed
    alike: dict[tuple[frozenset[str], str], list[str]] = {}
    for card, category in categories.items():
        key = (allowed_in[card], category)
        members = alike.get(key)
        if members is None:
            alike[key] = [card]
        else:
            members.append(card)
    pending = [(frozenset([index[name] for name in names]), category, members)
               for (names, category), members in alike.items()]
    fixed: dict[str, int] = {}
    # A place is barred to a category once it is full, or once its share of that category
    # is (or where it has none): options need filtering only where something is barred.
    deck_categories = set(categories.values())
    full = {i for i, cap in enumerate(caps) if cap <= 0}
    barred = {category: frozenset(full | {i for i, limits in enumerate(cat_caps)
                                          if limits is not None
                                          and limits.get(category, 0) <= 0})
              for category in deck_categories}
    changed = True
    while changed:
        changed = False
        left = []
        for options, category, members in pending:
            closed = barred[category]
            if closed and not closed.isdisjoint(options):
                options = options - closed
            if len(options) > 1:
                left.append((options, category, members))
                continue
            if not options:
                return None
            (where,) = options
            for card in members:
                fixed[card] = where
            caps[where] -= len(members)
            if (limits := cat_caps[where]) is not None:
                limits[category] -= len(members)
                if limits[category] < 0:
                    return None
                if limits[category] == 0:
                    changed = True
                    barred[category] = barred[category] | {where}
            if caps[where] < 0:
                return None
            if caps[where] == 0:
                changed = True
                barred = {cat: closed | {where} for cat, closed in barred.items()}
        pending = left
    allowed = {card: options for options, _, members in pending for card in members}

    # 2. Substitute fixed cards into the factors; constant factors become a multiplier.
    #    Factors on the same cards of the same place become one (their weights multiplied):
    #    a long record repeats the same observation many times.
    constant: Weight = 1
    merged: dict[tuple[int, frozenset[str]], tuple[Weight, ...]] = {}
    for factor in problem.factors:
        where = index[factor.place]
        already = 0
        live_cards = []
        for c in factor.cards:
            at = fixed.get(c)
            if at is None:
                if where in allowed[c]:
                    live_cards.append(c)
            elif at == where:
                already += 1
        weights = factor.weights[already: already + len(live_cards) + 1]
        if len(set(weights)) == 1:
            constant *= weights[0]
            if constant == 0:
                return None
            continue
        live = frozenset(live_cards)
        before = merged.get((where, live))
        merged[(where, live)] = weights if before is None else tuple(
            exact(a * b) for a, b in zip(before, weights, strict=True))
    live_factors: list[tuple[int, frozenset[str], tuple[Weight, ...]]] = []
    member_of: dict[str, list[int]] = {}
    for (where, live), weights in merged.items():
        if len(set(weights)) == 1:
            constant *= weights[0]
            if constant == 0:
                return None
            continue
        for card in live:
            member_of.setdefault(card, []).append(len(live_factors))
        live_factors.append((where, live, weights))

    # 3. Interchangeable cards form classes (cards to ``distinguish`` stay on their own).
    groups: dict[tuple[str, frozenset[int], frozenset[int], str | None], list[str]] = {}
    no_factors: frozenset[int] = frozenset()
    for card in categories:     # in deck order, as the classes' members are listed
        open_to = allowed.get(card)
        if open_to is None:
            continue
        factors_of = member_of.get(card)
        group = (categories[card], open_to,
                 frozenset(factors_of) if factors_of else no_factors,
                 card if card in distinguish else None)
        alike_cards = groups.get(group)
        if alike_cards is None:
            groups[group] = [card]
        else:
            alike_cards.append(card)
    classes = [CardClass(cat, tuple(members), places_, fs)
               for (cat, places_, fs, _), members in groups.items()]

    # 4. Order places: the envelope first (its choices give the envelope distribution), then
    #    any places asked for (``first``, in order), then the rest by how many classes may go
    #    there: the last place takes what is left, with no enumeration.
    open_places = [i for i in range(len(places)) if caps[i] > 0]
    env_index = index.get(envelope) if envelope is not None else None
    leading = [index[name] for name in first if index[name] in open_places]
    rest = [i for i in open_places if i != env_index and i not in leading]
    reach = [0] * len(places)
    for klass in classes:
        for i in klass.places:
            reach[i] += 1
    rest.sort(key=reach.__getitem__)
    order = ([env_index] if env_index in open_places else []) + leading + rest

    start = tuple(len(k.members) for k in classes)
    return Prepared(places, fixed, constant, classes, order, caps, cat_caps, live_factors,
                     start, env_index, problem.categories)
