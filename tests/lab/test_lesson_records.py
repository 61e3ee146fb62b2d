"""Lesson 01 tells Ann's game one event at a time; the copy the other lessons and the tests
read (``cluedo_lab.lab.lesson_records``) is that same game, event for event."""

import ast
import json
from pathlib import Path

from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.lab.lesson_records import ANN_EVENTS, ANN_HAND, ann_record

LESSON = Path(__file__).resolve().parents[2] / "notebooks" / "01_deduction.ipynb"


def lesson_calls() -> list[ast.Call]:
    """The calls in lesson 01's code cells, in order."""
    cells = json.loads(LESSON.read_text(encoding="utf-8"))["cells"]
    calls: list[ast.Call] = []
    for cell in cells:
        if cell["cell_type"] == "code":
            tree = ast.parse("".join(cell["source"]))
            calls += [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    return calls


def test_the_shared_record_is_lesson_01s_game() -> None:
    calls = lesson_calls()
    added = [ast.literal_eval(c.args[0]) for c in calls
             if isinstance(c.func, ast.Attribute) and c.func.attr == "add"
             and isinstance(c.func.value, ast.Name) and c.func.value.id == "ann"]
    assert tuple(added[:len(ANN_EVENTS)]) == ANN_EVENTS    # the lesson then plays on
    start = next(ast.literal_eval(c.args[0]) for c in calls
                 if isinstance(c.func, ast.Attribute) and c.func.attr == "from_dict"
                 and isinstance(c.args[0], ast.Dict)
                 and "hand" in ast.literal_eval(c.args[0]))
    assert tuple(start["hand"]) == ANN_HAND and {**start, "events": []} == ann_record(0)


def test_each_call_gives_a_fresh_copy() -> None:
    first = ann_record(3)
    first["events"][0]["suggest"].append("Rope")
    first["hand"].pop()
    assert ann_record(3)["events"][0]["suggest"] == ["Peacock", "Spanner", "Kitchen"]
    assert len(ann_record()["hand"]) == 6


def test_the_record_reads_and_counts() -> None:
    assert [Knowledge.from_dict(ann_record(n)).consistent_deals for n in (7, 8)] == [
        Knowledge.from_dict(ann_record(n - 1)).add(ANN_EVENTS[n - 1]).consistent_deals
        for n in (7, 8)]
