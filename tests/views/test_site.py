"""The classroom site (``make site``): the kit in a browser, with no server running Python.

The first test runs anywhere: under Pyodide (``sys.platform == "emscripten"``) a tournament
plays its games in the kernel instead of starting worker processes, which a browser has not.

The others open ``build/site`` (built by ``make site``; they skip when it is missing) in
Debian's Chromium, served by ``python -m http.server`` on 127.0.0.1, with every request to any
other address refused, so a pass shows that the site runs offline: the kernel comes up, lessons
00 and 04 run every cell without an error, the notepad answers a click, the classroom
notebook plays a turn at the table, the kit's dependencies load when it first imports
them (not with the first page), and the kernel starts without one request to the learner's
folder. Screenshots go to ``tests/browser/screenshots/site-*.png``.
Needs /usr/bin/chromium and the ``playwright`` package (no ``playwright install``).
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from cluedo_lab.lab import tournament
from cluedo_lab.lab.tournament import can_use_processes, run_tournament

ROOT = Path(__file__).resolve().parents[2]
SITE = ROOT / "build" / "site"
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[1] / "browser" / "screenshots"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 # No name but the loopback resolves, for the page and its workers alike
                 # (a worker's requests pass no Playwright route).
                 "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
KERNEL_TIMEOUT = 180_000  # ms for Pyodide to start on a busy 2-core machine
RUN_TIMEOUT = 240_000  # ms for a lesson to run to its last cell in the browser
UI_TIMEOUT = 60_000  # ms for a widget to answer a click (bots play in the browser)


# ---------------------------------------------------------------------------------------------
# The single-process path, in CPython
# ---------------------------------------------------------------------------------------------

class _NoPool:
    """Stands in for ProcessPoolExecutor: fails if a tournament tries to start processes."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        raise AssertionError("a worker pool was started")


def test_in_a_browser_a_tournament_plays_in_one_process(monkeypatch):
    import concurrent.futures

    bots = ["detective", "random", "detective"]
    alone = run_tournament("cluedo-the-card-game-2002", bots, 4, seed=3, workers=1)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", _NoPool)
    assert can_use_processes()
    with pytest.raises(AssertionError, match="worker pool"):  # CPython: workers are processes
        run_tournament("cluedo-the-card-game-2002", bots, 4, seed=3, workers=2)

    from tqdm.auto import tqdm

    monkeypatch.setattr(tqdm, "monitor_interval", 10)  # restored after the test
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert not tournament.can_use_processes()
    in_browser = run_tournament("cluedo-the-card-game-2002", bots, 4, seed=3, workers=2)
    assert in_browser.to_json() == alone.to_json()
    assert tqdm.monitor_interval == 0   # nor a thread for the progress bar


# ---------------------------------------------------------------------------------------------
# The built site in Chromium
# ---------------------------------------------------------------------------------------------

def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]



# A real browser talks to a kernel over a websocket on a shared 2-core machine: a step can
# miss its time limit when the machine is busy. Such a test is run once more before it
# counts as failed (pytest-rerunfailures); a second failure is a real one.
pytestmark = pytest.mark.flaky(reruns=1, reruns_delay=2)

@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    """Base URL of build/site served on 127.0.0.1 by Python's own static file server."""
    if not (SITE / "index.html").exists():
        pytest.skip("no build/site: run `make site` first (the site test does not build it)")
    if not CHROMIUM.exists():
        pytest.skip("the site test needs Chromium at /usr/bin/chromium "
                    "(Debian: apt-get install chromium)")
    pytest.importorskip("playwright.sync_api", reason="the site test needs the playwright "
                        "package (pip install playwright; the system Chromium is used)")
    port = _free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1",
                               str(port), "--directory", str(SITE)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        import urllib.request

        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(base + "/jupyter-lite.json", timeout=2):
                    break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("python -m http.server did not answer on " + base)
                time.sleep(0.2)
        yield base
    finally:
        server.terminate()
        server.wait(10)


