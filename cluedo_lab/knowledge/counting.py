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
import operator
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

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
    caps: list[int]
    cat_caps: list[dict[str, int] | None]
    factors: list[tuple[int, frozenset[str], tuple[Weight, ...]]]
    start: tuple[int, ...]
    env_index: int | None
    categories: Mapping[str, str]

    @cached_property
    def dp(self) -> _PlaceDP:
        return _PlaceDP(self.classes, self.order, self.caps, self.cat_caps, self.factors)

    @cached_property
    def capacity_dp(self) -> _CapacityDP:
        return _CapacityDP(self.classes, self.caps, self.cat_caps, self.factors)

    def place_dp_states(self) -> int:
        """A bound on the place DP's states: every mix of cards left per class."""
        return math.prod(len(k.members) + 1 for k in self.classes)

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

    start = tuple(len(k.members) for k in classes)
    return _Prepared(places, fixed, constant, classes, order, caps, cat_caps, live_factors,
                     start, env_index, problem.categories)


ENGINES = ("auto", "place", "capacity")


def solve(problem: Problem, envelope: str | None = "envelope",
          want_envelope: bool = True, marginals: bool = True, engine: str = "auto"
          ) -> Solution:
    """Count the consistent deals, every card × place weight (``marginals``) and, if
    ``envelope`` names a place with ``per_category``, the weight of each envelope content.

    Two exact DPs do the counting (see the module docstring); each problem goes to the one
    whose number of states is bounded lower (``engine`` forces one, for tests and lessons)."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; expected one of {ENGINES}")
    prep = _prepare(problem, envelope)
    if prep is None:
        return Solution(0)
    # Measured on simulated games: the capacity DP wins unless its bound is far larger.
    if engine == "capacity" or engine == "auto" and (
            prep.capacity_dp.max_open() < 8 * prep.place_dp_states()):
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
            share = _divide(weight * constant, len(klass.members))
            for member in klass.members:
                key = (member, places[order[step]].name)
                solution.cell[key] = solution.cell.get(key, 0) + share

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
                value = _exact(weight * constant * share)
                solution.envelope[key] = solution.envelope.get(key, 0) + value
    return solution


def _class_list(prep: _Prepared) -> list[tuple[str, ...]]:
    """Interchangeable cards: the classes, and the fixed cards grouped by place and kind."""
    fixed_groups: dict[tuple[int, str], list[str]] = defaultdict(list)
    for card, where in prep.fixed.items():
        fixed_groups[(where, prep.categories[card])].append(card)
    return [k.members for k in prep.classes] + [tuple(g) for g in fixed_groups.values()]


def _solve_by_capacity(problem: Problem, prep: _Prepared, envelope: str | None,
                       want_envelope: bool, marginals: bool) -> Solution:
    dp = prep.capacity_dp
    solution = Solution(dp.ways(0, dp.start) * prep.constant)
    if solution.total == 0:
        return solution
    solution.classes = _class_list(prep)
    if marginals:
        for card, where in prep.fixed.items():
            solution.cell[(card, prep.places[where].name)] = solution.total
        for (k, slot), weight in dp.slot_weights().items():
            klass = prep.classes[k]
            share = _divide(weight * prep.constant, len(klass.members))
            place = prep.places[dp.slots[slot][0]].name
            for member in klass.members:
                solution.cell[(member, place)] = solution.cell.get((member, place), 0) + share
    env = next((p for p in problem.places if p.name == envelope), None)
    if want_envelope and env is not None and env.per_category:
        solution.envelope = _envelope_by_conditioning(problem, env, [])
    return solution


def _envelope_by_conditioning(problem: Problem, env: Place, fixed: list[str]
                              ) -> dict[tuple[str, ...], Weight]:
    """Weight of each envelope content, one category at a time: with the cards chosen so far
    put in the envelope, the next category's envelope column gives each card's weight; the
    last category's column gives the weights of whole envelopes."""
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
    prep = _prepare(problem, envelope)
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
                out[key] = out.get(key, 0) + _exact(weight * prep.constant * share)
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


Answer = tuple[str, str] | tuple[str] | tuple | None


