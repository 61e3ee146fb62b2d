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

The problem lives in :mod:`.problem`, its reduction to classes in :mod:`.prepared`, the two DPs
in :mod:`.place_dp` and :mod:`.capacity_dp`; this module chooses between them.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction

from ..rules.errors import ProblemTooLarge
from .prepared import Prepared, prepare
from .problem import Place, Problem, Weight, divide, exact


@dataclass
class Solution:
    """The exact answer. Weights are ints when every factor is 0/1, Fractions otherwise."""

    total: Weight
    cell: dict[tuple[str, str], Weight] = field(default_factory=dict)
    envelope: dict[tuple[str, ...], Weight] = field(default_factory=dict)
    classes: list[tuple[str, ...]] = field(default_factory=list)
    engine: str = ""
    states: int = 0
    """The DP that counted, and how many states it memoised (for benchmarks)."""

    def probability(self, card: str, place: str) -> Fraction:
        if self.total == 0:
            raise ZeroDivisionError("no deal is consistent")
        return Fraction(self.cell.get((card, place), 0)) / self.total


ENGINES = ("auto", "sweep", "place", "capacity", "listing")
MAX_STATES = 2_000_000
"""The default limit on the counting DP's states, estimated before counting: a few hundred
bytes each, so about a gigabyte at the limit; the benchmark corpus needs under 20,000."""
ADVICE = ("Give a smaller deck or fewer players, add the observations that pin cards down, "
          "or raise the limit (Knowledge(record, max_states=...)) if the memory is there.")


