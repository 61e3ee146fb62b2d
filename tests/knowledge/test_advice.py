"""Expected information gain against a deal-by-deal simulation of the answers."""

from __future__ import annotations

import itertools
import math
import random
from collections import defaultdict
from fractions import Fraction

import pytest
from gamegen import edition_path, random_record
from oracle import brute_force

from cluedo_lab.knowledge import constraints as cons
from cluedo_lab.knowledge.advice import (
    _mass_and_entropy,
    entropy,
    information_gain,
    legal_questions,
    rank_questions,
)
from cluedo_lab.knowledge.counting.answers import AnswerCounter
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.records import Record

DECK = {"s": ["a", "b", "c"], "w": ["d", "e", "f"], "r": ["g", "h", "i"]}
NAMES = ["A", "B", "C"]
SETUP = {"deck": DECK, "players": [{"name": n, "hand_size": 2} for n in NAMES],
         "observer": "A", "hand": ["a", "d"]}
EVENTS = [{"suggest": ["b", "e", "g"], "by": "C", "passed": ["A"], "shown_by": "B"}]


def consistent_deals():
    """Every deal of the 3/3/3 deck matching A's hand and the one event, by its meaning."""
    cards = [c for cat in DECK.values() for c in cat]
    for s, w, r in itertools.product(*DECK.values()):
        if {s, w, r} & {"a", "d"}:
            continue
        rest = [c for c in cards if c not in (s, w, r) and c not in ("a", "d")]
        for b_hand in itertools.combinations(rest, 2):
            c_hand = tuple(c for c in rest if c not in b_hand)
            hands = {"A": ("a", "d"), "B": b_hand, "C": c_hand}
            # event 1: C asked b, e, g; A passed; B showed a card
            if any(x in hands["A"] for x in "beg") or not any(x in b_hand for x in "beg"):
                continue
            yield (s, w, r), hands


def simulated(named, asker="A"):
    """Joint chance of (answer, envelope) when the refuter picks uniformly."""
    deals = list(consistent_deals())
    joint = defaultdict(Fraction)
    for envelope, hands in deals:
        order = NAMES[NAMES.index(asker) + 1:] + NAMES[:NAMES.index(asker)]
        for who in order:
            held = [c for c in named if c in hands[who]]
            if held:
                for card in held:
                    joint[((who, card), envelope)] += Fraction(1, len(held) * len(deals))
                break
        else:
            joint[(None, envelope)] += Fraction(1, len(deals))
    return joint


def expected_entropy(joint):
    answers = defaultdict(dict)
    for (answer, envelope), p in joint.items():
        answers[answer][envelope] = p
    total = 0.0
    for dist in answers.values():
        mass = sum(dist.values())
        total += float(mass) * entropy(p / mass for p in dist.values())
    return total, {a: sum(d.values()) for a, d in answers.items()}


@pytest.mark.parametrize("named", [("b", "e", "g"), ("a", "f", "i"), ("c", "e", "h"),
                                   ("a", "d", "g")])
def test_gain_matches_simulation(named):
    k = Knowledge.from_dict({**SETUP, "events": EVENTS})
    option = information_gain(k, named)
    expected, answer_chances = expected_entropy(simulated(named))
    assert math.isclose(option.expected_entropy, expected, abs_tol=1e-12)
    got = {(o.shown_by, o.card) if o.shown_by else None: o.probability
           for o in option.outcomes}
    assert got == answer_chances
    assert sum(o.probability for o in option.outcomes) == 1


def test_asking_only_about_known_cards_gains_nothing():
    k = Knowledge.from_dict({**SETUP, "events": EVENTS})
    assert information_gain(k, ["a", "d", "g"]).gain > 0  # g is unknown
    solved = Knowledge.from_dict({**SETUP, "hand": ["a", "d"], "events": [
        {"suggest": ["b", "e", "g"], "by": "A", "passed": ["B", "C"]}]})
    option = information_gain(solved, ["c", "f", "h"])
    assert option.gain == 0 and option.expected_entropy == 0


def test_ranking_covers_every_legal_question_best_first():
    k = Knowledge.from_dict({**SETUP, "events": EVENTS})
    ranked = rank_questions(k)
    assert len(ranked) == 27 == len(legal_questions(k))
    gains = [o.gain for o in ranked]
    assert gains == sorted(gains, reverse=True)
    assert all(g >= -1e-12 for g in gains)


def test_board_games_ask_only_about_the_room_you_are_in():
    k = Knowledge.from_dict({**SETUP, "events": EVENTS})
    ranked = rank_questions(k, fixed=["h"])
    assert len(ranked) == 9 and all("h" in o.named for o in ranked)


