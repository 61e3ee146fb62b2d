"""A class-ready unit: student copies that hold no answer, and an nbgrader course that grades.

The student copies are checked twice: fast, against every text the teacher's exercise cells
write out (the worked solutions and wrong-answer messages as typed), and slowly, against every
text the exercises hold when the teacher's lessons run (answers, solutions, wrong-answer
messages and what Check and Reveal say), with the student's copy run too to show it still
makes the same exercises. The nbgrader course is graded by nbgrader's own commands.
"""

from __future__ import annotations

import ast
import csv
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from cluedo_lab.lab.course import course_lessons, graded_lesson, write_course
from cluedo_lab.lab.exercises import Exercise, seal, unseal
from cluedo_lab.lab.lessons import EXERCISE, SOLUTION, hide_answers, sealed_texts, student_copy
from cluedo_lab.rules.data import lessons_dir

LESSONS = course_lessons()


def _load(name: Path) -> dict:
    return json.loads((lessons_dir() / name).read_text(encoding="utf-8"))


def _tags(cell: dict) -> list[str]:
    return cell.get("metadata", {}).get("tags", [])


def _source(cell: dict) -> str:
    return "".join(cell.get("source", ""))


# -- sealing ------------------------------------------------------------------------------------

def test_a_sealed_text_opens_to_itself_and_does_not_show():
    for text in ("21 - 3 = 18 cards are dealt; 18 = 4 x 4 + 2.", "✓ ¬Pipe@Cy: 35/36", ""):
        token = seal(text)
        assert unseal(token) == text
        assert not any(word in token for word in text.split() if len(word) > 3)
    assert seal("same") == seal("same") and seal("same") != seal("same.")


CELL = '''\
ex = Exercise("How many deals?", "count", 6 * 6,   # the answer: six times six
              hints=("Multiply.",),
              traps={12: "That adds them up.", 0: f"Not {zero}: count again."},
              solution="6 x 6 = " + str(36) + f" deals, {'all' if 1 else 'none'} {zero!r:>3}.")
'''


def test_hide_answers_seals_solutions_and_trap_messages_and_keeps_what_they_say():
    hidden = hide_answers(CELL)
    for text in ("That adds them up.", "count again", "6 x 6 = ", " deals, ", "the answer",
                 "six times six"):
        assert text in CELL and text not in hidden
    assert "Multiply." in hidden and "How many deals?" in hidden   # the question stays
    made = []
    for source in (CELL, hidden):
        space = {"Exercise": Exercise, "zero": 0}
        exec(source, space)   # noqa: S102 - the test's own cell
        made.append(space["ex"])
    teacher, student = made
    assert (student.solution, dict(student.traps)) == (teacher.solution, dict(teacher.traps))
    assert teacher.solution == "6 x 6 = 36 deals, all   0."
    assert str(student.check(12)) == "✗ That adds them up."


def test_a_cell_that_is_not_python_loses_only_its_comments():
    assert hide_answers("%time x = 1  # the answer: 1\ny = 2") == "%time x = 1\ny = 2"


# -- student copies of the shipped lessons -------------------------------------------------------

def _written_texts(notebook: dict) -> set[str]:
    """Every answer-giving text the teacher's exercise cells write out: solutions and trap
    messages as typed (an f-string's fixed parts), comments, and the solution cells' code."""
    texts: set[str] = set()
    for cell in notebook["cells"]:
        source = _source(cell)
        if SOLUTION in _tags(cell):
            texts |= {line.strip() for line in source.splitlines() if len(line.strip()) > 12}
            continue
        if EXERCISE not in _tags(cell) or cell["cell_type"] != "code":
            continue
        texts |= {m.group(0) for m in re.finditer(r"#.*", source) if len(m.group(0)) > 8}
        for node in sealed_texts(ast.parse(source)):
            parts = node.values if isinstance(node, ast.JoinedStr) else [node]
            texts |= {p.value for p in parts
                      if isinstance(p, ast.Constant) and len(p.value.strip()) > 8}
    return texts


