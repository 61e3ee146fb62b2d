"""Board rules the books give, read from the edition files (issue 15, items 2, 3 and 8).

A copy of an edition file under another name plays the same game, because nothing is looked
up by rule-book name; a value the engine does not know fails on loading, naming the field; and
the 1949 accusation is written down, so a wrong one moves nobody else's notepad.
"""

from __future__ import annotations

import random

import pytest

from cluedo_lab import Knowledge, load_edition
from cluedo_lab.bots.strategies import RandomBot
from cluedo_lab.games import new_game
from cluedo_lab.games.game import Action
from cluedo_lab.rules.edition import edition_data, edition_from_dict
from cluedo_lab.rules.errors import EditionError

BOARD_EDITIONS = ["cluedo-classic-1949", "clue-mansion-2014", "clue-classic-2023"]


@pytest.mark.parametrize("edition_id", BOARD_EDITIONS)
def test_a_renamed_copy_of_an_edition_plays_the_same_game(edition_id):
    data = edition_data(edition_id)
    data["id"], data["rule_book"] = "my-copy", "my-own-rules.txt"
    copy = edition_from_dict(data, "my-copy.toml")
    for seed in range(3):
        games = [new_game(ed, 4, seed) for ed in (load_edition(edition_id), copy)]
        for game in games:
            game.play([RandomBot(seed * 10 + s) for s in range(4)])
        assert games[0].history == games[1].history
        assert games[0].events == games[1].events


@pytest.mark.parametrize("field, value, words", [
    (("turns", "roll"), "sometimes", "turns.roll"),
    (("turns", "must_move"), "yes", "turns.must_move"),
    (("turns", "spare_pieces"), "garden", "turns.spare_pieces"),
    (("accusation", "when"), "whenever", "accusation.when"),
    (("accusation", "when"), "anywhere", "contradicts accusation.anywhere"),
])
def test_a_bad_rule_option_fails_on_loading_naming_the_field(field, value, words):
    data = edition_data("clue-classic-2023")
    data[field[0]][field[1]] = value
    with pytest.raises(EditionError, match=words.replace(".", r"\.")) as error:
        edition_from_dict(data, "broken.toml")
    assert "broken.toml" in str(error.value)


def test_card_games_have_no_board_turn_options():
    data = edition_data("cluedo-card-game-2018")
    data["turns"]["roll"] = "first"
    with pytest.raises(EditionError, match=r"turns\.roll"):
        edition_from_dict(data, "cards.toml")


@pytest.mark.parametrize("edition_id, when, spares", [
    ("cluedo-classic-1949", "after-suggestion", "rooms"),
    ("clue-mansion-2014", "after-suggestion", "start"),
    ("clue-classic-2023", "in-room", "start"),
])
def test_each_book_s_accusation_time_and_spare_pieces_come_from_its_file(edition_id, when,
                                                                         spares):
    edition = load_edition(edition_id)
    assert (edition.accusation.when, edition.turns.spare_pieces) == (when, spares)
    game = new_game(edition_id, 3, 0)
    assert game.accuse_when == when
    spare = [s for s in game.fixed.suspects if s not in game.characters]
    in_rooms = [isinstance(game.positions[s], str) for s in spare]
    assert all(in_rooms) if spares == "rooms" else not any(in_rooms)
    # A variant may change them: the game reads the edition, not the rule book's name.
    data = edition_data(edition_id)
    data["accusation"]["when"] = "anywhere"
    data["accusation"]["anywhere"] = True
    data["id"] = "accuse-anywhere"
    assert new_game(edition_from_dict(data), 3, 0).accuse_when == "anywhere"


def test_1949_a_wrong_accusation_is_written_down_unseen():
    """1949 5(g): the accuser writes the names and checks the envelope unseen; 5(i): a wrong
    accuser puts the cards back unseen. The others learn that the accusation was wrong, and
    nothing about which cards it named: their exact notepads do not move."""
    for seed in range(40):
        game = new_game("cluedo-classic-1949", 4, seed)
        rng = random.Random(seed)
        truth = {c.id for c in game.deal.envelope}
        while not game.is_over:
            legal = game.legal_actions()
            wrong = [a for a in legal if a.kind == "accuse" and set(a["cards"]) != truth]
            if wrong and len(game.events) > 3:
                break
            game.apply(rng.choice([a for a in legal if a.kind != "accuse"] or legal))
        else:
            continue
        accuser = game.current
        others = [s for s in range(4) if s != accuser]
        before = {s: Knowledge(game.record(s)).probabilities() for s in others}
        game.apply(wrong[0])
        for seat in others:
            event = game.record_for(seat)["events"][-1]
            assert event == {"accuse": None, "by": game.names[accuser], "correct": False}
            assert Knowledge(game.record(seat)).probabilities() == before[seat]
        own = game.record_for(accuser)["events"][-1]
        assert own["accuse"] == list(wrong[0]["cards"])
        assert set(own["envelope"]) == truth
        assert Knowledge(game.record(accuser)).solution() == tuple(
            sorted(truth, key=game.fixed.order.__getitem__))
        return
    pytest.fail("no seed reached a wrong accusation")  # pragma: no cover


def test_2014_a_wrong_accusation_is_said_aloud():
    game = new_game("clue-mansion-2014", 3, 1)
    rng = random.Random(1)
    while not game.is_over:
        legal = game.legal_actions()
        truth = {c.id for c in game.deal.envelope}
        wrong = [a for a in legal if a.kind == "accuse" and set(a["cards"]) != truth]
        if wrong:
            game.apply(wrong[0])
            other = (wrong[0].seat + 1) % 3
            assert game.record_for(other)["events"][-1]["accuse"] == list(wrong[0]["cards"])
            return
        game.apply(rng.choice(legal))
    pytest.fail("no wrong accusation was possible")  # pragma: no cover


def test_the_first_turn_of_2023_in_a_room_offers_only_the_roll_or_an_accusation():
    game = new_game("clue-classic-2023", 3, 2)
    rng = random.Random(2)
    while not (game.phase == "start" and game.room_of(game.current) is not None):
        game.apply(rng.choice([a for a in game.legal_actions() if a.kind != "accuse"]))
    assert {a.kind for a in game.legal_actions()} == {"roll", "accuse"}
    game.apply(Action.make("roll", game.current))
