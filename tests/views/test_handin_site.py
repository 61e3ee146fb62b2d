"""The student site under a class's settings, in Chromium: a lesson, a hand-in and its grade.

Opens ``build/site`` built by ``make site CLASS=tests/data/class-handin.toml`` (the test skips
on any other build: it checks the site's class.toml), served on 127.0.0.1 with every other
address refused, as tests/views/test_site.py does:

- a student lesson shows no solution and no "✓ Right" before the learner answers, and with
  Reveal turned off in the settings no exercise has a Reveal button;
- the learner answers an exercise wrong, then right; the notebook is saved, the page reloaded
  (the notebook reopened from the browser's storage) and the lesson run again, and the
  attempts are still there;
- the notebook is downloaded as a student would hand it in, and ``cluedo-lab grade`` on it
  shows exactly those attempts;
- the classroom page offers only the class's bots and editions, with neither Reveal nor the
  engine's notepad.

Screenshots go to /tmp/handin-*.png.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest
from test_site import KERNEL_TIMEOUT, RUN_TIMEOUT, SITE, browser, open_lesson, page, run_all, site  # noqa: F401

from cluedo_lab.cli import main
from cluedo_lab.lab.attempts import AFTER_HELP, NOT_TRIED, AttemptLog
from cluedo_lab.lab.grading import attempt_logs, grade_folder
from cluedo_lab.lab.lessons import SOLUTION

pytestmark = [pytest.mark.browser, pytest.mark.flaky(reruns=1, reruns_delay=2)]

ROOT = Path(__file__).resolve().parents[2]
CLASS = ROOT / "tests" / "data" / "class-handin.toml"
SHOTS = Path("/tmp")
LESSON = "00_start_here.ipynb"
PROMPT = "In the 2018 card game with four players, how many cards does each player hold?"
WRONG, RIGHT = "3", "2"
TRAP = "Three each would need 12 cards after the envelope; only 9 are left."


@pytest.fixture(scope="module", autouse=True)
def class_site(site):  # noqa: F811
    """Skip unless build/site is the student site of tests/data/class-handin.toml."""
    settings = SITE / "files" / "class.toml"
    if not settings.exists() or tomllib.loads(settings.read_text()).get("reveal") is not False:
        pytest.skip("build/site is not the student site of tests/data/class-handin.toml: run "
                    "`make site CLASS=tests/data/class-handin.toml` first")


def solution_lines() -> list[str]:
    """The first line of each of the teacher's solution cells of the lesson."""
    teacher = json.loads((ROOT / "notebooks" / LESSON).read_text())
    return ["".join(c["source"]).splitlines()[0] for c in teacher["cells"]
            if SOLUTION in c.get("metadata", {}).get("tags", []) and c["source"]]


def exercise_box(page):  # noqa: F811
    return page.locator(".cluedo-exercise", has_text=PROMPT)