def _page(notebook: dict) -> str:
    """A notebook as a search sees it: its cells' text as typed, and the whole file."""
    return "\n".join(map(_source, notebook["cells"])) + json.dumps(notebook, ensure_ascii=False)


def _leaks(teacher: dict, page: str) -> list[str]:
    """The texts of :func:`_written_texts` found on ``page``, but for those the lesson itself
    says openly (in a cell that is neither an exercise nor a solution)."""
    told = _page({"cells": [c for c in teacher["cells"]
                            if not {EXERCISE, SOLUTION} & set(_tags(c))]})
    return sorted(t for t in _written_texts(teacher) if t in page and t not in told)


@pytest.mark.parametrize("name", LESSONS, ids=str)
def test_a_student_copy_holds_none_of_the_texts_the_teachers_exercises_write(name):
    teacher = _load(name)
    student = student_copy(teacher)
    page = _page(student) + json.dumps(student)
    assert _written_texts(teacher), name   # every lesson's exercises say something
    leaked = _leaks(teacher, page)
    assert not leaked, (name, leaked[:3])
    for cell in student["cells"]:
        if EXERCISE in _tags(cell) and cell["cell_type"] == "code":
            assert cell["outputs"] == [] and cell["execution_count"] is None
            compile(_source(cell), str(name), "exec")   # still runs
    assert "✓ Right" not in page


# -- the slow check: run the teacher's lessons, then grep the student copies ---------------------

RECORD = '''\
from cluedo_lab.views import exercises as _views
_made = []
_shown_by = _views.ExerciseWidget.__init__
def _record(self, *args, **kwargs):
    _shown_by(self, *args, **kwargs)
    _made.append(self.exercise)
_views.ExerciseWidget.__init__ = _record
'''

REPORT = '''\
import json as _json
print("EXERCISES" + _json.dumps([{
    "key": e.key, "form": e.form, "answer_text": e.answer_text, "solution": e.solution,
    "traps": sorted(e.traps.values()), "right": str(e.check(e.answer)),
    "reveal": e.reveal()} for e in _made]))
'''


def _made_exercises(notebook: dict, where: Path) -> list[dict]:
    """Run a lesson with every exercise it shows recorded, and return what each holds."""
    import nbclient
    import nbformat

    node = nbformat.reads(json.dumps(notebook), as_version=4)   # sources as one string each
    node.cells = [nbformat.v4.new_code_cell(RECORD), *node.cells,
                  nbformat.v4.new_code_cell(REPORT)]
    client = nbclient.NotebookClient(node, timeout=900, kernel_name="python3",
                                     resources={"metadata": {"path": str(where)}})
    client.execute()
    out = "".join(o.get("text", "") for o in node.cells[-1].outputs)
    return json.loads(out[out.index("EXERCISES") + len("EXERCISES"):])


def _answer_texts(exercise: dict) -> set[str]:
    texts = {exercise["right"], exercise["reveal"], *exercise["traps"]}
    texts |= {line for line in exercise["solution"].splitlines() if len(line) > 15}
    if exercise["form"] in ("number", "order"):
        texts.add(exercise["answer_text"])
    return {t for t in texts if len(t) > 8}


@pytest.mark.slow
@pytest.mark.parametrize("name", LESSONS, ids=str)
def test_no_student_copy_holds_an_answer_its_lesson_makes(name, tmp_path, monkeypatch):
    """Every text an exercise of the teacher's lesson holds at run time (the answer as Check
    and Reveal say it, the worked solution, the wrong-answer messages) is absent from the
    student copy, and the student copy makes the same exercises when it runs."""
    monkeypatch.setenv("PYTHONHASHSEED", "0")
    teacher = _load(name)
    made = _made_exercises(teacher, lessons_dir())
    assert made, name
    student = student_copy(teacher)
    page = _page(student)
    told = _page({"cells": [c for c in teacher["cells"]
                            if not {EXERCISE, SOLUTION} & set(_tags(c))]})
    for exercise in made:   # (what the lesson shows openly before its exercises is no leak)
        leaked = [t for t in _answer_texts(exercise) if t in page and t not in told]
        assert not leaked, (name, exercise["key"], leaked[:2])
    assert _made_exercises(student, tmp_path) == made
    keys = [e["key"] for e in made]
    assert len(set(keys)) == len(keys), name   # a learner's attempts are saved under the key


