"""Exact counting of the deals consistent with a set of constraints.

The problem: every card lies in exactly one *place* (a hand, the envelope, a pile); each place
holds a fixed number of cards (the envelope a fixed number per category); a card may be barred
from some places; and *factors* weigh each deal by how many of a set of cards lie in one place
(``holds_one_of`` weighs 0 for none and 1 otherwise, ``not_all`` 0 for all of them, the
refuter-choice model 1/k). The answer is the total weight of all deals, the weight of those with
each card in each place, and the weight of each envelope.

Why it is fast without sampling: cards that share a category, the same allowed places and the
same factors are interchangeable, so they form a *class* and only how many of each class go to a
place matters (binomials count which ones). Every factor concerns a single place, so filling the
places one at a time evaluates each factor at once: the state between places is just how many
cards of each class are still to be placed. Early in a game a few classes cover the whole deck;
late in a game most cards are placed and drop out.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

Weight = int | Fraction


@dataclass(frozen=True)
class Place:
    """A place that holds ``size`` cards; ``per_category`` fixes how many of each category
    (the envelope), in which case ``size`` is their sum."""

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
    n = len(set(cards))
    return Factor(place, frozenset(cards), (0,) + (1,) * n)


def not_all(place: str, cards: Sequence[str]) -> Factor:
    n = len(set(cards))
    return Factor(place, frozenset(cards), (1,) * n + (0,))


def chosen_uniformly(place: str, cards: Sequence[str]) -> Factor:
    """A refuter holding k of ``cards`` shows a given one with chance 1/k."""
    n = len(set(cards))
    return Factor(place, frozenset(cards), (0,) + tuple(Fraction(1, k) for k in range(1, n + 1)))


@dataclass(frozen=True)
class Problem:
    """Cards (id → category), places, where each card may lie, and the factors."""

    categories: Mapping[str, str]
    places: tuple[Place, ...]
    allowed: Mapping[str, frozenset[str]]
    factors: tuple[Factor, ...] = ()


@dataclass
class Solution:
    """The exact answer. Weights are ints when every factor is 0/1, Fractions otherwise."""

    total: Weight
    cell: dict[tuple[str, str], Weight] = field(default_factory=dict)
    envelope: dict[tuple[str, ...], Weight] = field(default_factory=dict)
    classes: list[tuple[str, ...]] = field(default_factory=list)

    def probability(self, card: str, place: str) -> Fraction:
        if self.total == 0:
            raise ZeroDivisionError("no deal is consistent")
        return Fraction(self.cell.get((card, place), 0)) / self.total


@dataclass
class _Class:
    category: str
    members: tuple[str, ...]
    places: frozenset[int]
    factors: frozenset[int]


@dataclass
class _Prepared:
    """A problem reduced for the DP: fixed cards set aside, classes formed, places ordered."""

    places: list[Place]
    fixed: dict[str, int]
    constant: Weight
    classes: list[_Class]
    order: list[int]
    dp: _PlaceDP
    start: tuple[int, ...]
    env_index: int | None
    categories: Mapping[str, str]

    def envelope_choices(self) -> Iterator[tuple[tuple[int, ...], Weight, dict[int, int]]]:
        """(state after the envelope, weight, classes taken) for every way to fill it."""
        if self.order and self.order[0] == self.env_index:
            yield from self.dp.transitions(0, self.start)

    def envelope_cards(self, ks: Mapping[int, int]) -> list[tuple[tuple[str, ...], Fraction]]:
        """The envelopes a choice of classes stands for, each with its equal share."""
        env = self.places[self.env_index]
        rank = {c: i for i, c in enumerate(env.per_category)}
        fixed_here = [c for c, w in self.fixed.items() if w == self.env_index]
        pools = [list(itertools.combinations(self.classes[k].members, n))
                 for k, n in ks.items() if n]
        ways = math.prod(len(pool) for pool in pools)
        out = []
        for combo in itertools.product(*pools):
            chosen = fixed_here + [c for part in combo for c in part]
            key = tuple(sorted(chosen, key=lambda c: rank[self.categories[c]]))
            out.append((key, Fraction(1, ways)))
        return out


def _prepare(problem: Problem, envelope: str | None, distinguish: frozenset[str] = frozenset(),
             first: Sequence[str] = ()) -> _Prepared | None:
    """Steps 1-4 of counting; None when no deal can exist."""
    places = list(problem.places)
    index = {p.name: i for i, p in enumerate(places)}
    cards = list(problem.categories)
    _check_sizes(problem)

    # 1. Fix every card that has only one place left; recompute until nothing changes.
    caps = [p.size for p in places]
    cat_caps = [dict(p.per_category) if p.per_category else None for p in places]
    allowed = {c: {index[name] for name in problem.allowed[c]} for c in cards}
    fixed: dict[str, int] = {}
    changed = True
    while changed:
        changed = False
        for card in cards:
            if card in fixed:
                continue
            category = problem.categories[card]
            options = {i for i in allowed[card] if caps[i] > 0 and
                       (cat_caps[i] is None or cat_caps[i].get(category, 0) > 0)}
            allowed[card] = options
            if not options:
                return None
            if len(options) == 1:
                (where,) = options
                fixed[card] = where
                caps[where] -= 1
                if cat_caps[where] is not None:
                    cat_caps[where][category] -= 1
                    if cat_caps[where][category] < 0:
                        return None
                if caps[where] < 0:
                    return None
                changed = True

    # 2. Substitute fixed cards into the factors; constant factors become a multiplier.
    constant: Weight = 1
    live_factors: list[tuple[int, frozenset[str], tuple[Weight, ...]]] = []
    for factor in problem.factors:
        where = index[factor.place]
        already = sum(1 for c in factor.cards if fixed.get(c) == where)
        live = frozenset(c for c in factor.cards if c not in fixed and where in allowed[c])
        weights = factor.weights[already: already + len(live) + 1]
        if len(set(weights)) == 1:
            constant *= weights[0]
            if constant == 0:
                return None
            continue
        live_factors.append((where, live, weights))

    # 3. Interchangeable cards form classes (cards to ``distinguish`` stay on their own).
    groups: dict[tuple, list[str]] = defaultdict(list)
    for card in cards:
        if card in fixed:
            continue
        member_of = frozenset(i for i, (_, live, _) in enumerate(live_factors) if card in live)
        alone = card if card in distinguish else None
        groups[(problem.categories[card], frozenset(allowed[card]), member_of, alone)].append(
            card)
    classes = [_Class(cat, tuple(members), places_, fs)
               for (cat, places_, fs, _), members in groups.items()]

    # 4. Order places: the envelope first (its choices give the envelope distribution), then
    #    any places asked for (``first``, in order), then the rest by how many classes may go
    #    there: the last place takes what is left, with no enumeration.
    open_places = [i for i in range(len(places)) if caps[i] > 0]
    env_index = index.get(envelope) if envelope is not None else None
    leading = [index[name] for name in first if index[name] in open_places]
    rest = [i for i in open_places if i != env_index and i not in leading]
    rest.sort(key=lambda i: sum(1 for k in classes if i in k.places))
    order = ([env_index] if env_index in open_places else []) + leading + rest

    dp = _PlaceDP(classes, order, caps, cat_caps, live_factors)
    start = tuple(len(k.members) for k in classes)
    return _Prepared(places, fixed, constant, classes, order, dp, start, env_index,
                     problem.categories)


def solve(problem: Problem, envelope: str | None = "envelope",
          want_envelope: bool = True, marginals: bool = True) -> Solution:
    """Count the consistent deals, every card × place weight (``marginals``) and, if
    ``envelope`` names a place with ``per_category``, the weight of each envelope content."""
    prep = _prepare(problem, envelope)
    if prep is None:
        return Solution(0)
    dp, start, constant, places, order = prep.dp, prep.start, prep.constant, prep.places, \
        prep.order
    solution = Solution(dp.ways(0, start) * constant)
    if solution.total == 0:
        return solution

    # 5. Marginals by a forward pass over the same transitions.
    if marginals:
        for card, where in prep.fixed.items():
            solution.cell[(card, places[where].name)] = solution.total
        for (step, k), weight in dp.class_weights(start).items():
            klass = prep.classes[k]
            share = _divide(weight * constant, len(klass.members))
            for member in klass.members:
                key = (member, places[order[step]].name)
                solution.cell[key] = solution.cell.get(key, 0) + share

    # 6. Envelope contents from the envelope's own choices.
    fixed_groups: dict[tuple[int, str], list[str]] = defaultdict(list)
    for card, where in prep.fixed.items():
        fixed_groups[(where, problem.categories[card])].append(card)
    solution.classes = ([k.members for k in prep.classes]
                        + [tuple(g) for g in fixed_groups.values()])
    if want_envelope and prep.env_index is not None and places[prep.env_index].per_category:
        if order and order[0] == prep.env_index:
            choices = [(ks, weight * dp.ways(1, new)) for new, weight, ks in
                       prep.envelope_choices()]
        else:
            choices = [({}, dp.ways(0, start))]
        for ks, weight in choices:
            if not weight:
                continue
            for key, share in prep.envelope_cards(ks):
                value = _exact(weight * constant * share)
                solution.envelope[key] = solution.envelope.get(key, 0) + value
    return solution


Answer = tuple[str, str] | tuple[str] | None


def answer_distribution(problem: Problem, answerers: Sequence[str], named: Sequence[str],
                        sees_card: bool, envelope: str = "envelope"
                        ) -> dict[Answer, dict[tuple[str, ...], Weight]]:
    """The joint weight of each answer to a question and each envelope, in one pass.

    ``answerers`` are asked in order; the first holding any ``named`` card shows one, chosen
    uniformly among those held (weight 1/k). The answer is ``(player, card)`` when the asker
    sees the card, ``(player,)`` otherwise, and ``None`` when nobody can show. The named cards
    are kept out of classes so the DP knows exactly which of them each hand takes; places are
    filled in the order asked, and once someone has shown a card the rest of the deal no
    longer changes the answer, so it is counted by the plain DP.
    """
    prep = _prepare(problem, envelope, frozenset(named), first=answerers)
    if prep is None:
        return {}
    dp, places = prep.dp, prep.places
    index = {p.name: i for i, p in enumerate(places)}
    named_class = {prep.classes[k].members[0]: k for k in range(len(prep.classes))
                   if prep.classes[k].members[0] in named and len(prep.classes[k].members) == 1}
    fixed_named: dict[int, list[str]] = defaultdict(list)
    for card in named:
        if card in prep.fixed:
            fixed_named[prep.fixed[card]].append(card)
    step_of = {place: step for step, place in enumerate(prep.order)}
    memo: dict[tuple[int, int, tuple[int, ...]], dict[Answer, Weight]] = {}

    def shown(result: dict, who: str, held: list[str], weight: Weight) -> None:
        if sees_card:
            for card in held:
                result[(who, card)] = result.get((who, card), 0) + Fraction(weight, len(held))
        else:
            result[(who,)] = result.get((who,), 0) + weight

    def tracked(a: int, step: int, state: tuple[int, ...]) -> dict[Answer, Weight]:
        if a == len(answerers):
            return {None: dp.ways(step, state)}
        key = (a, step, state)
        if key in memo:
            return memo[key]
        who = answerers[a]
        place = index[who]
        result: dict[Answer, Weight] = {}
        if step_of.get(place) == step:
            for new, weight, ks in dp.transitions(step, state):
                held = fixed_named[place] + [c for c, k in named_class.items() if ks.get(k)]
                if held:
                    rest = dp.ways(step + 1, new)
                    if rest:
                        shown(result, who, held, weight * rest)
                else:
                    for answer, value in tracked(a + 1, step + 1, new).items():
                        result[answer] = result.get(answer, 0) + weight * value
        elif fixed_named[place]:
            shown(result, who, fixed_named[place], dp.ways(step, state))
        else:
            result = tracked(a + 1, step, state)
        memo[key] = result
        return result

    if prep.order and prep.order[0] == prep.env_index:
        choices = [(ks, weight, tracked(0, 1, new))
                   for new, weight, ks in prep.envelope_choices()]
    else:
        choices = [({}, 1, tracked(0, 0, prep.start))]
    joint: dict[Answer, dict[tuple[str, ...], Weight]] = defaultdict(dict)
    for ks, weight, answers in choices:
        for answer, value in answers.items():
            if not value:
                continue
            for key, share in prep.envelope_cards(ks):
                cell = _exact(weight * value * prep.constant * share)
                joint[answer][key] = joint[answer].get(key, 0) + cell
    return dict(joint)


def _exact(value: Weight) -> Weight:
    """Keep whole numbers as ints so uniform counts stay integers."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def _check_sizes(problem: Problem) -> None:
    if sum(p.size for p in problem.places) != len(problem.categories):
        raise ValueError(f"places hold {sum(p.size for p in problem.places)} cards, "
                         f"the deck has {len(problem.categories)}")
    for place in problem.places:
        if place.per_category and sum(place.per_category.values()) != place.size:
            raise ValueError(f"{place.name}: per-category counts do not add up to its size")


