"""The learner's own notepad: marks checked against brute force, hints that follow the page.

What counts as right, wrong or not yet justified is decided here from every deal of a small deck
(tests/oracle.py), never from the engine the notes are checked by.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from oracle import brute_force

from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.lab.learner import BOOKKEEPING, HOLDS, LACKS, MARKS, MAYBE, LearnerMarks

RECORDS = Path(__file__).parents[1] / "data" / "records"
SMALL_DECK = {"suspect": ["Plum", "White", "Green"], "weapon": ["Rope", "Knife", "Pipe"],
              "room": ["Hall", "Study", "Den"]}
SMALL = {"deck": SMALL_DECK, "players": ["Ann", "Bob", "Cy"], "observer": "Ann",
         "hand": ["Plum", "Rope"],
         "events": [{"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "shown_by": "Bob",
                     "card": "Knife"},
                    {"suggest": ["White", "Pipe", "Study"], "by": "Bob", "shown_by": "Cy"}]}


def truth(record: dict, card: str, place: str) -> str:
    """Brute force: does the place hold the card in every deal, none, or some?"""
    p = brute_force(record).probability(card, place)
    return HOLDS if p == 1 else LACKS if p == 0 else MAYBE


@pytest.mark.parametrize("seed", range(6))
def test_check_counts_marks_as_every_deal_says(seed: int) -> None:
    k = Knowledge.from_dict(SMALL)
    notes = LearnerMarks(k)
    rng = random.Random(seed)
    cells = [(c.id, p) for c in k.edition.cards for p in k.places]
    for cell in rng.sample(cells, 12):
        notes.mark(*cell, rng.choice(MARKS))
    result = notes.check()
    right = wrong = unjustified = 0
    for cell, mark in notes.marks.items():
        fact = truth(SMALL, *cell)
        if mark == MAYBE:
            right += fact == MAYBE
            wrong += fact != MAYBE
        elif fact == MAYBE:
            unjustified += 1
        elif fact == mark:
            right += 1
        else:
            wrong += 1
    assert (result.right, len(result.wrong), len(result.unjustified)) == (right, wrong,
                                                                          unjustified)
    open_cells = sum(1 for cell in cells if truth(SMALL, *cell) != MAYBE
                     and notes.marks.get(cell) != truth(SMALL, *cell))
    assert result.still_open == open_cells


def test_check_text_counts_without_naming_cells() -> None:
    notes = LearnerMarks(Knowledge.from_dict(SMALL))
    notes.mark("Knife", "Bob", HOLDS).mark("Knife", "Cy", HOLDS).mark("Hall", "Cy", HOLDS)
    text = str(notes.check())
    assert "1 mark right" in text and "1 mark wrong" in text and "not yet justified" in text
    assert "Knife" not in text and "Hall" not in text


def test_following_every_hint_fills_the_page_the_rules_reach() -> None:
    k = Knowledge.from_dict(json.loads((RECORDS / "classic-3p-ann.json").read_text()))
    notes = LearnerMarks(k)
    steps = k.deduction().steps
    seen = []
    while (hint := notes.hint()) is not None:
        fact = hint.step.fact
        assert fact is not None and not notes.on_page(fact)
        # Bookkeeping is skipped while a real inference is left to write down.
        if hint.step.rule in BOOKKEEPING:
            assert all(notes.on_page(s.fact) for s in steps
                       if s.fact is not None and s.rule not in BOOKKEEPING)
        # Everything the step rests on is on the page, or named as not on it yet.
        lacking = [p for p in hint.step.premises if not notes.on_page(p)]
        assert [p.text(k.edition) for p in lacking] == list(hint.missing)
        for p in [*lacking, fact]:
            notes.mark(p.card, p.place, HOLDS if p.holds else LACKS)
        seen.append(hint.step.rule)
    result = notes.check()
    assert not result.wrong and not result.unjustified
    assert result.right == len(k.deduction().cells)
    assert seen[0] not in BOOKKEEPING
    assert {"observed", "one-place"} <= set(seen)


def test_hint_points_at_a_wrong_mark_first_without_naming_it() -> None:
    pytest.importorskip("ipywidgets")
    from cluedo_lab.views.learner import LearnerNotepad

    k = Knowledge.from_dict(SMALL)
    pad = LearnerNotepad(k)
    # Bob showed Ann the Knife (event 1): Cy cannot hold it.
    assert truth(SMALL, "knife", "Cy") == LACKS
    pad.mark("Knife", "Cy", HOLDS)
    first = pad.hint()
    assert first.startswith("One of your ✓ is ruled out by event 1")
    # It cites the event (which names its cards) but not the cell: neither its place nor row.
    assert "Cy" not in first and "row" not in first
    assert "Look at the Knife row." in pad.hint()
    assert "Cy does not hold Knife" in pad.hint()
    pad.mark("Knife", "Cy", None)
    assert not pad.hint().startswith("One of your")
    # A mark that is only not yet justified is no mistake.
    open_cell = next((c.id, p) for c in k.edition.cards for p in k.places
                     if truth(SMALL, c.id, p) == MAYBE)
    pad.mark(*open_cell, HOLDS)
    assert pad.notes.mistake() is None


def test_which_tells_wrong_marks_from_unjustified_ones() -> None:
    pytest.importorskip("ipywidgets")
    from cluedo_lab.views.learner import FLAGGED_BORDER, UNJUSTIFIED_BORDER, LearnerNotepad

    k = Knowledge.from_dict(SMALL)
    pad = LearnerNotepad(k)
    open_cell = next((c.id, p) for c in k.edition.cards for p in k.places
                     if truth(SMALL, c.id, p) == MAYBE)
    pad.mark("Knife", "Cy", HOLDS).mark(*open_cell, LACKS)
    pad.check()
    message = pad.which()
    assert "Solid red: wrong" in message and "Dashed orange: not yet justified" in message
    assert pad.cell_button("Knife", "Cy").layout.border == FLAGGED_BORDER
    assert pad.cell_button(*open_cell).layout.border == UNJUSTIFIED_BORDER
    assert "not yet justified" in pad.cell_button(*open_cell).tooltip


def test_the_row_helper_crosses_off_only_blank_cells_of_the_row() -> None:
    pytest.importorskip("ipywidgets")
    from cluedo_lab.views.learner import LearnerNotepad

    k = Knowledge.from_dict(SMALL)
    pad = LearnerNotepad(k)
    pad.mark("Knife", "Ann", MAYBE)
    pad.click("Knife", "Bob")  # helper off: one mark only
    assert pad.notes.marks == {("knife", "Ann"): MAYBE, ("knife", "Bob"): HOLDS}
    pad.mark("Knife", "Bob", None)
    pad.widget()
    pad.cross_off_checkbox.value = True  # the checkbox, as a click would
    assert pad.cross_off
    pad.click("Knife", "Bob")
    assert pad.notes.marks == {("knife", p): LACKS for p in k.places if p not in ("Ann", "Bob")
                               } | {("knife", "Ann"): MAYBE, ("knife", "Bob"): HOLDS}
    assert pad.notes.cross_off_row("Rope", "Bob") == ()  # no ✓ there: nothing crossed


def test_a_hint_names_rule_and_events_first_and_its_result_only_at_level_three() -> None:
    notes = LearnerMarks(Knowledge.from_dict(SMALL))
    while (hint := notes.hint()) is not None and hint.step.rule == "observed":
        fact = hint.step.fact
        notes.mark(fact.card, fact.place, HOLDS if fact.holds else LACKS)
    assert hint is not None
    assert hint.rule in hint.text(1) and hint.answer not in hint.text(1)
    assert hint.answer not in hint.text(2)
    assert hint.answer in hint.text(3)


def test_chances_are_checked_to_a_percentage_point() -> None:
    k = Knowledge.from_dict(SMALL)
    notes = LearnerMarks(k)
    open_cell = next((c.id, p) for c in k.edition.cards for p in k.places
                     if k.status(c.id, p) is None)
    exact = k.probability(*open_cell) * 100
    notes.estimate(*open_cell, exact + 0.5)
    assert notes.check().chances_off == ()
    notes.estimate(*open_cell, exact + 5)
    assert notes.check().chances_off == (open_cell,)
    with pytest.raises(ValueError, match="between 0 and 100"):
        notes.estimate(*open_cell, 140)


def test_bad_marks_are_refused_and_change_nothing() -> None:
    notes = LearnerMarks(Knowledge.from_dict(SMALL))
    notes.mark("Knife", "Bob", HOLDS)
    with pytest.raises(ValueError, match="holds, lacks, maybe"):
        notes.mark("Knife", "Bob", "yes")
    with pytest.raises(KeyError, match="no place"):
        notes.mark("Knife", "Dan", HOLDS)
    assert notes.marks == {("knife", "Bob"): HOLDS}


def test_marks_follow_the_record_as_it_grows() -> None:
    k = Knowledge.from_dict(SMALL)
    notes = LearnerMarks(k)
    card = next(c for c in k.edition.cards if k.status(c.id, "Cy") is None)
    notes.mark(card.id, "Cy", HOLDS)
    assert notes.check().unjustified == ((card.id, "Cy"),)
    k.add({"show": "Cy", "to": "Ann", "card": card.name})  # Cy shows Ann the card
    result = notes.check()
    assert result.right == 1 and not result.unjustified


def test_the_view_cycles_marks_and_reveals_the_engine() -> None:
    pytest.importorskip("ipywidgets")
    from cluedo_lab.views.learner import (
        BLANK_FACE,
        FLAGGED_BORDER,
        UNJUSTIFIED_BORDER,
        LearnerNotepad,
    )

    k = Knowledge.from_dict(SMALL)
    pad = LearnerNotepad(k)
    button = pad.cell_button("Knife", "Bob")
    for expected in ("✓", "✗", "?", ""):
        button.click()
        assert button.description == (expected or BLANK_FACE)
        assert pad.cell("Knife", "Bob") == expected
    button.click()
    assert "1 mark right" in pad.check()
    pad.mark("Hall", "Bob", HOLDS)
    pad.which()
    assert truth(SMALL, "hall", "Bob") == MAYBE  # could be so, but nothing forces it
    assert pad.cell_button("Hall", "Bob").layout.border == UNJUSTIFIED_BORDER
    assert pad.cell_button("Knife", "Bob").layout.border not in (FLAGGED_BORDER,
                                                                  UNJUSTIFIED_BORDER)
    first = pad.hint()
    assert pad.hint() != first  # a second press says more
    pad.reveal()
    assert button.description == "✓" and pad.cell("Knife", "Cy") == "·"
    pad.reveal()
    assert pad.cell("Knife", "Cy") == ""
    # The page repaints a button only for a non-empty text: a blank cell is never "".
    assert pad.cell_button("Knife", "Cy").description == BLANK_FACE
    assert "cluedo-learner-grid" in pad._repr_html_()


def test_the_learners_marks_are_saved_with_the_notebook_and_come_back() -> None:
    """The page a learner wrote lives in a hidden widget's synced value (saved with the
    notebook's widget state, as the exercises' attempts are): every click shows there, and a
    new notepad given that text shows the same page; a bad page changes nothing."""
    pytest.importorskip("ipywidgets")
    from cluedo_lab.views.learner import LearnerNotepad

    pad = LearnerNotepad(Knowledge.from_dict(SMALL), place="saved")
    saved = pad.marks_widget
    assert saved.layout.display == "none"
    assert json.loads(saved.value) == {"notepad": pad.key, "marks": [], "chances": []}
    pad.click("plum", "Ann")
    pad.click("knife", "Cy")
    pad.click("knife", "Cy")
    pad.notes.estimate("hall", "Bob", 25)
    pad.mark("hall", "Bob", None)   # a refresh, as a click would make
    state = saved.get_state()["value"]   # what the notebook's widget state keeps
    assert json.loads(state) == {"notepad": pad.key,
                                 "marks": [["Knife", "Cy", LACKS], ["Plum", "Ann", HOLDS]],
                                 "chances": [["Hall", "Bob", "1/4"]]}
    again = LearnerNotepad(Knowledge.from_dict(SMALL), place="other").restore(state)
    assert again.notes.marks == pad.notes.marks and again.notes.chances == pad.notes.chances
    assert again.message.startswith("Your saved page is back: 3 marks.")
    for bad in ('{"marks": [["Plum", "Ann"]]}', '{"marks": {"Plum": "Ann"}}', "[]", "not json",
                '{"marks": [["Plum", "Ann", "holds"]], "chances": [["Hall", "Bob", 0.25]]}'):
        with pytest.raises(ValueError):
            again.restore(bad)
        assert again.notes.marks == pad.notes.marks


def test_saved_entries_that_no_longer_fit_are_dropped_and_named() -> None:
    """Only ✓, ✗, ? and chances come back: an engine's "·", a chance in another form (an
    exponent would make Fraction count for ever) or a card or place the record lacks is left
    out, and the message says which."""
    pytest.importorskip("ipywidgets")
    from cluedo_lab.views.learner import LearnerNotepad

    pad = LearnerNotepad(Knowledge.from_dict(SMALL), place="fit")
    pad.reveal(True)
    pad.restore(json.dumps({"marks": [["Plum", "Ann", HOLDS], ["Plum", "Dan", HOLDS],
                                      ["Rope", "Bob", "·"], ["Sword", "Cy", LACKS]],
                            "chances": [["Hall", "Bob", "1e400"], ["Den", "Cy", "1/3"],
                                        ["Den", "Bob", "3/2"]]}))
    assert pad.notes.marks == {("plum", "Ann"): HOLDS}
    assert pad.notes.chances == {("den", "Cy"): Fraction(1, 3)}
    assert not pad.revealed   # the learner's marks, not the engine's notepad
    assert "5 saved marks no longer fit this record and were left out: Plum / Dan, " \
           "Rope / Bob, Sword / Cy, Hall / Bob, Den / Bob." in pad.message


def _notebook_with_pages(path: Path, *pads: object) -> None:
    """A notebook file whose saved widget state holds the pads' hidden page widgets, as
    JupyterLab writes it (and a widget of another kind beside them)."""
    from cluedo_lab.lab.grading import WIDGET_STATE

    state = {f"model-{n}": {"model_name": "TextModel", "state": pad.marks_widget.get_state()}
             for n, pad in enumerate(pads)}
    state["other"] = {"model_name": "TextModel", "state": {"value": "{}", "_dom_classes": []}}
    path.write_text(json.dumps({"cells": [], "nbformat": 4, "nbformat_minor": 5, "metadata": {
        "widgets": {WIDGET_STATE: {"state": state, "version_major": 2, "version_minor": 0}}}}))


def test_a_notepad_in_a_saved_notebook_takes_its_own_page_back(tmp_path, monkeypatch) -> None:
    """JupyterLab's server tells the kernel its notebook (JPY_SESSION_NAME): a notepad made
    there reads the notebook's saved widget state and takes back the page saved under its key,
    two notepads each their own, a notepad over another record none."""
    pytest.importorskip("ipywidgets")
    from cluedo_lab.views.learner import LearnerNotepad

    first = LearnerNotepad(Knowledge.from_dict(SMALL), place="cell-a-1")
    second = LearnerNotepad(Knowledge.from_dict(SMALL), place="cell-a-2")
    first.click("plum", "Ann")
    second.click("rope", "Cy")
    second.click("rope", "Cy")
    notebook = tmp_path / "lesson.ipynb"
    _notebook_with_pages(notebook, first, second)
    monkeypatch.setenv("JPY_SESSION_NAME", str(notebook))

    one = LearnerNotepad(Knowledge.from_dict(SMALL), place="cell-a-1")
    two = LearnerNotepad(Knowledge.from_dict(SMALL), place="cell-a-2")
    assert one.notes.marks == {("plum", "Ann"): HOLDS}
    assert two.notes.marks == {("rope", "Cy"): LACKS}
    assert "Your saved page is back: 1 mark." in one.message
    longer = dict(SMALL, events=SMALL["events"][:1])
    assert LearnerNotepad(Knowledge.from_dict(longer), place="cell-a-1").notes.marks == {}
    assert LearnerNotepad(Knowledge.from_dict(SMALL), place="cell-b-1").notes.marks == {}

    # A notebook that cannot be read leaves the page blank and says so in one line.
    notebook.write_text("{ not json")
    pad = LearnerNotepad(Knowledge.from_dict(SMALL), place="cell-a-9")
    assert pad.notes.marks == {}
    assert pad.message.startswith("your saved marks could not be read: lesson.ipynb: not "
                                  "valid JSON")
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "gone.ipynb"))
    assert LearnerNotepad(Knowledge.from_dict(SMALL), place="cell-a-9").notes.marks == {}


def test_two_notepads_made_in_a_row_get_their_own_places() -> None:
    """Without a name, a notepad's place is its turn among the notepads over the same record
    (outside a notebook's cell, the kernel's tally): two in a row never share a key."""
    pytest.importorskip("ipywidgets")
    from cluedo_lab.views.learner import LearnerNotepad

    record = dict(SMALL, hand=["Plum", "Pipe"])  # a record no other test makes
    a, b = (LearnerNotepad(Knowledge.from_dict(record)) for _ in range(2))
    assert a.key != b.key and a.key.rsplit("-", 1)[0] == b.key.rsplit("-", 1)[0]
    assert int(b.place.rsplit("-", 1)[1]) == int(a.place.rsplit("-", 1)[1]) + 1


def test_the_lessons_ship_no_saved_marks() -> None:
    """Nothing a student is handed holds a page of marks: the lessons store no widget state."""
    from cluedo_lab.views.learner import MARKS_CLASS

    for lesson in sorted((Path(__file__).parents[2] / "notebooks").rglob("*.ipynb")):
        assert MARKS_CLASS not in lesson.read_text(), lesson.name