# -- the nbgrader course -----------------------------------------------------------------------

def test_a_graded_lesson_carries_nbgraders_metadata_for_every_exercise():
    from nbformat import from_dict
    from nbgrader.nbgraderformat import MetadataValidator

    for name in LESSONS:
        teacher = _load(name)
        graded = graded_lesson(teacher)
        MetadataValidator().validate_nb(from_dict(graded))   # nbgrader's own check
        widgets = sum(_source(c).count("ExerciseWidget(") for c in teacher["cells"]
                      if EXERCISE in _tags(c))
        meta = [c["metadata"].get("nbgrader") for c in graded["cells"]]
        tests = [m for m in meta if m and m["grade"]]
        answers = [m for m in meta if m and m["solution"]]
        assert len(tests) == widgets and all(m["points"] == 1 and m["locked"] for m in tests)
        assert answers and all(not m["locked"] for m in answers)
        sources = [_source(c) for c in graded["cells"]]
        assert sum(s.count("### BEGIN HIDDEN TESTS") for s in sources) == widgets
        assert sum(s.count("### BEGIN SOLUTION") for s in sources) == len(answers)
        # every practice widget stays, and nothing outside nbgrader's markers gives an answer
        assert [s for s in sources if "ExerciseWidget(" in s] == [
            _source(c) for c in student_copy(teacher)["cells"] if "ExerciseWidget(" in _source(c)]
        outside = "\n".join(re.sub(r"### BEGIN SOLUTION.*?### END SOLUTION", "", s, flags=re.S)
                            for s in sources)
        assert not _leaks(teacher, outside), name


def test_the_lessons_command_writes_an_nbgrader_course(tmp_path, capsys):
    from cluedo_lab.cli import main

    assert main(["lessons", str(tmp_path), "--nbgrader"]) == 0
    assert "nbgrader" in capsys.readouterr().out
    for name in LESSONS:
        assert (tmp_path / "source" / name.stem / name.name).exists()
    assert "c.CourseDirectory.course_id" in (tmp_path / "nbgrader_config.py").read_text()
    assert main(["lessons", str(tmp_path), "--nbgrader"]) == 2   # never overwritten unasked
    assert main(["lessons", str(tmp_path), "--nbgrader", "--force"]) == 0


GRADED = ["00_start_here", "02_probability"]
"""The lessons graded by nbgrader in the slow test: the first, and one whose teacher's answers
are worked computations (each autograde runs the whole lesson once per submission)."""


