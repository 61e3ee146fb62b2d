"""Conflicts found by divide and conquer, and problems refused as too large before counting."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from gamegen import contradictory_record, edition_path
from oracle import brute_force

from cluedo_lab.knowledge.conflicts import irreducible_conflict
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.records import Record
from cluedo_lab.rules.errors import Contradiction, ProblemTooLarge


def test_irreducible_conflict_finds_a_minimal_set_with_few_checks():
    rng = random.Random(7)
    for _ in range(40):
        n = rng.randint(1, 3000)
        bad = [frozenset(rng.sample(range(n), min(n, rng.randint(1, 4))))
               for _ in range(rng.randint(1, 3))]
        calls = 0

        def consistent(items, bad=bad):
            nonlocal calls
            calls += 1
            chosen = set(items)
            return not any(b <= chosen for b in bad)

        found = irreducible_conflict(list(range(n)), consistent)
        assert found == sorted(found)                     # in the items' order
        assert not consistent(found)
        for i in range(len(found)):
            assert consistent(found[:i] + found[i + 1:])  # nothing can be left out
        k = len(found)
        assert calls <= 1 + 2 * k * (math.log2(n) + 2) + 3 * k   # not one per item


def test_empty_conflict_when_nothing_at_all_is_consistent():
    assert irreducible_conflict([1, 2, 3], lambda items: False) == []


def test_a_long_record_names_its_conflict_with_few_counts(monkeypatch):
    record, extra = contradictory_record(edition_path("mini-3x3x3"), 3, seed=11, events=8)
    long = dict(record, events=record["events"] * 250 + [extra])   # 2001 events
    assert brute_force(dict(record, events=[*record["events"], extra])).count == 0
    counts = 0
    original = Knowledge._count

    def counting(self, *args, **kwargs):
        nonlocal counts
        counts += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Knowledge, "_count", counting)
    with pytest.raises(Contradiction) as caught:
        Knowledge(Record.from_dict(long))
    conflict = caught.value.conflict
    assert conflict and conflict[-1] == 2001
    assert counts < 120                           # the deletion filter would count 2001 times
    chosen = [long["events"][p - 1] for p in conflict]
    assert brute_force(dict(record, events=chosen)).count == 0


def big_deck(categories: int, cards: int) -> dict[str, list[str]]:
    return {f"kind{i}": [f"card{i}_{j}" for j in range(cards)] for i in range(categories)}


def test_too_many_envelopes_are_refused_with_their_number():
    k = Knowledge.from_dict({"deck": big_deck(5, 20), "players": ["A", "B", "C", "D"],
                             "events": []}, max_states=1_000_000)
    assert k.probability("card0_0", "envelope") == Fraction(1, 20)   # the table is cheap
    with pytest.raises(ProblemTooLarge) as caught:
        k.envelope_distribution()
    assert caught.value.size == 20 ** 5 and caught.value.limit == k.max_states
    assert "3,200,000" in str(caught.value) and "max_states" in str(caught.value)


def test_the_limit_is_a_parameter_and_a_refused_add_changes_nothing():
    record = {"edition": "cluedo-classic-1949", "players": ["A", "B", "C", "D"],
              "events": [{"suggest": ["Green", "Rope", "Hall"], "by": "A", "passed": [],
                          "shown_by": "B"}]}
    with pytest.raises(ProblemTooLarge) as caught:
        Knowledge.from_dict(record, max_states=5)
    assert caught.value.limit == 5 and caught.value.size > 5
    message = str(caught.value)
    assert "with 6 states memoised" in message and " MB " in message
    assert "max_states" in message
    k = Knowledge.from_dict(record)
    before = k.consistent_deals
    k.max_states = 5
    with pytest.raises(ProblemTooLarge):
        k.add({"suggest": ["Plum", "Dagger", "Study"], "by": "C", "passed": [],
               "shown_by": "D"})
    assert k.consistent_deals == before and len(k.record.events) == 1
    k.max_states = None
    k.add({"suggest": ["Plum", "Dagger", "Study"], "by": "C", "passed": [], "shown_by": "D"})
    assert len(k.record.events) == 2


def test_the_size_guard_switches_to_the_dp_whose_bound_is_within_the_limit():
    """Over the limit, the other DP runs if its bound is within it; else the DP chosen runs
    under its budget (the bounds are loose: no reason to refuse)."""
    from cluedo_lab.knowledge import constraints as cons
    from cluedo_lab.knowledge.counting import routes
    from cluedo_lab.knowledge.counting.prepared import prepare

    record = Record.from_dict({"edition": "cluedo-classic-1949", "players": list("ABCD"),
                               "events": [{"suggest": ["Green", "Rope", "Hall"], "by": "A",
                                           "passed": [], "shown_by": "B"}]})
    prep = prepare(cons.problem(record, cons.all_constraints(record)), "envelope")
    assert prep is not None
    bounds = {engine: routes.state_bound(prep, engine) for engine in ("sweep", "capacity")}
    low, high = sorted(bounds, key=bounds.__getitem__)
    assert bounds[low] < bounds[high]
    assert routes.check_size(prep, high, bounds[high]) == high
    assert routes.check_size(prep, high, bounds[low]) == low
    assert routes.check_size(prep, high, bounds[low], switch=False) == high
    assert routes.check_size(prep, high, bounds[low] - 1) == high


@pytest.mark.parametrize("engine", ["sweep", "capacity"])
def test_the_budget_refuses_exactly_past_its_states_and_admits_within_them(engine):
    """A count that memoises n states and tries m moves passes with a budget of n states
    (and the moves in proportion) and is refused, whatever the DP, with one state less."""
    from cluedo_lab.knowledge import constraints as cons
    from cluedo_lab.knowledge.counting import routes

    record = Record.from_dict({"edition": "cluedo-classic-1949", "players": list("ABCD"),
                               "events": [{"suggest": ["Green", "Rope", "Hall"], "by": "A",
                                           "passed": [], "shown_by": "B"}]})
    problem = cons.problem(record, cons.all_constraints(record))
    def count(limit):
        return routes.solve(problem, engine=engine, max_states=limit, want_envelope=False)

    free = count(None)
    assert free.states > 1 and free.moves >= free.states
    within = count(free.states)
    assert (within.total, within.cell) == (free.total, free.cell)
    with pytest.raises(ProblemTooLarge) as caught:
        count(free.states - 1)
    assert f"({engine} DP)" in str(caught.value) and caught.value.limit == free.states - 1


def test_the_budget_counts_work_as_moves_times_their_cost():
    """Past its work (moves x their cost), a budget refuses at once, and within it never."""
    from cluedo_lab.knowledge.counting.step_dp import Budget

    refused = []
    budget = Budget(None, 100, lambda states, work: refused.append((states, work)), move_cost=4)
    for _ in range(5):
        budget.spend(1, 5)
    assert refused == [] and budget.work == 100
    budget.spend(0, 1)
    assert refused == [(5, 104)]


@pytest.mark.parametrize("engine", ["sweep", "capacity"])
def test_the_size_guard_refuses_by_work_counted_not_by_time(engine, monkeypatch):
    """The same record is admitted or refused on any machine: a count with just its work
    passes even when every clock reading says an hour went by, and one unit less is refused,
    the message saying what it spent and how to get under it."""
    import time

    from cluedo_lab.knowledge import constraints as cons
    from cluedo_lab.knowledge.counting import routes
    from cluedo_lab.rules.limits import WORK_PER_MOVE

    record = Record.from_dict({"edition": "cluedo-classic-1949", "players": list("ABCD"),
                               "events": [{"suggest": ["Green", "Rope", "Hall"], "by": "A",
                                           "passed": [], "shown_by": "B"}]})
    problem = cons.problem(record, cons.all_constraints(record))

    def count(work):
        return routes.solve(problem, engine=engine, max_states=10**9, max_work=work,
                            want_envelope=False)

    free = count(None)
    work = free.moves * WORK_PER_MOVE[engine]
    assert work > 0
    hours = iter(range(0, 10**9, 3600))
    monkeypatch.setattr(time, "process_time", lambda: float(next(hours)))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(hours)))
    assert count(work).cell == free.cell
    with pytest.raises(ProblemTooLarge) as caught:
        count(work - 1)
    message = str(caught.value)
    assert f"({engine} DP)" in message and f"{work - 1:,} units of work" in message
    assert "smaller deck" in message


@pytest.mark.parametrize("engine", ["sweep", "capacity"])
def test_the_size_guard_weighs_a_move_more_when_the_weights_are_fractions(engine):
    """Under refuter-uniform the card shown to the observer is weighed by the shower's
    chance of choosing it, so the DP adds fractions: each of its moves counts as
    WORK_PER_FRACTION_MOVE, and the budget admits exactly that work and refuses one unit
    less; the same record under uniform adds whole numbers, at WORK_PER_MOVE a move."""
    from cluedo_lab.knowledge import constraints as cons
    from cluedo_lab.knowledge.counting import routes
    from cluedo_lab.knowledge.counting.prepared import prepare
    from cluedo_lab.rules.limits import WORK_PER_FRACTION_MOVE, WORK_PER_MOVE

    assert WORK_PER_FRACTION_MOVE[engine] > WORK_PER_MOVE[engine]
    record = Record.from_dict({
        "edition": "cluedo-classic-1949", "players": list("ABCD"), "observer": "A",
        "hand": ["Plum", "Rope", "Study", "Hall", "Kitchen"],
        "events": [{"suggest": ["Green", "Dagger", "Lounge"], "by": "A", "passed": [],
                    "shown_by": "B", "card": "Green"},
                   {"suggest": ["White", "Wrench", "Library"], "by": "A", "passed": ["B"],
                    "shown_by": "C", "card": "Library"}]})
    for model, per_move in (("uniform", WORK_PER_MOVE), ("refuter-uniform",
                                                         WORK_PER_FRACTION_MOVE)):
        problem = cons.problem(record, cons.all_constraints(record, model))
        prep = prepare(problem, "envelope")
        assert prep is not None
        assert routes.weighs_fractions(prep) == (model == "refuter-uniform")

        def count(work, problem=problem):
            return routes.solve(problem, engine=engine, max_states=10**9, max_work=work,
                                want_envelope=False)

        free = count(None)
        assert free.moves > 0 and free.work == free.moves * per_move[engine]
        assert count(free.work).cell == free.cell
        with pytest.raises(ProblemTooLarge) as caught:
            count(free.work - 1)
        assert f"{per_move[engine]} a move" in str(caught.value)
        fractions = "as its weights are fractions" in str(caught.value)
        assert fractions == (model == "refuter-uniform")
