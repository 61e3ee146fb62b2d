"""sympy closed forms against the counting engine and the published figures."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from cluedo_lab.games.factory import new_game
from cluedo_lab.knowledge import closed_forms as cf
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.records import custom_edition
from cluedo_lab.rules.edition import all_editions, load_edition
from cluedo_lab.rules.errors import Contradiction

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


@pytest.mark.parametrize("edition", [ed.id for ed in all_editions()])
def test_deals_seen_from_every_seat_match_the_engine(edition):
    """Every seat of every player count, face-up cards included: seen by everyone, they count
    like the seat's own hand; the fugitive's own record knows the envelope (the escape plan)."""
    ed = load_edition(edition)
    for players in range(ed.min_players, ed.max_players + 1):
        game = new_game(ed.id, players, players)
        for seat in range(players):
            data = {**game.record_for(seat), "events": []}
            expected = Knowledge.from_dict(data).consistent_deals
            formula = cf.deals_from_seat(ed, players, seat, data["hand"], data.get("face_up", ()),
                                         data.get("escape_plan", ()))
            assert formula.doit() == expected, (players, seat)


def test_deals_from_a_seat_ask_for_the_face_up_cards():
    mansion = load_edition("clue-mansion-2014")
    hand = [c.id for c in mansion.cards[:4]]
    with pytest.raises(ValueError, match="lays 2 cards face up, not 0"):
        cf.deals_from_seat(mansion, 4, 0, hand)


def seen_cards(ed, counts):
    """As many cards of each category as ``counts`` says: the first ones (before any event,
    which cards a seat sees matters only by category)."""
    return [c.id for category, n in zip(ed.categories, counts, strict=True)
            for c in category.cards[:n]]


@pytest.mark.parametrize(("edition", "players"), [
    ("cluedo-card-game-2018", 2), ("cluedo-card-game-2018", 4), ("clue-mansion-2014", 4),
    ("cluedo-card-game-2018-advanced", 2), ("cluedo-classic-1949", 2),
    ("cluedo-classic-1949", 4)])
def test_the_most_deals_from_a_seat_is_reached_by_some_seat_and_never_passed(edition, players):
    """Every seat, and every way the cards it sees (its hand and the face-up cards) can fall
    into the categories, counted by the engine: the largest count is the closed form's."""
    ed = load_edition(edition)
    sizes = ed.hand_sizes(players)
    face_up = ed.face_up_count(players)
    names = [f"P{i}" for i in range(players)]
    counts = []
    for seat in sorted({sizes.index(size) for size in sizes}):
        known = sizes[seat] + face_up
        for split in itertools.product(*(range(len(c.cards) + 1) for c in ed.categories)):
            if sum(split) != known:
                continue
            cards = seen_cards(ed, split)
            try:
                k = Knowledge.from_dict({"edition": ed.id, "players": names,
                                         "observer": names[seat], "face_up": cards[:face_up],
                                         "hand": cards[face_up:]})
            except Contradiction:   # a category seen whole leaves the envelope nothing
                continue
            counts.append(k.consistent_deals)
    assert max(counts) == cf.most_deals_from_a_seat(ed, players)


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
