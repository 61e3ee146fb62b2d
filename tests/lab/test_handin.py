"""Hand-in without a server: attempts saved in the notebook, graded from a folder.

The notebooks here are made as JupyterLab saves them with ``saveState``: the kernel's widget
models (``Widget.get_manager_state``, the same format the front end writes) under
``metadata.widgets``. The real browser round trip (answer, save, reopen, download, grade) is
in tests/views/test_handin_site.py.
"""

from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

import pytest

from cluedo_lab.cli import main
from cluedo_lab.lab.attempts import (
    AFTER_HELP,
    FIRST_TRY,
    MAX_EVENTS,
    NOT_TRIED,
    REVEALED,
    WRONG,
    AttemptLog,
    LogError,
)
from cluedo_lab.lab.class_settings import (
    ClassSettings,
    ClassSettingsError,
    load_class_settings,
    student_bots,
)
from cluedo_lab.lab.exercises import Exercise
from cluedo_lab.lab.grading import WIDGET_STATE, attempt_logs, grade_folder
from cluedo_lab.views.grade_report import report_html

COUNT = Exercise("How many cards are dealt to the players?", "count", 18,
                 traps={21: "That counts the three envelope cards too."})
CHANCE = Exercise("What is the chance that Cy holds the rope?", "number", Fraction(1, 3))
PICK = Exercise("Where must the knife be?", "pick", "envelope",
                options=("Ann", "Bob", "envelope"))


def clocked(start: int = 1_800_000_000):
    """A clock that ticks one second per reading."""
    now = [start]

    def tick() -> int:
        now[0] += 1
        return now[0]
    return tick


def notebook_with(*widgets) -> dict:
    """A notebook holding these exercise widgets' state, as JupyterLab saves it."""
    from ipywidgets import Widget

    models = {m.model_id: m for w in widgets for m in _tree(w.widget())}
    state = Widget.get_manager_state(drop_defaults=True, widgets=list(models.values()))
    state = json.loads(json.dumps(state))   # tuples become lists, as in a saved file
    return {"nbformat": 4, "nbformat_minor": 5, "cells": [],
            "metadata": {"widgets": {WIDGET_STATE: state}}}


def _tree(widget):
    yield widget
    for name in ("children", "layout", "style"):
        value = getattr(widget, name, None)
        for child in (value if isinstance(value, tuple) else [value]):
            if child is not None and hasattr(child, "model_id"):
                yield from _tree(child)


def exercise(ex: Exercise, *steps, start: int = 1_800_000_000):
    """An exercise widget put through ``steps``: ("answer", x), ("hint",), ("reveal",)."""
    from cluedo_lab.views.exercises import ExerciseWidget

    w = ExerciseWidget(ex)
    w.log.clock = clocked(start)
    w.log.shown = start
    w.widget()
    for step in steps:
        getattr(w, step[0])(*step[1:])
    return w