def solve(problem: Problem, envelope: str | None = "envelope",
          want_envelope: bool = True, marginals: bool = True, engine: str = "auto",
          max_states: int | None = MAX_STATES) -> Solution:
    """Count the consistent deals, every card × place weight (``marginals``) and, if
    ``envelope`` names a place with ``per_category``, the weight of each envelope content.

    Two exact DPs do the counting (see the module docstring); each problem goes to the one
    whose work is bounded lower (``engine`` forces one, for tests and lessons).

    Before any counting, the states each DP may need are bounded; if both bounds exceed
    ``max_states`` (None: no limit), :class:`~cluedo_lab.rules.errors.ProblemTooLarge` says
    so, and so does a wanted envelope distribution with more possible envelopes than that."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")
    prep = prepare(problem, envelope)
    if prep is None:
        return Solution(0)
    if not prep.classes:
        return _solve_fixed(prep, want_envelope)
    if engine == "auto" and _few_deals(prep):
        return _solve_by_listing(prep, want_envelope)
    if max_states is not None:
        check_size(prep, max_states, want_envelope)
    if engine == "auto":
        engine = choose_engine(prep)
    if engine == "sweep":
        return _solve_by_sweep(prep, want_envelope, marginals)
    if engine == "listing":
        return _solve_by_listing(prep, want_envelope)
    if engine == "capacity":
        return _solve_by_capacity(problem, prep, envelope, want_envelope, marginals)
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
            share = divide(weight * constant, len(klass.members))
            for member in klass.members:
                cell = (member, places[order[step]].name)
                solution.cell[cell] = solution.cell.get(cell, 0) + share

    # 6. Envelope contents from the envelope's own choices.
    solution.classes = _class_list(prep)
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
                value = exact(weight * constant * share)
                solution.envelope[key] = solution.envelope.get(key, 0) + value
    return solution


def _solve_fixed(prep: Prepared, want_envelope: bool) -> Solution:
    """Every card has one place left (a record solved to the end): one deal, no DP."""
    solution = Solution(prep.constant, engine="fixed", classes=_class_list(prep))
    for card, where in prep.fixed.items():
        solution.cell[(card, prep.places[where].name)] = prep.constant
    env = prep.env_index
    if want_envelope and env is not None and prep.places[env].per_category:
        for key, share in prep.envelope_cards({}):
            solution.envelope[key] = exact(prep.constant * share)
    return solution


LISTING_LIMIT = 64
"""Up to this many ways to place the cards still open, listing them beats building a DP."""


def _few_deals(prep: Prepared) -> bool:
    ways = 1
    for klass in prep.classes:
        ways *= len(klass.places) ** len(klass.members)
        if ways > LISTING_LIMIT:
            return False
    return True


def _solve_by_listing(prep: Prepared, want_envelope: bool) -> Solution:
    """Near the end of a game a few cards are still open: try every way to place them."""
    free = [(card, klass.category, sorted(klass.places))
            for klass in prep.classes for card in klass.members]
    env = prep.env_index
    listing = want_envelope and env is not None and bool(prep.places[env].per_category)
    rank = ({c: i for i, c in enumerate(prep.places[env].per_category or {})}
            if listing and env is not None else {})
    in_envelope = [c for c, w in prep.fixed.items() if w == env]
    total: Weight = 0
    cell: dict[tuple[str, str], Weight] = defaultdict(int)
    envelope: dict[tuple[str, ...], Weight] = defaultdict(int)
    for where in itertools.product(*(places for _, _, places in free)):
        room = list(prep.caps)
        limits = [dict(c) if c is not None else None for c in prep.cat_caps]
        for (_, category, _), place in zip(free, where, strict=True):
            room[place] -= 1
            if (limit := limits[place]) is not None:
                limit[category] = limit.get(category, 0) - 1
        if any(room) or any(n for limit in limits if limit is not None
                            for n in limit.values()):
            continue
        weight: Weight = prep.constant
        for place, cards, weights in prep.factors:
            weight *= weights[sum(1 for (card, _, _), at in zip(free, where, strict=True)
                                  if at == place and card in cards)]
        if not weight:
            continue
        total += weight
        for (card, _, _), place in zip(free, where, strict=True):
            cell[(card, prep.places[place].name)] += weight
        if listing:
            chosen = in_envelope + [card for (card, _, _), at in zip(free, where, strict=True)
                                    if at == env]
            envelope[tuple(sorted(chosen, key=lambda c: rank[prep.categories[c]]))] += weight
    solution = Solution(total, engine="listing", classes=_class_list(prep))
    if total:
        solution.cell = dict(cell)
        for card, where_fixed in prep.fixed.items():
            solution.cell[(card, prep.places[where_fixed].name)] = total
        solution.envelope = dict(envelope)
    return solution


def check_size(prep: Prepared, limit: int, want_envelope: bool) -> None:
    """Refuse, before spending memory, a problem whose every DP may need more than ``limit``
    states (or, if the envelope distribution is wanted, that has more possible envelopes)."""
    states = prep.sweep_dp.bounds()[0]
    if states > limit:
        states = min(states, prep.capacity_dp.bounds()[0])
    if states > limit:
        raise ProblemTooLarge("counting the deals exactly would need too many DP states",
                              states, limit, ADVICE)
    env = prep.env_index
    if want_envelope and env is not None and prep.places[env].per_category:
        envelopes = prep.envelope_count()
        if envelopes > limit:
            raise ProblemTooLarge("too many possible envelopes to list one by one", envelopes,
                                  limit, "Ask for the card x place table instead, or raise "
                                  "the limit (Knowledge(record, max_states=...)).")


def choose_engine(prep: Prepared) -> str:
    """The DP with less work bounded: the sweep's bound counts every filling of a place it
    may try, so it loses when many cards pinned by their own observations are open to one
    place (few players); measured on the benchmark corpus, a factor of 3 splits them best."""
    work = prep.sweep_dp.bounds()[1]
    # Little work (most records seen by a player): not worth building the other DP.
    if work <= 5000 or work <= 3 * prep.capacity_dp.bounds()[1]:
        return "sweep"
    return "capacity"


def _solve_by_sweep(prep: Prepared, want_envelope: bool, marginals: bool) -> Solution:
    dp = prep.sweep_dp
    solution = Solution(dp.ways(0, dp.start) * prep.constant, engine="sweep")
    solution.states = dp.memoised()
    if solution.total == 0:
        return solution
    solution.classes = _class_list(prep)
    if marginals:
        _fill_cells(solution, prep, ((k, dp.order[step], weight)
                                     for (step, k), weight in dp.class_weights().items()))
    env = prep.env_index
    if want_envelope and env is not None and prep.places[env].per_category:
        if dp.order and dp.order[0] == env:
            # The first step's groups are the classes themselves.
            as_class = [members[0] for members in dp.groups[0]]
            choices = [({as_class[g]: n for g, n in taken.items()},
                        weight * (dp.ways(1, new) if dp.steps > 1 else int(not any(new))))
                       for new, weight, taken in dp.envelope_choices()]
        else:
            choices = [({}, dp.ways(0, dp.start))]
        for ks, weight in choices:
            if not weight:
                continue
            for key, share in prep.envelope_cards(ks):
                value = exact(weight * prep.constant * share)
                solution.envelope[key] = solution.envelope.get(key, 0) + value
    return solution


def _fill_cells(solution: Solution, prep: Prepared,
                weights: Iterable[tuple[int, int, Weight]]) -> None:
    """The card × place weights: a fixed card is where it is in every deal; a class's weight
    in a place (class index, place index, weight) is shared equally by its members."""
    for card, where in prep.fixed.items():
        solution.cell[(card, prep.places[where].name)] = solution.total
    for k, where, weight in weights:
        klass = prep.classes[k]
        share = divide(weight * prep.constant, len(klass.members))
        place = prep.places[where].name
        for member in klass.members:
            solution.cell[(member, place)] = solution.cell.get((member, place), 0) + share


def _class_list(prep: Prepared) -> list[tuple[str, ...]]:
    """Interchangeable cards: the classes, and the fixed cards grouped by place and kind."""
    fixed_groups: dict[tuple[int, str], list[str]] = defaultdict(list)
    for card, where in prep.fixed.items():
        fixed_groups[(where, prep.categories[card])].append(card)
    return [k.members for k in prep.classes] + [tuple(g) for g in fixed_groups.values()]


def _solve_by_capacity(problem: Problem, prep: Prepared, envelope: str | None,
                       want_envelope: bool, marginals: bool) -> Solution:
    dp = prep.capacity_dp
    solution = Solution(dp.ways(0, dp.start) * prep.constant, engine="capacity")
    solution.states = dp.memoised()
    if solution.total == 0:
        return solution
    solution.classes = _class_list(prep)
    if marginals:
        _fill_cells(solution, prep, ((k, dp.slots[slot][0], weight)
                                     for (k, slot), weight in dp.slot_weights().items()))
    env = next((p for p in problem.places if p.name == envelope), None)
    if want_envelope and env is not None and env.per_category:
        # The sweep fills the envelope first and so has its distribution at hand; unless its
        # work is far larger, that beats solving again once per card put in the envelope.
        if prep.sweep_dp.bounds()[1] <= 30 * prep.capacity_dp.bounds()[1]:
            solution.envelope = _solve_by_sweep(prep, True, False).envelope
        else:
            solution.envelope = _envelope_by_conditioning(problem, env, [])
    return solution


def _envelope_by_conditioning(problem: Problem, env: Place, fixed: list[str]
                              ) -> dict[tuple[str, ...], Weight]:
    """Weight of each envelope content, one category at a time: with the cards chosen so far
    put in the envelope, the next category's envelope column gives each card's weight; the
    last category's column gives the weights of whole envelopes."""
    assert env.per_category is not None, "the envelope holds cards by category"
    categories = list(env.per_category)
    if any(n != 1 for n in env.per_category.values()):
        return _envelope_by_place_dp(problem, env.name)
    category = categories[len(fixed)]
    forced = _Forced(problem, env.name, fixed).problem()
    solution = solve(forced, envelope=None, marginals=True, want_envelope=False)
    out: dict[tuple[str, ...], Weight] = {}
    for card, cat in problem.categories.items():
        if cat != category:
            continue
        weight = solution.cell.get((card, env.name), 0)
        if not weight:
            continue
        if len(fixed) + 1 == len(categories):
            out[tuple(fixed) + (card,)] = weight
        else:
            out.update(_envelope_by_conditioning(problem, env, fixed + [card]))
    return out


def _envelope_by_place_dp(problem: Problem, envelope: str) -> dict[tuple[str, ...], Weight]:
    prep = prepare(problem, envelope)
    if prep is None:
        return {}
    dp = prep.dp
    out: dict[tuple[str, ...], Weight] = {}
    choices = ([(ks, w * dp.ways(1, new)) for new, w, ks in prep.envelope_choices()]
               if prep.order and prep.order[0] == prep.env_index
               else [({}, dp.ways(0, prep.start))])
    for ks, weight in choices:
        for key, share in prep.envelope_cards(ks):
            if weight:
                out[key] = out.get(key, 0) + exact(weight * prep.constant * share)
    return out


@dataclass(frozen=True)
class _Forced:
    """The problem with some cards put in one place."""

    base: Problem
    place: str
    cards: list[str]

    def problem(self) -> Problem:
        allowed = dict(self.base.allowed)
        for card in self.cards:
            allowed[card] = frozenset({self.place}) & self.base.allowed[card]
        return Problem(self.base.categories, self.base.places, allowed, self.base.factors)
