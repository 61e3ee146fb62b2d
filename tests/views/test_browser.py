"""The notebooks as a learner meets them: JupyterLab in a real (headless) Chromium.

A session fixture starts JupyterLab on a free local port over a copy of ``notebooks/`` (so
autosave never touches the repository), with its own config, settings, workspace and runtime
folders. Each test opens a notebook, runs every cell, clicks the live widgets and checks that
the views changed as the engine says they should; screenshots go to
``tests/browser/screenshots/`` (git-ignored) for a person to look at. Another fixture serves the
classroom app (``notebooks/app/classroom.ipynb``) with Voilà, as ``make app`` does, and tests
play at its table as a learner would, on a 1280-pixel screen, for every edition. Every request
that leaves 127.0.0.1 is refused and counted: the app must work offline, so Voilà serves it with
the app's own template (``notebooks/app/share/jupyter``, ``--template=classroom``), which drops
the "lab" template's CDN style sheets.

Needs Debian's ``chromium`` at /usr/bin/chromium and the ``playwright`` Python package (no
``playwright install``: the system browser is used). Without either, the tests skip.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(__file__).resolve().parents[1] / "browser" / "screenshots"
SCREENS = ROOT / "build" / "screens"
"""The first screens a learner meets, at 1280 x 800, for a person to look at (test_screens.py)."""
TOKEN = "cluedo-browser-test"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
START_TIMEOUT = 60  # seconds for JupyterLab to answer /api/status
RUN_TIMEOUT = 120_000  # milliseconds for a notebook to run to its last cell
UI_TIMEOUT = 30_000  # milliseconds for a widget to react to a click
CLASSROOM = 1280  # pixels: the width of a classroom screen

if not CHROMIUM.exists():
    pytest.skip("the browser test needs Chromium at /usr/bin/chromium "
                "(Debian: apt-get install chromium)", allow_module_level=True)
playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="the browser test needs the playwright package "
                                  "(pip install playwright; the system Chromium is used)")
expect = playwright_api.expect

# A real browser talks to a kernel over a websocket on a shared 2-core machine: a step can
# miss its time limit when the machine is busy. Such a test is run once more before it
# counts as failed (pytest-rerunfailures); a second failure is a real one.
pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)
# A click may wait for bots and for a busy 2-core machine: allow more than Playwright's 5 s.
expect.set_options(timeout=UI_TIMEOUT)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(command: list[str], base: str, probe: str, cwd: Path, env: dict[str, str],
            log_path: Path) -> Iterator[str]:
    """Run a local server until ``base + probe`` answers; yield ``base``; stop the server."""
    log = log_path.open("w")
    proc = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=subprocess.STDOUT)
    name = Path(command[2] if command[1] == "-m" else command[0]).name
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if proc.poll() is not None:
                pytest.fail(f"{name} exited with {proc.returncode}; see {log_path}")
            try:
                with urllib.request.urlopen(base + probe, timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"{name} did not answer in {START_TIMEOUT} s; see {log_path}")
                time.sleep(0.3)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        log.close()


def _lab_over(home: Path, stored_outputs: bool) -> Iterator[str]:
    """Serve a copy of notebooks/ in ``home`` with JupyterLab, with or without the stored
    outputs the kit ships; widget state is saved with a notebook, as ``make lab`` sets it."""
    work = home / "notebooks"
    # The kit's own tools for its notebooks stay out, as `make lab`'s copy leaves them out.
    shutil.copytree(ROOT / "notebooks", work, ignore=shutil.ignore_patterns(
        ".ipynb_*", "refresh_outputs.py", "tidy_cells.py", "nbval_sanitize.cfg"))
    for notebook in [] if stored_outputs else work.rglob("*.ipynb"):
        data = json.loads(notebook.read_text())
        for cell in data["cells"]:
            if cell["cell_type"] == "code":
                cell["outputs"], cell["execution_count"] = [], None
        notebook.write_text(json.dumps(data))
    config = home / "config"
    (config / "labconfig").mkdir(parents=True)
    # The "official Jupyter news?" toast covers the notebook; news_url=None alone keeps it.
    (config / "labconfig" / "page_config.json").write_text(json.dumps(
        {"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}))
    settings = home / "settings" / "@jupyterlab" / "notebook-extension"
    settings.mkdir(parents=True)
    # Render every cell (no windowing), so the last cell's prompt is in the page to wait on.
    (settings / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
    widgets = home / "settings" / "@jupyter-widgets" / "jupyterlab-manager"
    widgets.mkdir(parents=True)
    (widgets / "plugin.jupyterlab-settings").write_text(json.dumps({"saveState": True}))
    port = _free_port()
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(config),
           "JUPYTER_RUNTIME_DIR": str(home / "runtime"), "PYTHONHASHSEED": "0"}
    command = [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root",
               "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={TOKEN}",
               f"--ServerApp.root_dir={work}", "--LabApp.news_url=None",
               "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
               f"--LabApp.user_settings_dir={home / 'settings'}",
               f"--LabApp.workspaces_dir={home / 'workspaces'}"]
    with serving(command, f"http://127.0.0.1:{port}", f"/api/status?token={TOKEN}", work, env,
                 home / "jupyterlab.log") as base:
        yield base


@pytest.fixture(scope="session")
def jupyterlab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a JupyterLab serving a copy of notebooks/ without stored outputs (a test
    sees only fresh ones); stopped after the session."""
    yield from _lab_over(tmp_path_factory.mktemp("jupyterlab"), stored_outputs=False)


