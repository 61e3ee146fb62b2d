"""The one game loop: bots play until the game ends, a person's seat must act, or the limit
is reached; every way of playing a game goes through it."""

from __future__ import annotations

import doctest

import pytest

import cluedo_lab.games.loop
from cluedo_lab.bots import bot_names, make_bot
from cluedo_lab.bots.registry import FOR_TESTS
from cluedo_lab.games import new_game
from cluedo_lab.games.loop import Outcome, run
from cluedo_lab.rules.errors import ActionLimit, CluedoLabError

EDITIONS = ["cluedo-classic-1949", "cluedo-card-game-2018", "cluedo-the-card-game-2002"]


def bots(specs, seed=0):
    return [make_bot(spec, seed * 10 + s) for s, spec in enumerate(specs)]


@pytest.mark.parametrize("edition", EDITIONS)
def test_bots_play_to_the_end_and_the_outcome_says_who_won(edition):
    game = new_game(edition, 3, 4)
    outcome = run(game, bots(["eliminator", "random", "eliminator"]))
    assert game.is_over and outcome.over
    assert outcome == Outcome(len(game.history), waiting=None, winner=game.winner)


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_person_s_seat_stops_the_loop_until_they_act(edition):
    game = new_game(edition, 3, 2)
    specs = ["random", "random", "eliminator"]
    person, *others = bots(specs, 2)    # the person plays as seat 0's bot would
    players = [None, *others]
    for _ in range(6):
        before = len(game.history)
        outcome = run(game, players)
        if outcome.over:
            break
        assert outcome.waiting == 0 == game.current and not outcome.over
        assert outcome.actions == len(game.history) - before
        again = run(game, players)          # still waiting: nothing more is played
        assert again == Outcome(0, waiting=0) and len(game.history) == before + outcome.actions
        game.apply(person.choose(game, 0))
    twin = new_game(edition, 3, 2)
    run(twin, bots(specs, 2))
    assert twin.history[:len(game.history)] == game.history


def test_the_limit_stops_a_game_with_a_kit_error_after_exactly_that_many_actions():
    game = new_game("cluedo-classic-1949", 3, 1)
    with pytest.raises(ActionLimit, match="no result after 5 actions") as caught:
        run(game, bots(["detective"] * 3), limit=5)
    assert isinstance(caught.value, CluedoLabError) and caught.value.limit == 5
    assert len(game.history) == 5 and not game.is_over
    with pytest.raises(ActionLimit):       # Game.play keeps the same limit and error
        new_game("cluedo-classic-1949", 3, 1).play(bots(["detective"] * 3), max_actions=5)


def test_a_game_ending_on_the_last_allowed_action_is_not_over_the_limit():
    game = new_game("cluedo-card-game-2018", 3, 0)
    played = run(game, bots(["detective", "random", "eliminator"])).actions
    again = new_game("cluedo-card-game-2018", 3, 0)
    outcome = run(again, bots(["detective", "random", "eliminator"]), limit=played)
    assert outcome.over and outcome.actions == played and again.history == game.history


def test_one_player_per_seat():
    game = new_game("cluedo-card-game-2018", 3, 0)
    with pytest.raises(ValueError, match="need 3 players"):
        run(game, bots(["random", "random"]))
    assert game.history == []


def test_game_play_is_the_loop():
    played = new_game("cluedo-the-card-game-2002", 4, 9)
    looped = new_game("cluedo-the-card-game-2002", 4, 9)
    specs = ["infogain", "bluffer", "random", "detective"]
    winner = played.play(bots(specs, 9))
    outcome = run(looped, bots(specs, 9))
    assert played.history == looped.history and winner == outcome.winner


def test_students_are_offered_every_bot_but_the_test_only_ones():
    offered = bot_names(for_students=True)
    assert "explorer" in FOR_TESTS and "explorer" in bot_names()
    assert offered == [name for name in bot_names() if name not in FOR_TESTS]
    assert {"random", "detective", "quick-detective"} <= set(offered)
    for name in bot_names():
        assert callable(make_bot(name, 0).choose)


def test_the_loop_module_s_examples_run():
    failed, tried = doctest.testmod(cluedo_lab.games.loop)
    assert tried >= 6 and failed == 0
