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

__all__ = ["book_html", "book_notebook"]

CSS = """
body { font-family: Georgia, serif; max-width: 46em; margin: 2em auto; line-height: 1.4; }
h1 { font-size: 1.6em; } h2 { font-size: 1.15em; margin-bottom: .3em; }
.puzzle { border: 1px solid #999; border-radius: 6px; padding: .6em 1em; margin: 1em 0;
          break-inside: avoid; page-break-inside: avoid; }
.meta { color: #555; font-size: .9em; }
.events { font-family: monospace; font-size: .92em; }
.answer-space { border-bottom: 1px dotted #777; height: 2.2em; }
.answers { break-before: page; page-break-before: always; }
.answers li { margin-bottom: .8em; }
@media print { body { margin: 0; max-width: none; } .noprint { display: none; } }
"""


def _block(number: int, puzzle: Puzzle) -> str:
    ex = puzzle.exercise
    setup = "".join(f"<p>{escape(line)}</p>" for line in puzzle.setup)
    events = ""
    if puzzle.events:
        events = "<ol class='events'>" + "".join(
            f"<li>{escape(e.split(': ', 1)[-1] if e[:6] == 'event ' else e)}</li>"
            for e in puzzle.events) + "</ol>"
    options = ""
    if ex.options and ex.form != "number":
        options = "<ul>" + "".join(f"<li>☐ {escape(o)}</li>" for o in ex.options) + "</ul>"
    return (f"<section class='puzzle'><h2>Puzzle {number}</h2>"
            f"<p class='meta'>{escape(puzzle.kind)}, level {puzzle.level} · "
            f"{escape(puzzle.edition)}</p>{setup}{events}"
            f"<p><b>{escape(puzzle.question)}</b></p>{options}"
            "<div class='answer-space'></div></section>")


def book_html(puzzles: Sequence[Puzzle], title: str = "Clue puzzle book", *,
              student: bool = False) -> str:
    """The printable worksheet: every puzzle, then the answers on the last pages (left out of
    a ``student``'s copy)."""
    blocks = "".join(_block(i, p) for i, p in enumerate(puzzles, start=1))
    answers = "".join(
        f"<li><b>{escape(p.exercise.answer_text)}</b><br>"
        + "<br>".join(escape(line) for line in p.solution) + "</li>"
        for p in puzzles)
    levels = sorted({p.level for p in puzzles})
    return (f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>"
            f"<h1>{escape(title)}</h1><p class='meta'>{len(puzzles)} puzzles, levels "
            f"{', '.join(map(str, levels))}. Each was made from a seeded game and checked by "
            "the cluedo-lab engine: its answer is the only one that fits.</p>"
            f"{blocks}"
            + ("" if student else
               f"<section class='answers'><h1>Answers</h1><ol>{answers}</ol></section>")
            + "</body></html>")


def _cell(kind: str, source: str, tags: Sequence[str] = ()) -> dict[str, Any]:
    cell: dict[str, Any] = {"cell_type": kind, "metadata": {"tags": list(tags)} if tags
                            else {}, "source": source}
    if kind == "code":
        cell.update(execution_count=None, outputs=[])
    return cell


def _exercise_code(number: int, puzzle: Puzzle) -> str:
    return (f"exercise = generate({puzzle.edition!r}, {puzzle.kind!r}, {puzzle.level}, "
            f"seed={puzzle.seed}).exercise\n"
            f"exercise.key = {f'puzzle-{number}'!r}\n"
            "ExerciseWidget(exercise)")


def book_notebook(puzzles: Sequence[Puzzle], title: str = "Clue puzzle book", *,
                  student: bool = False) -> dict[str, Any]:
    """The book as a notebook (nbformat 4): each puzzle an exercise widget to answer, its
    answer and worked solution below it unless the book is a ``student``'s."""
    cells = [_cell("markdown", f"# {title}\n\nRun each puzzle's cell, answer in the widget and "
                               "press **Check**; **Hint** says a little more each time, "
                               "**Reveal** gives the answer and the worked solution."),
             _cell("code", "from cluedo_lab.lab.puzzles import generate\n"
                           "from cluedo_lab.views.exercises import ExerciseWidget")]
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
