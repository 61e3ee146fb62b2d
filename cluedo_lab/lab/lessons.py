"""The lessons for a class: teacher copies as they ship, student copies without the solutions.

Lesson cells follow nbgrader's tags. A cell tagged ``exercise`` asks the question and holds the
learner's answer, ``solution`` holds the worked answer, ``hint`` a nudge. A student copy drops
every ``solution`` cell, clears the outputs of ``exercise`` cells (they would show the checked
answer), and folds ``hint`` cells so a learner opens them only when stuck. Nothing else changes,
so a student copy runs top to bottom and each check then says what is still to do.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..rules.data import lessons_dir
from ..rules.errors import CluedoLabError
from ..rules.files import check_inside, write_inside

__all__ = ["lesson_paths", "app_files", "student_copy", "write_lessons", "EXERCISE", "SOLUTION",
           "HINT", "CLASSROOM_TEMPLATE"]

EXERCISE, SOLUTION, HINT = "exercise", "solution", "hint"


def lesson_paths(source: Path | None = None) -> list[Path]:
    """Every lesson notebook, relative to the lessons folder, in reading order."""
    root = source or lessons_dir()
    return sorted(p.relative_to(root) for p in root.rglob("*.ipynb")
                  if ".ipynb_checkpoints" not in p.parts)


CLASSROOM_TEMPLATE = Path("app") / "share" / "jupyter" / "voila" / "templates" / "classroom"
"""The classroom page's Voila template (no CDN style sheets), beside the classroom notebook:
``JUPYTER_PATH=DIR/app/share/jupyter voila DIR/app/classroom.ipynb --template=classroom``."""


def app_files(source: Path | None = None) -> list[Path]:
    """The files the classroom page needs besides its notebook (its Voila template), relative
    to the lessons folder."""
    root = source or lessons_dir()
    folder = root / CLASSROOM_TEMPLATE
    return sorted(p.relative_to(root) for p in folder.glob("*") if p.is_file())


def _tags(cell: dict[str, Any]) -> list[str]:
    tags = cell.get("metadata", {}).get("tags", [])
    return [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []


def student_copy(notebook: dict[str, Any]) -> dict[str, Any]:
    """The notebook a student gets: no solutions, exercise outputs cleared, hints folded."""
    cells = []
    for cell in notebook.get("cells", []):
        tags = _tags(cell)
        if SOLUTION in tags:
            continue
        cell = json.loads(json.dumps(cell))  # a copy: the teacher's notebook is untouched
        if EXERCISE in tags and cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None
        if HINT in tags:
            cell.setdefault("metadata", {}).setdefault("jupyter", {})["source_hidden"] = True
        cells.append(cell)
    return {**notebook, "cells": cells}


def write_lessons(target: Path, *, student: bool = False, force: bool = False,
                  keep: bool = False, source: Path | None = None) -> list[Path]:
    """Copy the lessons into ``target`` (student copies if asked), with the classroom page's
    template beside its notebook. A lesson already there is kept if ``keep`` (a learner's work
    survives), overwritten if ``force``, and otherwise refused before anything is written.
    Returns the notebooks written."""
    root = source or lessons_dir()
    names = lesson_paths(root)
    clashes = [n for n in names if os.path.lexists(target / n)]
    if keep:
        names = [n for n in names if n not in clashes]
    elif clashes and not force:
        raise CluedoLabError(f"{target} already holds {len(clashes)} of the lessons "
                             f"({clashes[0]}, ...); pass --force to overwrite them")
    extras = [n for n in app_files(root) if not (keep and os.path.lexists(target / n))]
    for name in (*names, *extras):  # no symbolic link on the way: refused before writing
        check_inside(target, name)
    written = []
    for name in names:
        text = (root / name).read_text(encoding="utf-8")
        if student:
            text = json.dumps(student_copy(json.loads(text)), indent=1, ensure_ascii=False)
            text += "\n"
        written.append(write_inside(target, name, text.encode("utf-8"), replace=True))
    for name in extras:   # the template follows its notebook, as the kit ships it
        write_inside(target, name, (root / name).read_bytes(), replace=True)
    return written