def test_a_learner_answers_saves_reopens_and_hands_in(page, site, browser, tmp_path):  # noqa: F811
    from playwright.sync_api import expect

    open_lesson(page, site, LESSON)
    shown = page.locator(".jp-Notebook").inner_text()
    assert "✓ Right" not in shown
    lines = solution_lines()
    assert lines and not [line for line in lines if line in shown]
    shot = SHOTS / "handin-student-lesson.png"
    run_all(page)
    box = exercise_box(page)
    expect(box).to_have_count(1)
    expect(page.locator(".cluedo-exercise button.cluedo-exercise-check").first).to_be_visible()
    expect(page.locator(".cluedo-exercise-reveal")).to_have_count(0)   # Reveal is off
    assert "✓ Right" not in page.locator(".jp-Notebook").inner_text()
    answer = box.locator(".widget-text:not(.cluedo-exercise-attempts) input")
    box.scroll_into_view_if_needed()
    answer.fill(WRONG)
    box.locator("button.cluedo-exercise-check").click()
    expect(box.locator(".cluedo-exercise-message")).to_contain_text(TRAP)
    answer.fill(RIGHT)
    box.locator("button.cluedo-exercise-check").click()
    expect(box.locator(".cluedo-exercise-message")).to_contain_text("✓ Right: 2.")
    saved = box.locator(".cluedo-exercise-saved")
    expect(saved).to_contain_text("2 answers (1 wrong), 0 hints; right after hints or tries")
    page.screenshot(path=str(shot))

    page.keyboard.press("Control+s")
    expect(page.locator(".jp-mod-dirty")).to_have_count(0, timeout=30_000)
    page.reload()   # the notebook reopened from the browser's storage
    status = page.locator(".jp-StatusBar-TextItem", has_text="Python (Pyodide)")
    expect(status).to_contain_text("Idle", timeout=KERNEL_TIMEOUT)
    run_all(page)   # a new kernel: the widgets are made again, and take back the attempts
    box = exercise_box(page)
    expect(box.locator(".cluedo-exercise-saved")).to_contain_text(
        "2 answers (1 wrong), 0 hints; right after hints or tries", timeout=RUN_TIMEOUT)
    box.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "handin-reopened.png"))
    page.keyboard.press("Control+s")
    expect(page.locator(".jp-mod-dirty")).to_have_count(0, timeout=30_000)

    page.get_by_role("menuitem", name="File", exact=True).click()
    with page.expect_download() as download:
        page.get_by_role("menuitem", name=re.compile("^Download"), exact=False).first.click()
    folder = tmp_path / "handed-in"
    folder.mkdir()
    handed = folder / "ann.ipynb"
    download.value.save_as(handed)
    logs, bad = attempt_logs(json.loads(handed.read_text()))
    assert bad == []
    key = next(k for k, log in logs.items() if log.prompt == PROMPT)
    log: AttemptLog = logs[key]
    assert [(e.kind, e.answer, e.right, e.said) for e in log.events] == [
        ("answer", WRONG, False, TRAP), ("answer", RIGHT, True, "Right: 2.")]
    assert {k: v.outcome() for k, v in logs.items() if k != key} == {
        k: NOT_TRIED for k in logs if k != key}

    out = tmp_path / "report.html"
    assert main(["grade", str(folder), "--out", str(out)]) == 0
    report = grade_folder(folder)
    assert report.students == ["ann"] and report.problems == []
    assert report.outcome("ann", key) == AFTER_HELP
    summary = next(s for s in report.summaries() if s.key == key)
    assert summary.wrong == [(WRONG, 1, TRAP)]
    assert page.refused == []
    viewer = browser.new_page(viewport={"width": 1100, "height": 900})
    try:
        viewer.goto(out.as_uri())
        expect(viewer.locator(".cluedo-grade-grid td[data-outcome]")).to_have_count(
            len(report.exercises))
        viewer.screenshot(path=str(SHOTS / "handin-report.png"), full_page=True)
    finally:
        viewer.close()


def test_the_classroom_page_under_the_class_settings(page, site):  # noqa: F811
    from playwright.sync_api import expect

    settings = tomllib.loads(CLASS.read_text())
    page.goto(site + "/")
    page.get_by_role("link", name=re.compile("Play at the table")).click()
    table = page.locator(".cluedo-table")
    expect(table.locator(".cluedo-table-log")).to_contain_text("You are P1.",
                                                               timeout=KERNEL_TIMEOUT)
    options = page.locator(".cluedo-chooser select").all()
    texts = [o.locator("option").all_inner_texts() for o in options]
    assert any(t == settings["bots"] for t in texts), texts
    assert not any("explorer" in t for t in texts)
    editions = next(t for t in texts if len(t) == len(settings["editions"]))
    assert len(editions) == 2
    expect(page.locator(".cluedo-learner-notepad")).to_have_count(1)
    expect(page.locator(".cluedo-learner-reveal")).to_have_count(0)
    expect(page.locator(".cluedo-table-notes-switch")).to_be_hidden()
    page.screenshot(path=str(SHOTS / "handin-classroom.png"))
    assert page.refused == []
