"""Explanations: each rule fires where it should, and every step is sound."""

from __future__ import annotations

import pytest

from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.knowledge.explain import Deduction, Fact, explain, minimal_events
from cluedo_lab.records import Record

DECK = {"suspect": ["a", "b", "c", "d"], "weapon": ["e", "f", "g", "h"],
        "room": ["i", "j", "k", "l"]}
PLAYERS = [{"name": "A", "hand_size": 3}, {"name": "B", "hand_size": 3},
           {"name": "C", "hand_size": 3}]


def knowledge(events, hand=("a", "e", "i"), observer="A"):
    return Knowledge.from_dict({"deck": DECK, "players": PLAYERS, "observer": observer,
                                "hand": list(hand), "events": events})


def rules_used(explanation):
    return [s.rule for s in explanation.steps]


def test_observed_then_one_place():
    k = knowledge([{"suggest": ["b", "e", "i"], "by": "A", "passed": [], "shown_by": "B",
                    "card": "b"}])
    why = k.explain("b", "C")
    assert why.method == "rules"
    assert rules_used(why) == ["observed", "one-place"]
    assert why.events == (1,)
    assert "event 1" in str(why)


def test_hand_lock_from_separate_groups():
    # B showed d to A, and showed unseen cards for {b,f,j} and {c,g,k}: with 3 cards,
    # B holds d plus one of each group, so B has no room for h or l.
    k = knowledge([
        {"suggest": ["d", "e", "i"], "by": "A", "passed": [], "shown_by": "B", "card": "d"},
        {"suggest": ["b", "f", "j"], "by": "C", "passed": ["A"], "shown_by": "B"},
        {"suggest": ["c", "g", "k"], "by": "C", "passed": ["A"], "shown_by": "B"},
    ])
    assert k.status("h", "B") is False and k.status("l", "B") is False
    why = k.explain("h", "B")
    assert why.method == "rules"
    assert "hand-lock" in rules_used(why)
    assert why.events == (1, 2, 3)


def assert_irreducible(k, card, place, value, positions):
    """The events at ``positions`` force the cell, and none of them can be left out."""
    chosen = [e for e in k.record.events if e.position in positions]
    assert k.entails(card, place, value, chosen)
    for left_out in chosen:
        assert not k.entails(card, place, value, [e for e in chosen if e is not left_out])


def test_showed_one_of_them_when_the_others_are_ruled_out():
    # C showed an unseen card for {b,f,j}; A then sees that B holds f and j.
    k = knowledge([
        {"suggest": ["b", "f", "j"], "by": "B", "passed": ["C"], "shown_by": "A", "card": None},
        {"suggest": ["b", "f", "i"], "by": "B", "passed": [], "shown_by": "C"},
        {"suggest": ["a", "f", "j"], "by": "A", "passed": [], "shown_by": "B", "card": "f"},
        {"suggest": ["a", "e", "j"], "by": "A", "passed": [], "shown_by": "B", "card": "j"},
    ], hand=("b", "e", "k"))
    assert k.status("i", "C") is True
    why = k.explain("i", "C")
    assert why.method == "rules" and rules_used(why)[-1] == "showed-one"
    # C passed on b and f (event 1), or B showed f and A holds b (event 3): either with C's
    # unseen card (event 2) is an irreducible reason; the latest events are preferred.
    assert set(why.events) == {2, 3}
    assert_irreducible(k, "i", "C", True, why.events)


def test_wrong_accusation_and_envelope_rule():
    # Everybody passes on b, f, j except... nobody shows: the envelope holds them unless A does.
    k = knowledge([
        {"suggest": ["b", "f", "j"], "by": "A", "passed": ["B", "C"]},
    ])
    assert k.solution() == ("b", "f", "j")
    why = k.explain("c", "envelope")
    assert why.fact == Fact("c", "envelope", False)
    assert "envelope-one" in rules_used(why)


def test_full_hand_and_last_place():
    k = knowledge([
        {"suggest": ["b", "f", "j"], "by": "A", "passed": [], "shown_by": "B", "card": "b"},
        {"suggest": ["c", "f", "j"], "by": "A", "passed": [], "shown_by": "B", "card": "f"},
        {"suggest": ["c", "g", "j"], "by": "A", "passed": [], "shown_by": "B", "card": "j"},
    ])
    why = k.explain("c", "B")
    assert why.method == "rules" and rules_used(why)[-1] == "full-hand"


def test_unknown_cell_has_no_explanation():
    k = knowledge([])
    with pytest.raises(ValueError, match="not known"):
        k.explain("b", "B")


def test_minimal_events_are_irreducible():
    k = knowledge([
        {"suggest": ["d", "e", "i"], "by": "A", "passed": [], "shown_by": "B", "card": "d"},
        {"suggest": ["b", "f", "j"], "by": "C", "passed": ["A"], "shown_by": "B"},
        {"suggest": ["a", "h", "l"], "by": "B", "passed": [], "shown_by": "C"},
        {"suggest": ["c", "g", "k"], "by": "C", "passed": ["A"], "shown_by": "B"},
    ])
    fact = Fact("h", "B", False)
    events = minimal_events(k, fact)
    assert k.entails("h", "B", False, events)
    for left_out in events:
        rest = [e for e in events if e is not left_out]
        assert not k.entails("h", "B", False, rest)
    assert 3 not in [e.position for e in events]


