"""Problems with few deals, listed straight from the problem (knowledge.few_deals), against
brute force: random problems with every kind of factor, and records of every event kind."""

from __future__ import annotations

import random

import pytest
from gamegen import edition_path, random_record
from test_counting import brute, random_problem
from test_crosscheck import differences, kind_cases, knowledge, seed_of

from cluedo_lab.knowledge.few_deals import list_few_deals
from cluedo_lab.knowledge.problem import Problem


@pytest.mark.parametrize("seed", range(200))
def test_listing_matches_brute_force_on_random_problems(seed):
    problem = random_problem(random.Random(seed))
    listed = list_few_deals(problem, "envelope", 10**9)
    if listed is not None:
        # 1/k weights are left to the DPs, unless no deal takes one.
        assert type(listed.total) is int
        assert all(type(w) is int for w in listed.cell.values())
    if listed is None:
        # Only what the DPs' reduction must judge: a deal weighed 1/k, a card with no place,
        # or a place overfilled by the cards pinned to it (such a problem has no deal).
        assert brute(problem)[0] == 0 or any(
            type(w) is not int for f in problem.factors for w in f.weights)
        return
    total, cell, envelope = brute(problem)
    assert listed.total == total
    if not total:
        return
    assert {k: v for k, v in listed.cell.items() if v} == {k: v for k, v in cell.items() if v}
    order = {f"cat{i}": i for i in range(3)}
    expected = {tuple(sorted(k, key=lambda c: order[problem.categories[c]])): v
                for k, v in envelope.items() if v}
    assert listed.envelope_weights() == expected


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
    for limit, tried, budget in ((0, 10**6, 2), (1, 10**6, 10**6), (10**6, 0, 0)):
        listed = list_few_deals(problem, "envelope", limit, tried, budget)
        if listed is not None:
            assert listed.total == total


@pytest.mark.parametrize("model", ["uniform", "refuter-uniform"])
@pytest.mark.parametrize(("kind", "deck"), list(kind_cases()))
def test_records_with_few_deals_of_every_event_kind(kind, deck, model):
    """Long records of one kind of event (and mixed with suggestions), seen by a player and
    public: the engine lists their few deals directly, exactly as the oracle counts."""
    players = {"mini-face-down": 2}.get(deck, 3)
    listed = 0
    for i in range(16):
        kinds = [kind] if i % 2 else [kind, "suggest"]
        record, _ = random_record(edition_path(deck), players, seed_of("few", kind, deck, i),
                                  events=10 + i, observer=i % 4 != 3, kinds=kinds)
        assert differences(record, model) == [], record
        listed += knowledge(record, model)._solution.engine == "few"
    assert listed, "no record of this kind had few enough deals to list"
