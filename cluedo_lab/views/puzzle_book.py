"""A puzzle book, printable and as a notebook: pure functions of generated puzzles.

:func:`book_html` writes one HTML page: a block per puzzle (the set-up, what happened, the
question, room to answer), print CSS that keeps a puzzle on one page-part, and the answers with
their worked solutions after a page break at the end. :func:`book_notebook` writes the same
puzzles as a notebook where each one is an :class:`~cluedo_lab.views.exercises.ExerciseWidget`
to answer, with hints and the worked solution in a solution cell (tagged for student copies).
A puzzle's cell makes its exercise again from the puzzle's edition, kind, level and seed, so the
answer is worked out by the engine when the cell runs and never written in the notebook; a
student's book (``student``) leaves the solution cells out.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from ..lab.puzzles import Puzzle
from ..records import ENVELOPE, FACE_UP, Record
from ..rules.edition import Category
from .puzzle_view import board_html

__all__ = ["book_html", "book_notebook"]

CSS = """
@page { size: A4; margin: 12mm; }
body { font-family: Georgia, serif; font-size: 10pt; max-width: 52em; margin: 1.5em auto;
       line-height: 1.3; }
h1 { font-size: 1.5em; margin: 0 0 .3em; } h2 { font-size: 1.05em; margin: 0 0 .2em; }
.student { display: flex; gap: 2em; margin: .4em 0; }
.student span { flex: 1; border-bottom: 1px solid #333; padding-top: 1.2em; }
.instructions { font-size: .92em; border: 1px solid #bbb; padding: .3em .8em; }
.puzzle { border: 1px solid #999; border-radius: 6px; padding: .4em .7em; margin: .5em 0;
          break-inside: avoid; page-break-inside: avoid; display: flex; gap: .8em;
          font-size: 9pt; flex-wrap: wrap; }
.puzzle .text { flex: 1 1 50%; min-width: 50%; } .puzzle p { margin: .2em 0; }
.meta, .command { color: #555; font-size: .85em; }
.command { font-family: monospace; }
.events { font-family: monospace; font-size: .9em; margin: .2em 0; padding-left: 2.2em; }
.answer-space { border-bottom: 1px dotted #777; height: 1.6em; }
table.grid { border-collapse: collapse; font-size: 6.5pt; align-self: flex-start; }
.grid th, .grid td { border: 1px solid #888; padding: 0 .25em; height: 1.05em; }
.grid td.box { width: 1.3em; } .grid th.cat { text-align: left; background: #eee; }
.grid th.card { text-align: left; font-weight: normal; white-space: nowrap; }
.grids { display: flex; gap: .3em; align-items: flex-start; }
.board svg { width: 62mm; height: auto; }
.legend { font-size: .8em; color: #333; }
.answers { break-before: page; page-break-before: always; }
.answers li { margin-bottom: .7em; font-size: 9pt; }
@media print { body { margin: 0; max-width: none; } .noprint { display: none; } }
"""

INSTRUCTIONS = (
    "Each puzzle gives your hand and what happened in a game, as you saw it: you are the "
    "player called you. Use the grid beside it: mark ✓ where a card must be, ✗ where it "
    "cannot be, and leave a cell empty while you do not know. Start with your own hand and "
    "the face-up cards, then take the events one at a time. Write your answer on the line; "
    "a chance is a fraction. The answers, with worked solutions, are at the back.")

LEGEND = "✓ holds · ✗ does not hold · empty: not known yet. Env: the envelope."


def _grid(puzzle: Puzzle) -> str:
    """A detective grid to fill: a row per card, a column per place a card can hide; the
    last category (the rooms, the destinations) stands beside the others, so the grid is half
    as tall and three puzzles fit on a page."""
    record = Record.from_dict(puzzle.record)
    places = [q for q in record.places if q != FACE_UP]
    heads = "".join(f"<th>{escape(_short(q, record.observer))}</th>" for q in places)
    categories = record.edition.categories

    def table(group: Sequence[Category]) -> str:
        rows = []
        for category in group:
            rows.append(f"<tr><th class='cat' colspan='{len(places) + 1}'>"
                        f"{escape(category.name)}</th></tr>")
            rows += [f"<tr><th class='card'>{escape(card.name)}</th>"
                     + "<td class='box'></td>" * len(places) + "</tr>"
                     for card in category.cards]
        return f"<table class='grid'><tr><th></th>{heads}</tr>{''.join(rows)}</table>"

    return ("<div class='grids' role='group' aria-label='detective grid'>"
            + table(categories[:-1]) + table(categories[-1:]) + "</div>")


def _short(place: str, observer: str | None) -> str:
    if place == ENVELOPE:
        return "Env"
    return "you" if place == observer else place[:6]


def _board(puzzle: Puzzle) -> str:
    """The board with every piece on it and the dice, for a reach puzzle (as its widget
    draws it, smaller)."""
    return "<div class='board'>" + board_html(puzzle, cell=8) + "</div>"


def _block(number: int, puzzle: Puzzle) -> str:
    ex = puzzle.exercise
    setup = "".join(f"<p>{escape(line)}</p>" for line in puzzle.setup)
    events = ""
    if puzzle.events:
        events = "<p>What happened:</p><ol class='events'>" + "".join(
            f"<li>{escape(e.split(': ', 1)[-1] if e[:6] == 'event ' else e)}</li>"
            for e in puzzle.events) + "</ol>"
    options = ""
    if ex.options and ex.form != "number":
        options = "<p>" + " &nbsp; ".join(f"☐ {escape(o)}" for o in ex.options) + "</p>"
    side = _board(puzzle) if puzzle.board else _grid(puzzle)
    return (f"<section class='puzzle'><div class='text'><h2>Puzzle {number}</h2>"
            f"<p class='meta'>{escape(puzzle.kind)}, level {puzzle.level}</p>{setup}{events}"
            f"<p><b>{escape(puzzle.question)}</b></p>{options}"
            "<div class='answer-space'></div>"
            f"<p class='command'>{escape(puzzle.command())}</p></div>{side}</section>")


def book_html(puzzles: Sequence[Puzzle], title: str = "Clue puzzle book", *,
              student: bool = False) -> str:
    """The printable book for one class: a title, name and date lines, instructions and a
    legend, then the puzzles, each with a detective grid (a reach puzzle: the board with every
    piece) and the command that makes it again, flowing three or four to an A4 page and never
    split across pages, and at the back an answer key with the worked solutions (left out of a
    ``student``'s copy)."""
    blocks = "".join(_block(i, p) for i, p in enumerate(puzzles, start=1))
    answers = "".join(
        f"<li><b>{escape(p.exercise.answer_text)}</b><br>"
        + "<br>".join(escape(line) for line in p.solution)
        + f"<br><span class='command'>{escape(p.command())} --answer</span></li>"
        for p in puzzles)
    levels = sorted({p.level for p in puzzles})
    kinds = sorted({p.kind for p in puzzles})
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            f"<h1>{escape(title)}</h1>"
            "<div class='student'><span>Name:</span><span>Class:</span><span>Date:</span></div>"
            f"<p class='meta'>{len(puzzles)} puzzles ({', '.join(kinds)}), levels "
            f"{', '.join(map(str, levels))}. Each was made from a seeded game and checked by "
            "the cluedo-lab engine: its answer is the only one that fits.</p>"
            f"<div class='instructions'><p>{escape(INSTRUCTIONS)}</p>"
            f"<p class='legend'>{escape(LEGEND)}</p></div>"
            f"{blocks}"
            + ("" if student else
               f"<section class='answers'><h1>Answer key</h1><ol>{answers}</ol></section>")
            + "</body></html>")


def _cell(kind: str, source: str, tags: Sequence[str] = ()) -> dict[str, Any]:
    cell: dict[str, Any] = {"cell_type": kind, "metadata": {"tags": list(tags)} if tags
                            else {}, "source": source}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _exercise_code(number: int, puzzle: Puzzle) -> str:
    return (f"puzzle = generate({puzzle.edition!r}, {puzzle.kind!r}, {puzzle.level}, "
            f"seed={puzzle.seed})\n"
            f"PuzzleView(puzzle, key={f'puzzle-{number}'!r})")


def book_notebook(puzzles: Sequence[Puzzle], title: str = "Clue puzzle book", *,
                  student: bool = False) -> dict[str, Any]:
    """The book as a notebook (nbformat 4): each puzzle an exercise widget to answer, its
    answer and worked solution below it unless the book is a ``student``'s."""
    cells = [_cell("markdown", f"# {title}\n\nRun each puzzle's cell, answer in the widget and "
                               "press **Check**; **Hint** says a little more each time, "
                               "**Reveal** gives the answer and the worked solution."),
             _cell("code", "from cluedo_lab.lab.puzzle_kinds import generate\n"
                           "from cluedo_lab.views.puzzle_view import PuzzleView")]
    for number, puzzle in enumerate(puzzles, start=1):
        text = [f"## Puzzle {number} ({puzzle.kind}, level {puzzle.level})", "",
                *puzzle.setup]
        if puzzle.events:
            text += ["", "What happened:", ""] + [f"* {e}" for e in puzzle.events]
        text += ["", f"**{puzzle.question}**"]
        cells.append(_cell("markdown", "\n".join(text)))
        cells.append(_cell("code", _exercise_code(number, puzzle), ["exercise"]))
        if not student:
            cells.append(_cell("markdown", "\n".join([f"Answer: {puzzle.exercise.answer_text}",
                                                      "", *puzzle.solution]), ["solution"]))
    return {"cells": cells, "metadata": {"kernelspec": {"name": "python3",
                                                        "display_name": "Python 3",
                                                        "language": "python"}},
            "nbformat": 4, "nbformat_minor": 5}
