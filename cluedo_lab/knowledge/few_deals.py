"""Problems with few deals, listed straight from the problem, without reducing it first.

Why: near the end of a game most cards are pinned down by the record itself (your hand, the
cards shown to you) and the few still open have a handful of ways to be dealt. Reducing such a
problem to classes for a DP (:mod:`.prepared`) then costs more than listing its deals. Here a
card with one place left is put there, and the open cards are dealt:

- card by card, each to every place with room left, when that makes at most :data:`FEW_WAYS`
  ways (a record at its end: a few open cards with one or two places each);
- otherwise place by place (each place every set of its size among the open cards that may lie
  there), a card going at the latest to its last possible place, so that a full place or a
  card's last chance cuts the search short.

Only deals whose weights are whole numbers (the uniform model) are listed, so the counts are
the same ints the DPs give; anything else is left to :mod:`.counting`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .problem import Problem, Weight, weighed

FEW_WAYS = 32
"""Open cards whose places multiply to at most this many ways are dealt card by card: so few
ways cost less to try one by one than the place-by-place search takes to set up."""

Deals = list[tuple[Weight, tuple[str, ...]]]
"""Each deal's weight and the open cards it puts in the envelope."""

Factors = dict[str, list[tuple[frozenset[str], tuple[Weight, ...]]]]
"""The factors still open, by place: the open cards each counts and its weights from there."""


@dataclass
class Listed:
    """The deals' total weight and each (card, place) weight; the weight of each envelope on
    demand."""

    total: Weight
    cell: dict[tuple[str, str], Weight]
    deals: Deals
    in_envelope: list[str] = field(default_factory=list)
    """The cards pinned to the envelope."""
    categories: Mapping[str, str] = field(default_factory=dict)
    envelope_categories: tuple[str, ...] = ()
    """The envelope's categories, in its order."""

    @property
    def has_envelope(self) -> bool:
        """Whether the problem has an envelope holding cards by category."""
        return bool(self.envelope_categories)

    def envelope_weights(self) -> dict[tuple[str, ...], Weight]:
        """Each envelope's weight (its cards in the envelope's category order)."""
        out: dict[tuple[str, ...], Weight] = {}
        rank = {category: i for i, category in enumerate(self.envelope_categories)}
        categories = self.categories
        for weight, cards in self.deals:
            key = tuple(sorted(self.in_envelope + list(cards),
                               key=lambda c: rank[categories[c]]))
            out[key] = out.get(key, 0) + weight
        return out


