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

The envelope distribution comes from the DP that counted the table, on first use: the sweep
fills the envelope first, so its first moves times the memoised ways to complete them are the
distribution; the capacity DP makes one more forward pass over its moves, carrying which
classes filled the envelope so far. Neither counts again per envelope.

The problem lives in :mod:`.problem`, its reduction to classes in :mod:`.prepared`, the DPs in
:mod:`.sweep_dp`, :mod:`.capacity_dp` and :mod:`.place_dp` (for tests and lessons); this module
chooses between them.
"""

from __future__ import annotations

import itertools
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial

from ..rules.errors import ProblemTooLarge
from .few_deals import Listed, list_few_deals
from .prepared import Prepared, prepare
from .problem import Problem, Weight, divide, weighed
from .step_dp import CardClass


@dataclass
class Solution:
    """The exact answer. Weights are ints when every factor is 0/1, Fractions otherwise."""

    total: Weight
    cell: dict[tuple[str, str], Weight] = field(default_factory=dict)
    envelope: dict[tuple[str, ...], Weight] = field(default_factory=dict)
    engine: str = ""
    states: int = 0
    """The DP that counted, and how many states it memoised (for benchmarks)."""
    _later: Callable[[], dict[tuple[str, ...], Weight]] | None = field(
        default=None, repr=False, compare=False)
    _ready: bool = field(default=False, repr=False, compare=False)
    _classes: list[tuple[str, ...]] | Callable[[], list[tuple[str, ...]]] = field(
        default_factory=list, repr=False, compare=False)

    @property
    def classes(self) -> list[tuple[str, ...]]:
        """Cards the problem cannot tell apart, worked out on first use (the table does
        not need them)."""
        if callable(self._classes):
            self._classes = self._classes()
        return self._classes

    def probability(self, card: str, place: str) -> Fraction:
        if self.total == 0:
            raise ZeroDivisionError("no deal is consistent")
        return Fraction(self.cell.get((card, place), 0)) / self.total

    def envelope_weights(self) -> dict[tuple[str, ...], Weight] | None:
        """The weight of each envelope content, read on first use from the DP that counted
        (its memo holds every count it needs, so this costs one more pass over its moves, not
        a new count); None once the DP has been let go (:meth:`release`) before."""
        if self._later is not None:
            self.envelope = self._later()
            self._later = None
            self._ready = True
        return self.envelope if self._ready else None

    def release(self) -> None:
        """Let go of the counting DP kept for the envelope (its memo can be large)."""
        self._later = None


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
    ``envelope`` names a place with ``per_category``, the weight of each envelope content
    (now if ``want_envelope``, else on first use of :meth:`Solution.envelope_weights`).

    Two exact DPs do the counting (see the module docstring); each problem goes to the one
    whose work is bounded lower (``engine`` forces one, for tests and lessons).

    Before any counting, the states each DP may need are bounded; if both bounds exceed
    ``max_states`` (None: no limit), :class:`~cluedo_lab.rules.errors.ProblemTooLarge` says
    so, and so does an envelope distribution asked for with more possible envelopes than
    that."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")
    if engine == "auto" and (max_states is None or max_states >= LISTING_LIMIT):
        # A bound of LISTING_LIMIT deals also bounds the envelopes, within ``max_states``.
        few = list_few_deals(problem, envelope, LISTING_LIMIT, FEW_TRIED, LISTING_BUDGET)
        if few is not None:
            return _solve_few(few, problem, envelope, want_envelope)
    prep = prepare(problem, envelope)
    if prep is None:
        return Solution(0)
    if not prep.classes:
        solution = _solve_fixed(prep)
    elif engine == "auto" and (listed := _try_listing(prep)) is not None:
        solution = listed
    else:
        if max_states is not None:
            check_size(prep, max_states)
            env = prep.env_index
            if want_envelope and env is not None and prep.places[env].per_category:
                check_envelopes(prep, max_states)
        if engine == "auto":
            engine = choose_engine(prep)
        if engine == "sweep":
            solution = _solve_by_sweep(prep, marginals)
        elif engine == "listing":
            listed = _solve_by_listing(prep)
            assert listed is not None, "without a budget, listing always finishes"
            solution = listed
        elif engine == "capacity":
            solution = _solve_by_capacity(prep, marginals)
        else:
            solution = _solve_by_place(prep, marginals)
    env = prep.env_index
    if solution.total and env is not None and prep.places[env].per_category:
        later = solution._later
        if later is not None and max_states is not None:
            def checked() -> dict[tuple[str, ...], Weight]:
                check_envelopes(prep, max_states)
                return later()
            solution._later = checked
        if want_envelope:
            solution.envelope_weights()
    else:
        solution._later = None
    return solution


def _envelopes(prep: Prepared, choices: Iterable[tuple[Mapping[int, int], Weight]]
               ) -> dict[tuple[str, ...], Weight]:
    """Envelope contents from choices of how many cards of each class it holds, each with
    its weight: a choice stands for its envelopes in equal shares."""
    out: dict[tuple[str, ...], Weight] = {}
    for ks, weight in choices:
        if not weight:
            continue
        keys = prep.envelope_keys(ks)
        share = divide(weight * prep.constant, len(keys))
        for key in keys:
            out[key] = out.get(key, 0) + share
    return out


def _solve_by_place(prep: Prepared, marginals: bool) -> Solution:
    """The place DP (kept for tests and lessons: the sweep does the same, and better)."""
    dp, start, order = prep.dp, prep.start, prep.order
    solution = Solution(dp.ways(0, start) * prep.constant, engine="place",
                        _classes=_lazy_classes(prep))
    if solution.total == 0:
        return solution
    if marginals:
        _fill_cells(solution, prep, ((k, order[step], weight)
                                     for (step, k), weight in dp.class_weights(start).items()))

    def envelope() -> dict[tuple[str, ...], Weight]:
        if order and order[0] == prep.env_index:
            return _envelopes(prep, ((ks, weight * dp.ways(1, new))
                                     for new, weight, ks in prep.envelope_choices()))
        return _envelopes(prep, [({}, dp.ways(0, start))])

    solution._later = envelope
    return solution


def _solve_few(few: Listed, problem: Problem, envelope: str | None, want_envelope: bool
               ) -> Solution:
    """A problem with few deals, listed without reducing it (:mod:`.few_deals`); its
    classes are worked out by the reduction if they are asked for."""
    solution = Solution(few.total, few.cell, engine="few",
                        _classes=partial(_classes_of, problem, envelope))
    if few.total and few.has_envelope:
        solution._later = few.envelope_weights
        if want_envelope:
            solution.envelope_weights()
    return solution


def _classes_of(problem: Problem, envelope: str | None) -> list[tuple[str, ...]]:
    prep = prepare(problem, envelope)
    return [] if prep is None else _class_list(prep)


def _solve_fixed(prep: Prepared) -> Solution:
    """Every card has one place left (a record solved to the end): one deal, no DP."""
    solution = Solution(prep.constant, engine="fixed", _classes=_lazy_classes(prep))
    for card, where in prep.fixed.items():
        solution.cell[(card, prep.places[where].name)] = prep.constant
    solution._later = lambda: _envelopes(prep, [({}, 1)])
    return solution


LISTING_LIMIT = 64
"""Up to this many ways to fill the open places (bounded place by place), listing the deals
beats building a DP: records near the end of a game, with a few cards still open."""
LISTING_TRIED = 10_000
LISTING_BUDGET = 256
"""Up to a bound of :data:`LISTING_TRIED`, listing is still tried, and given up after this
many fillings: a bound multiplied over the places is loose when each card has few places
left (the DP's set-up alone costs as much as trying a few hundred)."""

FEW_TRIED = 1_000_000
"""Listing straight from the problem (:mod:`.few_deals`) is tried up to this bound, within
:data:`LISTING_BUDGET` fillings: its bound, taken before any deduction, is loose (a record
near its end with one deal left can have a bound of tens of thousands), and a failed try
costs little next to the DP that then counts."""


def _listing_bound(prep: Prepared) -> int:
    """The ways to fill each open place from the cards that may go there, multiplied over
    the places: a bound on the deals listed."""
    open_to = [0] * len(prep.places)
    by_category: list[dict[str, int]] = [{} for _ in prep.places]
    for klass in prep.classes:
        n = len(klass.members)
        for place in klass.places:
            open_to[place] += n
            if prep.cat_caps[place] is not None:
                counts = by_category[place]
                counts[klass.category] = counts.get(klass.category, 0) + n
    ways = 1
    for place in prep.order:
        per_category = prep.cat_caps[place]
        if per_category is None:
            ways *= math.comb(open_to[place], prep.caps[place])
        else:
            for category, n in per_category.items():
                ways *= math.comb(by_category[place].get(category, 0), n)
    return ways


def _try_listing(prep: Prepared) -> Solution | None:
    """The deals listed, if there are few: always within :data:`LISTING_LIMIT`, else within
    :data:`LISTING_BUDGET` fillings tried up to a bound of :data:`LISTING_TRIED` (None if
    that is not enough, or not tried)."""
    bound = _listing_bound(prep)
    if bound <= LISTING_LIMIT:
        return _solve_by_listing(prep)
    if bound <= LISTING_TRIED:
        return _solve_by_listing(prep, budget=LISTING_BUDGET)
    return None


def _solve_by_listing(prep: Prepared, envelope: bool = False, budget: int | None = None
                      ) -> Solution | None:
    """Near the end of a game a few cards are still open: list every deal of them, place by
    place, each place every set of its size among the cards left that may go there (and, if
    ``envelope``, gather the envelopes too; otherwise a second listing does on demand).
    None if more than ``budget`` fillings of a place were tried."""
    places = [i for i in prep.order if prep.caps[i] > 0]
    allowed = {card: klass.places for klass in prep.classes for card in klass.members}
    category = prep.categories
    factors_at: dict[int, list[tuple[frozenset[str], tuple[Weight, ...]]]] = defaultdict(list)
    for where, cards, weights in prep.factors:
        factors_at[where].append((cards, weights))
    # A card must go to the place where its last chance is: after that place, none is left.
    last_chance = {card: max(places.index(i) for i in where) for card, where in allowed.items()}
    env = prep.env_index
    listing = envelope and env is not None and bool(prep.places[env].per_category)
    rank = ({c: i for i, c in enumerate(prep.places[env].per_category or {})}
            if listing and env is not None else {})
    in_envelope = [c for c, w in prep.fixed.items() if w == env]
    total: Weight = 0
    cell: dict[tuple[str, str], Weight] = defaultdict(int)
    envelopes: dict[tuple[str, ...], Weight] = defaultdict(int)
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
            for where, cards in chosen:
                name = prep.places[where].name
                for c in cards:
                    cell[(c, name)] += weight
            if listing:
                inside = in_envelope + [c for where, cards in chosen if where == env
                                        for c in cards]
                envelopes[tuple(sorted(inside, key=lambda c: rank[category[c]]))] += weight
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
        deal(0, list(allowed), prep.constant)
    except _OverBudget:
        return None
    solution = Solution(total, engine="listing", _classes=_lazy_classes(prep))
    if total:
        solution.cell = dict(cell)
        for card, where_fixed in prep.fixed.items():
            solution.cell[(card, prep.places[where_fixed].name)] = total
        solution.envelope = dict(envelopes)
        solution._later = None if envelope else partial(_listed_envelopes, prep)
    return solution


class _OverBudget(Exception):
    """Listing the deals took more than its budget."""


def _listed_envelopes(prep: Prepared) -> dict[tuple[str, ...], Weight]:
    listed = _solve_by_listing(prep, envelope=True)
    assert listed is not None, "without a budget, listing always finishes"
    return listed.envelope


def check_size(prep: Prepared, limit: int) -> None:
    """Refuse, before spending memory, a problem whose every DP may need more than ``limit``
    states."""
    states = prep.sweep_dp.bounds()[0]
    if states > limit:
        states = min(states, prep.capacity_dp.bounds()[0])
    if states > limit:
        raise ProblemTooLarge("counting the deals exactly would need too many DP states",
                              states, limit, ADVICE)


def check_envelopes(prep: Prepared, limit: int) -> None:
    """Refuse an envelope distribution with more possible envelopes than ``limit``."""
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


def _solve_by_sweep(prep: Prepared, marginals: bool) -> Solution:
    dp = prep.sweep_dp
    solution = Solution(dp.ways(0, dp.start) * prep.constant, engine="sweep")
    solution.states = dp.memoised()
    if solution.total == 0:
        return solution
    solution._classes = _lazy_classes(prep)
    if marginals:
        _fill_cells(solution, prep, ((k, dp.order[step], weight)
                                     for (step, k), weight in dp.class_weights().items()))

    def envelope() -> dict[tuple[str, ...], Weight]:
        """The sweep fills the envelope first: its choices, each times the ways to complete
        (memoised by the count), are the distribution."""
        if not (dp.order and dp.order[0] == prep.env_index):
            return _envelopes(prep, [({}, dp.ways(0, dp.start))])
        # The first step's groups are the classes themselves. The count memoised every
        # state after the envelope that can be completed: any other completes in no way.
        as_class = [members[0] for members in dp.groups[0]]
        after = dp.memo(1) if dp.steps > 1 else {(0,) * len(dp.groups[1]): 1}
        return _envelopes(prep, (({as_class[g]: n for g, n in taken.items()},
                                  weight * after.get(new, 0))
                                 for new, weight, taken in dp.envelope_choices()))

    solution._later = envelope
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


def _lazy_classes(prep: Prepared) -> Callable[[], list[tuple[str, ...]]]:
    """:func:`_class_list` on first use, keeping only what it reads (not the DPs, which a
    solution lets go of)."""
    return partial(_classes, prep.classes, prep.fixed, prep.categories)


def _class_list(prep: Prepared) -> list[tuple[str, ...]]:
    """Interchangeable cards: the classes, and the fixed cards grouped by place and kind."""
    return _classes(prep.classes, prep.fixed, prep.categories)


def _classes(classes: list[CardClass], fixed: Mapping[str, int], categories: Mapping[str, str]
             ) -> list[tuple[str, ...]]:
    fixed_groups: dict[tuple[int, str], list[str]] = defaultdict(list)
    for card, where in fixed.items():
        fixed_groups[(where, categories[card])].append(card)
    return [k.members for k in classes] + [tuple(g) for g in fixed_groups.values()]


def _solve_by_capacity(prep: Prepared, marginals: bool) -> Solution:
    dp = prep.capacity_dp
    solution = Solution(dp.ways(0, dp.start) * prep.constant, engine="capacity")
    solution.states = dp.memoised()
    if solution.total == 0:
        return solution
    solution._classes = _lazy_classes(prep)
    if marginals:
        _fill_cells(solution, prep, ((k, dp.slots[slot][0], weight)
                                     for (k, slot), weight in dp.slot_weights().items()))
    solution._later = lambda: _envelopes(prep, ((dict(choice), weight) for choice, weight
                                                in dp.envelope_weights().items()))
    return solution