class AnswerCounter:
    """The joint weight of each answer to a question and each envelope, for many questions.

    ``answerers`` are asked in order; the first holding any named card shows one, chosen
    uniformly among those held (weight 1/k). The answer is ``(player, card)`` when the asker
    sees the card, ``(player,)`` otherwise, and ``None`` when nobody can show.

    Why one counter serves every question: the DP fills the envelope, then the answerers in
    the order asked, keeping only how many cards of each class are left. A named card is one
    member of its class, and the members of a class are interchangeable, so given the counts
    it is equally likely to be any of them: if ``r`` of a class are left and a hand takes
    ``t``, a given ``j`` of the ``m`` named ones go there (and the others not) with chance
    C(r-m, t-j) / C(r, t). The DP's moves do not depend on the question and are computed once;
    each question only walks them with these chances. Once someone has shown a card the rest
    of the deal no longer changes the answer, so it is counted by the plain DP.

    Under that rule a question has few answers, so the walk keeps them as fields of one packed
    integer, and it depends only on the named cards still free and those known to be in an
    answerer's hand: questions alike in these share one walk (:meth:`walker`).

    With ``every=True`` (the variant where every player who can shows a card) the walk goes on
    past each shower, with the cards they took no longer free, and an answer is the tuple of
    every ``(player, card)`` (or ``(player,)``) shown, in asking order; ``()`` when nobody can.
    """

    def __init__(self, problem: Problem, answerers: Sequence[str],
                 envelope: str = "envelope", every: bool = False):
        self.answerers = tuple(answerers)
        self.every = every
        # Whole numbers throughout: each factor's weights are scaled to integers. Every deal
        # meets every factor once, so all weights grow by one constant, ``unit``, which the
        # denominator of :meth:`scaled` divides out again.
        factors, self.unit = _whole_factors(problem.factors)
        problem = Problem(problem.categories, problem.places, problem.allowed, factors)
        self.prep = _prepare(problem, envelope, frozenset(), first=answerers)
        if self.prep is not None:
            prep = self.prep
            self.index = {p.name: i for i, p in enumerate(prep.places)}
            self.class_of = {card: k for k, klass in enumerate(prep.classes)
                             for card in klass.members}
            self.step_of = {place: step for step, place in enumerate(prep.order)}
            self.envelope_moves = (
                [(ks, weight, new) for new, weight, ks in prep.envelope_choices()]
                if prep.order and prep.order[0] == prep.env_index else None)
            # States get small numbers: the walks key their memos by them.
            self._ids: dict[tuple[int, ...], int] = {}
            self.states: list[tuple[int, ...]] = []
            self._live: dict[int, list] = {}
            self._walkers: dict[tuple, _Question] = {}
            choices = ([(ks, weight, 1, new) for ks, weight, new in self.envelope_moves]
                       if self.envelope_moves is not None else [({}, 1, 0, prep.start)])
            # Each envelope choice stands for ``ways`` envelopes with equal shares: count
            # every cell times ``common`` (a multiple of every ``ways``) to stay in whole
            # numbers.
            self.starts = [(weight, step, self.state_id(new),
                            [key for key, _ in prep.envelope_cards(ks)])
                           for ks, weight, step, new in choices]
            self.common = math.lcm(*(len(keys) for *_, keys in self.starts))

    def state_id(self, state: tuple[int, ...]) -> int:
        found = self._ids.get(state)
        if found is None:
            found = self._ids[state] = len(self.states)
            self.states.append(state)
        return found

    def live_moves(self, step: int, sid: int) -> list[tuple[int, int, int, tuple[int, ...]]]:
        """The moves from state ``sid`` that some deal completes, as (next state's number,
        weight, weight of every deal through the move, cards taken per class). They do not
        depend on the question, so they are computed once and shared by every question."""
        found = self._live.get(sid)
        if found is None:
            dp = self.prep.dp
            state = self.states[sid]
            found = []
            for new, weight, _ in dp.transitions(step, state):
                rest = dp.ways(step + 1, new)
                if rest:
                    taken = tuple([was - now for was, now in zip(state, new, strict=True)])
                    found.append((self.state_id(new), weight, weight * rest, taken))
            self._live[sid] = found
        return found

    def distribution(self, named: Sequence[str], sees_card: bool
                     ) -> dict[Answer, dict[tuple[str, ...], Weight]]:
        """{answer: {envelope: weight}}, weights on the scale of the deal count."""
        joint, denominator = self.scaled(named, sees_card)
        return {answer: {key: _exact(Fraction(value, denominator))
                         for key, value in row.items()}
                for answer, row in joint.items()}

    def scaled(self, named: Sequence[str], sees_card: bool
               ) -> tuple[dict[Answer, dict[tuple[str, ...], int]], int]:
        """As :meth:`distribution`, every weight a whole number times the denominator
        returned second (Fractions in the inner loop would be ten times slower)."""
        prep = self.prep
        if prep is None:
            return {}, 1
        question = _Question(self, named, sees_card)
        # Under the first-who-can rule the answers depend only on the named cards still free
        # and those known to be in an answerer's hand (a card in your own hand or in the
        # envelope plays no part): the walk is shared by every question alike in these.
        held = tuple(card for who in self.answerers
                     for card in question.fixed_named.get(self.index[who], ()))
        common = self.common
        joint: dict[Answer, dict[tuple[str, ...], int]] = defaultdict(dict)
        for weight, step, new, keys in self.starts:
            multiplier = weight * prep.constant * (common // len(keys))
            for key in keys:
                inside = set(key)
                free = tuple(c for c in question.loose if c not in inside)
                if self.every:
                    answers = question.every_walk(free, 0, step, new)
                else:
                    free = tuple(sorted(free))
                    walker = self.walker(free + held, sees_card, question.scale)
                    answers = walker.answers(free, step, new)
                for answer, value in answers.items():
                    if value:
                        row = joint[answer]
                        row[key] = row.get(key, 0) + multiplier * value
        return dict(joint), question.scale * common * self.unit

    def walker(self, cards: tuple[str, ...], sees_card: bool, scale: int) -> _Question:
        """The walk shared by the questions whose named cards that matter are ``cards``."""
        key = (tuple(sorted(cards)), sees_card, scale)
        found = self._walkers.get(key)
        if found is None:
            found = self._walkers[key] = _Question(self, key[0], sees_card, scale)
        return found


class _Question:
    """One question's walk over an :class:`AnswerCounter`'s moves: the answers from each
    state on, memoised, given which named cards are still free (not yet in a hand or the
    envelope). Weights are whole numbers times ``scale``, so that splitting a shown card's
    weight among the k cards held stays exact."""

    def __init__(self, counter: AnswerCounter, named: Sequence[str], sees_card: bool,
                 scale: int | None = None):
        prep = counter.prep
        self.counter = counter
        self.dp = prep.dp
        self.sees_card = sees_card
        self.fixed_named: dict[int, list[str]] = defaultdict(list)
        for card in named:
            if card in prep.fixed:
                self.fixed_named[prep.fixed[card]].append(card)
        self.loose = [c for c in named if c not in prep.fixed]
        self.by_class: dict[int, list[str]] = defaultdict(list)
        for card in self.loose:
            self.by_class[counter.class_of[card]].append(card)
        classes = self.named_classes = tuple(self.by_class)
        # How many cards of each named class a state holds or a move takes (one number for
        # one class, as the fast itemgetter gives it).
        if classes:
            self.pick = operator.itemgetter(*classes)
        else:
            def pick(counts: tuple[int, ...]) -> tuple[int, ...]:
                return ()
            self.pick = pick
        # With every shower answering, the k's along one answer add up to at most
        # len(named), so their product divides len(named)!.
        self.scale = scale or (math.factorial(len(named)) if counter.every
                               else math.lcm(*range(1, len(named) + 1)))
        self.memo: dict[tuple[str, ...], list[dict[int, Any]]] = {}
        self.outcomes: dict[tuple, dict[tuple[int, ...], tuple[int, int, int]]] = {}
        self.unpacked: dict[tuple, dict[Answer, int]] = {}
        self.split_memo: dict[tuple, tuple[list[tuple[list[str], int]], int]] = {}
        # First-who-can answers are few: each is a field of one packed integer, wide enough
        # for the whole count, so adding up answers over moves is one integer operation.
        answers: list[Answer] = [None]
        for who in counter.answerers:
            answers += [(who, card) for card in named] if sees_card else [(who,)]
        width = (self.scale * self.dp.ways(0, prep.start)).bit_length() + 1
        self.shift = {answer: i * width for i, answer in enumerate(answers)}
        self.mask = (1 << width) - 1

    def splits(self, free: tuple[str, ...], left: tuple[int, ...] | int,
               taken: tuple[int, ...] | int) -> tuple[list[tuple[list[str], int]], int]:
        """Each set of the free named cards a hand may take (``taken`` of the ``left``
        cards of each named card's class), with its chance as a numerator over one common
        denominator (returned second)."""
        if not isinstance(left, tuple):
            left, taken = (left,), (taken,)
        key = (free, left, taken)
        found = self.split_memo.get(key)
        if found is None:
            parts = []
            for k, r, t in zip(self.named_classes, left, taken, strict=True):
                cards = [c for c in self.by_class[k] if c in free]
                m = len(cards)
                parts.append([(list(chosen), math.comb(r - m, t - j))
                              for j in range(min(m, t) + 1) if math.comb(r - m, t - j)
                              for chosen in itertools.combinations(cards, j)])
            options = [([c for cards, _ in combo for c in cards], math.prod(n for _, n in combo))
                       for combo in itertools.product(*parts)]
            denominator = math.prod(math.comb(r, t) for r, t in zip(left, taken, strict=True))
            found = self.split_memo[key] = (options, denominator)
        return found

    def unit(self, who: str, held: list[str]) -> int:
        """The packed answers of one deal in which ``who`` shows one of ``held``, each
        with an equal share."""
        if not self.sees_card:
            return self.scale << self.shift[(who,)]
        share = self.scale // len(held)
        return sum(share << self.shift[(who, card)] for card in held)

    def outcome(self, free: tuple[str, ...], a: int, left: tuple[int, ...] | int,
                taken: tuple[int, ...] | int) -> tuple[int, int, int]:
        """Answerer ``a`` takes ``taken`` of the ``left`` cards of each named class: the
        chances (numerators over the denominator returned first) that they show, as packed
        answers per deal, and that they pass."""
        who = self.counter.answerers[a]
        here = self.fixed_named[self.counter.index[who]]
        options, denominator = self.splits(free, left, taken)
        shows = passes = 0
        for cards, numerator in options:
            if here or cards:
                shows += numerator * self.unit(who, here + cards)
            else:
                passes += numerator
        return denominator, shows, passes

    def unpack(self, packed: int) -> dict[Answer, int]:
        return {answer: (packed >> shift) & self.mask for answer, shift in self.shift.items()}

    def answers(self, free: tuple[str, ...], step: int, sid: int) -> dict[Answer, int]:
        """The first-who-can answers with any weight from state ``sid``, unpacked once for
        every question that shares this walk."""
        key = (free, sid)
        found = self.unpacked.get(key)
        if found is None:
            packed = self.first_walk(free, 0, step, sid)
            found = self.unpacked[key] = {answer: value for answer, value
                                          in self.unpack(packed).items() if value}
        return found

    def memos(self, free: tuple[str, ...]) -> list[dict[int, Any]]:
        """One memo per answerer (and one for after the last), for these free cards."""
        found = self.memo.get(free)
        if found is None:
            found = self.memo[free] = [{} for _ in range(len(self.counter.answerers) + 1)]
        return found

    def first_walk(self, free: tuple[str, ...], a: int, step: int, sid: int) -> int:
        """Answers from answerer ``a`` on, packed, where everyone before ``a`` passed, from
        state number ``sid``."""
        memos = self.memos(free)
        memo = memos[a]
        found = memo.get(sid)
        if found is not None:
            return found
        counter = self.counter
        state = counter.states[sid]
        if a == len(counter.answerers):
            total = memo[sid] = self.dp.ways(step, state) * self.scale
            return total
        who = counter.answerers[a]
        here = self.fixed_named[counter.index[who]]
        if counter.step_of.get(counter.index[who]) != step:
            # This answerer's hand is already known: they show or pass for certain.
            total = memo[sid] = (self.dp.ways(step, state) * self.unit(who, here) if here
                                 else self.first_walk(free, a + 1, step, sid))
            return total
        # Each move's chances depend only on how many of each named class it takes.
        pick = self.pick
        left = pick(state)
        chances = self.outcomes.get((free, a, left))
        if chances is None:
            chances = self.outcomes[(free, a, left)] = {}
        later_memo = memos[a + 1]
        # After the last answerer passes, nobody shows: the deals count in the first field.
        last = a + 1 == len(counter.answerers)
        scale = self.scale
        total = 0
        for new, weight, through, taken_all in counter.live_moves(step, sid):
            taken_named = pick(taken_all)
            chance = chances.get(taken_named)
            if chance is None:
                chance = chances[taken_named] = self.outcome(free, a, left, taken_named)
            denominator, shows, passes = chance
            # A move's weight counts the ways to pick the named classes' cards, so it is a
            # multiple of the denominator.
            if shows:
                total += through // denominator * shows
            if passes and last:
                total += through // denominator * passes * scale
            elif passes:
                later = later_memo.get(new)
                if later is None:
                    later = self.first_walk(free, a + 1, step + 1, new)
                total += weight // denominator * passes * later
        memo[sid] = total
        return total

    def every_walk(self, free: tuple[str, ...], a: int, step: int, sid: int
                   ) -> dict[Answer, int]:
        """Every-who-can answers from answerer ``a`` on, given the ``free`` named cards."""
        counter = self.counter
        state = counter.states[sid]
        if a == len(counter.answerers):
            return {(): self.dp.ways(step, state) * self.scale}
        memo = self.memos(free)[a]
        found = memo.get(sid)
        if found is not None:
            return found
        who = counter.answerers[a]
        place = counter.index[who]
        here = self.fixed_named[place]
        result: dict[Answer, int] = {}
        if counter.step_of.get(place) != step:
            later = self.every_walk(free, a + 1, step, sid)
            result = memo[sid] = self.then(who, here, 1, later) if here else later
            return result
        left = self.pick(state)
        for new, weight, _, taken_all in counter.live_moves(step, sid):
            options, denominator = self.splits(free, left, self.pick(taken_all))
            for taken, numerator in options:
                rest = tuple(c for c in free if c not in taken) if taken else free
                later = self.every_walk(rest, a + 1, step + 1, new)
                part = weight // denominator * numerator
                if here or taken:
                    later = self.then(who, here + taken, part, later)
                    part = 1
                for answer, value in later.items():
                    result[answer] = result.get(answer, 0) + part * value
        memo[sid] = result
        return result

    def then(self, who: str, held: list[str], weight: int, later: Mapping[Answer, int]
             ) -> dict[Answer, int]:
        """``who`` shows (one of) ``held``, then the ``later`` answers follow. Each later
        weight already carries ``scale``, and the k's along an answer divide it, so the
        division by len(held) is exact."""
        result: dict[Answer, int] = {}
        for suffix, value in later.items():
            if not value:
                continue
            if not self.sees_card:
                result[((who,), *suffix)] = weight * value
                continue
            for card in held:
                result[((who, card), *suffix)] = weight * value // len(held)
        return result


def _whole_factors(factors: Sequence[Factor]) -> tuple[tuple[Factor, ...], int]:
    """The factors with their weights scaled to whole numbers, and the product of the
    scales (by which every deal's weight grows)."""
    out = []
    unit = 1
    for factor in factors:
        lcm = math.lcm(*(Fraction(w).denominator for w in factor.weights))
        if lcm > 1:
            factor = Factor(factor.place, factor.cards,
                            tuple(int(w * lcm) for w in factor.weights), factor.label)
        out.append(factor)
        unit *= lcm
    return tuple(out), unit


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


class _StepDP:
    """A chain of steps with memoised totals: subclasses say what each step may do
    (``transitions``) and which final states count (``finished``)."""

    _ways: list[dict]
    steps: int

    def transitions(self, step: int, state) -> list:
        raise NotImplementedError

    def finished(self, state) -> bool:
        raise NotImplementedError

    def ways(self, step: int, state) -> Weight:
        """Weight of all ways to complete the chain from ``state`` before ``step``."""
        if step == self.steps:
            return 1 if self.finished(state) else 0
        memo = self._ways[step]
        found = memo.get(state)
        if found is not None:
            return found
        total: Weight = 0
        if step + 1 == self.steps:
            finished = self.finished
            for new, weight, _ in self.transitions(step, state):
                if finished(new):
                    total += weight
        else:
            following = self._ways[step + 1]
            for new, weight, _ in self.transitions(step, state):
                rest = following.get(new)
                if rest is None:
                    rest = self.ways(step + 1, new)
                if rest:
                    total += weight * rest
        memo[state] = total
        return total

    def flows(self, start) -> Iterator[tuple[int, Weight, Any]]:
        """(step, weight of all deals through this move, move) for every live move: the
        forward weight of its state × its own weight × the ways to complete after it."""
        self.ways(0, start)
        layer = {start: 1}
        for step in range(self.steps):
            following: dict = defaultdict(int)
            # Every state a move reaches has its ways memoised by now (ways(0, start) asked
            # for all of them); after the last step only finished states count.
            rest_of = (self._ways[step + 1].get if step + 1 < self.steps else
                       lambda new: 1 if self.finished(new) else 0)
            for state, forward in layer.items():
                for new, weight, move in self.transitions(step, state):
                    rest = rest_of(new)
                    if not rest:
                        continue
                    flow = forward * weight
                    following[new] += flow
                    yield step, flow * rest, move
            layer = following


class _PlaceDP(_StepDP):
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
        self.steps = len(order)
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
                classes = [k for k in self.eligible[step] if state[k]]
                yield from _compositions(self.caps[place], classes, state,
                                         [lower.get(k, 0) for k in classes])
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


def _divide(weight: Weight, n: int) -> Weight:
    """Exact division that stays an int when it can (uniform counts are whole numbers)."""
    quotient = Fraction(weight) / n
    return int(quotient) if quotient.denominator == 1 else quotient


class _CapacityDP(_StepDP):
    """Place the classes one at a time; the state is the room left in every place (the
    envelope one slot per category) plus the count of each observation still open.

    Where many cards are each pinned by their own observation (public records, long games),
    the place DP must remember which of them are left: up to 2^cards states. This DP only
    remembers how full each place is, at most the product of (size + 1), and an observation
    is open only between its first and last class, so classes are ordered to close them soon.
    """

    def __init__(self, classes: list[_Class], caps: list[int],
                 cat_caps: list[dict[str, int] | None],
                 factors: list[tuple[int, frozenset[str], tuple[Weight, ...]]]):
        self.classes = classes
        slots: list[tuple[int, str | None]] = []
        for place, cap in enumerate(caps):
            if cap <= 0:
                continue
            if cat_caps[place] is None:
                slots.append((place, None))
            else:
                slots += [(place, cat) for cat, n in cat_caps[place].items() if n > 0]
        self.slots = slots
        slot_of = {slot: i for i, slot in enumerate(slots)}
        self.start_caps = tuple(caps[p] if cat is None else cat_caps[p][cat]
                                for p, cat in slots)
        self.allowed = [[slot_of[(p, None if cat_caps[p] is None else k.category)]
                         for p in sorted(k.places)
                         if (p, None if cat_caps[p] is None else k.category) in slot_of]
                        for k in classes]
        # Each factor: which slots count for it, its weights, and where counting stops
        # changing the weight (at-least-one needs only "none" or "some").
        self.not_allowed = [[i for i in range(len(slots)) if i not in allowed]
                            for allowed in self.allowed]
        self.factor_slots = [frozenset(i for i, (p, _) in enumerate(slots) if p == where)
                             for where, _, _ in factors]
        self.weights = [weights for _, _, weights in factors]
        self.count_cap = [next(c for c in range(len(w)) if len(set(w[c:])) == 1)
                          for w in self.weights]
        self.order = self._order(factors)
        members_of = [[k for k in self.order if f in classes[k].factors]
                      for f in range(len(factors))]
        self.closes = {k: [] for k in self.order}
        for f, ks in enumerate(members_of):
            if ks:
                self.closes[ks[-1]].append(f)
        self.factors_of = {k: [f for f in range(len(factors)) if f in classes[k].factors]
                           for k in self.order}
        self.counted = {k: [(f, self.factor_slots[f], self.count_cap[f]) for f in fs]
                        for k, fs in self.factors_of.items()}
        # Look-ahead: an "at least one" observation still waiting for a card after a step
        # needs room left in its place, or no deal completes.
        last_of = {f: self.order.index(ks[-1]) for f, ks in enumerate(members_of) if ks}
        self.needs_after = [[(f, self.factor_slots[f]) for f, last in last_of.items()
                             if self.weights[f][0] == 0 and last > j]
                            for j in range(len(self.order))]
        # Look-ahead: how many cards the classes after each step can still bring to a slot.
        self.supply_after = []
        for j in range(len(self.order)):
            supply = [0] * len(slots)
            for k in self.order[j + 1:]:
                for i in self.allowed[k]:
                    supply[i] += len(classes[k].members)
            self.supply_after.append(supply)
        self.steps = len(self.order)
        self._ways: list[dict] = [{} for _ in self.order]
        self._moves: list[dict] = [{} for _ in self.order]
        self.start = (self.start_caps, (0,) * len(factors))
        # Interchangeable slots: the same size, open to the same classes, in no observation
        # (two players nobody has learned anything about). Swapping them maps deals to deals,
        # so a state counts the same with their room left in either order: keep one order.
        groups: dict[tuple, list[int]] = defaultdict(list)
        for i in range(len(slots)):
            if any(i in fs for fs in self.factor_slots):
                continue
            groups[(self.start_caps[i],
                    tuple(i in allowed for allowed in self.allowed))].append(i)
        self.symmetric = [g for g in groups.values() if len(g) > 1]

    def _order(self, factors) -> list[int]:
        """Classes with observations first, greedily closing observations as soon as
        possible; then the rest, smallest first (the last, largest classes are then left to
        fill what room remains, with fewer ways to split)."""
        special = [k for k, c in enumerate(self.classes) if c.factors]
        rest = sorted((k for k, c in enumerate(self.classes) if not c.factors),
                      key=lambda k: len(self.classes[k].members))
        remaining_members = {f: sum(1 for k in special if f in self.classes[k].factors)
                             for f in range(len(factors))}
        opened: set[int] = set()
        order = []
        todo = set(special)
        while todo:
            def cost(k: int) -> tuple[int, int, int]:
                fs = self.classes[k].factors
                new = sum(1 for f in fs if f not in opened)
                closing = sum(1 for f in fs if remaining_members[f] == 1)
                return (new - closing, -closing, k)
            k = min(todo, key=cost)
            todo.remove(k)
            order.append(k)
            for f in self.classes[k].factors:
                opened.add(f)
                remaining_members[f] -= 1
        return order + rest

    def max_open(self) -> int:
        """A bound on the states: room left per slot × counts of observations open at once."""
        open_now: set[int] = set()
        worst = 1
        for k in self.order:
            open_now |= set(self.factors_of[k])
            worst = max(worst, math.prod(self.count_cap[f] + 1 for f in open_now))
            open_now -= set(self.closes[k])
        # Room left: c + 1 values per slot, but a group of g interchangeable slots keeps its
        # values in one order: C(c + g, g) multisets.
        grouped = {i for group in self.symmetric for i in group}
        rooms = math.prod(self.start_caps[i] + 1 for i in range(len(self.slots))
                          if i not in grouped)
        rooms *= math.prod(math.comb(self.start_caps[g[0]] + len(g), len(g))
                           for g in self.symmetric)
        return worst * rooms

    def transitions(self, step: int, state) -> list:
        cached = self._moves[step].get(state)
        if cached is not None:
            return cached
        caps, counts = state
        k = self.order[step]
        members = len(self.classes[k].members)
        supply = self.supply_after[step]
        allowed = self.allowed[k]
        # Later classes bring at most ``supply`` to each slot: this class must fill the rest
        # of the slots it may go to, and the others must already be within reach.
        if any(caps[i] > supply[i] for i in self.not_allowed[k]):
            self._moves[step][state] = []
            return []
        splits: Iterable[dict[int, int]]
        if members == 1:
            # One card (the common case late in a game): it goes to a slot that must have
            # it, or to any slot with room.
            forced = [i for i in allowed if caps[i] > supply[i]]
            if forced:
                only = forced[0]
                splits = ([{only: 1}] if len(forced) == 1 and caps[only] - supply[only] == 1
                          else [])
            else:
                splits = [{i: 1} for i in allowed if caps[i]]
        else:
            least = [max(0, caps[i] - supply[i]) for i in allowed]
            splits = _compositions(members, allowed, caps, least)
        whole = math.factorial(members)
        counted = self.counted[k]
        closes = self.closes[k]
        needs = self.needs_after[step]
        moves = []
        for split in splits:
            new_caps = list(caps)
            weight: Weight = whole
            items = split.items()
            for i, n in items:
                new_caps[i] -= n
                if n > 1:
                    weight //= math.factorial(n)
            for group in self.symmetric:
                if len(group) == 2:
                    first, second = group
                    if new_caps[first] < new_caps[second]:
                        new_caps[first], new_caps[second] = new_caps[second], new_caps[first]
                    continue
                for i, room in zip(group, sorted((new_caps[i] for i in group), reverse=True),
                                   strict=True):
                    new_caps[i] = room
            new_counts = counts
            if counted:
                new_counts = list(counts)
                for f, slots_of_f, most in counted:
                    placed = 0
                    for i, n in items:
                        if i in slots_of_f:
                            placed += n
                    if placed:
                        new_counts[f] = min(most, new_counts[f] + placed)
                for f in closes:
                    weight *= self.weights[f][new_counts[f]]
                    new_counts[f] = 0
                new_counts = tuple(new_counts)
            if needs and _starved(needs, new_counts, new_caps):
                continue
            if weight:
                moves.append(((tuple(new_caps), new_counts), weight, split))
        self._moves[step][state] = moves
        return moves

    def finished(self, state) -> bool:
        return not any(state[0])

    def slot_weights(self) -> dict[tuple[int, int], Weight]:
        """Σ over deals of (cards of class k in slot i)."""
        result: dict[tuple[int, int], Weight] = defaultdict(int)
        for step, through, split in self.flows(self.start):
            k = self.order[step]
            for i, n in split.items():
                if n:
                    result[(k, i)] += through * n
        # States keep one order of interchangeable slots' room, so only a group's total is
        # right slot by slot; by symmetry each slot of the group has an equal share of it.
        for group in self.symmetric:
            for k in range(len(self.classes)):
                total = sum(result.get((k, i), 0) for i in group)
                if total:
                    for i in group:
                        result[(k, i)] = _divide(total, len(group))
        return result


def _starved(needs: list[tuple[int, frozenset[int]]], counts: Sequence[int],
             caps: Sequence[int]) -> bool:
    """Whether some observation still waiting for a card has no room left for one."""
    for f, slots in needs:
        if not counts[f]:
            for i in slots:
                if caps[i]:
                    break
            else:
                return True
    return False


def _combine(base: dict[int, int], extra: dict[int, int]) -> dict[int, int]:
    merged = dict(base)
    for k, n in extra.items():
        merged[k] = merged.get(k, 0) + n
    return merged


def _compositions(total: int, classes: list[int], state: Mapping[int, int] | Sequence[int],
                  least: Sequence[int] | None = None) -> list[dict[int, int]]:
    """Every way to take ``total`` cards from the classes, at most ``state[k]`` from class k
    and (if given) at least ``least[j]`` from the j-th class listed."""
    most = [state[k] for k in classes]
    least = least or [0] * len(classes)
    # What the classes after each position can take at least and at most.
    low_after, high_after = [0] * (len(classes) + 1), [0] * (len(classes) + 1)
    for j in range(len(classes) - 1, -1, -1):
        low_after[j] = low_after[j + 1] + least[j]
        high_after[j] = high_after[j + 1] + most[j]
    if not low_after[0] <= total <= high_after[0]:
        return []
    if not classes:
        return [{}]
    # Grow all partial choices one class at a time (list comprehensions: no call per node);
    # the bounds leave the last class exactly what is left.
    partial: list[tuple[int, tuple[int, ...]]] = [(total, ())]
    for j in range(len(classes) - 1):
        low, high, after_low, after_high = least[j], most[j], low_after[j + 1], high_after[j + 1]
        partial = [(left - n, taken + (n,)) for left, taken in partial
                   for n in range(max(low, left - after_high), min(high, left - after_low) + 1)]
    return [{k: n for k, n in zip(classes, taken + (left,), strict=True) if n}
            for left, taken in partial]
