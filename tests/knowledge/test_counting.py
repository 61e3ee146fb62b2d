"""The counting engine against brute force on random small problems."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import pytest

from cluedo_lab.knowledge.counting import routes, solve
from cluedo_lab.knowledge.counting.prepared import prepare
from cluedo_lab.knowledge.counting.problem import (
    Factor,
    Place,
    Problem,
    at_least_one,
    chosen_uniformly,
    not_all,
)
from cluedo_lab.knowledge.counting.step_dp import compositions


def brute(problem: Problem):
    """Enumerate every assignment of cards to places; weight it by the factors."""
    cards = list(problem.categories)
    places = problem.places
    total = 0
    cell: Counter = Counter()
    envelope: Counter = Counter()
    options = [sorted(problem.allowed[c]) for c in cards]
    for choice in itertools.product(*options):
        counts = Counter(choice)
        if any(counts[p.name] != p.size for p in places):
            continue
        ok = True
        for p in places:
            if p.per_category:
                per = Counter(problem.categories[c]
                              for c, w in zip(cards, choice, strict=True) if w == p.name)
                if any(per[cat] != n for cat, n in p.per_category.items()):
                    ok = False
        if not ok:
            continue
        weight = 1
        for f in problem.factors:
            k = sum(1 for c, w in zip(cards, choice, strict=True) if c in f.cards and w == f.place)
            weight *= f.weights[k]
        if not weight:
            continue
        total += weight
        for c, w in zip(cards, choice, strict=True):
            cell[(c, w)] += weight
        env = tuple(c for c, w in zip(cards, choice, strict=True) if w == "envelope")
        envelope[env] += weight
    return total, cell, envelope


def random_problem(rng: random.Random) -> Problem:
    per_cat = [rng.randint(2, 3) for _ in range(rng.randint(2, 3))]
    categories = {}
    for i, n in enumerate(per_cat):
        for j in range(n):
            categories[f"{'swr'[i]}{j}"] = f"cat{i}"
    cards = list(categories)
    rest = len(cards) - len(per_cat)
    players = rng.randint(2, 4)
    sizes = [rest // players + (1 if i < rest % players else 0) for i in range(players)]
    places = tuple(Place(f"P{i}", s) for i, s in enumerate(sizes)) + (
        Place("envelope", len(per_cat), {f"cat{i}": 1 for i in range(len(per_cat))}),)
    names = [p.name for p in places]
    allowed = {}
    for c in cards:
        barred = set(rng.sample(names, rng.randint(0, 2)))
        allowed[c] = frozenset(set(names) - barred) or frozenset(names)
    factors: list[Factor] = []
    for _ in range(rng.randint(0, 4)):
        place = rng.choice(names)
        chosen = rng.sample(cards, rng.randint(1, 3))
        kind = rng.choice([at_least_one, not_all, chosen_uniformly])
        if kind is not_all:
            place = "envelope"
        factors.append(kind(place, chosen))
    return Problem(categories, places, allowed, tuple(factors))


@pytest.mark.parametrize("engine", ["sweep", "capacity", "auto", "listing"])
@pytest.mark.parametrize("seed", range(150))
def test_counts_marginals_and_envelope_match_brute_force(seed, engine):
    problem = random_problem(random.Random(seed))
    if engine == "listing":
        prep = prepare(problem, "envelope")
        if prep is not None and math.prod(len(k.places) ** len(k.members)
                                          for k in prep.classes) > 5000:
            pytest.skip("too many ways to list")
    total, cell, envelope = brute(problem)
    solution = solve(problem, engine=engine)
    assert solution.total == total
    if total == 0:
        return
    for card in problem.categories:
        for place in problem.places:
            assert Fraction(solution.cell.get((card, place.name), 0)) == cell[(card, place.name)]
    order = {f"cat{i}": i for i in range(3)}
    expected = {tuple(sorted(k, key=lambda c: order[problem.categories[c]])): v
                for k, v in envelope.items() if v}
    got = {k: v for k, v in solution.envelope.items() if v}
    assert got == expected


@pytest.mark.parametrize("budget", [3, 10**6])
@pytest.mark.parametrize("seed", range(40))
def test_listing_within_a_budget_or_given_up(seed, budget, monkeypatch):
    """The automatic choice tries listing the deals within a budget: given up after a few
    partial deals (the DP then counts) or finished, the answer is the brute force's."""
    monkeypatch.setattr(routes, "LISTING_LIMIT", 0)
    monkeypatch.setattr(routes, "LISTING_TRIED", 10**9)
    monkeypatch.setattr(routes, "LISTING_BUDGET", budget)
    problem = random_problem(random.Random(1000 + seed))
    total, cell, envelope = brute(problem)
    solution = solve(problem)
    assert solution.total == total
    if total == 0:
        return
    if budget > 1000:
        assert solution.engine == "listing"
    for card in problem.categories:
        for place in problem.places:
            assert Fraction(solution.cell.get((card, place.name), 0)) == cell[(card, place.name)]
    order = {f"cat{i}": i for i in range(3)}
    assert {k: v for k, v in solution.envelope.items() if v} == {
        tuple(sorted(k, key=lambda c: order[problem.categories[c]])): v
        for k, v in envelope.items() if v}


def test_interchangeable_cards_are_counted_with_binomials():
    # 12 cards, nothing known: the answer is the multinomial, found without enumerating.
    categories = {f"c{i}": "x" for i in range(12)}
    places = (Place("A", 4), Place("B", 4), Place("C", 4))
    allowed = {c: frozenset("ABC") for c in categories}
    assert solve(Problem(categories, places, allowed)).total == 34650  # 12!/(4!)^3


def test_factor_weights_must_match_card_count():
    with pytest.raises(ValueError):
        Factor("A", frozenset({"a", "b"}), (0, 1))


def test_sizes_must_add_up_to_the_deck():
    with pytest.raises(ValueError, match="places hold"):
        solve(Problem({"a": "x", "b": "x"}, (Place("A", 1),), {"a": frozenset("A"),
                                                                "b": frozenset("A")}))


@pytest.mark.parametrize("seed", range(40))
def test_compositions_are_every_bounded_split(seed):
    """The DPs' splits of a number of cards over classes (or slots): each way exactly once,
    within every lower and upper bound, and none missed."""
    rng = random.Random(seed)
    classes = rng.sample(range(8), rng.randint(0, 5))
    state = {k: rng.randint(0, 3) for k in range(8)}
    least = [rng.randint(0, min(1, state[k])) for k in classes]
    total = rng.randint(0, 7)
    got = compositions(total, classes, state, least)
    expected = [{k: n for k, n in zip(classes, ns, strict=True) if n}
                for ns in itertools.product(*(range(lo, state[k] + 1)
                                              for k, lo in zip(classes, least, strict=True)))
                if sum(ns) == total]
    assert sorted(sorted(d.items()) for d in got) == sorted(sorted(d.items()) for d in expected)