def list_few_deals(problem: Problem, envelope: str | None, limit: int, tried: int = 0,
                   budget: int = 0) -> Listed | None:
    """The deals listed, if they make at most :data:`FEW_WAYS` ways card by card, or if a
    bound on them (the ways to fill each place from the open cards that may go there,
    multiplied over the places) is at most ``limit``, or at most ``tried`` and listing them
    takes at most ``budget`` fillings of a place (the bound is loose when the open cards have
    few places each). None if not, or if the problem is not one listed here (a weight that
    is not a whole number and that a deal may take, an envelope holding two cards of a
    category, a card with no place, a place overfilled by the cards pinned there, places
    that do not hold the deck: the DPs' reduction says what those mean)."""
    caps: dict[str, int] = {}
    env = None
    size = 0
    for place in problem.places:
        caps[place.name] = place.size
        size += place.size
        if place.per_category:
            if place.name != envelope:
                return None
            env = place
    categories = problem.categories
    if size != len(categories):
        return None
    env_caps: dict[str, int] = {}
    if env is not None:
        env_caps = dict(env.per_category or {})
        if sum(env_caps.values()) != env.size or max(env_caps.values()) > 1:
            return None
    allowed = problem.allowed
    by_category = envelope if env is not None else None     # the envelope, if by category
    at: dict[str, str] = {}             # pinned card -> its place
    open_cards: list[str] = []
    in_envelope: list[str] = []
    for card, options in allowed.items():
        if len(options) == 1:
            (name,) = options
            at[card] = name
            caps[name] -= 1
            if name == by_category:
                in_envelope.append(card)
        elif options:
            open_cards.append(card)
        else:
            return None
    if caps and min(caps.values()) < 0:
        return None
    for card in in_envelope:
        category = categories[card]
        if env_caps.get(category, 0) < 1:
            return None
        env_caps[category] -= 1

    # Factors: the pinned cards give each its starting count; the rest is dealt.
    weight: Weight = 1
    factors_at: dict[str, list[tuple[frozenset[str], tuple[Weight, ...]]]] = {}
    for factor in problem.factors:
        where = factor.place
        already = 0
        live = []
        for card in factor.cards:
            pinned = at.get(card)
            if pinned is None:
                if caps[where] and where in problem.allowed[card]:
                    live.append(card)
            elif pinned == where:
                already += 1
        if live:
            weights = factor.weights[already:]
            for each in weights:
                if type(each) is not int:
                    return None
            factors_at.setdefault(where, []).append((frozenset(live), weights))
        else:
            weight *= factor.weights[already]
    if type(weight) is not int:
        return None

    def listed(total: Weight, cell: dict[tuple[str, str], Weight], deals: Deals) -> Listed:
        """The deals found, with the pinned cards' cells (each in every deal)."""
        if not total:
            return Listed(0, {}, [])
        cell.update(dict.fromkeys(at.items(), total))
        return Listed(total, cell, deals, in_envelope, categories, tuple(env_caps))

    if not open_cards:
        if not any(caps.values()) and not any(env_caps.values()):
            return listed(weight, {}, [(weight, ())])
        return Listed(0, {}, [])
    found = _by_card(problem, open_cards, caps, by_category, env_caps, weight, factors_at)
    if found is not None:
        return listed(*found)
    cell: dict[tuple[str, str], Weight] = {}

    # The bound, and the order: the places open cards may go to, fewest ways first.
    open_to: dict[str, list[str]] = {}
    for card in open_cards:
        for name in problem.allowed[card]:
            open_to.setdefault(name, []).append(card)
    ways: dict[str, int] = {}
    for name, cap in caps.items():
        if not cap:
            continue
        may = open_to.get(name, ())
        if env is not None and name == envelope:
            per_category = dict.fromkeys(env_caps, 0)
            for c in may:
                category = categories[c]
                if category in per_category:
                    per_category[category] += 1
            count = 1
            for category, n in env_caps.items():
                count *= math.comb(per_category[category], n)
        else:
            count = math.comb(len(may), cap)
        if not count:
            return Listed(0, {}, [])
        ways[name] = count
    bound = math.prod(ways.values())
    if bound > max(limit, tried):
        return None
    spent = 0
    allowance = budget if bound > limit else None
    order = sorted(ways, key=ways.__getitem__)
    step_of = {name: step for step, name in enumerate(order)}
    # Each card's last chance: the step of its last place still open.
    musts: list[list[str]] = [[] for _ in order]
    for card in open_cards:
        step = max([step_of.get(name, -1) for name in problem.allowed[card]])
        if step < 0:        # every place it may lie in is full already
            return Listed(0, {}, [])
        musts[step].append(card)

    total: Weight = 0
    deals: Deals = []
    chosen: list[tuple[str, tuple[str, ...]]] = []
    env_step = step_of.get(envelope) if env is not None and envelope is not None else None
    may_at = [frozenset(open_to[name]) for name in order]
    must_at = [frozenset(cards) for cards in musts]

    def fills(step: int, left: list[str]) -> Iterable[tuple[str, ...]]:
        may_here, must_here = may_at[step], must_at[step]
        may = [c for c in left if c in may_here]
        if step == env_step:
            # One card of each category still open there (never more: see above).
            pools = [[c for c in may if categories[c] == category]
                     for category, n in env_caps.items() if n]
            needed = must_here.intersection(may)
            if not needed:
                return itertools.product(*pools)
            return (cards for cards in itertools.product(*pools) if needed.issubset(cards))
        cap = caps[order[step]]
        if not must_here:
            return itertools.combinations(may, cap)
        must = tuple(c for c in may if c in must_here)
        if len(must) > cap:
            return ()
        rest = [c for c in may if c not in must_here]
        return (must + more for more in itertools.combinations(rest, cap - len(must)))

    final = len(order) - 1
    last_place = order[final]
    # The last place takes every card left (if it may hold them all), unless it is the
    # envelope (it takes them by category) or a factor weighs it: no enumeration.
    forced = final != env_step and last_place not in factors_at

    def deal(step: int, left: list[str], w: Weight) -> None:
        nonlocal total, spent
        if step == final and forced:
            if len(left) != caps[last_place] or not may_at[final].issuperset(left):
                return
            chosen.append((last_place, tuple(left)))
            step, left = step + 1, []
        if step == len(order):
            if not left:
                total += w
                for name, cards in chosen:
                    for c in cards:
                        key = (c, name)
                        cell[key] = cell.get(key, 0) + w
                if env is not None:
                    deals.append((w, () if env_step is None else chosen[env_step][1]))
            if forced:
                chosen.pop()
            return
        name = order[step]
        here = factors_at.get(name, ())
        for cards in fills(step, left):
            spent += 1
            if allowance is not None and spent > allowance:
                raise _OverBudget
            v = weighed(w, here, cards)
            if v:
                chosen.append((name, cards))
                deal(step + 1, [c for c in left if c not in cards], v)
                chosen.pop()

    if weight:
        try:
            deal(0, open_cards, weight)
        except _OverBudget:
            return None
    return listed(total, cell, deals)


