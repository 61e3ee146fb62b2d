"""Benchmark: the classroom site (``make site``) in Chromium, against CPython on this machine.

    python benchmarks/site.py              # needs build/site, /usr/bin/chromium, playwright
    python benchmarks/site.py --site DIR   # another build (a copy of an earlier build/site)

Reports the site's size; the seconds from opening a page to a ready kernel, on a first load
(a fresh browser profile) and a warm one (a reload), for a lesson in JupyterLab (the status bar
reads Idle) and for the classroom page (the table is drawn); and one full notepad update
(``Knowledge(record).probabilities()`` on the 6-player Clue 2023 positions of ``run.py`` at 8
events, the fastest of 5 runs each) in the browser's Pyodide and in this CPython, with their
ratio. The same code runs in both: a cell typed into lesson 00 in the browser, ``exec`` here.
Every request outside 127.0.0.1 is refused, as in tests/views/test_site.py. Results go to
benchmarks/results/site.json (for build/site).
"""

from __future__ import annotations

import argparse
import json
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "build" / "site"
OUT = Path(__file__).resolve().parent / "results" / "site.json"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
TRIALS = 2
LIMIT = 240_000  # ms

UPDATE = """\
import json, time
from cluedo_lab.games.speed import speed_game
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.records import Record
from cluedo_lab.rules.edition import load_edition
ed = load_edition("clue-classic-2023")
ms = []
for seed in range(5):
    record = Record.from_dict(speed_game(ed, 6, seed, events=8).record(8))
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        Knowledge(record).probabilities()
        best = min(best, time.perf_counter() - start)
    ms.append(round(best * 1000, 2))
print("BENCH " + json.dumps(ms))
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpython_update() -> list[float]:
    """The update's times in this process (same code as the browser's cell)."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(UPDATE, {})
    return json.loads(out.getvalue().split("BENCH ", 1)[1])


def seconds_to(page, url: str, ready) -> float:
    start = time.monotonic()
    page.goto(url)
    ready(page)
    return time.monotonic() - start


def lesson_ready(page) -> None:
    from playwright.sync_api import expect

    status = page.locator(".jp-StatusBar-TextItem", has_text="Python (Pyodide)")
    expect(status).to_contain_text("Idle", timeout=LIMIT)


def table_ready(page) -> None:
    from playwright.sync_api import expect

    expect(page.locator(".cluedo-table-log")).to_contain_text("You are P1", timeout=LIMIT)


def browser_update(page) -> list[float]:
    """Type the update into a new cell at the end of lesson 00 (already open) and run it."""
    from playwright.sync_api import expect

    page.locator(".jp-Notebook .jp-Cell").last.click()
    page.keyboard.press("Escape")
    page.keyboard.press("b")
    page.keyboard.press("Enter")
    page.keyboard.insert_text(UPDATE)
    page.keyboard.press("Shift+Enter")
    output = page.locator(".jp-OutputArea-output", has_text="BENCH ").last
    expect(output).to_be_visible(timeout=LIMIT)
    return json.loads(re.search(r"BENCH (\[.*\])", output.inner_text()).group(1))


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, default=SITE, help="the built site (build/site)")
    site = parser.parse_args().site
    if not (site / "index.html").exists():
        sys.exit("no build/site: run `make site` first")
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1",
                               str(port), "--directory", str(site)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    pages = {"lesson": (f"{base}/lab/index.html?path=00_start_here.ipynb", lesson_ready),
             "classroom page": (f"{base}/voici/render/app/classroom.html", table_ready)}
    loads: dict[str, dict[str, list[float]]] = {name: {"first": [], "warm": []} for name in pages}
    browser_ms: list[float] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for _ in range(TRIALS):
                for name, (url, ready) in pages.items():
                    context = browser.new_context(viewport={"width": 1400, "height": 1000})
                    context.route("**/*", lambda route: route.continue_()
                                  if route.request.url.startswith(base) else route.abort())
                    page = context.new_page()
                    loads[name]["first"].append(seconds_to(page, url, ready))
                    loads[name]["warm"].append(seconds_to(page, url, ready))
                    if name == "lesson" and not browser_ms:
                        browser_ms = browser_update(page)
                    context.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
    cpython_ms = cpython_update()
    ratios = [b / c for b, c in zip(browser_ms, cpython_ms, strict=True)]
    result = {"site_mb": round(size / 1e6, 1), "loads_s": loads,
              "update_ms": {"browser": browser_ms, "cpython": cpython_ms},
              "browser_over_cpython": [round(r, 2) for r in ratios]}
    print(f"site: {size / 1e6:.0f} MB")
    for name, kinds in loads.items():
        print(f"{name}: ready in " + "; ".join(
            f"{kind} {min(v):.1f}-{max(v):.1f} s" for kind, v in kinds.items()))
    print(f"one update (ms, 5 positions): browser {browser_ms}, CPython {cpython_ms}; "
          f"browser / CPython {min(ratios):.1f}-{max(ratios):.1f}x")
    if site == SITE:   # another build's figures are printed only
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