def test_equivalent_questions_name_their_own_cards():
    # Before anything happens, b and c are interchangeable for A: same value, own labels.
    k = Knowledge.from_dict({**SETUP, "events": []})
    one, two = information_gain(k, ["b", "e", "g"]), information_gain(k, ["c", "e", "g"])
    assert one.gain == two.gain
    assert {o.card for o in two.outcomes} <= {"c", "e", "g", None}
    assert "c" in {o.card for o in two.outcomes}


# ---------------------------------------------------------------------------------------------
# The shared answer counter against every consistent deal, on random games
# ---------------------------------------------------------------------------------------------

def _brute_answers(oracle, order, named, sees_card, every=False):
    """Joint weight of (answer, envelope) over the oracle's deals, each refuter choosing
    uniformly among the named cards they hold; the first who can answers, or (``every``)
    all who can, the answer then being the tuple of what each shows."""
    joint = defaultdict(Fraction)
    for where, weight in oracle.where():
        envelope = tuple(c for c in oracle.cards if where[c] == "envelope")
        answers = {(): Fraction(weight)}      # what has been shown so far -> weight
        for who in order:
            held = [c for c in named if where[c] == who]
            if held:
                answers = {shown + (((who, card) if sees_card else (who,)),):
                           share / (len(held) if sees_card else 1)
                           for shown, share in answers.items()
                           for card in (held if sees_card else held[:1])}
                if not every:
                    break
        for shown, share in answers.items():
            key = shown if every else (shown[0] if shown else None)
            joint[(key, envelope)] += share
    return joint


@pytest.mark.parametrize("deck, players, seed, observer, model", [
    ("mini-3x3x3", 3, 1, True, "uniform"),
    ("mini-3x3x3", 2, 2, True, "uniform"),
    ("mini-3x3x5", 3, 3, True, "uniform"),
    ("mini-3x3x5", 3, 4, False, "uniform"),
    ("mini-2x3x4", 3, 5, True, "refuter-uniform"),
    ("mini-two-item", 3, 6, True, "uniform"),
    ("mini-face-down", 2, 7, True, "uniform"),
    ("mini-2x3x4", 5, 9, False, "uniform"),
    ("mini-3x3x5", 3, 8, True, "refuter-uniform"),
])
def test_answer_counter_matches_every_deal(deck, players, seed, observer, model):
    rng = random.Random(seed)
    for events in (0, 2, 5):
        data, _ = random_record(edition_path(deck), players, seed * 10 + events,
                                events=events, observer=observer,
                                kinds=("suggest", "accuse"))
        record = Record.from_dict(data)
        k = Knowledge(record, model)
        oracle = brute_force(data, model)
        asker = record.observer or rng.choice(record.player_names)
        order = record.answer_order(asker)
        problem = cons.problem(record, k.constraints())
        first = AnswerCounter(problem, order)
        every = AnswerCounter(problem, order, every=True)
        cards = [c.id for c in record.edition.cards]
        for _ in range(6):
            named = tuple(rng.sample(cards, rng.choice((2, 3))))
            sees = record.observer == asker
            for counter, mode in ((first, False), (every, True)):
                got = counter.distribution(named, sees)
                want = _brute_answers(oracle, order, named, sees, every=mode)
                flat = {(a, e): Fraction(w) for a, row in got.items()
                        for e, w in row.items() if w}
                assert flat == {key: w for key, w in want.items() if w}, (events, named, mode)
                # What the entropy reads: every envelope's weight once, as scaled has them.
                weights, denominator = counter.weights(named, sees)
                scaled, same = counter.scaled(named, sees)
                assert denominator == same
                assert {a: sorted(ws) for a, ws in weights.items()} == {
                    a: sorted(w for w in row.values() if w) for a, row in scaled.items()
                    if any(row.values())}, (events, named, mode)


def test_entropy_of_whole_weights_is_the_entropy_and_ignores_their_order():
    rng = random.Random(5)
    for size in (1, 2, 3, 10, 200):
        weights = [rng.choice((1, 2, 3, 7, 10**12, 3**40)) for _ in range(size)]
        total, bits = _mass_and_entropy(weights)
        assert total == sum(weights)
        assert math.isclose(bits, entropy(Fraction(w, total) for w in weights), abs_tol=1e-9)
        for _ in range(5):
            rng.shuffle(weights)
            assert _mass_and_entropy(weights) == (total, bits)


@pytest.mark.parametrize("answer", ["first-who-can", "every-who-can"])
def test_best_first_question_agrees_with_the_variant_figures(answer):
    """Two independent computations of the first question's value: the advisor on a record
    of the opening position, and variant_figures' count over hands (mutual information)."""
    from cluedo_lab.lab import variant_figures as vf
    from cluedo_lab.records import Record
    from cluedo_lab.rules.variant import variant
    game = variant("cluedo-classic-1949", answer=answer)
    hand = ["plum", "rope", "hall", "dagger", "study", "green"]
    record = Record.for_variant(game, ["Ann", "Bob", "Cy"], observer="Ann", hand=hand)
    best = rank_questions(Knowledge(record))[0]
    _, bits = vf.best_first_question(game, hand, players=3)
    assert math.isclose(best.gain, bits, abs_tol=1e-9)
    if answer == "every-who-can":
        assert any(len(o.shows) == 2 for o in best.outcomes)
        assert all(set(o.passed).isdisjoint(w for w, _ in o.shows) for o in best.outcomes)


