"""The lessons read without code a learner must skip: no nbval marker left as a comment, and a
cell whose only job is to show a widget has its source collapsed (notebooks/tidy_cells.py says
the rule). Lessons 10-13 and 30 are tidied after the branch that edits them is merged."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
NOT_YET: set[str] = set()
LESSONS = sorted(p for p in [*NOTEBOOKS.glob("*.ipynb"), NOTEBOOKS / "app" / "classroom.ipynb"]
                 if p.name[:2] not in NOT_YET)

spec = importlib.util.spec_from_file_location("tidy_cells", NOTEBOOKS / "tidy_cells.py")
tidy_cells = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tidy_cells)


def _code(path: Path) -> list[dict]:
    return [c for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "code"]


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.name[:2])
def test_no_marker_comment_and_no_widget_cell_shows_its_source(path):
    for cell in _code(path):
        assert tidy_cells.markers(cell) == [], "".join(cell["source"])
        if tidy_cells.builds_a_widget(cell):
            assert cell["metadata"].get("jupyter", {}).get("source_hidden"), \
                "".join(cell["source"])


def test_tidying_moves_markers_to_tags_and_hides_widget_cells():
    cell = {"cell_type": "code", "metadata": {"tags": ["exercise"]}, "outputs": [],
            "source": ["# NBVAL_IGNORE_OUTPUT\n", "# (a live widget)\n", "pad.widget()"]}
    assert tidy_cells.tidy_cell(cell)
    assert cell["source"] == ["pad.widget()"]
    assert cell["metadata"]["tags"] == ["exercise", "nbval-ignore-output"]
    assert cell["metadata"]["nbval_reason"] == "a live widget"
    assert cell["metadata"]["jupyter"]["source_hidden"] is True
    assert not tidy_cells.tidy_cell(cell)          # run again: nothing to do
    shown = {"cell_type": "code", "metadata": {}, "outputs": [],
             "source": ["x = pad.widget()\n", "print(x)"]}
    assert not tidy_cells.tidy_cell(shown) and "jupyter" not in shown["metadata"]
    kept = {"cell_type": "code", "metadata": {"tags": ["show-source"]}, "outputs": [],
            "source": ["display(table)"]}
    tidy_cells.tidy_cell(kept)
    assert "jupyter" not in kept["metadata"]
    hidden = {"cell_type": "code", "metadata": {"tags": ["hide-source"]}, "outputs": [],
              "source": ["compare(editions)"]}
    assert tidy_cells.tidy_cell(hidden) and hidden["metadata"]["jupyter"]["source_hidden"]