@pytest.fixture(scope="session")
def jupyterlab_as_shipped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of a JupyterLab serving a copy of notebooks/ as the kit ships them, stored
    outputs and all: what a learner sees on opening a lesson, before running it."""
    yield from _lab_over(tmp_path_factory.mktemp("jupyterlab-shipped"), stored_outputs=True)


@pytest.fixture(scope="session")
def voila(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of the classroom app served by Voilà on 127.0.0.1, with the options of ``make app``
    (and its own Jupyter folders, so nothing is written to the user's)."""
    pytest.importorskip("voila", reason="the classroom app needs voila (pip install voila)")
    home = tmp_path_factory.mktemp("voila")
    port = _free_port()
    env = {**os.environ, "PYTHONHASHSEED": "0", "JUPYTER_CONFIG_DIR": str(home / "config"),
           "JUPYTER_DATA_DIR": str(home / "data"), "JUPYTER_RUNTIME_DIR": str(home / "runtime")}
    env["JUPYTER_PATH"] = str(ROOT / "notebooks" / "app" / "share" / "jupyter")
    command = [sys.executable, "-m", "voila", str(ROOT / "notebooks" / "app" / "classroom.ipynb"),
               "--template=classroom", "--Voila.ip=127.0.0.1", f"--port={port}",
               "--no-browser"]
    # Probe a static file: the page itself would start a kernel and run the notebook.
    with serving(command, f"http://127.0.0.1:{port}", "/voila/static/voila.js", home, env,
                 home / "voila.log") as base:
        yield base


