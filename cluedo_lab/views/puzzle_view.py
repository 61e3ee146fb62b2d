"""A puzzle to answer in a notebook: what a learner needs to solve it on the page, then its
exercise widget.

A reach puzzle is solved on the board, so its view draws the kit's board (the same SVG as the
Table, rows and columns numbered the same way) with every piece on its square or in its room,
your piece's square or room outlined as reachable squares are, and the dice you rolled. The
other kinds show their exercise widget alone: their record is printed above it.
"""

from __future__ import annotations

from html import escape
from typing import Any

from ..lab.puzzles import Puzzle
from ..rules.board import load_board
from ..rules.edition import load_edition
from .base import InteractiveView, live_box
from .board_svg import render_svg
from .exercises import ExerciseWidget

__all__ = ["PuzzleView", "board_html"]

DIE_FACES = "⚀⚁⚂⚃⚄⚅"


def board_html(puzzle: Puzzle, cell: int = 14) -> str:
    """The board of a reach puzzle with every piece and the roll, as HTML ("" for the other
    kinds): the SVG carries the board's name for screen readers, and the pieces and the roll
    are written out below it, so the puzzle reads without the drawing."""
    info = puzzle.board
    if not info:
        return ""
    board = load_board(info["board"])
    pieces = {k: tuple(v) if isinstance(v, list) else v for k, v in info["pieces"].items()}
    here = info["at"]
    mine = tuple(here) if isinstance(here, list) else here
    svg = render_svg(board, pieces, cell=cell, coordinates=True, reachable=[mine],
                     title=f"You roll {info['roll']}")
    dice = info.get("dice", [])
    faces = " ".join(DIE_FACES[d - 1] if 1 <= d <= 6 else str(d) for d in dice)
    legend = _pieces_text(puzzle)
    return ("<div class='cluedo-puzzle-board'>"
            f"{svg}<p>Your dice: <span style='font-size:1.6em'>{escape(faces)}</span> "
            f"({info['roll']} in all). {escape(legend)}</p>"
            "<p><small>Your piece is outlined in blue; squares are named by row and column "
            "as the numbers on the board's edges give them.</small></p></div>")


def _pieces_text(puzzle: Puzzle) -> str:
    """Where every piece stands, in words: "Pieces: Colonel Mustard (you): row 16, column 4;
    Mrs. Peacock: in the Study; ..."."""
    info = puzzle.board or {}
    edition = load_edition(puzzle.edition)

    def name(card: str) -> str:
        try:
            return edition.card(card).name
        except KeyError:
            return card

    said = []
    for character, where in info["pieces"].items():
        place = f"in the {name(where)}" if isinstance(where, str) else \
            f"row {where[0]}, column {where[1]}"
        you = " (you)" if character == info["piece"] else ""
        said.append(f"{name(character)}{you}: {place}")
    return "Pieces: " + "; ".join(said) + "."


class PuzzleView(InteractiveView):
    """A puzzle's board (a reach puzzle) above its exercise widget."""

    def __init__(self, puzzle: Puzzle, key: str | None = None, **options: Any):
        self.puzzle = puzzle
        if key is not None:
            puzzle.exercise.key = key
        self.exercise = ExerciseWidget(puzzle.exercise, **options)

    def __repr__(self) -> str:
        return f"PuzzleView(<{self.puzzle.command()}>)"

    def _repr_html_(self) -> str:
        return board_html(self.puzzle) + self.exercise._repr_html_()

    def _build(self) -> Any:
        import ipywidgets as w

        board = board_html(self.puzzle)
        parts = [w.HTML(board)] if board else []
        return live_box(self, [*parts, self.exercise.widget()])

    def _refresh(self) -> None:
        self.exercise._update()

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(self.widget())  # type: ignore[no-untyped-call]
