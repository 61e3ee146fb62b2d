"""The lessons as an nbgrader course: every exercise of a lesson graded, the widgets kept.

nbgrader (https://nbgrader.readthedocs.io) is what a course on a JupyterHub grades with: a
teacher keeps the *source* version of each assignment, ``nbgrader generate_assignment`` makes
the version students get, ``nbgrader autograde`` runs what they hand in against hidden tests,
``nbgrader export`` writes the scores. nbgrader reads its own cell metadata
(``metadata.nbgrader``: ``solution``, ``grade``, ``locked``, ``grade_id``, ``points``,
``schema_version``) and two pairs of markers, ``### BEGIN SOLUTION`` / ``### END SOLUTION``
(cut from the students' version) and ``### BEGIN HIDDEN TESTS`` / ``### END HIDDEN TESTS``
(cut, and put back when grading).

:func:`graded_lesson` turns a lesson into its source version. It starts from the student copy
(:func:`~cluedo_lab.lab.lessons.student_copy`: no solution cells, answers hidden), so nothing
outside nbgrader's markers gives an answer away, and then

* locks each exercise cell (it makes the exercise and its widget: the practice stays as it was,
  and grading puts the cell back as written, so a changed answer key counts for nothing);
* where the teacher's copy had a solution cell, puts an **answer cell** (``solution``): the
  student sets ``answer_1 = ...`` to what they would choose or type in the widget; between the
  solution markers, the teacher's own worked answer, taken from the solution cell's
  ``ex1.check(...)`` (or the engine's answer where the cell checks nothing);
* after it, one **test cell** per exercise (``grade``, one point, locked) whose hidden test is
  the exercise's own check: ``assert ex1.check(answer_1).correct``.

:func:`write_course` writes ``DIR/source/<lesson>/<lesson>.ipynb`` for every lesson and an
``nbgrader_config.py`` for the course.
"""

from __future__ import annotations

import ast
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..rules.data import lessons_dir
from ..rules.errors import CluedoLabError
from .lessons import EXERCISE, SOLUTION, cell_tags, lesson_paths, student_copy

__all__ = ["graded_lesson", "write_course", "course_lessons", "shown_exercises", "CONFIG",
           "Graded"]

CONFIG = '''\
# nbgrader's settings for the cluedo-lab course (written by `cluedo-lab lessons DIR --nbgrader`).
c = get_config()  # noqa: F821 (nbgrader supplies it)
c.CourseDirectory.course_id = "cluedo-lab"
# An answer cell left as released keeps `answer_1 = None` and runs on, so Run All still
# reaches every exercise widget; its check then fails.
c.ClearSolutions.code_stub = {"python": "# YOUR ANSWER HERE: set the answer above"}
# A lesson counts exact deals: give a cell time.
c.Execute.timeout = 600
'''
"""The course's ``nbgrader_config.py``."""


@dataclass(frozen=True)
class Graded:
    """One graded exercise of a lesson: its number, the code naming its Exercise in the
    lesson (``ex1``) and the variable the student answers in (``answer_1``)."""

    number: int
    exercise: str
    answer: str


def _meta(grade_id: str, *, solution: bool = False, grade: bool = False,
          locked: bool = False, points: int | None = None) -> dict[str, Any]:
    meta: dict[str, Any] = {"grade": grade, "grade_id": grade_id, "locked": locked,
                            "schema_version": 3, "solution": solution}
    if points is not None:
        meta["points"] = points
    return meta


def _code(source: str, nbgrader: dict[str, Any]) -> dict[str, Any]:
    return {"cell_type": "code", "execution_count": None, "id": nbgrader["grade_id"],
            "metadata": {"nbgrader": nbgrader}, "outputs": [], "source": source}


def shown_exercises(source: str) -> list[str]:
    """The code of every exercise an exercise cell shows: the argument of each
    ``ExerciseWidget(...)``."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    return [ast.get_source_segment(source, node.args[0]) or ""
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id == "ExerciseWidget" and node.args]


def _checked(statement: ast.stmt) -> ast.Call | None:
    """The ``X.check(answer)`` call a solution statement makes, alone or printed."""
    if not isinstance(statement, ast.Expr):
        return None
    call = statement.value
    if (isinstance(call, ast.Call) and isinstance(call.func, ast.Name)
            and call.func.id == "print" and len(call.args) == 1):
        call = call.args[0]
    if (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and call.func.attr == "check" and len(call.args) == 1):
        return call
    return None


def _worked(solution: str, graded: list[Graded]) -> str:
    """The teacher's answers, from a solution cell: each ``ex1.check(x)`` becomes
    ``answer_1 = x``, other statements stay (a worked computation), and an exercise the cell
    does not check gets the engine's answer."""
    lines: list[str] = []
    given: set[str] = set()
    by_code = {g.exercise: g for g in graded}
    try:
        tree = ast.parse(solution)
    except SyntaxError:
        tree = ast.Module(body=[], type_ignores=[])
    for statement in tree.body:
        call = _checked(statement)
        target = call.func.value if call and isinstance(call.func, ast.Attribute) else None
        code = ast.get_source_segment(solution, target) if target is not None else None
        if call is not None and code in by_code:
            lines.append(f"{by_code[code].answer} = "
                         f"{ast.get_source_segment(solution, call.args[0])}")
            given.add(code)
        else:
            lines.append(ast.get_source_segment(solution, statement) or "")
    lines += [f"{g.answer} = {g.exercise}.answer" for g in graded if g.exercise not in given]
    return "\n".join(lines)