def write(folder: Path, name: str, notebook: dict | str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(notebook if isinstance(notebook, str) else json.dumps(notebook))
    return path


# -- the log ----------------------------------------------------------------------------------

def test_outcomes_follow_what_the_learner_did():
    def outcome(*steps):
        return exercise(COUNT, *steps).log.outcome()
    assert outcome(("answer", "18")) == FIRST_TRY
    assert outcome(("answer", "21"), ("answer", "18")) == AFTER_HELP
    assert outcome(("hint",), ("answer", "18")) == AFTER_HELP
    assert outcome(("reveal",), ("answer", "18")) == REVEALED
    assert outcome(("answer", "21")) == WRONG
    assert outcome(("hint",)) == NOT_TRIED
    assert outcome() == NOT_TRIED
    assert outcome(("answer", "")) == NOT_TRIED      # an empty Check is not an answer


def test_a_log_round_trips_and_an_edit_is_caught():
    w = exercise(COUNT, ("answer", "21"), ("hint",), ("answer", "18"))
    text = w.part("attempts").value
    log = AttemptLog.from_json(text)
    assert [(e.kind, e.answer, e.right) for e in log.events] == [
        ("answer", "21", False), ("hint", "", False), ("answer", "18", True)]
    assert log.events[0].said == "That counts the three envelope cards too."
    assert log.seconds_to_right() == 3
    edited = text.replace('"right":false', '"right":true')
    with pytest.raises(LogError, match="changed after they were saved"):
        AttemptLog.from_json(edited)
    for bad in ("{", "[]", '{"format": "other"}', 42, "x" * 300_000, "[" * 50_000):
        with pytest.raises(LogError):
            AttemptLog.from_json(bad)


def test_a_log_keeps_its_size_whatever_the_clicks():
    log = AttemptLog("k", "q", clock=clocked())
    for _ in range(MAX_EVENTS + 7):
        log.answered("x" * 10_000, False, "no")
    assert len(log.events) == MAX_EVENTS and log.dropped == 7
    assert len(log.events[0].answer) == 300
    assert AttemptLog.from_json(log.to_json()).dropped == 7


def test_the_widget_saves_no_answer_before_the_learner_acts():
    w = exercise(COUNT)
    assert w.saved_note() == ""
    assert json.loads(w.part("attempts").value)["events"] == []
    w.answer("18")
    assert w.saved_note().startswith("Saved with this notebook: 1 answer (0 wrong)")


# -- a notebook -------------------------------------------------------------------------------

def test_logs_are_read_from_the_saved_widget_state():
    nb = notebook_with(exercise(COUNT, ("answer", "21"), ("answer", "18")),
                       exercise(PICK, ("reveal",)))
    logs, bad = attempt_logs(nb)
    assert bad == []
    assert {log.outcome() for log in logs.values()} == {AFTER_HELP, REVEALED}


def test_an_exercise_run_twice_merges_its_attempts():
    first = exercise(COUNT, ("answer", "21"))
    again = exercise(COUNT, ("answer", "18"), start=1_800_000_100)
    logs, _ = attempt_logs(notebook_with(first, again))
    (log,) = logs.values()
    assert [e.answer for e in log.answers] == ["21", "18"]
    assert log.outcome() == AFTER_HELP


# -- a class ----------------------------------------------------------------------------------

@pytest.fixture
def submissions(tmp_path) -> Path:
    folder = tmp_path / "handed-in"
    write(folder, "ann.ipynb", notebook_with(
        exercise(COUNT, ("answer", "18")), exercise(CHANCE, ("answer", "1/3")),
        exercise(PICK, ("answer", "Ann"), ("answer", "envelope"))))
    bob = notebook_with(
        exercise(COUNT, ("answer", "21"), ("hint",), ("answer", "18"), start=1_800_000_500),
        exercise(CHANCE, ("reveal",), start=1_800_000_500),
        exercise(PICK, ("answer", "Ann"), start=1_800_000_500))
    write(folder, "bob.ipynb", bob)
    write(folder, "cy/bob.ipynb", bob)                     # handed in twice
    write(folder, "dan.ipynb", notebook_with(
        exercise(COUNT, ("answer", "21"), start=1_800_000_900)))
    write(folder, "eve.ipynb", {"nbformat": 4, "cells": [], "metadata": {}})  # ran nothing
    other = Exercise("Which rule says so?", "pick", "a", options=("a", "b"))
    write(folder, "fay.ipynb", notebook_with(exercise(other, ("answer", "b"))))  # lesson 2
    write(folder, "notes.txt", "my homework")
    write(folder, "gus.ipynb", "{ not json")
    tampered = notebook_with(exercise(COUNT, ("answer", "21"), start=1_800_001_000))
    for model in tampered["metadata"]["widgets"][WIDGET_STATE]["state"].values():
        value = model["state"].get("value", "")
        if "cluedo-lab attempts" in value:
            model["state"]["value"] = value.replace('"right":false', '"right":true')
    write(folder, "hal.ipynb", tampered)
    return folder


def test_a_class_report_counts_each_student_once_and_names_every_file_left_out(submissions):
    report = grade_folder(submissions)
    assert report.students == ["ann", "bob", "dan", "eve"]
    prompts = [prompt for _, prompt in report.exercises]
    assert prompts == [COUNT.prompt, CHANCE.prompt, PICK.prompt]   # in the order shown
    count, chance, pick = (key for key, _ in report.exercises)
    assert [report.outcome(s, count) for s in report.students] == [
        FIRST_TRY, AFTER_HELP, WRONG, NOT_TRIED]
    assert [report.outcome(s, chance) for s in report.students] == [
        FIRST_TRY, REVEALED, NOT_TRIED, NOT_TRIED]
    assert [report.outcome(s, pick) for s in report.students] == [
        AFTER_HELP, WRONG, NOT_TRIED, NOT_TRIED]
    why = {p.file: p.reason for p in report.problems}
    assert set(why) == {"cy/bob.ipynb", "fay.ipynb", "notes.txt", "gus.ipynb",
                        "hal.ipynb"}
    assert "handed in twice" in why["cy/bob.ipynb"] and "bob.ipynb" in \
        why["cy/bob.ipynb"]
    assert "another lesson" in why["fay.ipynb"]
    assert "not a notebook" in why["notes.txt"]
    assert "not JSON" in why["gus.ipynb"]
    assert "tampered" in why["hal.ipynb"]
    summary = {s.key: s for s in report.summaries()}
    assert summary[count].share_right == 2 / 4
    assert summary[count].wrong == [("21", 2, "That counts the three envelope cards too.")]
    assert summary[pick].wrong[0][:2] == ("Ann", 2)


def test_the_report_page_and_csv_say_the_same(submissions, tmp_path, capsys):
    out, table = tmp_path / "report.html", tmp_path / "report.csv"
    assert main(["grade", str(submissions), "--out", str(out), "--csv", str(table)]) == 0
    assert "4 students, 3 exercises" in capsys.readouterr().out
    page = out.read_text()
    assert page.count("data-outcome=") == 4 * 3
    assert "<svg" in page and "That counts the three envelope cards too." in page
    assert "hal.ipynb" in page and "tampered" in page
    rows = list(csv.DictReader(io.StringIO(table.read_text())))
    assert len(rows) == 12
    bob = [r for r in rows if r["student"] == "bob"]
    assert [r["outcome"] for r in bob] == [AFTER_HELP, REVEALED, WRONG]
    assert bob[0]["hints"] == "1" and bob[0]["wrong"] == "1"


def test_what_a_student_typed_is_escaped_in_the_report(tmp_path):
    write(tmp_path, "x.ipynb", notebook_with(exercise(COUNT, ("answer", "<script>1</script>"))))
    page = report_html(grade_folder(tmp_path))
    assert "<script>1" not in page and "&lt;script&gt;1" in page


def test_grading_a_missing_folder_is_one_line(tmp_path, capsys):
    assert main(["grade", str(tmp_path / "nowhere"), "--out", str(tmp_path / "r.html")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not a folder" in err


# -- class settings ---------------------------------------------------------------------------

def settings_file(tmp_path: Path, text: str) -> Path:
    return write(tmp_path, "class.toml", text)


def test_class_settings_are_read_and_checked(tmp_path):
    s = load_class_settings(settings_file(tmp_path, 'lessons = ["01_deduction"]\n'
                                          'reveal = false\nengine_notepad = false\n'
                                          'bots = ["random"]\nnumbers = "fraction"\n'))
    assert s == ClassSettings(("01_deduction",), False, False, ("random",), None, "fraction")
    assert s.includes("01_deduction.ipynb") and not s.includes("02_probability.ipynb")
    assert s.includes("app/classroom.ipynb")
    assert load_class_settings(settings_file(tmp_path, s.to_toml())) == s
    assert load_class_settings(settings_file(tmp_path, "")) == ClassSettings()


@pytest.mark.parametrize("text, field", [
    ("reveal = 1", "reveal"), ('numbers = "roman"', "numbers"), ('lessons = ["99_x"]', "lessons"),
    ('bots = ["explorer"]', "bots"), ('editions = ["monopoly"]', "editions"),
    ("colour = true", "colour"), ('bots = "detective"', "bots"), ("lessons = []", "lessons")])
def test_a_bad_settings_file_is_one_line_naming_file_and_field(tmp_path, text, field):
    with pytest.raises(ClassSettingsError) as error:
        load_class_settings(settings_file(tmp_path, text))
    assert str(error.value).startswith(f"class.toml: field '{field}': ")
    assert "\n" not in str(error.value)


def test_a_settings_file_that_is_not_toml_is_refused(tmp_path):
    with pytest.raises(ClassSettingsError, match="class.toml: not valid TOML"):
        load_class_settings(settings_file(tmp_path, "reveal = = true"))


def test_test_only_bots_are_never_offered():
    assert student_bots(["detective", "explorer", "random"]) == ("detective", "random")


def test_lessons_under_class_settings(tmp_path, capsys):
    toml = settings_file(tmp_path, 'lessons = ["00_start_here", "01_deduction"]\n'
                         "reveal = false\n")
    target = tmp_path / "class"
    assert main(["lessons", str(target), "--student", "--class", str(toml)]) == 0
    names = sorted(p.relative_to(target).as_posix() for p in target.rglob("*.ipynb"))
    assert names == ["00_start_here.ipynb", "01_deduction.ipynb", "app/classroom.ipynb"]
    for folder in (target, target / "app"):
        assert load_class_settings(folder / "class.toml").reveal is False
    bad = settings_file(tmp_path, "reveal = 3")
    assert main(["lessons", str(tmp_path / "other"), "--student", "--class", str(bad)]) == 2
    assert "class.toml: field 'reveal'" in capsys.readouterr().err
    assert not (tmp_path / "other").exists()       # nothing written


def test_reveal_turned_off_takes_the_buttons_away(tmp_path, monkeypatch):
    from cluedo_lab.views.classroom import Classroom
    from cluedo_lab.views.exercises import ExerciseWidget

    monkeypatch.setenv("CLUEDO_LAB_CLASS", str(settings_file(
        tmp_path, 'reveal = false\nengine_notepad = false\nbots = ["random"]\n'
        'editions = ["cluedo-classic-1949"]\nnumbers = "fraction"\n')))
    w = ExerciseWidget(COUNT)
    labels = [b.description for b in w.widget().children[2].children]
    assert labels == ["Check", "Hint"]
    assert "turned off" in w.reveal() and w.log.events == []
    room = Classroom()
    table = room.table
    assert room.chooser.bot_choices == ["random"]
    assert list(room.chooser.editions) == ["cluedo-classic-1949"]
    assert table.game.edition.id == "cluedo-classic-1949"
    learner = table.learner_notepad
    assert learner is not None and not learner.can_reveal
    assert "Reveal" not in [b.description for b in learner.widget().children[1].children]
    learner.reveal()
    assert not learner.revealed
    with pytest.raises(ValueError, match="turned off"):
        table.use_notes("engine")
    from cluedo_lab.rules.numbers import chance_style, set_chance_style
    assert chance_style() == "fraction"
    set_chance_style("percent")


def test_a_widget_made_again_takes_back_its_earlier_attempts(tmp_path):
    """A reopened notebook's widgets are new: the spare copy beside the notebook gives them
    the attempts made before (saved widget state alone does not survive JupyterLite's
    reopening)."""
    from cluedo_lab.views.exercises import ExerciseWidget

    first = ExerciseWidget(COUNT, spare=tmp_path)
    first.answer("21")
    first.hint()
    again = ExerciseWidget(COUNT, spare=tmp_path)
    assert [e.kind for e in again.log.events] == ["answer", "hint"]
    again.answer("18")
    assert again.log.outcome() == AFTER_HELP
    other = ExerciseWidget(PICK, spare=tmp_path)
    assert other.log.events == []
    (spare,) = [p for p in (tmp_path / ".cluedo-attempts").iterdir() if COUNT.key in p.name]
    spare.write_text(spare.read_text().replace('"right":false', '"right":true'))
    assert ExerciseWidget(COUNT, spare=tmp_path).log.events == []   # an edited copy adds nothing
    assert ExerciseWidget(COUNT).spare is None                      # no notebook, no file
