"""Who deals (``deal.dealer``), and so who gets the extra cards: the books deal one card at a
time round the table from the dealer's left (1949 Act 9 "clockwise ... including the
dealer"; 2002 one-against-all "beginning with the player to the left"), and choose the dealer
at the table, so each file writes its choice down."""

from __future__ import annotations

import pytest
from bad_editions import assert_refused

from cluedo_lab.rules.deal import deal
from cluedo_lab.rules.edition import edition_data, edition_from_dict, load_edition

UNEVEN = ("cluedo-classic-1949", "clue-classic-2023", "cluedo-the-card-game-2002")


def with_dealer(edition: str, dealer: str):
    data = edition_data(edition)
    data["id"] = f"{edition}-dealt-by-{dealer}"
    data["deal"]["dealer"] = dealer
    return edition_from_dict(data, "dealer.toml")


@pytest.mark.parametrize("edition", UNEVEN)
def test_the_shipped_files_name_the_dealer_and_say_why(edition):
    ed = load_edition(edition)
    assert ed.deal.dealer == "last-seat" and ed.dealer_seat(4) == 3
    assert "deal" in {a.about for a in ed.assumptions}      # the books leave it to the table


@pytest.mark.parametrize("players", [4, 5])
def test_the_cards_go_round_from_the_dealers_left(players):
    """18 cards for 4 or 5 players: the seats nearest the dealer's left get one more."""
    last = load_edition("cluedo-classic-1949")
    first = with_dealer("cluedo-classic-1949", "first-seat")
    base, extra = divmod(18, players)
    assert last.hand_sizes(players) == tuple(base + (s < extra) for s in range(players))
    assert first.dealer_seat(players) == 0
    assert first.hand_sizes(players) == tuple(
        base + ((s - 1) % players < extra) for s in range(players))
    for seed in range(5):
        a, b = deal(last, players, seed), deal(first, players, seed)
        assert a.envelope == b.envelope
        # The same shuffled cards, dealt from one seat further round.
        assert [b.hands[(s + 1) % players] for s in range(players)] == list(a.hands)
        assert tuple(map(len, b.hands)) == first.hand_sizes(players)


def test_the_2002_dealer_plays_first_wherever_they_sit():
    from cluedo_lab.games.factory import new_game

    assert new_game("cluedo-the-card-game-2002", 4, 1).turn == 3
    assert new_game(with_dealer("cluedo-the-card-game-2002", "first-seat"), 4, 1).turn == 0


def test_a_bad_dealer_fails_naming_the_field():
    assert_refused("cluedo-classic-1949", "deal.dealer", "youngest", "'last-seat', 'first-seat'")
    assert_refused("cluedo-the-card-game-2002-one-against-all", "deal.dealer", "first-seat",
                   "fugitive deals from the last seat")