@pytest.fixture(scope="module")
def browser(site, playwright_driver):
    chromium = playwright_driver.chromium.launch(executable_path=str(CHROMIUM),
                                                 args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture
def page(browser, site):
    """A fresh page whose every request outside the site's 127.0.0.1 server is refused; the
    refused addresses are kept on ``page.refused`` (a test asserts there were none)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=UI_TIMEOUT)
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    refused: list[str] = []

    def guard(route) -> None:
        url = route.request.url
        if url.startswith(site + "/") or url.startswith(("data:", "blob:")):
            route.continue_()
        else:
            refused.append(url)
            route.abort()

    context.route("**/*", guard)
    page = context.new_page()
    page.set_default_timeout(UI_TIMEOUT)
    page.refused = refused
    page.failed = []   # requests that failed or got an HTTP error, the page's and its workers'
    page.errors = []   # the console's errors
    page.on("requestfailed", lambda r: page.failed.append(f"{r.url}: {r.failure}"))
    page.on("response", lambda r: r.status >= 400 and page.failed.append(f"{r.url}: {r.status}"))
    page.on("console", lambda m: m.type == "error" and page.errors.append(m.text))
    try:
        yield page
    finally:
        context.close()


def shot(target, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(SHOTS / name))


def open_lesson(page, site: str, name: str) -> None:
    """Open a notebook in JupyterLite and wait until its Pyodide kernel is idle."""
    from playwright.sync_api import expect

    page.goto(f"{site}/lab/index.html?path={name}")
    status = page.locator(".jp-StatusBar-TextItem", has_text="Python (Pyodide)")
    expect(status).to_contain_text("Idle", timeout=KERNEL_TIMEOUT)


def run_all(page, prompts: bool = True) -> None:
    """Clear the stored outputs and run every cell; with ``prompts`` wait for the last cell and
    check that every cell ran (the classroom folds its code away, prompts and all: its test
    waits for the table instead). Fail on an error."""
    from playwright.sync_api import expect

    page.get_by_role("menuitem", name="Edit", exact=True).click()
    page.get_by_role("menuitem", name="Clear Outputs of All Cells", exact=True).click()
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    if prompts:
        # A cell whose code is collapsed (a widget-only cell) shows a placeholder, no count.
        inputs = page.locator(".jp-Notebook .jp-CodeCell .jp-InputPrompt"
                              ":not(.jp-Placeholder-prompt)")
        expect(inputs.last).to_have_text(re.compile(r"^\[\d+\]:?$"), timeout=RUN_TIMEOUT)
        for text in inputs.all_inner_texts():   # every cell ran (none skipped after an error)
            assert re.fullmatch(r"\[\d+\]:?", text.strip()), text
        status = page.locator(".jp-StatusBar-TextItem", has_text="Python (Pyodide)")
        expect(status).to_contain_text("Idle", timeout=RUN_TIMEOUT)   # the collapsed ones too
    expect(page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
           .filter(has_text=re.compile("Error|Traceback"))).to_have_count(0)


def test_lesson_00_runs_in_the_browser(page, site):
    open_lesson(page, site, "00_start_here.ipynb")
    run_all(page)
    shot(page, "site-00.png")
    assert page.refused == []


def test_lesson_04_notepad_answers_a_click(page, site):
    from playwright.sync_api import expect

    open_lesson(page, site, "04_notepad_and_stepper.ipynb")
    run_all(page)
    notepad = page.locator(".cluedo-notepad")
    expect(notepad.locator(".cluedo-notepad-caption")).to_contain_text(
        "after 8 events: 30 consistent deals")
    explanation = notepad.locator(".cluedo-explanation")
    cell = notepad.locator("button.cluedo-cell-peacock-envelope")
    expect(cell).to_have_text("✓")
    cell.scroll_into_view_if_needed()
    cell.click()
    expect(explanation).to_contain_text("Why the envelope holds Mrs. Peacock")
    expect(cell).to_have_class(re.compile(r"\bcluedo-selected\b"))
    notepad.locator("button.cluedo-cell-ballroom-cy").click()
    expect(explanation).to_contain_text("7/10")
    explanation.scroll_into_view_if_needed()
    shot(page, "site-04-notepad.png")
    assert page.refused == []


def test_classroom_notebook_plays_a_turn(page, site):
    """The classroom notebook in JupyterLab, its code folded away and its first line saying how
    to start it here: Run All, one question at the table, and the bots answer."""
    from playwright.sync_api import expect

    open_lesson(page, site, "app/classroom.ipynb")
    expect(page.locator(".jp-RenderedMarkdown", has_text="choose Run › Run All Cells")
           ).to_have_count(1)
    expect(page.get_by_text("TableChooser(")).to_have_count(0)  # the code is folded away
    shot(page, "site-classroom-start.png")
    run_all(page, prompts=False)
    table = page.locator(".cluedo-table")
    log = table.locator(".cluedo-table-log")
    # The learner's own notes are the table's default notepad.
    caption = table.locator(".cluedo-learner-caption")
    expect(log).to_contain_text("Cluedo Card Game, 3 players (P1, P2, P3), seed 0. You are P1.",
                                timeout=RUN_TIMEOUT)
    expect(page.get_by_text("TableChooser(")).to_have_count(0)
    expect(caption).to_contain_text("P1's own notes after 0 events")
    table.scroll_into_view_if_needed()
    table.locator(".cluedo-field-card-1 select").select_option(label="Plum")
    table.locator("button.cluedo-action-ask").click()
    expect(log).to_contain_text("event 1: P1 asked about Mustard, Plum")
    expect(log).to_contain_text("-- P3's turn --")
    expect(caption).not_to_contain_text("after 0 events")
    expect(table.locator(".cluedo-table-status")).to_contain_text("Your move (P1)")
    shot(page, "site-classroom.png")
    assert page.refused == []


def test_classroom_page_plays_a_turn_with_no_code(page, site):
    """The site's first page leads to the classroom page (Voici: the notebook run in the page,
    its outputs only): the table comes up by itself, with no code and no line on running
    cells; a question gets the bots' answers, and the board tab shows the game's board."""
    from playwright.sync_api import expect

    page.goto(site + "/")
    shot(page, "site-front.png")
    page.get_by_role("link", name=re.compile("Play at the table")).click()
    table = page.locator(".cluedo-table")
    log = table.locator(".cluedo-table-log")
    expect(log).to_contain_text("Cluedo Card Game, 3 players (P1, P2, P3), seed 0. You are P1.",
                                timeout=KERNEL_TIMEOUT)
    assert "/voici/render/app/classroom.html" in page.url
    expect(page.locator(".jp-InputArea-editor:visible")).to_have_count(0)   # no code cells
    expect(page.get_by_text("Classroom(")).to_have_count(0)
    expect(page.get_by_text("Run All Cells")).to_have_count(0)       # JupyterLab's line only
    expect(page.get_by_role("heading", name="Cluedo classroom")).to_have_count(1)
    caption = table.locator(".cluedo-learner-caption")
    expect(caption).to_contain_text("P1's own notes after 0 events")
    shot(page, "site-classroom-page.png")
    table.locator(".cluedo-field-card-1 select").select_option(label="Plum")
    table.locator("button.cluedo-action-ask").click()
    expect(log).to_contain_text("event 1: P1 asked about Mustard, Plum")
    expect(log).to_contain_text("-- P3's turn --")
    expect(table.locator(".cluedo-table-status")).to_contain_text("Your move (P1)")
    expect(caption).not_to_contain_text("after 0 events")
    # A learner's mark in their own notes
    first = table.locator("button.cluedo-learner-cell").first
    first.click()
    expect(first).to_have_text("✓")
    page.get_by_role("tab", name="The board").click()
    expect(page.locator(".cluedo-classroom-board-note")).to_contain_text("no board")
    # A board edition: the board tab explores its board.
    page.get_by_role("tab", name="Play at the table").click()
    page.locator(".cluedo-chooser-edition select").select_option(label="Cluedo — Waddingtons 1949")
    page.locator("button.cluedo-chooser-start").click()
    expect(log).to_contain_text("You are P1, playing Miss Scarlett.", timeout=RUN_TIMEOUT)
    page.get_by_role("tab", name="The board").click()
    explorer = page.locator(".cluedo-board-explorer")
    explorer.locator(".cluedo-board-where select").select_option(
        label="Mrs. Peacock's start (6, 23)", timeout=RUN_TIMEOUT)
    expect(explorer.locator(".cluedo-board-table tr", has_text="Conservatory")
           ).to_contain_text("58.3%")
    shot(page, "site-classroom-page-board.png")
    assert page.refused == []


LOADING_STEPS = ["Loading Python into this page", "Starting Python…",
                 "Loading the kit and dealing the cards…"]
"""What the classroom page's loading screen says, in order (docs/site/build_site.py)."""

