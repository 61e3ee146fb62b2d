"""Choose the counter for a problem and turn its figures into a :class:`Solution`.

Three routes, tried in this order (the figures are from the whole-game corpus,
``benchmarks/whole_games.py``, and the seeded positions of ``benchmarks/run.py``):

1. **Listing** (:mod:`.listing`) when the open places can be filled in at most
   :data:`LISTING_LIMIT` ways, or within :data:`LISTING_BUDGET` fillings tried: a record near
   its end, or solved, has a handful of deals, and listing them costs less than setting up a
   DP (records counted in well under a millisecond, most of the corpus's records at their end).
2. **The sweep DP** (:mod:`.sweep_dp`) otherwise, when its bound on the work is small or at most
   three times the capacity DP's: the sweep forgets after each place what no later place can
   tell apart, which keeps seat records (and the corpus's worst public records, 1,612 and 2,159
   states) small.
3. **The capacity DP** (:mod:`.capacity_dp`) when the sweep's work bound is over three times
   its own: public records with few players, where many cards each pinned by their own
   observation are open to one place (the sweep's fillings explode; the capacity DP's state is
   only how full each place is: the corpus's worst such record needs 6,456 states).

``engine=`` forces one of them, for the tests that check each against brute force. The
question ranking (:mod:`.answers`) walks the sweep DP's fillings in the answerers' order.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Any, cast

from ...rules.errors import ProblemTooLarge
from ...rules.limits import BYTES_PER_STATE, MAX_COUNT_STATES, MAX_COUNT_WORK, work_per_move
from .counter import Counter
from .listing import list_deals
from .prepared import Prepared, prepare
from .problem import Problem, Weight, divide
from .step_dp import Budget, CardClass, StepDP


@dataclass
class Solution:
    """The exact answer. Weights are ints when every factor is 0/1, Fractions otherwise."""

    total: Weight
    cell: dict[tuple[str, str], Weight] = field(default_factory=dict)
    envelope: dict[tuple[str, ...], Weight] = field(default_factory=dict)
    engine: str = ""
    states: int = 0
    moves: int = 0
    work: int = 0
    """The DP that counted, how many states it memoised, the moves it tried from them while
    counting and the work the size guard counted for them (for benchmarks and the size
    guard's calibration)."""
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


ENGINES = ("auto", "sweep", "capacity", "listing")
MAX_STATES = MAX_COUNT_STATES
ADVICE = ("Give a smaller deck or fewer players, or add the observations that pin cards down; "
          "or raise the states limit (Knowledge(record, max_states=...)), or lift both limits "
          "(max_states=None) if the memory and the time are there: the work limit is the same "
          "on every machine, so a refused record is refused for everyone.")


def solve(problem: Problem, envelope: str | None = "envelope",
          want_envelope: bool = True, marginals: bool = True, engine: str = "auto",
          max_states: int | None = MAX_STATES, max_work: int | None = MAX_COUNT_WORK
          ) -> Solution:
    """Count the consistent deals, every card × place weight (``marginals``) and, if
    ``envelope`` names a place with ``per_category``, the weight of each envelope content
    (now if ``want_envelope``, else on first use of :meth:`Solution.envelope_weights`).

    The counter is chosen by the routes of the module docstring (``engine`` forces one).
    A DP counts under a budget of ``max_states`` states and ``max_work`` work (moves tried,
    weighed by DP; ``max_states`` None: no limit at all): past it,
    :class:`~cluedo_lab.rules.errors.ProblemTooLarge` says what it had spent and how to get
    under it; so does an envelope distribution asked for with more possible envelopes than
    ``max_states``, before any counting."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")
    prep = prepare(problem, envelope)
    if prep is None:
        return Solution(0)
    # A solved record (every card fixed) has one deal: listed, whatever the engine.
    counter = (list_deals(prep) if engine == "listing" or not prep.classes else
               _try_listing(prep) if engine == "auto" else None)
    budget: Budget | None = None
    if counter is None:
        forced = engine != "auto"
        if not forced:
            engine = choose_engine(prep)
        if max_states is not None:
            engine = check_size(prep, engine, max_states, switch=not forced)
            env = prep.env_index
            if want_envelope and env is not None and prep.places[env].per_category:
                check_envelopes(prep, max_states)
        counter = _dp(prep, engine)
        if isinstance(counter, StepDP):     # a forced listing has no DP to budget
            budget = _budget(prep, engine, max_states, max_work)
            counter.budget = budget
    else:
        engine = "listing"
    solution = _solution(prep, counter, engine, marginals)
    if budget is not None:
        # The envelopes are read later, maybe much later, from the states counted: the
        # budget is for the count and the table.
        cast(StepDP[Any, Any], counter).budget = None
        solution.moves = budget.moves
        solution.work = budget.work
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


def _dp(prep: Prepared, engine: str) -> Counter:
    if engine == "sweep":
        return prep.sweep_dp
    if engine == "capacity":
        return prep.capacity_dp
    assert engine == "listing", engine
    listed = list_deals(prep)
    assert listed is not None, "without a budget, listing always finishes"
    return listed


def _solution(prep: Prepared, counter: Counter, engine: str, marginals: bool) -> Solution:
    """The figures of ``counter`` for the cards of ``prep``: its constant multiplied back in,
    the fixed cards' cells, each class's weight shared by its members; the envelopes read
    from the counter on first use (:meth:`Solution.envelope_weights`)."""
    solution = Solution(counter.count() * prep.constant, engine=engine,
                        states=counter.memoised())
    if solution.total == 0:
        return solution
    solution._classes = _lazy_classes(prep)
    if marginals:
        _fill_cells(solution, prep, counter.cells())
    solution._later = lambda: _envelopes(prep, counter.envelopes())
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


LISTING_LIMIT = 64
"""Up to this many ways to fill the open places (bounded place by place), the deals are
listed: on the corpus, records near their end, counted in a fraction of a millisecond where
setting up a DP costs more than listing them."""
LISTING_TRIED = 10_000
LISTING_BUDGET = 256
"""Up to a bound of :data:`LISTING_TRIED`, listing is still tried, and given up after this
many fillings: a bound multiplied over the places is loose when each card has few places
left (the DP's set-up alone costs as much as trying a few hundred)."""


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


def _try_listing(prep: Prepared) -> Counter | None:
    """The deals listed, if there are few: always within :data:`LISTING_LIMIT`, else within
    :data:`LISTING_BUDGET` fillings tried up to a bound of :data:`LISTING_TRIED` (None if
    that is not enough, or not tried)."""
    bound = _listing_bound(prep)
    if bound <= LISTING_LIMIT:
        return list_deals(prep)
    if bound <= LISTING_TRIED:
        return list_deals(prep, budget=LISTING_BUDGET)
    return None


def state_bound(prep: Prepared, engine: str) -> int:
    """A bound, from the problem alone, on the states ``engine`` may memoise."""
    if engine == "sweep":
        return prep.sweep_dp.bounds()[0]
    if engine == "capacity":
        return prep.capacity_dp.bounds()[0]
    return math.prod(len(k.members) + 1 for k in prep.classes)


def check_size(prep: Prepared, engine: str, limit: int, switch: bool = True) -> str:
    """The DP to run: ``engine``, or (if ``switch``) the other DP when only the other's
    bound on the states is within ``limit``. The bounds are loose (on the benchmark grid the
    states memoised are up to a thousand times fewer), so a bound over the limit is no
    reason to refuse: the DP then counts under its :func:`_budget`."""
    if engine == "listing" or state_bound(prep, engine) <= limit or not switch:
        return engine
    other = "capacity" if engine == "sweep" else "sweep"
    return other if state_bound(prep, other) <= limit else engine


def _budget(prep: Prepared, engine: str, max_states: int | None, max_work: int | None
            ) -> Budget:
    """What the DP may spend: ``max_states`` states (its memory) and ``max_work`` work (its
    time, in moves weighed by :func:`~cluedo_lab.rules.limits.work_per_move`: by DP, and more
    when the weights are fractions; ``max_states`` None: no limit at all). Past either it
    stops and refuses, saying what it had spent, what that costs and how to get under it."""
    fractions = weighs_fractions(prep)
    cost = work_per_move(engine, fractions)
    if max_states is None:
        return Budget(move_cost=cost)

    def refuse(states: int, work: int) -> None:
        megabytes = states * BYTES_PER_STATE / 1e6
        most_work = "" if max_work is None else f" or {max_work:,} units of work"
        raise ProblemTooLarge(
            f"counting the deals exactly ({engine} DP) needs more than {max_states:,} states "
            f"(about {max_states * BYTES_PER_STATE / 1e6:,.0f} MB at {BYTES_PER_STATE:,} bytes "
            f"each){most_work}: it stopped after {work:,} units of work (moves tried, "
            f"{cost} a move{' as its weights are fractions' if fractions else ''}), with "
            f"{states:,} states memoised (about {megabytes:,.0f} MB); its bound "
            "before counting", state_bound(prep, engine), max_states, ADVICE)

    return Budget(max_states, max_work, refuse, move_cost=cost)


def weighs_fractions(prep: Prepared) -> bool:
    """Whether the DP adds fractions (a factor weighs some deal by a Fraction, as the
    refuter-uniform model's do), whose moves cost several times more than whole numbers'."""
    return any(isinstance(w, Fraction) for _, _, weights in prep.factors for w in weights)


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
    """The classes (:func:`_classes`) on first use, keeping only what it reads (not the DPs, which a
    solution lets go of)."""
    return partial(_classes, prep.classes, prep.fixed, prep.categories)


def _classes(classes: list[CardClass], fixed: Mapping[str, int], categories: Mapping[str, str]
             ) -> list[tuple[str, ...]]:
    fixed_groups: dict[tuple[int, str], list[str]] = defaultdict(list)
    for card, where in fixed.items():
        fixed_groups[(where, categories[card])].append(card)
    return [k.members for k in classes] + [tuple(g) for g in fixed_groups.values()]