@pytest.fixture(scope="session")
def browser(playwright_driver) -> Iterator[object]:
    chromium = playwright_driver.chromium.launch(executable_path=str(CHROMIUM),
                                                 args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture
def refused() -> list[str]:
    """The requests a page tried to send outside 127.0.0.1 (each one refused)."""
    return []


def _new_page(browser, refused: list[str], width: int, height: int):
    context = browser.new_context(viewport={"width": width, "height": height})

    def local_only(route):
        if route.request.url.startswith(("http://127.0.0.1", "ws://127.0.0.1", "data:")):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    context.route("**/*", local_only)
    page = context.new_page()
    page.set_default_timeout(UI_TIMEOUT)
    return context, page


@pytest.fixture
def page(browser, refused):
    """A fresh page that may reach 127.0.0.1 only."""
    context, page = _new_page(browser, refused, 1400, 1400)
    try:
        yield page
    finally:
        context.close()


@pytest.fixture
def screen(browser, refused):
    """A fresh page on a classroom screen, 1280 pixels wide."""
    context, page = _new_page(browser, refused, CLASSROOM, 900)
    try:
        yield page
    finally:
        context.close()


@contextmanager
def screenshot_on_failure(page, name: str) -> Iterator[None]:
    try:
        yield
    except BaseException:
        shot(page, f"FAILED-{name}.png")
        raise


def shot(target, name: str) -> Path:
    """Save a screenshot of a page or of one element."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    target.screenshot(path=str(path))
    return path


def run_notebook(page, base: str, name: str) -> None:
    """Open a notebook, wait for its kernel, run all cells and wait for the last one."""
    page.goto(f"{base}/lab/tree/{name}?reset&token={TOKEN}")
    expect(page.locator("#jp-main-statusbar")).to_contain_text("Idle", timeout=RUN_TIMEOUT)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    last_cell = page.locator(".jp-Notebook .jp-CodeCell").last
    prompt = last_cell.locator(".jp-InputPrompt")
    if "jp-Placeholder-prompt" in (prompt.get_attribute("class") or ""):
        # A cell whose code is collapsed (a widget-only cell) shows no count: wait for the
        # widget it draws (a stored output without its widget state draws none).
        expect(last_cell.locator(".jp-OutputArea-output .widget-box").first).to_be_visible(
            timeout=RUN_TIMEOUT)
    else:
        expect(prompt).to_have_text(re.compile(r"^\[\d+\]:?$"), timeout=RUN_TIMEOUT)
    expect(page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
           .filter(has_text="Error")).to_have_count(0)


def test_notepad_and_stepper(page, jupyterlab):
    with screenshot_on_failure(page, "test_notepad_and_stepper"):
        run_notebook(page, jupyterlab, "04_notepad_and_stepper.ipynb")

        # The stepper starts before the first step; Forward applies rule steps one by one.
        stepper = page.locator(".cluedo-stepper")
        text = stepper.locator(".cluedo-step-text")
        expect(text).to_contain_text("Step 0 of 66")
        stepper.scroll_into_view_if_needed()
        stepper.locator("button.cluedo-forward").click()
        expect(text).to_contain_text("Step 1 of 66")
        expect(text).to_contain_text("[Observed]")
        expect(stepper.locator(".cluedo-step-grid .cluedo-concluded")).to_have_count(1)
        expect(stepper.locator(".cluedo-event-used")).to_have_count(1)
        stepper.locator("button.cluedo-forward").click()
        expect(text).to_contain_text("Step 2 of 66")
        stepper.locator("button.cluedo-back").click()
        expect(text).to_contain_text("Step 1 of 66")
        shot(stepper, "04_stepper_step1.png")

        # The notepad already shows event 8 (added by a later cell); clicking a cell explains it.
        notepad = page.locator(".cluedo-notepad")
        expect(notepad.locator(".cluedo-notepad-caption")).to_contain_text(
            "after 8 events: 30 consistent deals")
        explanation = notepad.locator(".cluedo-explanation")
        cell = notepad.locator("button.cluedo-cell-peacock-envelope")
        expect(cell).to_have_text("✓")
        cell.scroll_into_view_if_needed()
        cell.click()
        expect(explanation).to_contain_text("Why the envelope holds Mrs. Peacock")
        expect(explanation).to_contain_text("[Last place left]")
        expect(cell).to_have_class(re.compile(r"\bcluedo-selected\b"))
        explanation.scroll_into_view_if_needed()  # JupyterLab scrolls a panel, not the page
        shot(page, "04_notepad_why.png")
        notepad.locator("button.cluedo-cell-ballroom-cy").click()
        expect(explanation).to_contain_text("Not certain")
        expect(explanation).to_contain_text("7/10")
        explanation.scroll_into_view_if_needed()
        shot(page, "04_notepad_chance.png")

        # Run All wrote nothing on the learner's own page (the lesson's demo uses another):
        # every cell blank, and the legend, not a check or a hint, under the buttons.
        mine = page.locator(".cluedo-learner-notepad")
        expect(mine.locator(".cluedo-learner-caption")).to_contain_text("Ann's own notes")
        texts = mine.locator("button.cluedo-learner-cell").all_inner_texts()
        assert texts and all(not t.strip() for t in texts)
        expect(mine.locator(".cluedo-learner-message")).to_contain_text("Click a cell")


def _api(base: str, path: str, method: str = "GET", body: object = None) -> Any:
    """JupyterLab's REST API, as the test's user."""
    request = urllib.request.Request(
        f"{base}/api/{path}?token={TOKEN}", method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        body = answer.read()
    return json.loads(body) if body else None


def _saved_marks(base: str, name: str) -> list[list[str]]:
    """The marks of every learner notepad in a notebook's saved widget state, as on disk."""
    from cluedo_lab.views.learner import MARKS_CLASS

    notebook = _api(base, f"contents/{name}")["content"]
    saved = notebook["metadata"].get("widgets", {}).get(
        "application/vnd.jupyter.widget-state+json", {"state": {}})
    return [mark for model in saved["state"].values()
            if MARKS_CLASS in model["state"].get("_dom_classes", [])
            for mark in json.loads(model["state"]["value"])["marks"]]


MARKS_NOTEBOOK = {"nbformat": 4, "nbformat_minor": 5, "cells": [
    {"cell_type": "code", "id": f"cell-{n}", "metadata": {}, "outputs": [],
     "execution_count": None, "source": source} for n, source in enumerate([
        "from cluedo_lab.knowledge.engine import Knowledge\n"
        "from cluedo_lab.lab.lesson_records import ann_record\n"
        "from cluedo_lab.views.learner import LearnerNotepad",
        "LearnerNotepad(Knowledge.from_dict(ann_record(8))).widget()"])],
    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                "language": "python"}}}


def test_the_learners_marks_come_back_after_a_reopening(page, jupyterlab):
    """Marks written on a notepad, the notebook saved, its kernel shut down: opened again and
    run, the notepad shows the same marks, read from the saved notebook."""
    name = "my_marks.ipynb"
    _api(jupyterlab, f"contents/{name}", "PUT",
         {"type": "notebook", "format": "json", "content": MARKS_NOTEBOOK})
    with screenshot_on_failure(page, "test_marks_come_back"):
        run_notebook(page, jupyterlab, name)
        mine = page.locator(".cluedo-learner-notepad")
        held, crossed = (mine.locator(f"button.cluedo-cell-{cell}") for cell in
                         ("plum-ann", "peacock-bob"))
        held.click()
        expect(held).to_have_text("✓")
        crossed.click()
        expect(crossed).to_have_text("✓")
        crossed.click()
        expect(crossed).to_have_text("✗")
        before = _api(jupyterlab, f"contents/{name}")["last_modified"]
        page.locator(".jp-NotebookPanel-toolbar [data-command='docmanager:save']").click()
        # A save with widget state took 30 s on a busy 2-core machine.
        deadline = time.monotonic() + RUN_TIMEOUT / 1000
        while ["Prof. Plum", "Ann", "holds"] not in (saved := _saved_marks(jupyterlab, name)):
            now = _api(jupyterlab, f"contents/{name}")
            assert time.monotonic() < deadline, \
                f"saved {now['last_modified']} (before {before}) with marks {saved}, " \
                f"metadata {sorted(now['content']['metadata'])}"
            # Headless Chromium draws no frame while nothing changes on screen, and the save
            # waits for one: a screenshot draws it.
            page.screenshot(clip={"x": 0, "y": 0, "width": 8, "height": 8})
            time.sleep(0.5)
        for session in _api(jupyterlab, "sessions"):
            _api(jupyterlab, f"sessions/{session['id']}", "DELETE")

        run_notebook(page, jupyterlab, name)   # a new kernel: nothing kept in its memory
        expect(mine.locator(".cluedo-learner-message")).to_contain_text(
            "Your saved page is back: 2 marks.")
        expect(held).to_have_text("✓")
        expect(crossed).to_have_text("✗")
        shot(mine, "marks_back.png")