RECORD_LOADING_TEXT = """
window.__loading = [];
new MutationObserver(() => {
  const el = document.getElementById("loading_text");
  const text = el && el.textContent;
  if (text && window.__loading[window.__loading.length - 1] !== text) window.__loading.push(text);
}).observe(document, {subtree: true, childList: true, characterData: true});
"""


@pytest.mark.browser
def test_classroom_page_says_what_it_is_doing_and_no_request_fails(page, site):
    """Offline, the classroom page comes up with no failed request (the kernel's sqlite3 is an
    empty wheel served by the site) and no error in the console, and its loading screen names
    each step instead of a bare spinner."""
    from playwright.sync_api import expect

    page.add_init_script(RECORD_LOADING_TEXT)
    page.goto(site + "/voici/render/app/classroom.html")
    expect(page.locator("#loading_text")).to_contain_text(LOADING_STEPS[0])
    expect(page.locator(".cluedo-table-log")).to_contain_text("You are P1", timeout=KERNEL_TIMEOUT)
    steps = page.evaluate("window.__loading")
    seen = [next((s for s in steps if s.startswith(step)), None) for step in LOADING_STEPS]
    assert None not in seen, steps
    assert [steps.index(s) for s in seen] == sorted(steps.index(s) for s in seen), steps
    assert page.failed == []
    assert page.errors == []
    assert page.refused == []


