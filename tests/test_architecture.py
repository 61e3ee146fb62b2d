"""The house rules that import-linter cannot see: a light top-level import, the public API,
drawings only in views, and no private names shared between modules."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

import cluedo_lab
from cluedo_lab.views.display import RENDERERS

PACKAGE = Path(cluedo_lab.__file__).parent
SOURCES = sorted(PACKAGE.rglob("*.py"))


def loaded_after(statement: str) -> set[str]:
    """The top-level modules a fresh interpreter has loaded after ``statement``."""
    code = f"import sys, json; {statement}; print(json.dumps(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    return {name.split(".")[0] for name in json.loads(out)}


@pytest.mark.parametrize("statement, heavy", [
    ("import cluedo_lab", {"networkx", "sympy", "ipywidgets", "IPython"}),
    ("from cluedo_lab import Knowledge", {"networkx", "sympy", "ipywidgets", "IPython"}),
    ("import cluedo_lab.knowledge", {"sympy", "networkx", "ipywidgets"}),
    ("import cluedo_lab.records", {"sympy", "networkx", "ipywidgets"}),
])
def test_light_imports_load_no_heavy_library(statement, heavy):
    assert not loaded_after(statement) & heavy


def test_the_top_level_api_resolves_every_name():
    assert set(cluedo_lab.__all__) == set(cluedo_lab._API)
    for name in cluedo_lab.__all__:
        value = getattr(cluedo_lab, name)
        assert value is getattr(importlib.import_module(cluedo_lab._API[name]), name)
    with pytest.raises(AttributeError, match="no attribute 'Knowlege'"):
        cluedo_lab.Knowlege  # noqa: B018


def test_every_drawing_names_a_real_class_and_a_real_function():
    for (module, name), (mime, views_module, function) in RENDERERS.items():
        assert mime in ("text/html", "image/svg+xml")
        assert isinstance(getattr(importlib.import_module(module), name), type), (module, name)
        assert callable(getattr(importlib.import_module(f"cluedo_lab.views.{views_module}"),
                                function))


def _layer(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0]


def test_only_views_define_rich_reprs():
    offenders = []
    for path in SOURCES:
        if _layer(path) == "views":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("_repr_") and \
                    node.name.endswith("_"):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}")
    assert not offenders


def test_no_private_name_is_imported_across_modules():
    offenders = []
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "")
                                                     .startswith("cluedo_lab")):
                offenders += [f"{path.relative_to(PACKAGE)}:{node.lineno} {alias.name}"
                              for alias in node.names
                              if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert not offenders
