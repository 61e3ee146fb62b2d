"""sympy closed forms against the counting engine and the published figures."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from cluedo_lab.knowledge import closed_forms as cf
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.records import custom_edition
from cluedo_lab.rules.edition import load_edition

CLASSIC = load_edition("cluedo-classic-1949")


@pytest.mark.parametrize("players", range(2, 7))
def test_deal_count_matches_the_engine(players):
    names = [f"P{i}" for i in range(players)]
    k = Knowledge.from_dict({"edition": CLASSIC.id, "players": names})
    assert cf.deals(CLASSIC, players).doit() == k.consistent_deals


def test_published_deal_counts():
    # research/anchors.md, table 4.1
    assert cf.deals(CLASSIC, 3).doit() == 5_557_616_064
    assert cf.deals(CLASSIC, 6).doit() == 44_460_928_512_000


def test_deals_seen_from_a_seat_match_the_engine():
    hand = ["White", "Library", "Study"]
    k = Knowledge.from_dict({"edition": CLASSIC.id, "players": [f"P{i}" for i in range(6)],
                             "observer": "P0", "hand": hand})
    assert cf.deals_from_seat(CLASSIC, 6, 0, hand).doit() == k.consistent_deals
    assert k.consistent_deals == 35_315_280_000  # anchors.md: 3.53·10^10


def test_first_accusation_odds_match_the_published_figures():
    # anchors.md 4.2: about 1 in 199 holding three cards, 1 in 111 holding six
    assert round(1 / cf.first_accusation_chance(CLASSIC, 3)) == 199
    assert round(1 / cf.first_accusation_chance(CLASSIC, 6)) == 111


def test_first_accusation_chance_by_enumerating_hands():
    edition = custom_edition({"s": ["a", "b", "c"], "w": ["d", "e", "f"],
                              "r": ["g", "h", "i", "j"]})
    for hand_size in (2, 3):
        total, chance = 0, Fraction(0)
        for envelope in itertools.product(*[c.cards for c in edition.categories]):
            rest = [c for c in edition.cards if c not in envelope]
            for hand in itertools.combinations(rest, hand_size):
                total += 1
                chance += Fraction(1, int(1 / cf.accusation_chance_with_hand(edition, hand)))
        assert cf.first_accusation_chance(edition, hand_size) == chance / total