def test_deduction_replays_step_by_step_and_is_sound():
    record = Record.from_dict({"deck": DECK, "players": PLAYERS, "observer": "A",
                               "hand": ["a", "e", "i"], "events": [
        {"suggest": ["d", "e", "i"], "by": "A", "passed": [], "shown_by": "B", "card": "d"},
        {"suggest": ["b", "f", "j"], "by": "C", "passed": ["A"], "shown_by": "B"},
        {"suggest": ["c", "g", "k"], "by": "C", "passed": ["A"], "shown_by": "B"}]})
    k = Knowledge(record)
    deduction = Deduction(record)
    assert deduction.contradiction is None
    numbers = [s.number for s in deduction.steps]
    assert numbers == list(range(1, len(numbers) + 1))
    for step in deduction.steps:
        # every premise was established by an earlier step
        for premise in step.premises:
            assert deduction.cells[(premise.card, premise.place)].number < step.number
        # every conclusion is true in all consistent deals
        assert k.status(step.fact.card, step.fact.place) is step.fact.holds


def test_contradiction_is_found_by_rules_when_supposing_the_opposite():
    k = knowledge([
        {"suggest": ["d", "e", "i"], "by": "A", "passed": [], "shown_by": "B", "card": "d"},
        {"suggest": ["b", "f", "j"], "by": "C", "passed": ["A"], "shown_by": "B"},
        {"suggest": ["c", "g", "k"], "by": "C", "passed": ["A"], "shown_by": "B"},
    ])
    supposed = Deduction(k.record, assume=[Fact("h", "B", True)])
    assert supposed.contradiction is not None
    assert supposed.chain()[-1].rule == "contradiction"


def test_every_known_cell_is_explained(random_records):
    for record in random_records:
        k = Knowledge(record)
        for (card, place), holds in list(k.known().items())[:40]:
            why = explain(k, card, place)
            assert why.fact == Fact(card, place, holds)
            assert why.method in ("rules", "contradiction", "cases", "count")
            if why.method == "rules":
                assert why.steps[-1].fact == why.fact
            if why.method == "contradiction":
                assert why.steps[-1].rule == "contradiction"
            assert str(why).startswith("Why")


@pytest.fixture
def random_records():
    return truthful_games()


def truthful_games():
    """Truthful random games on the 4/4/4 deck, seen from A's seat."""
    import random

    from cluedo_lab.records import custom_edition
    from cluedo_lab.rules.deal import deal
    edition = custom_edition(DECK)
    records = []
    for seed in range(12):
        rng = random.Random(seed)
        dealt = deal(edition, 3, seed)
        names = ["A", "B", "C"]
        hands = {n: {c.id for c in h} for n, h in zip(names, dealt.hands, strict=True)}
        events = []
        for _ in range(rng.randint(2, 7)):
            by = rng.choice(names)
            named = [rng.choice(cat.cards).id for cat in edition.categories]
            order = names[names.index(by) + 1:] + names[:names.index(by)]
            passed = []
            event = {"suggest": named, "by": by}
            for other in order:
                held = [c for c in named if c in hands[other]]
                if held:
                    event["shown_by"] = other
                    if "A" in (by, other):
                        event["card"] = rng.choice(held)
                    break
                passed.append(other)
            event["passed"] = passed
            events.append(event)
        records.append(Record.from_dict({"deck": DECK, "players": PLAYERS, "observer": "A",
                                         "hand": sorted(hands["A"]), "events": events}))
    return records


def test_triangle_of_clauses_needs_a_proof_by_contradiction():
    # B holds 2 cards and showed one of {b,f}, one of {b,j} and one of {f,j}: two of b, f, j
    # cover all three, so B holds nothing else. No single rule sees it; supposing the
    # opposite leads to a contradiction.
    k = Knowledge.from_dict({
        "deck": DECK, "observer": "C", "hand": ["a", "e", "i", "l"],
        "players": [{"name": "A", "hand_size": 3}, {"name": "B", "hand_size": 2},
                    {"name": "C", "hand_size": 4}],
        "events": [{"suggest": ["b", "f", "i"], "by": "A", "passed": [], "shown_by": "B"},
                   {"suggest": ["b", "e", "j"], "by": "A", "passed": [], "shown_by": "B"},
                   {"suggest": ["a", "f", "j"], "by": "A", "passed": [], "shown_by": "B"}]})
    assert k.status("c", "B") is False
    assert Deduction(k.record).value("c", "B") is None  # rules alone stop short
    why = k.explain("c", "B")
    assert why.method == "contradiction"
    assert why.steps[0].rule == "assume" and why.steps[-1].rule == "contradiction"
    assert why.events == (1, 2, 3)