def test_board_explorer(page, jupyterlab):
    with screenshot_on_failure(page, "test_board_explorer"):
        run_notebook(page, jupyterlab, "05_board_explorer.ipynb")

        explorer = page.locator(".cluedo-board-explorer")
        table = explorer.locator(".cluedo-board-table")
        drawing = explorer.locator(".cluedo-board-svg svg")
        explorer.scroll_into_view_if_needed()
        expect(table).to_contain_text("Miss Scarlett's start square (24, 7)")
        expect(drawing.locator("polyline.cluedo-route")).to_have_count(1)
        expect(drawing.locator("line.cluedo-passage")).to_have_count(2)
        shot(explorer, "05_explorer_start.png")

        # Pick Mrs. Peacock's start: 7 moves to the Conservatory, 58.3% (7/12) with two dice.
        explorer.locator(".cluedo-board-where select").select_option(
            label="Mrs. Peacock's start (6, 23)")
        expect(table).to_contain_text("Mrs. Peacock's start square (6, 23)")
        expect(table.locator("tr", has_text="Conservatory")).to_contain_text("58.3%")
        expect(table.locator("tr", has_text="Billiard Room")).to_contain_text("16.7%")
        expect(drawing.locator("text", has_text="58.3%")).to_have_count(1)
        expect(table).to_contain_text("Shortest route to the Billiard Room: 10 moves.")
        shot(explorer, "05_explorer_peacock.png")

        # Click a square (the numbers on the board say which): three rooms almost certain
        # from just below the Ballroom.
        squares = explorer.locator(".cluedo-board-squares")
        squares.locator("button[title='7, 17']").click()
        expect(table).to_contain_text("From square (7, 17)")
        expect(table.locator("tr", has_text="Billiard Room")).to_contain_text("97.2%")
        expect(drawing.locator(".coordinates text", has_text="17")).to_have_count(2)
        shot(explorer, "05_explorer_square.png")

        # Click the Kitchen: the Study is by the secret passage, no roll needed.
        squares.locator("button[title$=': Kitchen']").first.click()
        expect(table).to_contain_text("From the Kitchen")
        study = table.locator("tr", has_text="Study")
        expect(study).to_contain_text("passage")
        expect(study).to_contain_text("100.0%")
        expect(table).to_contain_text("by the secret passage, instead of rolling: no roll needed")
        # Unticked, the passages are not drawn at all.
        explorer.locator(".cluedo-board-passages input").uncheck()
        expect(drawing.locator("line.cluedo-passage")).to_have_count(0)
        expect(drawing.locator("line.passage")).to_have_count(0)
        explorer.scroll_into_view_if_needed()
        shot(page, "05_page.png")


def test_table_in_lab(page, jupyterlab):
    with screenshot_on_failure(page, "test_table_in_lab"):
        run_notebook(page, jupyterlab, "app/classroom.ipynb")

        table = page.locator(".cluedo-table")
        log = table.locator(".cluedo-table-log")
        caption = table.locator(".cluedo-learner-caption")
        expect(log).to_contain_text("Cluedo Card Game, 3 players (P1, P2, P3), seed 0. You are P1.")
        expect(caption).to_contain_text("P1's own notes after 0 events")
        table.scroll_into_view_if_needed()
        # Ask about the two cards picked in the drop-downs: the bots answer and take their turns.
        table.locator(".cluedo-field-card-1 select").select_option(label="Plum")
        table.locator("button.cluedo-action-ask").click()
        expect(log).to_contain_text("event 1: P1 asked about Mustard, Plum")
        expect(log).to_contain_text("-- P3's turn --")
        expect(caption).not_to_contain_text("after 0 events")
        expect(table.locator(".cluedo-table-status")).to_contain_text("Your move (P1)")
        shot(table, "app_table_in_lab.png")


