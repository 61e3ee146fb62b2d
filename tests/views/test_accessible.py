"""Every student can use the widgets: an axe-core scan of the pages a learner meets, and a whole
card game played with the keyboard alone.

axe-core (through ``axe-playwright-python``, which ships it) checks what a screen reader and a
keyboard need: every control has a name, roles are right, text has enough contrast, and
nothing a learner can reach is hidden from assistive technology. It scans the classroom page
(Voilà, as ``make app`` serves it) whole, and lessons 01 and 04 in JupyterLab after Run All: there
the scan covers the notebook's outputs, which the kit draws, not JupyterLab's own menus and
panels, which it does not. A scan passes when it finds no "serious" or "critical" violation.

The servers, the browser and the pages are test_browser.py's fixtures.
"""

from __future__ import annotations

import re

import pytest
import test_browser as tb

# test_browser.py's servers, browser and pages, as fixtures of this module too.
browser, jupyterlab, voila = tb.browser, tb.jupyterlab, tb.voila
page, screen, refused = tb.page, tb.screen, tb.refused
expect, run_notebook, screenshot_on_failure, shot = (tb.expect, tb.run_notebook,
                                                     tb.screenshot_on_failure, tb.shot)
RUN_TIMEOUT, SHOTS = tb.RUN_TIMEOUT, tb.SHOTS

axe_api = pytest.importorskip("axe_playwright_python.sync_playwright",
                              reason="the scan needs axe-playwright-python")

pytestmark = [pytest.mark.browser, pytest.mark.flaky(reruns=1, reruns_delay=2)]

SERIOUS = ("serious", "critical")


def serious_violations(page, name: str, context: object = None) -> list[str]:
    """axe-core's serious and critical violations on the page (or in ``context``), one line
    each: the rule, its help text and the first few elements it names. The whole report
    (minor and moderate ones too) goes to ``tests/browser/screenshots/axe-NAME.txt``."""
    results = axe_api.Axe().run(page, context=context)
    SHOTS.mkdir(parents=True, exist_ok=True)
    (SHOTS / f"axe-{name}.txt").write_text(results.generate_report())
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in SERIOUS:
            nodes = violation["nodes"]
            examples = "; ".join(f"{' '.join(map(str, node['target']))}: {node['html'][:120]} "
                                 f"({node['failureSummary'].splitlines()[-1].strip()})"
                                 for node in nodes[:4])
            found.append(f"{violation['impact']}: {violation['id']} ({violation['help']}), "
                         f"{len(nodes)} elements, e.g. {examples}")
    return found


def test_the_classroom_page_passes_an_axe_scan(screen, voila, refused):
    page = screen
    with screenshot_on_failure(page, "test_classroom_axe"):
        page.goto(voila)
        expect(page.locator(".cluedo-table-log")).to_contain_text("You are P1",
                                                                  timeout=RUN_TIMEOUT)
        found = serious_violations(page, "classroom")
        # After a turn (the log, the notepad's marks) and with the board tab open.
        table = page.locator(".cluedo-table")
        table.locator("button.cluedo-action-ask").click()
        expect(table.locator(".cluedo-table-status")).to_contain_text("Your move (P1)")
        notepad = table.locator(".cluedo-learner-notepad")
        notepad.locator("button.cluedo-learner-cell").first.click()
        notepad.locator("button.cluedo-learner-check").click()
        expect(notepad.locator(".cluedo-learner-message")).not_to_be_empty()
        found += serious_violations(page, "classroom-after-a-turn")
        page.get_by_role("tab", name="The board").click()
        expect(page.locator(".cluedo-classroom-board-note")).to_be_visible()
        found += serious_violations(page, "classroom-board")
        assert found == []
        assert refused == []


@pytest.mark.parametrize("lesson", ["01_deduction.ipynb", "04_notepad_and_stepper.ipynb"])
def test_a_lesson_passes_an_axe_scan(page, jupyterlab, lesson):
    with screenshot_on_failure(page, f"test_axe_{lesson}"):
        run_notebook(page, jupyterlab, lesson)
        expect(page.locator(".jp-OutputArea-output").first).to_be_attached()
        assert serious_violations(page, lesson[:2], {"include": [[".jp-OutputArea"]]}) == []


def test_a_card_game_played_with_the_keyboard_alone(screen, voila, refused):
    """Tab to a control, Enter or Space to use it, arrow keys in a drop-down: a learner who
    cannot use a mouse marks the notepad, asks, and accuses until the game is over."""
    from cluedo_lab.views.table import Table

    engine = Table("cluedo-card-game-2018", 3, seed=0)
    solution = engine.game.deal.envelope
    page = screen
    with screenshot_on_failure(page, "test_keyboard_game"):
        page.goto(voila)
        table = page.locator(".cluedo-table")
        log = table.locator(".cluedo-table-log")
        expect(log).to_contain_text("You are P1", timeout=RUN_TIMEOUT)

        def tab_to(locator, limit: int = 400) -> None:
            """Press Tab until the keyboard focus is on ``locator``."""
            for _ in range(limit):
                page.keyboard.press("Tab")
                if locator.evaluate("e => e === document.activeElement || "
                                    "e.contains(document.activeElement)"):
                    return
            pytest.fail(f"Tab never reached {locator}")

        # Mark a card the learner holds, with Enter on its cell.
        held = engine.game.deal.hands[0][0]
        cell = table.locator(f"button.cluedo-cell-{held.id}-p1")
        tab_to(cell)
        page.keyboard.press("Enter")
        expect(cell).to_have_text("✓")
        # Ask about the cards chosen with the arrow keys, with Space on Ask.
        ask = table.locator("button.cluedo-action-ask")
        tab_to(ask)
        page.keyboard.press("Space")
        expect(log).to_contain_text("event 1: P1 asked about")
        status = table.locator(".cluedo-table-status")
        expect(status).to_contain_text("Your move (P1)")
        # A bot may ask the learner to show a card: that too by keyboard.
        show = table.locator("button.cluedo-action-show")
        if show.count():
            tab_to(show.first)
            page.keyboard.press("Enter")
            expect(show).to_have_count(0)
        expect(status).to_contain_text("accuse")
        # Choose the solution in the drop-downs by keyboard, then accuse and confirm.
        for card in solution:
            select = table.locator(f".cluedo-field-{card.category} select")
            tab_to(select)
            names = select.locator("option").all_inner_texts()
            current = select.evaluate("e => e.selectedIndex")
            target = names.index(card.name)
            key = "ArrowDown" if target > current else "ArrowUp"
            for _ in range(abs(target - current)):
                page.keyboard.press(key)
            expect(select).to_have_value(re.compile(".*"))
            assert select.evaluate("e => e.options[e.selectedIndex].text") == card.name
        accuse = table.locator("button.cluedo-action-accuse")
        tab_to(accuse)
        page.keyboard.press("Enter")
        confirm = table.locator(".cluedo-table-confirm")
        expect(confirm).to_be_visible()
        tab_to(confirm.locator("button.cluedo-confirm-accuse"))
        page.keyboard.press("Enter")
        expect(status).to_contain_text("Game over: you won!")
        expect(log).to_contain_text("P1 solves the crime and wins")
        shot(page, "app_keyboard_game_over.png")
        assert refused == []
