"""The teaching foils of notebook 08 against exact counting, brute force and hand counts."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
from oracle import brute_force

from cluedo_lab.games.speed import speed_game
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.knowledge.sampling import (
    SampleEstimate,
    acceptance_rate,
    even_split_marginals,
    largest_error,
    sample_marginals,
)
from cluedo_lab.records import Record
from cluedo_lab.rules.edition import load_edition

DECK3 = {"suspect": ["Plum", "White", "Green"],
         "weapon": ["Rope", "Knife", "Pipe"],
         "room": ["Hall", "Study", "Den"]}
PLAYERS3 = [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2},
            {"name": "Cy", "hand_size": 2}]


def small(*events) -> dict:
    return {"deck": DECK3, "players": PLAYERS3, "observer": "Ann", "hand": ["Plum", "Rope"],
            "events": list(events)}


NOBODY_HAS_WHITE_KNIFE_HALL = {"suggest": ["White", "Knife", "Hall"], "by": "Cy",
                               "passed": ["Ann", "Bob"]}
BOB_SHOWS_CY = {"suggest": ["White", "Knife", "Hall"], "by": "Cy", "passed": ["Ann"],
                "shown_by": "Bob"}
CY_SHOWS_DEN = {"suggest": ["Green", "Knife", "Den"], "by": "Ann", "passed": ["Bob"],
                "shown_by": "Cy", "card": "Den"}


# -- rejection sampling ---------------------------------------------------------------------------
def test_acceptance_rate_by_hand():
    # Ann holds Plum and Rope; Bob passes on White, Knife, Hall. Of the 12 envelopes, each
    # leaves 4 cards for Bob (2) and Cy (2); Bob must take 2 of the cards outside {White,
    # Knife, Hall} that the envelope left. Green, Pipe and Study/Den are those cards: the
    # envelope removes Green (1 way), Pipe (1 way), Study or Den (2 ways) or not, so the
    # number left is 4 - k with weights (1 + x)(1 + x)(1 + 2x) = 1 + 4x + 5x² + 2x³, and
    # the fitting deals are 1·C(4,2) + 4·C(3,2) + 5·C(2,2) = 23 of 12 · C(4,2) = 72.
    record = small(NOBODY_HAS_WHITE_KNIFE_HALL)
    assert acceptance_rate(record) == F(23, 72)
    assert Knowledge.from_dict(record).consistent_deals == 23


def test_acceptance_rate_against_brute_force():
    # Pinned: Ann's hand and the Den that Cy showed her. Those deals, by hand: envelope
    # 2 × 2 × 2 (Den is out), then 3 cards for Bob (2) and Cy (1): 8 × 3 = 24.
    record = small(BOB_SHOWS_CY, CY_SHOWS_DEN)
    assert acceptance_rate(record) == F(brute_force(record).count, 24)


def test_sampler_converges_to_the_exact_chances():
    record = small(BOB_SHOWS_CY, CY_SHOWS_DEN)
    exact = Knowledge.from_dict(record)
    estimate = sample_marginals(record, 20_000, seed=7)
    assert estimate.tries == 20_000
    rate = acceptance_rate(record)
    spread = math.sqrt(rate * (1 - rate) / estimate.tries)
    assert abs(estimate.acceptance - rate) < 5 * spread
    for card in exact.edition.cards:
        for place in exact.places:
            p = exact.probability(card, place)
            guess = estimate.probability(card.id, place)
            if p in (0, 1):
                assert guess == p  # a kept deal never breaks the record
            else:
                assert abs(guess - p) < 5 * math.sqrt(p * (1 - p) / estimate.accepted)


def test_sampler_is_seeded_and_keeps_every_deal_without_events():
    record = small()
    first = sample_marginals(record, 500, seed=3)
    assert first == sample_marginals(record, 500, seed=3)
    assert first.accepted == 500 and acceptance_rate(record) == 1
    assert first.probability("plum", "Ann") == 1 and first.probability("rope", "Cy") == 0


@pytest.mark.parametrize("edition, players", [("clue-classic-2023-two-player", 2),
                                              ("clue-mansion-2014", 4)])
def test_sampler_deals_piles_and_face_up_cards(edition, players):
    # Public records: nothing but the face-up cards is pinned, so the face-down piles (2023
    # two-player) and the hands are dealt at random and the passes do the rejecting.
    game = speed_game(load_edition(edition), players, seed=1, events=3, observer_seat=None)
    record = Record.from_dict(game.record())
    exact = Knowledge(record)
    estimate = sample_marginals(record, 3000, seed=1)
    rate = acceptance_rate(record)
    assert 0 < rate < 1
    assert abs(estimate.acceptance - rate) < 5 * math.sqrt(rate * (1 - rate) / 3000)
    assert set(estimate.places) == set(record.places)
    for card, place in exact.known():
        assert estimate.probability(card, place) == exact.probability(card, place)


def test_sampler_without_kept_deals_and_bad_input():
    estimate = SampleEstimate(tries=10, accepted=0, counts={}, places=("Ann",))
    with pytest.raises(ValueError, match="none of the 10"):
        estimate.probability("plum", "Ann")
    with pytest.raises(ValueError, match="negative"):
        sample_marginals(small(), -1)
    twice = small({"suggest": ["White", "Knife", "Hall"], "by": "Ann", "shown_by": "Bob",
                   "card": "White"},
                  {"suggest": ["White", "Pipe", "Den"], "by": "Ann", "passed": ["Bob"],
                   "shown_by": "Cy", "card": "White"})
    with pytest.raises(ValueError, match="two places"):
        sample_marginals(twice, 10)


# -- "each card equally likely to be the one shown" ----------------------------------------------
def two_item(persons: list[str], weapons: list[str], hand: list[str], sizes: tuple) -> dict:
    """Cy asks about a and d; Ann passes, Bob shows Cy a card Ann does not see."""
    return {"deck": {"person": persons, "weapon": weapons},
            "players": [{"name": n, "hand_size": s}
                        for n, s in zip(("Ann", "Bob", "Cy"), sizes, strict=True)],
            "observer": "Ann", "hand": hand,
            "events": [{"suggest": ["a", "d"], "by": "Cy", "passed": ["Ann"],
                        "shown_by": "Bob"}]}


def test_even_split_is_exact_when_the_stories_are_exclusive_and_alike():
    # Bob holds one card, so "Bob showed a" and "Bob showed d" never happen together, and
    # swapping persons with weapons (a↔d, b↔e) maps one story onto the other, so they are
    # equally likely: the even split is exactly right, in every cell.
    record = two_item(["a", "b", "c"], ["d", "e", "f"], ["c", "f"], (2, 1, 1))
    exact = Knowledge.from_dict(record)
    foil = even_split_marginals(record)
    assert exact.probability("a", "Bob") == F(1, 2)
    assert foil == {(c.id, p): exact.probability(c, p)
                    for c in exact.edition.cards for p in exact.places}


def test_even_split_is_wrong_when_one_story_is_likelier():
    # One more weapon: now the envelope's weapon is one of d, e, g. Bob (one card) holds a in
    # 3 deals (envelope b with any of 3 weapons) and d in 4 (envelope a or b with e or g),
    # so a was shown in 3 of 7 deals; the even split says 1/2.
    record = two_item(["a", "b", "c"], ["d", "e", "f", "g"], ["c", "f"], (2, 1, 2))
    exact = Knowledge.from_dict(record)
    foil = even_split_marginals(record)
    assert exact.probability("a", "Bob") == F(3, 7) == F(brute_force(record).probability(
        "a", "Bob"))
    assert foil[("a", "Bob")] == F(1, 2)
    assert largest_error(foil, exact)[0] >= F(1, 2) - F(3, 7)


def test_even_split_keeps_the_certain_cells_and_equals_exact_without_unseen_cards():
    # Every story is a subset of the consistent deals and together they cover them all, so
    # a cell certain in one is certain in the other.
    game = speed_game(load_edition("cluedo-classic-1949"), 3, seed=5, events=6)
    for events in range(7):
        record = Record.from_dict(game.record(events))
        exact = Knowledge(record)
        foil = even_split_marginals(record)
        assert {cell for cell, p in foil.items() if p in (0, 1)} == set(exact.known())
    seen_only = small(CY_SHOWS_DEN, NOBODY_HAS_WHITE_KNIFE_HALL)
    exact = Knowledge.from_dict(seen_only)
    assert largest_error(even_split_marginals(seen_only), exact)[0] == 0


def test_even_split_refuses_too_many_combinations():
    record = two_item(["a", "b", "c"], ["d", "e", "f", "g"], ["c", "f"], (2, 1, 2))
    with pytest.raises(ValueError, match="2 combinations"):
        even_split_marginals(record, limit=1)
