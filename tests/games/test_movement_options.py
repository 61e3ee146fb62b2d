"""``turns.must_move`` on its own: with ``false`` a piece may stay where it is after the roll,
in a corridor or a room, whether the turn rolls first (2023) or a passage replaces the roll
(a 1949 variant); with ``true`` (1949, 2014) a piece that can move must."""

from __future__ import annotations

import pytest

from cluedo_lab.games.board_game import BoardGame
from cluedo_lab.games.game import Action, IllegalAction
from cluedo_lab.rules.edition import edition_data, edition_from_dict


def variant(base: str, must_move: bool):
    data = edition_data(base)
    data["id"] = f"{base}-must-move-{str(must_move).lower()}"
    data["turns"]["must_move"] = must_move
    return edition_from_dict(data, "variant.toml")


def rolled(game: BoardGame) -> BoardGame:
    game.apply(Action.make("roll", game.current))
    assert game.phase == "move" and any(game.targets())
    return game


@pytest.mark.parametrize("base", ["cluedo-classic-1949", "clue-classic-2023"])
def test_must_move_false_lets_the_piece_stay_after_the_roll(base):
    game = rolled(BoardGame(variant(base, False), 3, 2, clue_cards=False)
                  if base.startswith("clue") else BoardGame(variant(base, False), 3, 2))
    seat, here = game.current, game.piece(game.current)
    assert Action.make("stay", seat) in game.legal_actions()
    game.apply(Action.make("stay", seat))
    assert game.piece(seat) == here and game.phase == "act"


@pytest.mark.parametrize("base", ["cluedo-classic-1949", "clue-mansion-2014"])
def test_must_move_true_refuses_staying_after_the_roll(base):
    game = rolled(BoardGame(variant(base, True), 3, 2))
    seat = game.current
    assert Action.make("stay", seat) not in game.legal_actions()
    with pytest.raises(IllegalAction, match="now the piece moves"):
        game.apply(Action.make("stay", seat))