def test_an_exercise_answered_wrong_then_right(page, jupyterlab):
    """Lesson 09's first puzzle as a learner meets it: a wrong pick gets a sentence, a hint
    says a little more, and the engine's answer is right."""
    from cluedo_lab.lab.puzzle_kinds import generate

    ex = generate("cluedo-classic-1949", "who-holds", 1, seed=1).exercise
    wrong = next(o for o in ex.options if o != ex.answer)
    with screenshot_on_failure(page, "test_an_exercise_answered_wrong_then_right"):
        run_notebook(page, jupyterlab, "09_puzzles.ipynb")
        widget = page.locator(".cluedo-exercise").first
        widget.scroll_into_view_if_needed()
        expect(widget).to_contain_text(ex.prompt)
        message = widget.locator(".cluedo-exercise-message")
        widget.get_by_label(wrong, exact=True).check()
        widget.locator("button.cluedo-exercise-check").click()
        expect(message).to_contain_text("✗")
        expect(message).to_contain_text(ex.check(wrong).message.splitlines()[0])
        widget.locator("button.cluedo-exercise-hint").click()
        expect(message).to_contain_text(ex.hints[0])
        widget.get_by_label(ex.answer, exact=True).check()
        widget.locator("button.cluedo-exercise-check").click()
        expect(message).to_contain_text("✓")
        shot(widget, "09_exercise_right.png")


def _expected_notes():
    """What the app's notepad must say, from the engine: the learner's marks on the app's first
    game (2018, 3 players, seed 0), checked and hinted by LearnerMarks itself."""
    from cluedo_lab.views.table import Table

    table = Table("cluedo-card-game-2018", 3, seed=0)
    notes = table.learner_notepad
    hand = table.game.deal.hands[0]
    held = hand[0]
    other = next(c for c in table.game.edition.cards
                 if c not in hand and c not in table.game.deal.envelope)
    for card, place, clicks in ((held, "P1", 1), (held, "envelope", 2), (other, "P2", 1)):
        for _ in range(clicks):
            notes.click(card.id, place)
    return table, held, other, notes.notes.check(), notes.notes.hint()


def test_learner_marks_checks_hints_and_accuses_in_the_app(screen, voila, refused):
    page = screen
    with screenshot_on_failure(page, "test_learner_in_the_app"):
        page.goto(voila)
        table = page.locator(".cluedo-table")
        log = table.locator(".cluedo-table-log")
        expect(log).to_contain_text("You are P1", timeout=RUN_TIMEOUT)
        # Students see no code and no developer notes.
        for developer in ("TableChooser(", "Classroom(", "make app", "Voil", "NBVAL", "import "):
            expect(page.get_by_text(developer)).to_have_count(0)

        engine, held, other, check, hint = _expected_notes()
        notepad = table.locator(".cluedo-learner-notepad")
        expect(notepad.locator(".cluedo-learner-caption")).to_contain_text(
            "P1's own notes after 0 events")
        cell = notepad.locator(f"button.cluedo-cell-{held.id}-p1")
        cell.click()
        expect(cell).to_have_text("✓")
        envelope = notepad.locator(f"button.cluedo-cell-{held.id}-envelope")
        envelope.click()
        expect(envelope).to_have_text("✓")
        envelope.click()
        expect(envelope).to_have_text("✗")
        guess = notepad.locator(f"button.cluedo-cell-{other.id}-p2")
        guess.click()
        expect(guess).to_have_text("✓")
        message = notepad.locator(".cluedo-learner-message")
        notepad.locator("button.cluedo-learner-check").click()
        expect(message).to_have_text(str(check))
        assert check.right == 2 and len(check.unjustified) == 1 and not check.wrong
        expect(message).to_contain_text("2 marks right; 1 mark not yet justified")
        notepad.locator("button.cluedo-learner-hint").click()
        expect(message).to_have_text(hint.text(1))
        shot(page, "app_learner_check_hint.png")

        # The switch shows the engine's notepad instead, and back.
        switch = table.locator(".cluedo-table-notes-switch")
        switch.get_by_role("button", name="The engine's notepad").click()
        expect(table.locator(".cluedo-notepad-caption")).to_contain_text("P1's notepad")
        switch.get_by_role("button", name="My notes").click()
        expect(table.locator(f"button.cluedo-cell-{held.id}-p1")).to_have_text("✓")

        # Accusing asks first, and warns about a card the learner holds.
        confirm = table.locator(".cluedo-table-confirm")
        expect(confirm).to_be_hidden()
        table.locator(f".cluedo-field-{held.category} select").select_option(label=held.name)
        before = log.inner_text()
        table.locator("button.cluedo-action-accuse").click()
        expect(confirm).to_be_visible()
        expect(confirm).to_contain_text(f"Careful! You hold {held.name}")
        shot(page, "app_accuse_confirm.png")
        confirm.locator("button.cluedo-cancel-accuse").click()
        expect(confirm).to_be_hidden()
        assert log.inner_text() == before
        for card in engine.game.deal.envelope:
            table.locator(f".cluedo-field-{card.category} select").select_option(label=card.name)
        table.locator("button.cluedo-action-accuse").click()
        expect(confirm).to_be_visible()
        expect(confirm).not_to_contain_text("Careful")
        confirm.locator("button.cluedo-confirm-accuse").click()
        status = table.locator(".cluedo-table-status")
        expect(status).to_contain_text("Game over: you won!")
        solution = ", ".join(c.name for c in engine.game.deal.envelope)
        expect(status.locator(".cluedo-table-ending")).to_contain_text(
            f"The solution: {solution}.")
        # The log and the learner's notes follow the game to its end.
        expect(log).to_contain_text("P1 solves the crime and wins")
        expect(table.locator(".cluedo-learner-caption")).to_contain_text("after 1 event")
        shot(page, "app_game_over.png")
        assert refused == []