# ---------------------------------------------------------------------------------------------
# The answer counter against every deal on every event kind
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("deck, players, seed, observer, model", [
    ("mini-3x3x3", 3, 11, True, "uniform"),
    ("mini-3x3x5", 3, 12, True, "uniform"),
    ("mini-3x3x5", 3, 13, False, "uniform"),
    ("mini-2x3x4", 4, 14, True, "refuter-uniform"),
    ("mini-2x3x4", 5, 15, False, "refuter-uniform"),
    ("mini-features", 3, 16, True, "uniform"),
    ("mini-features", 4, 17, False, "uniform"),
    ("tiny-features", 3, 18, True, "uniform"),
    ("mini-face-down", 2, 19, True, "uniform"),
])
def test_answers_match_every_deal_on_every_event_kind(deck, players, seed, observer, model):
    """Every event kind the edition allows, seat and public records: the answer counter
    gives the brute-force joint of answer and envelope, for one-per-category questions
    (named cards known in an answerer's hand included, and named cards that the sweep puts in
    one group once the envelope is filled) and for any others."""
    rng = random.Random(seed)
    stoppers = merged = 0
    for events in (0, 3, 8):
        data, _ = random_record(edition_path(deck), players, seed * 10 + events,
                                events=events, observer=observer)
        record = Record.from_dict(data)
        k = Knowledge(record, model)
        oracle = brute_force(data, model)
        asker = record.observer or rng.choice(record.player_names)
        order = record.answer_order(asker)
        problem = cons.problem(record, k.constraints())
        counter = AnswerCounter(problem, order)
        by_category = defaultdict(list)
        for card in record.edition.cards:
            by_category[card.category].append(card.id)
        cards = [c.id for c in record.edition.cards]
        questions = [tuple(rng.choice(ids) for ids in by_category.values()) for _ in range(6)]
        questions += [tuple(rng.sample(cards, 2)) for _ in range(2)]
        # A card known to be in an answerer's hand, named with one of each other category.
        if counter.prep is not None:
            known = [c for c, place in counter.prep.fixed.items()
                     if counter.prep.places[place].name in order]
            for card in rng.sample(known, min(2, len(known))):
                category = record.edition.card(card).category
                questions.append(tuple(card if cat == category else rng.choice(ids)
                                       for cat, ids in by_category.items()))
                stoppers += 1
        sees = record.observer == asker
        for named in questions:
            want = {key: w for key, w in _brute_answers(oracle, order, named, sees).items()
                    if w}
            got = counter.distribution(named, sees)
            flat = {(a, e): Fraction(w) for a, row in got.items()
                    for e, w in row.items() if w}
            assert flat == want, (events, named)
            if counter.prep is not None and counter.dp.steps > 1:
                free = [c for c in named if c not in counter.prep.fixed]
                groups = {counter.dp.group_of[1][counter.class_of[c]] for c in free}
                merged += len(groups) < len(free)
    assert stoppers or observer is False, "no question named a card known in a hand"
    assert merged, "no question had two named cards in one group of the sweep"


def test_ranking_leaves_the_garbage_collector_as_it_was():
    """The ranking pauses the cyclic collector (see advice._collector_paused) and restores
    it, whether it was on or off; ranking again gives the same options."""
    import gc
    data, _ = random_record(edition_path("mini-3x3x3"), 3, 5, events=4)
    k = Knowledge(Record.from_dict(data))
    first = rank_questions(k)
    assert gc.isenabled()
    gc.disable()
    try:
        again = rank_questions(k)
        assert not gc.isenabled()
    finally:
        gc.enable()
    assert [(o.named, o.gain, o.outcomes) for o in again] == [
        (o.named, o.gain, o.outcomes) for o in first]


def test_the_advisor_is_freed_without_the_cyclic_collector():
    """The question walks the counter keeps refer back to it weakly: once its Knowledge is
    gone, reference counting alone frees the counter (no cycle left for the collector)."""
    import gc
    import weakref

    from cluedo_lab.knowledge.advice import _advisor
    data, _ = random_record(edition_path("mini-3x3x3"), 3, 6, events=4)
    k = Knowledge(Record.from_dict(data))
    gc.disable()
    try:
        rank_questions(k)
        counter = weakref.ref(_advisor(k, None).counter)
        assert counter() is not None and counter()._walkers
        del k
        assert counter() is None
    finally:
        gc.enable()
