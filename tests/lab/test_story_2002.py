"""The 2002 card game told at the table: a suggestion names the asker's destination marker
(prepared last turn or made with a card), and while a shower chooses a card the seat-facing
surfaces (each seat's legal actions, its controls, what it is told) show nobody else whether
the shower held one named card or several."""

from __future__ import annotations

import random

from cluedo_lab.games import new_game
from cluedo_lab.games.seat import seat_of
from cluedo_lab.lab.table_controls import controls
from cluedo_lab.lab.table_story import Before, narrate


def suggestions(edition: str = "cluedo-the-card-game-2002", seeds: int = 3):
    """(game, action, asker's marker before it, the told lines of every seat) for each
    suggestion some player must answer by choosing a card, in a few random games."""
    for seed in range(seeds):
        game = new_game(edition, 4, seed)
        rng = random.Random(seed)
        for _ in range(150):
            if game.is_over:
                break
            legal = game.legal_actions()
            action = rng.choice([a for a in legal if a.kind != "accuse"] or legal)
            naming = action.kind == "suggest" or (
                action.kind == "play" and action.get("cards") is not None
                and action.get("destination") is None)
            seats = [seat_of(game, s) for s in range(4)]
            marker = dict(seats[0].markers or ()).get(game.names[action.seat])
            befores = [Before.at(s) for s in seats]
            game.apply(action)
            if naming and game.stage == "show":
                told = [narrate(s, action, b) for s, b in zip(seats, befores, strict=True)]
                yield game, action, marker, told


def test_a_suggestion_is_told_with_its_destination():
    prepared = played = 0
    for game, action, marker, told in suggestions():
        place = game.edition.card(marker).name
        who, shower = game.names[action.seat], game.names[game.current]
        cards = ", ".join(game.edition.card(c).name for c in action["cards"])
        for lines in told:
            if action.kind == "suggest":        # prepared last turn ("from any destination")
                assert lines[0] == f"{who} asks about {cards} from {place}; {shower} must " \
                                   "choose a card to show"
            else:
                assert lines[0].endswith(f" naming {cards} from {place}"), lines[0]
        prepared += action.kind == "suggest"
        played += action.kind == "play"
    assert prepared >= 3 and played >= 3


def test_while_a_shower_chooses_no_other_seat_learns_how_many_cards_they_could_show():
    counts = set()
    for game, _, _, told in suggestions():
        shower = game.current
        options = game.legal_actions()
        counts.add(len(options))
        for index in range(4):
            seat = seat_of(game, index)
            if index == shower:
                # The shower's own choice: cards of their own hand, which they see anyway.
                assert {a["card"] for a in seat.legal_actions()} <= \
                    {c.id for c in game.deal.hands[index]}
                continue
            assert seat.legal_actions() == [] and controls(seat) == []
        # Every seat but the shower is told the same words, whatever the shower holds.
        assert len({tuple(map(str, lines)) for i, lines in enumerate(told)
                    if i != shower}) == 1
    assert counts >= {1, 2}                     # both cases met, told alike