@pytest.mark.browser
def test_reveal_on_then_off_leaves_blank_cells_blank(screen, voila, refused):
    """The page shows only the learner's marks once Reveal is off again: a cell the learner
    left blank must not keep the engine's "·" or chance (a Button given an empty text keeps
    its old one in the browser)."""
    page = screen
    with screenshot_on_failure(page, "test_reveal_on_then_off"):
        page.goto(voila)
        table = page.locator(".cluedo-table")
        expect(table.locator(".cluedo-table-log")).to_contain_text("You are P1",
                                                                   timeout=RUN_TIMEOUT)
        engine, held, other, _check, _hint = _expected_notes()
        notepad = table.locator(".cluedo-learner-notepad")
        mine = notepad.locator(f"button.cluedo-cell-{held.id}-p1")
        crossed = notepad.locator(f"button.cluedo-cell-{held.id}-envelope")
        certain = notepad.locator(f"button.cluedo-cell-{held.id}-p2")   # the engine's "·"
        chance = notepad.locator(f"button.cluedo-cell-{other.id}-p2")   # the engine's chance
        mine.click()
        expect(mine).to_have_text("✓")
        crossed.click()
        crossed.click()
        expect(crossed).to_have_text("✗")
        blank = re.compile(r"^\s*$")
        for cell in (certain, chance):
            expect(cell).to_have_text(blank)
        reveal = notepad.locator("button.cluedo-learner-reveal")
        reveal.click()
        expect(certain).to_have_text("·")
        expect(chance).not_to_have_text(blank)
        expect(crossed).to_have_text("·")
        shot(page, "app_reveal_on.png")
        reveal.click()
        expect(certain).to_have_text(blank)
        expect(chance).to_have_text(blank)
        expect(mine).to_have_text("✓")
        expect(crossed).to_have_text("✗")
        # Every other cell is blank again: the page holds the learner's two marks only.
        texts = notepad.locator("button.cluedo-learner-cell").all_inner_texts()
        assert sorted(t.strip() for t in texts if t.strip()) == ["✓", "✗"]
        shot(page, "app_reveal_off.png")

        # A wrong ✓ (P1 holds the card, so P2 does not): Which? outlines it solid, and Hint
        # points at it before any new deduction, as the engine says.
        pad = engine.learner_notepad
        pad.mark(held.id, "P1", "holds").mark(held.id, "envelope", "lacks")
        pad.mark(held.id, "P2", "holds").mark(other.id, "P2", None)  # the page's marks
        expected = pad.hint()
        assert expected.startswith("One of your ✓ is ruled out")
        certain.click()
        expect(certain).to_have_text("✓")
        notepad.locator("button.cluedo-learner-check").click()
        notepad.locator("button.cluedo-learner-which").click()
        message = notepad.locator(".cluedo-learner-message")
        expect(message).to_contain_text("Solid red: wrong")
        assert certain.evaluate("e => getComputedStyle(e).borderTopStyle") == "solid"
        assert mine.evaluate("e => getComputedStyle(e).borderTopWidth") != \
            certain.evaluate("e => getComputedStyle(e).borderTopWidth")
        notepad.locator("button.cluedo-learner-hint").click()
        expect(message).to_have_text(expected)
        assert refused == []


BOARD_EDITIONS = [("cluedo-classic-1949", 6), ("clue-classic-2023", 3),
                  ("clue-classic-2023-two-player", 2), ("clue-mansion-2014", 6)]


@pytest.mark.browser
@pytest.mark.parametrize("edition, players", BOARD_EDITIONS)
def test_a_click_on_the_board_moves_the_piece(screen, voila, refused, edition, players):
    """A board edition at the table on a 1280 x 800 screen: the board beside the notepad, the
    places the piece may reach highlighted after the roll, and a click on one moves it."""
    from cluedo_lab.rules.edition import load_edition

    ed = load_edition(edition)
    page = screen
    page.set_viewport_size({"width": CLASSROOM, "height": 800})
    with screenshot_on_failure(page, f"test_board_click_{edition}"):
        page.goto(voila)
        log = page.locator(".cluedo-table-log")
        expect(log).to_contain_text("You are P1", timeout=RUN_TIMEOUT)
        page.locator(".cluedo-chooser-edition select").select_option(
            label=f"{ed.name} — {ed.publisher} {ed.year}")
        page.locator(".cluedo-chooser-players input").fill(str(players))
        page.locator("button.cluedo-chooser-start").click()
        expect(log).to_contain_text(f"{ed.name}, {players} players", timeout=RUN_TIMEOUT)
        table = page.locator(".cluedo-table")
        expect(table.locator(".cluedo-table-status")).to_contain_text("Your move (P1)",
                                                                      timeout=RUN_TIMEOUT)
        board = table.locator(".cluedo-table-board svg")
        notepad = table.locator(".cluedo-learner-notepad")
        expect(board).to_have_count(1)
        page.wait_for_timeout(500)  # let the layout settle before measuring
        table.scroll_into_view_if_needed()
        page.evaluate("() => window.scrollTo(0, 0)")
        drawing, notes = board.bounding_box(), notepad.bounding_box()
        assert drawing is not None and notes is not None
        # Beside, on one screen: the board left of the notepad, both within 1280 pixels, the
        # whole board within 800 pixels of the page's top.
        assert drawing["x"] + drawing["width"] <= notes["x"]
        assert notes["x"] + notes["width"] <= CLASSROOM
        assert drawing["y"] + drawing["height"] <= 800
        assert notes["y"] < drawing["y"] + drawing["height"]
        assert page.evaluate("() => document.documentElement.scrollWidth") <= CLASSROOM
        page.screenshot(path=f"/tmp/screen-{edition}-{players}.png")

        table.locator("button.cluedo-action-roll").click()
        expect(log).to_contain_text(re.compile(r"P1 rolls \d"))
        squares = table.locator(".cluedo-board-target[title^='Move to row']")
        expect(squares.first).to_be_visible()
        expect(board.locator(".reachable rect").first).to_be_attached()
        page.screenshot(path=f"/tmp/screen-{edition}-{players}-rolled.png")
        target = squares.last
        row, col = re.fullmatch(r"Move to row (\d+), column (\d+)",
                                target.get_attribute("title")).groups()
        target.click()
        expect(log).to_contain_text(f"P1 moves to row {row}, column {col}")
        page.screenshot(path=f"/tmp/screen-{edition}-{players}-moved.png")
        assert refused == []


