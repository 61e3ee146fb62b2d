"""Reprs of the rules layer are evaluable (``eval(repr(x)) == x``) or clearly bracketed
(``<Edition ...>``): nothing prints like a call that would fail."""

import pytest

from cluedo_lab.rules.board import load_board
from cluedo_lab.rules.clue_cards import load_clue_deck
from cluedo_lab.rules.dice import TWO_DICE, Dice
from cluedo_lab.rules.edition import Card, Edition, all_editions, load_edition
from cluedo_lab.rules.variant import Variant, variant

NAMESPACE = {"Card": Card, "Dice": Dice, "variant": variant}


def evaluable(x: object) -> bool:
    return bool(eval(repr(x), dict(NAMESPACE)) == x)


def bracketed(x: object) -> bool:
    text = repr(x)
    name = f"<{type(x).__name__}"
    return text.startswith(name) and text[len(name)] in " :" and text.endswith(">")


@pytest.mark.parametrize("edition", all_editions(), ids=lambda e: e.id)
def test_every_card_repr_evaluates_to_the_card(edition: Edition) -> None:
    for card in edition.cards:
        assert evaluable(card), repr(card)


def test_a_card_repr_shows_its_features_only_when_it_has_some() -> None:
    classic = load_edition("cluedo-classic-1949")
    assert repr(classic.card("White")) == ("Card('white', 'Mrs. White', 'suspect', "
                                           "features={'colour': 'white'})")
    assert repr(classic.card("Rope")) == "Card('rope', 'Rope', 'weapon')"


def test_editions_categories_boards_and_decks_are_bracketed() -> None:
    classic = load_edition("cluedo-classic-1949")
    assert repr(classic) == "<Edition cluedo-classic-1949>"
    assert repr(classic.categories[0]) == "<Category suspect: 6 cards>"
    assert repr(load_board("classic-24x25")) == "<Board classic-24x25>"
    deck = load_clue_deck()
    for x in (classic, classic.categories[0], load_board("classic-24x25"), deck):
        assert bracketed(x), repr(x)


def test_dice_and_variants_are_evaluable() -> None:
    v = variant("cluedo-classic-1949", players=4, spares="face-up")
    assert isinstance(v, Variant)
    for x in (TWO_DICE, Dice(1), Dice(2, 6, (1,)), v):
        assert evaluable(x), repr(x)
