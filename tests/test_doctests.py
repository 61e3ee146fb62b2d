"""The examples in the docstrings of the package and in README.md run as doctests, so the
documented API is the API (python-chess runs its docstring examples the same way)."""

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import cluedo_lab

ROOT = Path(__file__).resolve().parents[1]
MODULES = sorted(m.name for m in pkgutil.walk_packages(cluedo_lab.__path__, "cluedo_lab."))
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _run(test_count: doctest.TestResults) -> None:
    assert test_count.failed == 0, f"{test_count.failed} of {test_count.attempted} examples failed"


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    _run(doctest.testmod(module, optionflags=FLAGS, verbose=False, report=True))


def test_readme_examples() -> None:
    results = doctest.testfile(str(ROOT / "README.md"), module_relative=False, optionflags=FLAGS)
    assert results.attempted > 0, "README.md has no examples to run"
    _run(results)


def test_the_public_entry_points_have_examples() -> None:
    """Every entry point a newcomer starts from shows an example in its docstring (the game
    loop's, ``run``, in its module's)."""
    from cluedo_lab.bots.registry import make_bot
    from cluedo_lab.games import loop
    from cluedo_lab.games.factory import new_game
    from cluedo_lab.knowledge import counting
    from cluedo_lab.knowledge.engine import Knowledge
    from cluedo_lab.records.record import Record
    from cluedo_lab.rules.edition import load_edition

    finder = doctest.DocTestFinder(recurse=False)
    for obj in (load_edition, Record, Knowledge, new_game, loop, make_bot, counting):
        examples = sum(len(t.examples) for t in finder.find(obj))
        assert examples >= 2, f"{obj.__name__} has {examples} examples"
