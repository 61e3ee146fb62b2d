"""Every module, file and notebook the docs name exists: ``cluedo_lab.x.y`` (and an attribute
after it), ``cluedo_lab/x/y.py``, ``tests/x/test_y.py`` and ``notebooks/NN_x.ipynb`` in
README.md, docs/*.md and the package's docstrings, so a reader who follows a name finds it."""

import ast
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOTTED = re.compile(r"(?<![\w.])cluedo_lab(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
PATH = re.compile(r"(?<![\w/.-])((?:cluedo_lab|tests|notebooks|benchmarks|docs|data)/"
                  r"[\w./*-]*[\w*/])")


def sources() -> list[tuple[str, str]]:
    """(where, text): each Markdown document, and each docstring of the package."""
    found = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8"))
             for p in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]]
    for path in sorted((ROOT / "cluedo_lab").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef |
                          ast.AsyncFunctionDef):
                doc = ast.get_docstring(node, clean=False)
                if doc:
                    found.append((f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 1)}",
                                  doc))
    return found


def dotted_resolves(name: str) -> bool:
    """Whether ``name`` is a module of the package, or an attribute reached from one."""
    parts = name.rstrip(".").split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for attr in parts[cut:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


IN_THE_WHEEL = {"cluedo_lab/data", "cluedo_lab/lessons"}
"""Folders that exist only in an installed wheel (the build copies data/ and the lessons)."""


def path_resolves(name: str) -> bool:
    name = name.rstrip("/.")
    if name in IN_THE_WHEEL:
        return True
    if "*" in name:
        return any(ROOT.glob(name))
    return (ROOT / name).exists()


def references() -> list[tuple[str, str, bool]]:
    out = []
    for where, text in sources():
        out += [(where, m.group(0), dotted_resolves(m.group(0))) for m in DOTTED.finditer(text)]
        out += [(where, m.group(1), path_resolves(m.group(1))) for m in PATH.finditer(text)]
    return out


def test_the_docs_name_modules_at_all() -> None:
    refs = references()
    assert len(refs) > 50
    assert any(name.startswith("cluedo_lab/") for _, name, _ in refs)
    assert any(name.startswith("cluedo_lab.") for _, name, _ in refs)


def test_a_made_up_name_does_not_resolve() -> None:
    assert not dotted_resolves("cluedo_lab.knowledge.no_such_module")
    assert not dotted_resolves("cluedo_lab.rules.edition.NoSuchThing")
    assert not path_resolves("cluedo_lab/engine.py")
    assert dotted_resolves("cluedo_lab.rules.errors.NothingToUndo")
    assert path_resolves("notebooks/0*_*.ipynb")


def test_every_module_path_named_in_the_docs_exists() -> None:
    stale = sorted({f"{where}: {name}" for where, name, ok in references() if not ok})
    if stale:
        pytest.fail(f"{len(stale)} stale references:\n" + "\n".join(stale))
