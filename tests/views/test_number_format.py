"""One number format for learners: every stored output of the lessons and the text of the
widgets, scanned for a number written another way than ``cluedo_lab.rules.numbers`` writes it.

Four things are refused: scientific notation (``2.501e+11``), a bare fraction on the same line
as a percentage (``0.73% (19/2592)``; "exactly 19/2592", the exact value on request, is
labelled and allowed), a number over 9,999 without thousands separators (``27675``), and a
Python repr a learner cannot read (``Option([...], gain=...)``, ``<Option ...>``,
``Fraction(1, 6)``, ``variant('cluedo-classic-1949', ...)``). Code is not scanned, only what a
learner sees: printed text, and of each result the form JupyterLab shows (its HTML, tags
stripped, when it has one; its plain text only when it has nothing richer), and each widget's
static and printed forms.
"""

from __future__ import annotations

import json
import re
from html import unescape
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
NOT_YET: set[str] = set()
LESSONS = sorted(p for p in [*NOTEBOOKS.glob("*.ipynb"), NOTEBOOKS / "app" / "classroom.ipynb"]
                 if p.name[:2] not in NOT_YET)

SCIENTIFIC = re.compile(r"(?<![\w.])\d+(?:\.\d+)?[eE][+-]?\d+\b")
UNSEPARATED = re.compile(r"(?<![\w.,/#:-])\d{5,}(?![\d,]|\.\d)")
FRACTION = re.compile(r"(?<![\w./])(?<!exactly )(?<!exact )\d+/\d+(?![\w/])")
PERCENT = re.compile(r"\d(?:\.\d+)?%")
REPR = re.compile(r"<[A-Z][A-Za-z]*[ :>]"                      # <Option ...>, <Deal ...>
                  r"|\b(?:[A-Z][a-z]+)+\((?=[\w'\"\[{<]|$)"        # Option([...]), GainBars(<...
                  r"|\b[a-z_]+\((?=['\"])")                         # variant('cluedo-...', ...)
RICHER = ("text/html", "text/markdown", "text/latex", "image/svg+xml", "image/png")
"""What JupyterLab shows instead of a result's plain text when a result has it."""


def problems(text: str) -> list[str]:
    """Each line of ``text`` that writes a number in a second format, with what is wrong."""
    found = []
    for line in text.splitlines():
        why = [name for name, pattern in (("scientific notation", SCIENTIFIC),
                                          ("no thousands separators", UNSEPARATED),
                                          ("a repr", REPR)) if pattern.search(line)]
        if FRACTION.search(line) and PERCENT.search(line):
            why.append("a bare fraction beside a percentage")
        if why:
            found.append(f"{', '.join(why)}: {line.strip()[:160]}")
    return found


def visible_text(html: str) -> str:
    """What a browser shows of an HTML output: no style sheets, no tags; cells and rows apart."""
    html = re.sub(r"<(style|script)\b.*?</\1>", "", html, flags=re.S)
    html = re.sub(r"</(tr|p|div|li|h\d)>|<br\s*/?>", "\n", html)
    return unescape(re.sub(r"<[^>]+>", " ", html))


def outputs(path: Path) -> list[tuple[int, str]]:
    """(cell number, text) of what a learner sees of every stored output of a notebook."""
    texts = []
    cells = json.loads(path.read_text())["cells"]
    for number, cell in enumerate(cells):
        for output in cell.get("outputs", []):
            if "text" in output:
                texts.append((number, "".join(output["text"])))
            data = output.get("data", {})
            if "text/plain" in data and not any(mime in data for mime in RICHER):
                texts.append((number, "".join(data["text/plain"])))
            if "text/markdown" in data:
                texts.append((number, "".join(data["text/markdown"])))
            if "text/html" in data:
                texts.append((number, visible_text("".join(data["text/html"]))))
    return texts


def test_the_scan_finds_each_kind_of_second_format():
    assert problems("possible deals 2.501e+11")[0].startswith("scientific notation")
    assert problems("first accusation right 0.73% (19/2592)")[0].startswith("a bare fraction")
    assert problems("deals that fit: 27675 -> 27675")[0].startswith("no thousands")
    assert problems("Option(['plum'], gain=0.5 bits)") and problems("{'Hall': Fraction(1, 6)}")
    for leak in ("<Option plum, rope, hall: gain 0.5 bits>", "GainBars(<36 questions>, top=8)",
                 "<SampleEstimate: 0 of 20,000 random deals fitted>", "TableChooser(",
                 "variant('cluedo-classic-1949', players=4)"):
        assert problems(leak) and problems(leak)[0].startswith("a repr"), leak
    for fine in ("80.9% of the deals (exactly 106/131)", "27,675 deals", "seed 2024",
                 "a 6/6/9 deck", "row 17, column 7", "58.3%", "event 12 of 30",
                 "LearnerNotepad (a live view: run the notebook to use it)",
                 "Check (counts your mistakes)", "P1 (Miss Scarlett) <b>", "a < b"):
        assert problems(fine) == [], fine


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: p.stem)
def test_every_stored_output_writes_numbers_one_way(path):
    found = [f"cell {n}: {p}" for n, text in outputs(path) for p in problems(text)]
    assert found == []


def test_every_widget_writes_numbers_one_way():
    """The views' printed and HTML forms, and a learner notepad's revealed tooltips."""
    pytest.importorskip("ipywidgets")
    from lesson01 import ann_record

    from cluedo_lab.knowledge.engine import Knowledge
    from cluedo_lab.views.classroom import Classroom
    from cluedo_lab.views.learner import LearnerNotepad
    from cluedo_lab.views.variant_explorer import VariantExplorer
    from cluedo_lab.views.widgets import (
        BoardExplorer,
        DeductionStepper,
        EngineNotepad,
        SuggestionAdvisor,
    )

    ann = Knowledge.from_dict(ann_record(8))
    learner = LearnerNotepad(Knowledge.from_dict(ann_record(8)))
    views = [EngineNotepad(ann), DeductionStepper.from_knowledge(ann).go(5),
             SuggestionAdvisor(ann, room="Ballroom"), learner,
             BoardExplorer("classic-24x25"), Classroom(), VariantExplorer()]
    texts = [text for view in views for text in (repr(view), visible_text(view._repr_html_()))]
    learner.widget()
    learner.reveal(True)
    texts += [button.tooltip for button in learner.cell_buttons().values()]
    found = [p for text in texts for p in problems(text)]
    assert found == []
