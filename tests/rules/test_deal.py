"""Seeded deals: every card in exactly one place, in the amounts each edition's rules give."""

from __future__ import annotations

from collections import Counter

import pytest

from cluedo_lab.rules.deal import ENVELOPE, FACE_UP, deal
from cluedo_lab.rules.edition import edition_ids, load_edition
from cluedo_lab.views.display import to_html

SEEDS = (0, 1, 2, 7, 1949)

CASES = [(edition_id, players)
         for edition_id in edition_ids()
         for players in range(load_edition(edition_id).min_players,
                              load_edition(edition_id).max_players + 1)]


def places(d) -> Counter:
    """How many times each card turns up anywhere in the deal."""
    found = [*d.envelope, *(c for hand in d.hands for c in hand), *d.face_up,
             *(card for _, card in d.face_down)]
    return Counter(found)


def snapshot(d) -> tuple:
    return (d.envelope, d.hands, d.face_up, d.face_down)


@pytest.mark.parametrize(("edition_id", "players"), CASES)
def test_every_card_lies_in_exactly_one_place(edition_id, players):
    edition = load_edition(edition_id)
    for seed in SEEDS:
        d = deal(edition, players, seed)
        count = places(d)
        assert set(count) == set(edition.cards)
        assert set(count.values()) == {1}
        for card in edition.cards:  # place_of agrees with the piles
            where = d.place_of(card)
            if where == ENVELOPE:
                assert card in d.envelope
            elif where == FACE_UP:
                assert card in d.face_up
            elif isinstance(where, int):
                assert card in d.hands[where]
            else:
                assert (where, card) in d.face_down


@pytest.mark.parametrize(("edition_id", "players"), CASES)
def test_amounts_follow_the_edition(edition_id, players):
    edition = load_edition(edition_id)
    for seed in SEEDS:
        d = deal(edition, players, seed)
        assert d.players == players
        per_category = Counter(card.category for card in d.envelope)
        assert per_category == Counter(edition.deal.envelope)
        assert tuple(len(hand) for hand in d.hands) == edition.hand_sizes(players)
        assert len(d.face_up) == edition.face_up_count(players)
        assert [pile for pile, _ in d.face_down] == list(edition.deal.face_down_places)
        if edition.deal.spares == "uneven":
            assert d.face_up == ()


def test_uneven_deal_gives_the_extra_cards_to_the_first_seats():
    # 1949 Act 9: 18 cards dealt one at a time from the dealer's left; with 4 players the two
    # seats after the dealer get a fifth card.
    d = deal(load_edition("cluedo-classic-1949"), 4, seed=3)
    assert [len(hand) for hand in d.hands] == [5, 5, 4, 4]


def test_face_up_spares_and_face_down_piles():
    # 2014 with 4 players: 18 cards, 4 each, 2 face up in the Swimming Pool.
    d = deal(load_edition("clue-mansion-2014"), 4, seed=5)
    assert len(d.face_up) == 2 and all(len(hand) == 4 for hand in d.hands)
    # 2023 two-player: four cards face down, one in each corner room, 7 cards each.
    edition = load_edition("clue-classic-2023-two-player")
    d = deal(edition, 2, seed=5)
    assert [pile for pile, _ in d.face_down] == ["Kitchen", "Conservatory", "Lounge", "Study"]
    assert len({card for _, card in d.face_down}) == 4
    assert [len(hand) for hand in d.hands] == [7, 7]
    assert d.place_of(d.face_down[0][1]) == "Kitchen"


@pytest.mark.parametrize("edition_id", edition_ids())
def test_same_seed_same_deal(edition_id):
    edition = load_edition(edition_id)
    players = edition.max_players
    for seed in SEEDS:
        first = deal(edition, players, seed)
        again = deal(load_edition(edition_id), players, seed)
        assert [c.id for c in first.envelope] == [c.id for c in again.envelope]
        assert [[c.id for c in h] for h in first.hands] == [[c.id for c in h] for h in again.hands]
        assert snapshot(deal(edition, players, seed)) == snapshot(first)


@pytest.mark.parametrize("edition_id", edition_ids())
def test_different_seeds_give_different_deals(edition_id):
    edition = load_edition(edition_id)
    deals = {snapshot(deal(edition, edition.min_players, seed)) for seed in range(20)}
    assert len(deals) >= 18


def test_every_card_can_be_the_solution():
    edition = load_edition("cluedo-classic-1949")
    seen = Counter(card for seed in range(300) for card in deal(edition, 3, seed).envelope)
    assert set(seen) == set(edition.cards)
    # One of 6 suspects is drawn each time: each should turn up near 50 times in 300 deals.
    assert all(20 < seen[card] < 90 for card in edition.category("suspect").cards)


@pytest.mark.parametrize("edition_id", edition_ids())
def test_a_chosen_envelope_is_the_solution(edition_id):
    edition = load_edition(edition_id)
    # The last card of each category, named in reverse order and by printed name.
    chosen = [category.cards[-1] for category in edition.categories]
    names = [card.name for card in reversed(chosen)]
    hands = set()
    for seed in SEEDS:
        d = deal(edition, edition.min_players, seed, envelope=names)
        assert set(d.envelope) == set(chosen)
        assert list(d.envelope) == chosen  # kept in category order, like a drawn envelope
        assert all(card not in hand for hand in d.hands for card in chosen)
        assert set(places(d).values()) == {1}
        hands.add(d.hands)
    assert len(hands) > 1  # the rest is still shuffled by the seed


def test_the_fugitive_chooses_the_solution():
    edition = load_edition("cluedo-the-card-game-2002-one-against-all")
    d = deal(edition, 4, seed=11, envelope=["Plum", "Seaplane", "Loch Ness"])
    assert [c.id for c in d.envelope] == ["plum", "seaplane", "loch-ness"]
    assert [len(hand) for hand in d.hands] == [5, 5, 4, 4]


WRONG_ENVELOPES = [
    (["Plum", "Green", "Hall"], "Person card"),        # two persons, no weapon
    (["Plum", "Rope"], "Room card"),                   # a category missing
    (["Plum", "Rope", "Hall", "Study"], "Room card"),  # one too many
    (["Plum", "Rope", "Attic"], "no card 'Attic'"),    # not in the deck
    (["Plum", "Prof. Plum", "Rope", "Hall"], "twice"),  # the same card twice
    ("Plum", "list of cards"),                         # a string is not a list of cards
]


@pytest.mark.parametrize(("envelope", "message"), WRONG_ENVELOPES)
def test_a_wrong_envelope_is_refused(envelope, message):
    edition = load_edition("cluedo-classic-1949")
    with pytest.raises(ValueError, match=message):
        deal(edition, 3, seed=1, envelope=envelope)


def test_a_player_count_outside_the_rules_is_refused():
    edition = load_edition("cluedo-the-card-game-2002")
    for players in (2, 6):
        with pytest.raises(ValueError, match="3-5 players"):
            deal(edition, players, seed=1)


def test_a_deal_prints_without_memory_addresses():
    d = deal(load_edition("cluedo-the-card-game-2002"), 3, seed=4)
    for text in (repr(d), str(d), to_html(d)):
        assert "0x" not in text
    assert repr(d).startswith("<Deal cluedo-the-card-game-2002: 3 players, seed 4, envelope ")
    assert str(d).count("Seat ") == 3
