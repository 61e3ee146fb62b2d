"""Every lesson's first screen as a learner opens it, on a 1280 x 800 screen, for a person to look
at: ``build/screens/NN_name.png``.

A lesson opens with its stored outputs (the kit ships them; no cell is run): the text, the
tables and the static drawings of the widgets are what a student meets before pressing Run
All, so that is the screen shot here, JupyterLab's file browser beside it as ``make lab``
shows it. The classroom page per edition is shot by test_browser.py's
``test_the_app_fits_a_classroom_screen`` into the same folder (``app_EDITION_PLAYERS.png``).

The shots are looked at, not compared: what this test asserts is only that the lesson opens
on its own text (a heading first, no error on the page). Run with
``pytest tests/views/test_screens.py -m browser``.
"""

from __future__ import annotations

import pytest
import test_browser as tb

# test_browser.py's server and browser, as fixtures of this module too.
browser, jupyterlab_as_shipped, refused = tb.browser, tb.jupyterlab_as_shipped, tb.refused
expect = tb.expect

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.flaky(reruns=1, reruns_delay=2)]

SCREENS = tb.SCREENS
WIDTH, HEIGHT = 1280, 800
LESSONS = sorted(p.name for p in (tb.ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture
def learner_screen(browser, refused):
    context, page = tb._new_page(browser, refused, WIDTH, HEIGHT)
    try:
        yield page
    finally:
        context.close()


@pytest.mark.parametrize("name", LESSONS, ids=lambda n: n[:2])
def test_first_screen_of_a_lesson(learner_screen, jupyterlab_as_shipped, refused, name):
    page = learner_screen
    page.goto(f"{jupyterlab_as_shipped}/lab/tree/{name}?reset&token={tb.TOKEN}")
    notebook = page.locator(".jp-Notebook")
    first = notebook.locator(".jp-Cell").first
    expect(first.locator("h1, h2").first).to_be_visible(timeout=tb.RUN_TIMEOUT)
    expect(page.locator("#jp-main-statusbar")).to_contain_text("Idle", timeout=tb.RUN_TIMEOUT)
    page.wait_for_timeout(1000)  # let fonts and the stored drawings settle
    SCREENS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENS / name.replace(".ipynb", ".png")))
    expect(notebook.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.stderr']")
           ).to_have_count(0)
    assert refused == []
    for session in tb._api(jupyterlab_as_shipped, "sessions"):   # one kernel at a time
        tb._api(jupyterlab_as_shipped, f"sessions/{session['id']}", "DELETE")
