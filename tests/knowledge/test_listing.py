"""The deal lister (knowledge.counting.listing) against brute force: random problems with
every kind of factor, and records of every event kind."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from gamegen import edition_path, random_record
from test_counting import brute, random_problem
from test_crosscheck import differences, kind_cases, knowledge, seed_of

from cluedo_lab.knowledge.counting.listing import list_deals
from cluedo_lab.knowledge.counting.prepared import prepare
from cluedo_lab.knowledge.counting.problem import Problem
from cluedo_lab.knowledge.counting.routes import solve


@pytest.mark.parametrize("seed", range(200))
def test_listing_matches_brute_force_on_random_problems(seed):
    problem = random_problem(random.Random(seed))
    total, cell, envelope = brute(problem)
    solution = solve(problem, engine="listing")
    assert solution.total == total
    if not total:
        return
    assert solution.engine == "listing"
    assert {k: v for k, v in solution.cell.items() if v} == {
        k: v for k, v in cell.items() if v}
    order = {f"cat{i}": i for i in range(3)}
    expected = {tuple(sorted(k, key=lambda c: order[problem.categories[c]])): v
                for k, v in envelope.items() if v}
    assert {k: v for k, v in solution.envelope.items() if v} == expected


def pinned(problem: Problem, rng: random.Random) -> Problem:
    """The problem with some cards pinned to one of their places (as a record pins the cards
    seen), so that few deals are left."""
    allowed = dict(problem.allowed)
    for card in rng.sample(sorted(allowed), k=len(allowed) // 2):
        allowed[card] = frozenset([rng.choice(sorted(allowed[card]))])
    return Problem(problem.categories, problem.places, allowed, problem.factors)


@pytest.mark.parametrize("seed", range(200))
def test_a_budget_gives_up_or_lists_every_deal(seed):
    """Within a bound, or over it and given up after a few fillings: never a wrong count."""
    rng = random.Random(seed)
    problem = pinned(random_problem(rng), rng)
    total = brute(problem)[0]
    prep = prepare(problem, "envelope")
    given_up = 0
    for budget in (0, 2, 10**6):
        listed = list_deals(prep, budget) if prep is not None else None
        if listed is None:
            given_up += 1
            continue
        assert listed.count() * prep.constant == total
        assert Fraction(sum(w for _, w in listed.envelopes())) == listed.count()
    assert prep is None or given_up < 3, "an unlimited budget always lists"


@pytest.mark.parametrize("model", ["uniform", "refuter-uniform"])
@pytest.mark.parametrize(("kind", "deck"), list(kind_cases()))
def test_records_with_few_deals_of_every_event_kind(kind, deck, model):
    """Long records of one kind of event (and mixed with suggestions), seen by a player and
    public: the engine lists their few deals, exactly as the oracle counts."""
    players = {"mini-face-down": 2}.get(deck, 3)
    listed = 0
    for i in range(16):
        kinds = [kind] if i % 2 else [kind, "suggest"]
        record, _ = random_record(edition_path(deck), players, seed_of("few", kind, deck, i),
                                  events=10 + i, observer=i % 4 != 3, kinds=kinds)
        assert differences(record, model) == [], record
        listed += knowledge(record, model)._solution.engine == "listing"
    assert listed, "no record of this kind had few enough deals to list"