@pytest.mark.browser
def test_lesson_opens_with_no_failed_request(page, site):
    open_lesson(page, site, "00_start_here.ipynb")
    assert page.failed == []
    assert page.errors == []
    assert page.refused == []


LAZY_CELL = """\
import sys
before = sorted(m for m in ("sympy", "networkx", "tqdm") if m in sys.modules)
from cluedo_lab.knowledge.closed_forms import deals
from cluedo_lab.rules.edition import load_edition
print("LAZY", before, deals(load_edition("cluedo-classic-1949"), 4).doit())
"""


def run_typed_cell(page, code: str, marker: str) -> str:
    """Type ``code`` into a new cell at the end of the open notebook, run it and return the
    text of its output (the one that holds ``marker``)."""
    from playwright.sync_api import expect

    page.locator(".jp-Notebook .jp-Cell").last.click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    page.keyboard.press("Enter")
    page.keyboard.insert_text(code)
    page.keyboard.press("Shift+Enter")
    output = page.locator(".jp-OutputArea-output", has_text=marker).last
    expect(output).to_be_visible(timeout=RUN_TIMEOUT)
    return output.inner_text()


@pytest.mark.browser
def test_the_kit_loads_sympy_only_when_it_imports_it(page, site):
    """Lesson 00 starts without sympy, networkx or tqdm (the kit's lock entry does not name
    them); the kit's first import of sympy loads it from the site, and the count is exact."""
    from cluedo_lab.knowledge.closed_forms import deals
    from cluedo_lab.rules.edition import load_edition

    open_lesson(page, site, "00_start_here.ipynb")
    text = run_typed_cell(page, LAZY_CELL, "LAZY")
    expected = deals(load_edition("cluedo-classic-1949"), 4).doit()
    assert text.strip() == f"LAZY [] {expected}"
    assert page.failed == []
    assert page.refused == []


DRIVE_CELL = """\
import sys
from pathlib import Path
Path("site_own_module.py").write_text("ANSWER = 'own module'\\n")
import site_own_module
print("DRIVE", site_own_module.ANSWER, sys.path[-1] == "")
"""


@pytest.mark.browser
def test_the_kernel_starts_without_asking_the_learners_folder(page, site):
    """Lesson 00's kernel starts without one request to the learner's folder (the drive:
    each look is a synchronous round trip through the page, and the kernel's imports made 120
    of them), and a module the learner writes there still imports afterwards, the folder
    searched last."""
    asked: list[str] = []
    page.on("request", lambda r: r.url.endswith("/api/drive") and asked.append(r.post_data))
    open_lesson(page, site, "00_start_here.ipynb")
    assert asked == []
    text = run_typed_cell(page, DRIVE_CELL, "DRIVE")
    assert text.strip() == "DRIVE own module True"
    assert page.failed == []