def test_new_game_always_answers(screen, voila, refused):
    page = screen
    with screenshot_on_failure(page, "test_new_game_always_answers"):
        page.goto(voila)
        log = page.locator(".cluedo-table-log")
        expect(log).to_contain_text("You are P1", timeout=RUN_TIMEOUT)
        note = page.locator(".cluedo-chooser-note")
        start = page.locator("button.cluedo-chooser-start")
        seed = page.locator(".cluedo-chooser-seed input")
        current = 0
        for n in range(2, 12):  # the same settings, then a new seed, in turn
            if n % 2:
                current = n
                seed.fill(str(current))
            start.click()
            expect(note).to_contain_text(f"Game {n} started", timeout=RUN_TIMEOUT)
            expect(log).to_contain_text(f"seed {current}. You are P1.", timeout=RUN_TIMEOUT)
            if not n % 2:
                expect(note).to_contain_text("same settings deal the same cards")
            else:
                expect(note).not_to_contain_text("same settings")
        # The race that used to swallow clicks: an edition chosen, the players typed at once,
        # New game. The kernel's answer to the edition change must not overwrite the number.
        players = page.locator(".cluedo-chooser-players input")
        edition = page.locator(".cluedo-chooser-edition select")
        for n, (label, count) in enumerate([("Cluedo — Waddingtons 1949", 6),
                                            ("Clue — Hasbro 2014", 5),
                                            ("Cluedo Card Game — Hasbro 2018", 4),
                                            ("Cluedo — Waddingtons 1949", 3)], start=12):
            edition.select_option(label=label)
            players.fill(str(count))
            start.click()
            expect(note).to_contain_text(f"Game {n} started", timeout=RUN_TIMEOUT)
            expect(log).to_contain_text(f"{count} players", timeout=RUN_TIMEOUT)
        assert refused == []


@pytest.mark.parametrize("edition, players", [
    ("clue-classic-2023", 3), ("clue-classic-2023-two-player", 2), ("clue-mansion-2014", 3),
    ("cluedo-card-game-2018", 3), ("cluedo-card-game-2018-advanced", 3),
    ("cluedo-classic-1949", 3), ("cluedo-classic-1949", 6), ("cluedo-the-card-game-2002", 3),
    ("cluedo-the-card-game-2002-one-against-all", 3)])
