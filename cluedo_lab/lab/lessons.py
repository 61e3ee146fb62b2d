"""The lessons for a class: teacher copies as they ship, student copies without the answers.

Lesson cells follow nbgrader's tags. A cell tagged ``exercise`` asks the question and holds the
learner's answer, ``solution`` holds the worked answer, ``hint`` a nudge. A student copy drops
every ``solution`` cell, clears the outputs of ``exercise`` cells (they would show the checked
answer), folds ``hint`` cells so a learner opens them only when stuck, and hides what an
exercise cell says about its answer (:func:`hide_answers`): the worked solution and the
wrong-answer messages are sealed, comments dropped. The answers themselves are computed by the
engine when the cell runs, so a student copy runs top to bottom and every exercise still checks
at once.
"""

from __future__ import annotations

import ast
import io
import json
import os
import tokenize
from pathlib import Path
from typing import Any

from ..rules.data import lessons_dir
from ..rules.errors import CluedoLabError
from ..rules.files import check_inside, write_inside

__all__ = ["lesson_paths", "app_files", "cell_tags", "student_copy", "hide_answers",
           "sealed_texts", "write_lessons", "EXERCISE", "SOLUTION", "HINT", "CLASSROOM_TEMPLATE"]

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


def cell_tags(cell: dict[str, Any]) -> list[str]:
    """A cell's tags (nbgrader's and Jupyter's ``metadata.tags``), ignoring malformed ones."""
    tags = cell.get("metadata", {}).get("tags", [])
    return [t for t in tags if isinstance(t, str)] if isinstance(tags, list) else []


SEALED = ("solution", "traps")
"""The keywords of an exercise call whose texts a student copy seals: the worked solution and
the wrong-answer messages (a trap's wrong response stays readable: it is not the answer)."""


def sealed_texts(tree: ast.AST) -> list[ast.expr]:
    """The text the student must not read: the strings and f-strings a ``solution=`` value or a
    trap's message is made of (joined by ``+`` or chosen by ``if``; a text a call computes, such
    as ``str(explanation)``, is not written in the cell)."""
    found: list[ast.expr] = []

    def texts(node: ast.expr) -> None:
        # the text itself, or texts joined by + or chosen by "if": not a call's arguments
        if isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant)
                                               and isinstance(node.value, str)):
            found.append(node)
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            texts(node.left)
            texts(node.right)
        elif isinstance(node, ast.IfExp):
            texts(node.body)
            texts(node.orelse)

    for call in ast.walk(tree):
        if not isinstance(call, ast.Call):
            continue
        for keyword in call.keywords:
            if keyword.arg == "solution":
                texts(keyword.value)
            elif keyword.arg == "traps" and isinstance(keyword.value, ast.Dict):
                for message in keyword.value.values:
                    texts(message)
            elif keyword.arg == "traps":
                texts(keyword.value)
    return found


def _sealed(node: ast.expr, source: str) -> str:
    """The code that gives back ``node``'s text at run time without showing it: a sealed
    string, or for an f-string a sealed format filled in with its own expressions."""
    from .exercises import seal

    if isinstance(node, ast.Constant):
        return f"unseal({seal(str(node.value))!r})"
    assert isinstance(node, ast.JoinedStr)
    pattern: list[str] = []
    values: list[str] = []
    for part in node.values:
        if isinstance(part, ast.Constant):
            pattern.append(str(part.value).replace("{", "{{").replace("}", "}}"))
            continue
        assert isinstance(part, ast.FormattedValue)
        spec = ""
        if part.format_spec is not None:
            spec = ":" + "".join(str(p.value) for p in part.format_spec.values  # type: ignore[attr-defined]
                                 if isinstance(p, ast.Constant))
        conversion = {-1: "", 115: "!s", 114: "!r", 97: "!a"}[part.conversion]
        pattern.append(f"{{{len(values)}{conversion}{spec}}}")
        values.append(ast.get_source_segment(source, part.value) or "None")
    return f"unseal({seal(''.join(pattern))!r}).format({', '.join(values)})"


def _offset(lines: list[str], line: int, column: int) -> int:
    """The character offset of an ast position (line from 1, column in UTF-8 bytes)."""
    text = lines[line - 1]
    return sum(map(len, lines[:line - 1])) + len(text.encode("utf-8")[:column].decode("utf-8"))


def _without_comments(source: str) -> str:
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return source
    lines = source.splitlines(keepends=True)
    for token in reversed(tokens):
        if token.type == tokenize.COMMENT:
            row, column = token.start
            kept = lines[row - 1][:column].rstrip()
            lines[row - 1] = kept + "\n" if kept else ""
    return "".join(lines).rstrip("\n")


def hide_answers(source: str) -> str:
    """An exercise cell as a student gets it: the texts of every ``solution=`` and every
    trap's message sealed (:func:`~cluedo_lab.lab.exercises.seal`), so Reveal and Check still
    show them but the page does not, and its comments dropped (a comment may name the
    answer). A cell that is not plain Python loses only its comments."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return _without_comments(source)
    lines = source.splitlines(keepends=True)
    spans = sorted(((_offset(lines, n.lineno, n.col_offset),
                     _offset(lines, n.end_lineno or n.lineno, n.end_col_offset or 0), n)
                    for n in sealed_texts(tree)), key=lambda span: span[0])
    text = source
    for start, end, node in reversed(spans):
        text = text[:start] + _sealed(node, source) + text[end:]
    if spans:
        text = "from cluedo_lab.lab.exercises import unseal\n" + text
    return _without_comments(text)


def student_copy(notebook: dict[str, Any]) -> dict[str, Any]:
    """The notebook a student gets: no solutions, exercise outputs cleared and their answers
    hidden, hints folded."""
    cells = []
    for cell in notebook.get("cells", []):
        tags = cell_tags(cell)
        if SOLUTION in tags:
            continue
        cell = json.loads(json.dumps(cell))  # a copy: the teacher's notebook is untouched
        if EXERCISE in tags and cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None
            cell["source"] = hide_answers("".join(cell.get("source", "")))
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