def _by_card(problem: Problem, open_cards: list[str], caps: dict[str, int],
             envelope: str | None, env_caps: dict[str, int], weight: Weight,
             factors_at: Factors) -> tuple[Weight, dict[tuple[str, str], Weight], Deals] | None:
    """The deals' total weight, the open cards' cells and the deals, each open card put in
    turn in every place with room left (in the envelope, room in its category); None if that
    makes over :data:`FEW_WAYS` ways."""
    categories = problem.categories
    choices: list[list[str]] = []
    ways = 1
    for card in open_cards:
        here = [name for name in problem.allowed[card] if caps[name]
                and (name != envelope or env_caps.get(categories[card], 0))]
        if not here:
            return 0, {}, []
        ways *= len(here)
        if ways > FEW_WAYS:
            return None
        choices.append(here)
    room, room_by_category = caps, env_caps     # taken and given back as cards are dealt
    where = [""] * len(open_cards)
    last = len(open_cards) - 1
    total: Weight = 0
    cell: dict[tuple[str, str], Weight] = {}
    deals: Deals = []

    def deal(i: int) -> None:
        nonlocal total
        category = categories[open_cards[i]]
        for name in choices[i]:
            if not room[name] or (name == envelope and not room_by_category[category]):
                continue
            where[i] = name
            if i < last:
                room[name] -= 1
                if name == envelope:
                    room_by_category[category] -= 1
                deal(i + 1)
                room[name] += 1
                if name == envelope:
                    room_by_category[category] += 1
                continue
            placed = list(zip(open_cards, where, strict=True))
            w = weight
            for place, factors in factors_at.items():
                w = weighed(w, factors, [c for c, p in placed if p == place])
            if w:
                total += w
                for key in placed:
                    cell[key] = cell.get(key, 0) + w
                if envelope is not None:
                    deals.append((w, tuple(c for c, p in placed if p == envelope)))

    if weight:
        deal(0)
    return total, cell, deals


class _OverBudget(Exception):
    """Listing the deals took more fillings than its budget."""