def test_the_app_fits_a_classroom_screen(screen, voila, refused, edition, players):
    """Every edition on a 1280 x 800 screen: nothing wider than the page, and scrolled to the
    table, every action button, the board and the notepad within the screen's height; the
    board tab showing this edition's board (or saying a card game has none)."""
    from cluedo_lab.rules.edition import load_edition

    ed = load_edition(edition)
    page = screen
    page.set_viewport_size({"width": CLASSROOM, "height": 800})
    with screenshot_on_failure(page, f"test_the_app_fits_{edition}"):
        page.goto(voila)
        log = page.locator(".cluedo-table-log")
        expect(log).to_contain_text("You are P1", timeout=RUN_TIMEOUT)
        page.locator(".cluedo-chooser-edition select").select_option(
            label=f"{ed.name} — {ed.publisher} {ed.year}")
        page.locator(".cluedo-chooser-players input").fill(str(players))
        page.locator("button.cluedo-chooser-start").click()
        # A new game closes the old table's widgets and opens the new ones: on a busy machine
        # the page may take a while to catch up.
        expect(page.locator(".cluedo-chooser-note")).to_contain_text(
            "Game 2 started", timeout=RUN_TIMEOUT)
        # The new table is drawn after the note: hundreds of widgets on a busy machine.
        expect(log).to_contain_text(f"{ed.name}, {players} players", timeout=RUN_TIMEOUT)
        expect(page.locator(".cluedo-table")).to_have_count(1)  # the old table is gone
        page.wait_for_timeout(500)  # let the layout settle before measuring
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= CLASSROOM
        parts = page.locator(".cluedo-table-action, .cluedo-learner-notepad")
        expect(parts.last).to_be_visible()
        for box in parts.all():
            right = box.bounding_box()
            assert right is not None and right["x"] + right["width"] <= CLASSROOM, \
                box.inner_text()
        SCREENS.mkdir(parents=True, exist_ok=True)
        # The pointer stays where New game was clicked: once the page scrolls, it would rest
        # on a notepad cell and the screenshot would show that cell's hover shadow.
        page.mouse.move(0, 0)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(SCREENS / f"app_{edition}_{players}.png"))
        # The play fits the screen's height: scrolled to the table, the action buttons, the
        # board and the whole notepad lie within the 800 pixels.
        page.locator(".cluedo-table").evaluate("t => t.scrollIntoView()")
        play = ".cluedo-table-action, .cluedo-learner-notepad" + (
            ", .cluedo-table-board" if ed.board else "")
        spans = page.evaluate(f"""() => [...document.querySelectorAll('{play}')].map(e => {{
            const r = e.getBoundingClientRect();
            return [e.className, Math.round(r.top), Math.round(r.bottom)]; }})""")
        assert len(spans) >= (3 if ed.board else 2)
        assert all(0 <= top and bottom <= 800 for _name, top, bottom in spans), spans
        page.screenshot(path=str(SCREENS / f"app_{edition}_{players}_play.png"))
        page.get_by_role("tab", name="The board").click()
        note = page.locator(".cluedo-classroom-board-note")
        if ed.board is None:
            expect(note).to_contain_text("is a card game: it has no board")
            expect(page.locator(".cluedo-board-explorer")).to_have_count(0)
        else:
            explorer = page.locator(".cluedo-board-explorer")
            expect(note).to_contain_text(f"The board of {ed.name}")
            expect(explorer.locator(".cluedo-board-svg svg title").first).to_have_text(
                _board_name(ed.board))
            explorer.locator(".cluedo-board-squares button[title$=': Kitchen']").first.click()
            expect(explorer.locator(".cluedo-board-table")).to_contain_text("From the Kitchen")
            expect(explorer.locator(".cluedo-board-table tr").nth(1)).to_contain_text("passage")
            assert page.evaluate("() => document.documentElement.scrollWidth") <= CLASSROOM
            shot(page, f"app_{edition}_{players}_board.png")
        assert refused == []


def _board_name(board_id: str) -> str:
    from cluedo_lab.rules.board import load_board

    return load_board(board_id).name


def test_classroom_app_in_voila(page, voila):
    with screenshot_on_failure(page, "test_classroom_app_in_voila"):
        page.goto(voila)
        table = page.locator(".cluedo-table")
        log = table.locator(".cluedo-table-log")
        expect(log).to_contain_text("You are P1", timeout=RUN_TIMEOUT)
        expect(page.get_by_text("TableChooser(")).to_have_count(0)  # no code cells
        shot(page, "app_voila_start.png")

        before = log.inner_text()
        table.locator("button.cluedo-action-ask").click()
        expect(log).to_contain_text("event 1: P1 asked about Scarlett, Mustard")
        assert log.inner_text() != before
        expect(table.locator(".cluedo-learner-caption")).not_to_contain_text("after 0 events")
        shot(page, "app_voila_after_ask.png")

        # A board game from the chooser: the board is drawn and the dice can be rolled.
        # (once the bots are done: a new board game takes a while to draw on a busy machine)
        expect(table.locator(".cluedo-table-status")).to_contain_text("Your move (P1)",
                                                                      timeout=RUN_TIMEOUT)
        page.locator(".cluedo-chooser-edition select").select_option(
            label="Cluedo — Waddingtons 1949")
        page.locator("button.cluedo-chooser-start").click()
        expect(page.locator(".cluedo-chooser-note")).to_contain_text("Game 2 started: Cluedo",
                                                                     timeout=RUN_TIMEOUT)
        expect(log).to_contain_text("Cluedo, 3 players (P1, P2, P3), seed 0. You are P1, "
                                    "playing Miss Scarlett.", timeout=RUN_TIMEOUT)
        expect(table.locator(".cluedo-table-board svg")).to_have_count(1)
        table.locator("button.cluedo-action-roll").click()
        expect(log).to_contain_text(re.compile(r"P1 rolls \d \+ \d = \d+"))
        expect(table.locator(".cluedo-action-move")).not_to_have_count(0)
        shot(page, "app_voila_board_roll.png")

        # The board explorer of the same edition, on the second tab.
        page.get_by_role("tab", name="The board").click()
        explorer = page.locator(".cluedo-board-explorer")
        explorer.scroll_into_view_if_needed()
        explorer.locator(".cluedo-board-where select").select_option(
            label="Mrs. Peacock's start (6, 23)")
        expect(explorer.locator(".cluedo-board-table tr", has_text="Conservatory")
               ).to_contain_text("58.3%")
        shot(explorer, "app_voila_explorer.png")
