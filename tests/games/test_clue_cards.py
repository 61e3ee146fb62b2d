"""Clue cards (2023): the kit's own deck file is checked like an edition, and in play each kind
of card does what ``data/clue-cards-2023.toml`` says it does, seen by exactly the players it
says."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable

import pytest

from cluedo_lab.games import new_game
from cluedo_lab.games.board_game import BoardGame
from cluedo_lab.games.game import Action
from cluedo_lab.rules.clue_cards import KINDS, load_clue_deck, parse_clue_deck
from cluedo_lab.rules.data import clue_deck_path
from cluedo_lab.rules.errors import EditionError

E23 = "clue-classic-2023"
E23_2P = "clue-classic-2023-two-player"


# -- the deck file ------------------------------------------------------------------------------

def test_deck_has_29_cards_of_kinds_the_game_plays_and_says_it_is_the_kits_own():
    deck = load_clue_deck()
    assert len(deck) == 29 and len(deck.cards) == 29      # rule book: 29 Clue cards
    assert set(deck.counts()) == set(KINDS)               # every kind used, none unknown
    assert deck.designed_by == "cluedo-lab" and "own design" in deck.name
    text = clue_deck_path().read_text(encoding="utf-8")
    assert "THE KIT'S OWN DESIGN, NOT THE PRINTED CARDS" in text
    assert all(card.text.strip() and card.title.strip() for card in deck.kinds)


def raw_deck() -> dict:
    with clue_deck_path().open("rb") as handle:
        return tomllib.load(handle)


@pytest.mark.parametrize("change, field, problem", [
    (lambda d: d.update(total=30), "total", "add up to 29 cards, not 30"),
    (lambda d: d.update(colour="red"), "colour", "unknown field"),
    (lambda d: d.pop("name"), "name", "missing or empty"),
    (lambda d: d["cards"][0].update(kind="teleport"), "cards[0].kind", "expected one of"),
    (lambda d: d["cards"][1].update(count=0), "cards[1].count", "whole number >= 1"),
    (lambda d: d["cards"][2].update(text=""), "cards[2].text", "missing or empty"),
    (lambda d: d["cards"][3].update(title=d["cards"][0]["title"]), "cards[3].title",
     "used twice"),
    (lambda d: d["cards"][0].update(price=3), "cards[0].price", "unknown field"),
    (lambda d: d.update(cards=[]), "cards", "at least one"),
])
def test_bad_deck_files_fail_naming_file_and_field(change: Callable, field: str, problem: str):
    data = raw_deck()
    change(data)
    with pytest.raises(EditionError) as error:
        parse_clue_deck(data, "deck.toml")
    message = str(error.value)
    assert "deck.toml" in message and field in message and problem in message


def test_unreadable_deck_files_fail_naming_the_file(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("name = [", encoding="utf-8")
    with pytest.raises(EditionError, match="broken.toml.*not valid TOML"):
        load_clue_deck(broken)
    with pytest.raises(EditionError, match="missing.toml.*cannot be read"):
        load_clue_deck(tmp_path / "missing.toml")


# -- in play ----------------------------------------------------------------------------------

def quiet(game: BoardGame, rng: random.Random) -> Action:
    """Never suggests or accuses: rolls, enters rooms, answers at random."""
    legal = game.legal_actions()
    for kind in ("show", "reveal", "clue", "roll"):
        options = [a for a in legal if a.kind == kind]
        if options:
            return rng.choice(options)
    moves = [a for a in legal if a.kind == "move"]
    if moves:
        rooms = [a for a in moves if isinstance(a["to"], str)]
        return rng.choice(rooms or moves)
    return next(a for a in legal if a.kind == "end")


def drawn(kind: str, edition: str = E23, players: int = 4) -> BoardGame:
    """A game just after its current player drew a Clue card of ``kind``."""
    for seed in range(40):
        game = new_game(edition, players, seed)
        rng = random.Random(seed)
        while not game.is_over and game.turn_number < 200:
            card = game.clue_card
            if card is not None and card.kind == kind and " draws a Clue card" in game.log[-1]:
                return game
            game.apply(quiet(game, rng))
    raise AssertionError(f"no game draws a {kind} card")  # pragma: no cover


def sees_card(game: BoardGame, seat: int | None, event_index: int) -> bool:
    return "card" in game.record_for(seat)["events"][event_index]


def seats(game: BoardGame) -> list[int | None]:
    return [*range(len(game.names)), None]


def test_clue_card_show_me_the_drawer_picks_a_player_who_shows_them_a_card():
    game = drawn("show-me")
    drawer = game.current
    assert game.phase == "clue-choose"
    others = [game.names[s] for s in range(4) if s != drawer]
    assert sorted(a["player"] for a in game.legal_actions()) == sorted(others)
    assert {a.kind for a in game.legal_actions()} == {"clue"}
    target = (drawer + 2) % 4
    game.apply(Action.make("clue", drawer, player=game.names[target]))
    assert game.phase == "clue-show" and game.current == target
    hand = sorted(c.id for c in game.deal.hands[target])
    assert sorted(a["card"] for a in game.legal_actions()) == hand   # their choice
    game.apply(Action.make("show", target, card=hand[-1]))
    event = game.events[-1]
    assert event == {"show": game.names[target], "to": game.names[drawer], "card": hand[-1],
                     "_seen_by": [game.names[target], game.names[drawer]]}
    index = len(game.events) - 1
    assert [sees_card(game, s, index) for s in seats(game)] == \
        [s in (drawer, target) for s in seats(game)]
    assert game.phase in ("move", "act") and game.current == drawer   # then the move


def test_clue_card_show_me_with_two_players_needs_no_choice():
    game = drawn("show-me", E23_2P, 2)
    drawer = game.turn
    assert game.phase == "clue-show" and game.current == 1 - drawer


def test_clue_card_left_shows_the_left_neighbour_shows_the_drawer_a_card():
    game = drawn("left-shows")
    drawer = game.turn
    left = (drawer + 1) % 4
    assert game.phase == "clue-show" and game.current == left
    card = sorted(a["card"] for a in game.legal_actions())[0]
    game.apply(Action.make("show", left, card=card))
    assert game.events[-1]["show"] == game.names[left]
    assert game.events[-1]["to"] == game.names[drawer]
    index = len(game.events) - 1
    assert [sees_card(game, s, index) for s in seats(game)] == \
        [s in (drawer, left) for s in seats(game)]


def test_clue_card_reveal_the_chosen_player_shows_everyone_a_card():
    game = drawn("reveal")
    drawer = game.current
    target = (drawer + 3) % 4
    game.apply(Action.make("clue", drawer, player=target))          # a seat number works too
    assert game.phase == "clue-show" and game.current == target
    assert {a.kind for a in game.legal_actions()} == {"reveal"}
    card = sorted(a["card"] for a in game.legal_actions())[1]
    game.apply(Action.make("reveal", target, card=card))
    assert game.events[-1] == {"reveal": card, "by": game.names[target]}
    index = len(game.events) - 1
    assert all(game.record_for(s)["events"][index] == {"reveal": card, "by": game.names[target]}
               for s in seats(game))
    assert card in {c.id for c in game.deal.hands[target]}            # back in their hand


def test_clue_card_all_show_left_everyone_shows_their_left_neighbour_a_card():
    game = drawn("all-show-left")
    drawer = game.turn
    before = len(game.events)
    order = []
    while game.phase == "clue-show":
        shower = game.current
        order.append(shower)
        game.apply(game.legal_actions()[0])
    assert order == [(drawer + k) % 4 for k in range(4)]              # from the drawer on
    shows = game.events[before:]
    assert [(e["show"], e["to"]) for e in shows] == [
        (game.names[s], game.names[(s + 1) % 4]) for s in order]
    for offset, event in enumerate(shows):
        index = before + offset
        pair = {event["show"], event["to"]}
        assert [sees_card(game, s, index) for s in seats(game)] == \
            [s is not None and game.names[s] in pair for s in seats(game)]


def test_clue_card_any_room_the_drawer_may_go_straight_into_any_room():
    game = drawn("any-room")
    seat = game.current
    here = game.piece(seat)
    rooms, squares = game.targets()
    assert set(rooms) == set(game.fixed.rooms) - {here}
    assert squares                                   # moving by the dice is still allowed
    far = max(rooms, key=lambda r: game.board.room_name(r))
    game.apply(Action.make("move", seat, to=far))
    assert game.piece(seat) == far and game.phase == "act"


def test_a_drawn_clue_card_goes_to_the_bottom_of_the_deck():
    game = drawn("show-me")
    order = game.clue_order
    assert order[-1] == game.clue_index and sorted(order) == list(range(29))
    # Each draw takes the top card and puts it at the bottom: after k draws the seeded
    # starting order has turned by k.
    start = new_game(E23, 4, game.seed).clue_order
    draws = sum(" draws a Clue card" in line for line in game.log)
    assert draws >= 1 and order == start[draws:] + start[:draws]
    drawn_titles = [line.split("'")[1] for line in game.log if " draws a Clue card" in line]
    deck = load_clue_deck().cards
    assert drawn_titles == [deck[i].title for i in start[:draws]]


def test_wrong_accusers_still_show_cards_for_clue_cards():
    """2023 HOW TO WIN: after a wrong accusation you 'must show cards when other players ...
    name cards they want revealed'."""
    for seed in range(40):
        game = new_game(E23, 3, seed)
        rng = random.Random(seed)
        truth = {c.id for c in game.deal.envelope}
        accused = None
        while not game.is_over and game.turn_number < 150:
            legal = game.legal_actions()
            wrong = [a for a in legal if a.kind == "accuse" and set(a["cards"]) != truth]
            if accused is None and wrong:
                accused = game.current
                game.apply(wrong[0])
                continue
            if accused is not None and game.phase == "clue-show" and game.current == accused:
                return
            game.apply(quiet(game, rng))
    raise AssertionError("no wrong accuser was asked to show a card")  # pragma: no cover