class _PlaceDP:
    """Fill the places in ``order``; the state is how many cards of each class remain."""

    def __init__(self, classes: list[_Class], order: list[int], caps: list[int],
                 cat_caps: list[dict[str, int] | None],
                 factors: list[tuple[int, frozenset[str], tuple[Weight, ...]]]):
        self.classes = classes
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
        self._ways: list[dict[tuple[int, ...], Weight]] = [{} for _ in order]
        self._moves: list[dict[tuple[int, ...], list]] = [{} for _ in order]
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
                if cat_caps[place] is None:
                    fill.append((caps[place], frozenset(self.eligible[j])))
                else:
                    fill += [(n, frozenset(k for k in self.eligible[j]
                                           if classes[k].category == cat))
                             for cat, n in cat_caps[place].items() if n]
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

    def transitions(self, step: int, state: tuple[int, ...]) -> list:
        """The ways to fill the place at ``step`` from ``state``: (next state, weight, counts
        taken per class), only those the later places can still complete."""
        cached = self._moves[step].get(state)
        if cached is not None:
            return cached
        moves = []
        factors = self.local_factors[step]
        comb = math.comb
        # Look-ahead: how many cards each later requirement can still draw on from this
        # state; a candidate only subtracts what it takes from the requirements it touches.
        supply = [sum(state[k] for k in members) - need
                  for need, members in self.later_limits[step]]
        touches = self.touches[step]
        for ks in self._choices(step, state):
            spare = {}
            for k, n in ks.items():
                for i in touches[k]:
                    spare[i] = spare.get(i, supply[i]) - n
            if any(left < 0 for left in spare.values()):
                continue
            weight: Weight = 1
            for weights, members in factors:
                weight *= weights[sum(ks.get(k, 0) for k in members)]
                if not weight:
                    break
            if not weight:
                continue
            new = list(state)
            for k, n in ks.items():
                weight *= comb(state[k], n)
                new[k] -= n
            moves.append((tuple(new), weight, ks))
        self._moves[step][state] = moves
        return moves

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
        if self.cat_caps[place] is None:
            need = self.caps[place] - sum(lower.values())
            if need < 0:
                return
            if all(spare[k] == 1 for k in free):
                # Only single cards to choose from: plain combinations, at C speed.
                for combo in itertools.combinations(free, need):
                    taken = dict(lower)
                    for k in combo:
                        taken[k] = taken.get(k, 0) + 1
                    yield taken
            else:
                for extra in _compositions(need, free, spare):
                    yield _combine(lower, extra)
            return
        per_category = []
        for category, cap in self.cat_caps[place].items():
            if cap == 0:
                continue
            in_cat = [k for k in free if self.classes[k].category == category]
            need = cap - sum(n for k, n in lower.items() if self.classes[k].category == category)
            per_category.append(list(_compositions(need, in_cat, spare)) if need >= 0 else [])
        for parts in itertools.product(*per_category):
            merged = dict(lower)
            for part in parts:
                merged = _combine(merged, part)
            yield merged

    def ways(self, step: int, state: tuple[int, ...]) -> Weight:
        """Weight of all ways to fill the places from ``step`` on, starting from ``state``."""
        if step == len(self.order):
            return 1 if not any(state) else 0
        memo = self._ways[step]
        if state in memo:
            return memo[state]
        total: Weight = 0
        for new, weight, _ in self.transitions(step, state):
            rest = self.ways(step + 1, new)
            if rest:
                total += weight * rest
        memo[state] = total
        return total

    def class_weights(self, start: tuple[int, ...]) -> dict[tuple[int, int], Weight]:
        """Σ over deals of (cards of class k at step s): forward weights × backward ways."""
        result: dict[tuple[int, int], Weight] = defaultdict(int)
        layer: dict[tuple[int, ...], Weight] = {start: 1}
        for step in range(len(self.order)):
            following: dict[tuple[int, ...], Weight] = defaultdict(int)
            for state, forward in layer.items():
                for new, weight, ks in self.transitions(step, state):
                    rest = self.ways(step + 1, new)
                    if not rest:
                        continue
                    flow = forward * weight
                    following[new] += flow
                    through = flow * rest
                    for k, n in ks.items():
                        if n:
                            result[(step, k)] += through * n
            layer = following
        return result


def _divide(weight: Weight, n: int) -> Weight:
    """Exact division that stays an int when it can (uniform counts are whole numbers)."""
    quotient = Fraction(weight) / n
    return int(quotient) if quotient.denominator == 1 else quotient


def _combine(base: dict[int, int], extra: dict[int, int]) -> dict[int, int]:
    merged = dict(base)
    for k, n in extra.items():
        merged[k] = merged.get(k, 0) + n
    return merged


def _compositions(total: int, classes: list[int], state: Mapping[int, int] | Sequence[int]
                  ) -> Iterator[dict[int, int]]:
    """Every way to take ``total`` cards from the classes, at most ``state[k]`` from class k."""
    if total == 0:
        yield {}
        return
    if not classes:
        return
    first, rest = classes[0], classes[1:]
    room_after = sum(state[k] for k in rest)
    for n in range(max(0, total - room_after), min(total, state[first]) + 1):
        for tail in _compositions(total - n, rest, state):
            if n:
                yield {first: n, **tail}
            else:
                yield tail
