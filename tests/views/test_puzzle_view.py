"""A puzzle's notebook view (issue 30): a reach puzzle shows the board with every piece and the
dice, its squares named as the Table and the board's edges number them."""

from __future__ import annotations

import re

from cluedo_lab.lab.puzzle_kinds import generate
from cluedo_lab.rules.board import load_board, room_distances
from cluedo_lab.views.puzzle_view import PuzzleView, board_html

E49 = "cluedo-classic-1949"


def test_a_reach_puzzle_s_view_draws_the_board_every_piece_and_the_dice():
    puzzle = generate(E49, "reach", 3, seed=1)
    info = puzzle.board
    html = board_html(puzzle)
    assert "<svg" in html and "class=\"coordinates\"" in html
    assert sum(info["dice"]) == info["roll"] and len(info["dice"]) == 2
    # every piece is drawn (the SVG names each piece it draws) and written out
    for character in info["pieces"]:
        name = load_name(character)
        assert name in html
    view = PuzzleView(puzzle, key="reach-test")
    assert view.exercise.exercise.key == "reach-test"
    assert "<svg" in view._repr_html_() and puzzle.question in view._repr_html_()
    assert len(view.widget().children) == 2


def load_name(character: str) -> str:
    from cluedo_lab import load_edition
    return load_edition(E49).card(character).name


def test_a_reach_puzzle_names_squares_as_the_board_numbers_them():
    """The square the puzzle names is the piece's square on the board file, counted from 0
    as the SVG's edge labels and the Table's "row r, column c" count, and the rooms the
    answer gives are the board search's."""
    puzzle = generate(E49, "reach", 2, seed=0)
    info = puzzle.board
    board = load_board(info["board"])
    at = info["at"]
    if isinstance(at, list):
        said = re.search(r"row (\d+), column (\d+)", puzzle.question)
        assert said and [int(said[1]), int(said[2])] == at
        labels = re.findall(r">(\d+)</text>", board_html(puzzle))
        assert labels[0] == "0"
    blocked = {tuple(p) for c, p in info["pieces"].items()
               if isinstance(p, list) and p != at}
    here = tuple(at) if isinstance(at, list) else at
    distances = room_distances(board, here, blocked)
    assert sorted(puzzle.answer["rooms"]) == sorted(
        r for r, d in distances.items() if d <= info["roll"])


def test_other_kinds_show_their_exercise_alone():
    puzzle = generate(E49, "who-holds", 1, seed=0)
    assert board_html(puzzle) == ""
    assert len(PuzzleView(puzzle).widget().children) == 1