def _nbgrader(course: Path, *args: str) -> str:
    bin_dir = Path(sys.executable).parent   # nbgrader calls alembic from PATH
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONHASHSEED": "0"}
    done = subprocess.run([str(bin_dir / "nbgrader"), *args], cwd=course, env=env,
                          capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout + done.stderr


def _answered(release: dict, source: dict, wrong: set[int]) -> dict:
    """A student's hand-in: the released lesson with every answer cell filled in with the
    teacher's worked answers, except the exercises in ``wrong``."""
    teacher = {c["metadata"]["nbgrader"]["grade_id"]: _source(c) for c in source["cells"]
               if c["metadata"].get("nbgrader", {}).get("solution")}
    cells = []
    for cell in release["cells"]:
        meta = cell["metadata"].get("nbgrader", {})
        if meta.get("solution"):
            lines = [line for line in teacher[meta["grade_id"]].splitlines()
                     if "### BEGIN SOLUTION" not in line and "### END SOLUTION" not in line]
            numbers = map(int, meta["grade_id"].split("-")[1:])
            lines += [f'answer_{n} = "not the answer"' for n in numbers if n in wrong]
            cell = {**cell, "source": "\n".join(lines)}
        cells.append(cell)
    return {**release, "cells": cells}


def test_nbgrader_releases_autogrades_and_exports_the_lessons(tmp_path):
    course = tmp_path / "course"
    write_course(course, lessons=GRADED)
    expected: dict[tuple[str, str], float] = {}
    for lesson in GRADED:
        _nbgrader(course, "generate_assignment", lesson, "--force")
        release_path = course / "release" / lesson / f"{lesson}.ipynb"
        release = json.loads(release_path.read_text(encoding="utf-8"))
        source = json.loads((course / "source" / lesson / f"{lesson}.ipynb").read_text())
        released = json.dumps(release, ensure_ascii=False)
        assert "BEGIN SOLUTION" not in released and "BEGIN HIDDEN TESTS" not in released
        assert "NotImplementedError" not in released   # Run All reaches every widget
        points = sum(1 for c in release["cells"] if c["metadata"].get("nbgrader", {})
                     .get("grade"))
        wrong = set(range(1, points + 1, 2))   # exercises 1, 3, 5, ... answered wrong
        hand_ins = {"teacher": _answered(release, source, wrong=set()), "blank": release,
                    "partial": _answered(release, source, wrong=wrong)}
        for student, notebook in hand_ins.items():
            path = course / "submitted" / student / lesson / f"{lesson}.ipynb"
            path.parent.mkdir(parents=True)
            path.write_text(json.dumps(notebook, ensure_ascii=False), encoding="utf-8")
        expected |= {(lesson, "teacher"): points, (lesson, "blank"): 0,
                     (lesson, "partial"): points - len(wrong)}
        _nbgrader(course, "autograde", lesson, "--force")
    _nbgrader(course, "export", "--to", str(tmp_path / "grades.csv"))
    with open(tmp_path / "grades.csv", encoding="utf-8") as grades:
        rows = list(csv.DictReader(grades))
    scores = {(r["assignment"], r["student_id"]): float(r["score"]) for r in rows}
    assert scores == expected
    assert all(float(r["max_score"]) == expected[(r["assignment"], "teacher")] for r in rows)


# -- the teacher's guide ------------------------------------------------------------------------

GUIDE = Path(__file__).parents[2] / "docs" / "teaching.md"


def test_the_teachers_guide_tables_are_made_from_the_lessons():
    from cluedo_lab.lab.guide import update_guide

    text = GUIDE.read_text(encoding="utf-8")
    assert update_guide(text) == text, "run: python -m cluedo_lab.lab.guide docs/teaching.md"
    widgets = sum(_source(c).count("ExerciseWidget(") for name in LESSONS
                  for c in _load(name)["cells"] if EXERCISE in _tags(c))
    assert f"{widgets} exercises in {len(LESSONS)} lessons" in text
    for name in LESSONS:
        assert f"| {name.name[:2]} " in text
    # the commands the guide walks through are those the tests above run
    for command in ("cluedo-lab lessons course --nbgrader", "nbgrader generate_assignment",
                    "nbgrader autograde", "nbgrader export", "cluedo-lab lessons class --student",
                    "cluedo-lab grade"):
        assert command in text


def test_a_lesson_without_its_guide_metadata_is_named(tmp_path):
    from cluedo_lab.lab.guide import lessons
    from cluedo_lab.rules.errors import CluedoLabError

    notebook = _load(LESSONS[0])
    del notebook["metadata"]["cluedo_lab"]["minutes"]
    (tmp_path / LESSONS[0].name).write_text(json.dumps(notebook), encoding="utf-8")
    with pytest.raises(CluedoLabError, match=rf"{LESSONS[0].name}: .*minutes"):
        lessons(tmp_path)