def _answer_cell(graded: list[Graded], solution: str) -> dict[str, Any]:
    names = ", ".join(str(g.number) for g in graded)
    many = len(graded) > 1
    head = [f"# Exercise{'s' * many} {names}: your answer{'s' * many} as you would give "
            f"{'them to the widgets' if many else 'it to the widget'} above: an option,",
            "# a list of options, a chance such as \"2/5\", a whole number, or letters such as "
            "\"C A B\".",
            *(f"{g.answer} = None" for g in graded)]
    body = ["### BEGIN SOLUTION", _worked(solution, graded), "### END SOLUTION"]
    grade_id = "answer-" + "-".join(str(g.number) for g in graded)
    return _code("\n".join(head + body), _meta(grade_id, solution=True))


def _test_cell(graded: Graded) -> dict[str, Any]:
    source = "\n".join([f"# Exercise {graded.number} is checked here when your notebook is "
                        "graded.",
                        "### BEGIN HIDDEN TESTS",
                        f"assert {graded.exercise}.check({graded.answer}).correct, "
                        f"\"exercise {graded.number}\"",
                        "### END HIDDEN TESTS"])
    return _code(source, _meta(f"check-{graded.number}", grade=True, locked=True, points=1))


def graded_lesson(notebook: dict[str, Any]) -> dict[str, Any]:
    """The nbgrader source version of a lesson (see the module's doc): the student copy with
    its exercise cells locked and, where the teacher's solution cells were, an answer cell and
    one hidden test per exercise. A lesson without exercises comes back unchanged but for the
    student copy's changes."""
    after: list[list[str]] = []   # the teacher's solution cells after each other cell
    for cell in notebook.get("cells", []):
        if SOLUTION not in cell_tags(cell):
            after.append([])
        elif after:
            after[-1].append("".join(cell.get("source", "")))
    copy = student_copy(notebook)
    cells: list[dict[str, Any]] = []
    pending: list[Graded] = []
    count = 0
    for cell, solutions in zip(copy["cells"], after, strict=True):
        if EXERCISE in cell_tags(cell) and cell.get("cell_type") == "code":
            shown = shown_exercises("".join(cell["source"]))
            for code in shown:
                count += 1
                pending.append(Graded(count, code, f"answer_{count}"))
            if shown:
                cell["metadata"]["nbgrader"] = _meta(f"exercise-{count}", locked=True)
        cells.append(cell)
        if solutions and pending:
            cells += [_answer_cell(pending, "\n".join(solutions)), *map(_test_cell, pending)]
            pending = []
    if pending:
        cells += [_answer_cell(pending, ""), *map(_test_cell, pending)]
    return {**copy, "cells": cells}


def course_lessons(source: Path | None = None) -> list[Path]:
    """The lessons a course grades: the numbered notebooks (not the classroom page)."""
    return [p for p in lesson_paths(source) if len(p.parts) == 1 and p.name[:1].isdigit()]


def write_course(target: Path, *, force: bool = False, source: Path | None = None,
                 lessons: list[str] | None = None) -> list[Path]:
    """Write an nbgrader course in ``target``: ``source/<lesson>/<lesson>.ipynb`` for every
    lesson (or those named in ``lessons``, by file stem) and ``nbgrader_config.py``. Refuses
    to overwrite a course already there unless ``force``. Returns the notebooks written."""
    root = source or lessons_dir()
    names = course_lessons(root)
    if lessons is not None:
        unknown = sorted(set(lessons) - {n.stem for n in names})
        if unknown:
            raise CluedoLabError(f"no lesson {unknown[0]!r}; lessons: "
                                 f"{', '.join(n.stem for n in names)}")
        names = [n for n in names if n.stem in lessons]
    paths = [target / "source" / n.stem / n.name for n in names]
    config = target / "nbgrader_config.py"
    clashes = [p for p in [*paths, config] if p.exists()]
    if clashes and not force:
        raise CluedoLabError(f"{target} already holds a course ({clashes[0]}, ...); pass "
                             "--force to overwrite it")
    for name, path in zip(names, paths, strict=True):
        notebook = json.loads((root / name).read_text(encoding="utf-8"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(graded_lesson(notebook), indent=1, ensure_ascii=False)
                        + "\n", encoding="utf-8")
    config.write_text(CONFIG, encoding="utf-8")
    return paths
