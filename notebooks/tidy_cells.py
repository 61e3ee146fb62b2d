"""Tidy the lessons for a learner who reads no code (run again after editing a lesson).

    python notebooks/tidy_cells.py notebooks/04_notepad_and_stepper.ipynb ...
    python notebooks/tidy_cells.py --check notebooks/*.ipynb   # exit 1 if one needs tidying

Two things, both only in cells' text and metadata (outputs are left as they are):

* **nbval markers become cell tags.** A line ``# NBVAL_IGNORE_OUTPUT`` (or ``_CHECK_OUTPUT``,
  ``_RAISES_EXCEPTION``, ``_SKIP``) is a note for the test runner that a student would read;
  nbval reads the same thing from the tags ``nbval-ignore-output`` (and so on), which the
  student never sees. The marker line goes, and so does the developer's reason on the line
  after it when that line is a comment in brackets, ``# (a live widget: ...)``: it is kept in
  the cell's metadata as ``nbval_reason``.
* **A cell that only builds a widget has its source collapsed** (JupyterLab's
  ``jupyter.source_hidden``: the output shows, the code sits behind a click on the bar beside
  it, so "show the code" stays one click away for the curious). Such a cell is one whose last
  statement is a call of ``.widget()``, ``display(...)`` or ``ExerciseWidget(...)`` and that
  prints nothing. The tag ``hide-source`` collapses any other cell (a table, a drawing), and
  ``show-source`` keeps a cell's code in view whatever the rule says.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path
from typing import Any

MARKER = re.compile(r"^\s*#\s*NBVAL_(IGNORE_OUTPUT|CHECK_OUTPUT|RAISES_EXCEPTION|SKIP)\s*$")
REASON = re.compile(r"^\s*#\s*\((.*)\)\s*$")
BUILDERS = {"widget", "display", "ExerciseWidget"}


def _lines(cell: dict[str, Any]) -> list[str]:
    source = cell["source"]
    return "".join(source).splitlines() if isinstance(source, list) else source.splitlines()


def _set_source(cell: dict[str, Any], lines: list[str]) -> None:
    cell["source"] = [line + "\n" for line in lines[:-1]] + lines[-1:]


def markers(cell: dict[str, Any]) -> list[str]:
    """The nbval markers still written as comments in a code cell."""
    return [m.group(1) for line in _lines(cell) if (m := MARKER.match(line))]


def builds_a_widget(cell: dict[str, Any]) -> bool:
    """True for a cell whose only job is to show a widget (the rule in the module's text)."""
    try:
        tree = ast.parse("\n".join(_lines(cell)))
    except SyntaxError:   # IPython magics: leave the cell alone
        return False
    if not tree.body or not isinstance(last := tree.body[-1], ast.Expr):
        return False
    call = last.value
    if not isinstance(call, ast.Call):
        return False
    name = (call.func.attr if isinstance(call.func, ast.Attribute)
            else call.func.id if isinstance(call.func, ast.Name) else "")
    prints = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                 and n.func.id == "print" for n in ast.walk(tree))
    return name in BUILDERS and not prints


def hides_source(cell: dict[str, Any]) -> bool:
    tags = cell.get("metadata", {}).get("tags", [])
    if "show-source" in tags:
        return False
    return "hide-source" in tags or builds_a_widget(cell)


def tidy_cell(cell: dict[str, Any]) -> bool:
    """Tidy one cell in place; True if it changed."""
    if cell["cell_type"] != "code":
        return False
    before = json.dumps(cell, sort_keys=True)
    meta = cell.setdefault("metadata", {})
    lines, kept, reasons = _lines(cell), [], []
    tags = list(meta.get("tags", []))
    skip_reason = False
    for line in lines:
        if m := MARKER.match(line):
            tag = "nbval-" + m.group(1).lower().replace("_", "-")
            if tag not in tags:
                tags.append(tag)
            skip_reason = True
            continue
        if skip_reason and (r := REASON.match(line)):
            reasons.append(r.group(1))
            continue
        skip_reason = False
        kept.append(line)
    if kept != lines:
        _set_source(cell, kept)
    if tags:
        meta["tags"] = tags
    if reasons:
        meta["nbval_reason"] = "; ".join(reasons)
    jupyter = meta.setdefault("jupyter", {})
    if hides_source(cell):
        jupyter["source_hidden"] = True
    else:
        jupyter.pop("source_hidden", None)
    if not jupyter:
        del meta["jupyter"]
    return json.dumps(cell, sort_keys=True) != before


def tidy(path: Path, check: bool = False) -> bool:
    """Tidy a notebook file (or, with ``check``, only say whether it needs it)."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    changed = [tidy_cell(cell) for cell in notebook["cells"]]
    if any(changed) and not check:
        path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8")
    return any(changed)


def main(argv: list[str]) -> int:
    check = "--check" in argv
    paths = [Path(a) for a in argv if a != "--check"]
    untidy = [p for p in paths if tidy(p, check)]
    for path in untidy:
        print(f"{path}: {'needs tidying' if check else 'tidied'}")
    return 1 if check and untidy else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
