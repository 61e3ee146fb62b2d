"""Benchmark: the classroom site (``make site``) in Chromium, against CPython on this machine.

    python benchmarks/site.py              # needs build/site, /usr/bin/chromium, playwright
    python benchmarks/site.py --site DIR   # another build (a copy of an earlier build/site)
    python benchmarks/site.py --against OLD [--rounds N]   # build/site and OLD, in turns

Reports the site's size; the seconds from opening a page to a ready kernel, on a first load
(a fresh browser profile) and a warm one (a reload), for a lesson in JupyterLab (the status bar
reads Idle) and for the classroom page (the table is drawn), with the second the kernel's
worker started (what comes before is the page's own front end); where the kernel's start goes
(:data:`STAGES`: the same steps as the site's kernel, one by one, in a worker of a bare page
beside the site); and one full notepad update (``Knowledge(record).probabilities()`` on the
6-player Clue 2023 positions of ``run.py`` at 8 events, the fastest of 5 runs each) in the
browser's Pyodide and in this CPython, with their ratio. The same code runs in both: a cell
typed into lesson 00 in the browser, ``exec`` here.

The machine is shared, so every figure has beside it the load average when it was taken and
the CPU seconds the browser's processes spent on it (all its threads: on an idle machine the
wall time is about the CPU time of the busiest thread, on a busy one it stretches with the
load while the CPU time stays about the same). Every request outside 127.0.0.1 is refused, as
in tests/views/test_site.py. Results go to benchmarks/results/site.json (for build/site).

With ``--against OLD`` it measures only the seconds to ready, of the site and of an older
build (OLD, a copy of an earlier build/site) in turns, each page first and warm, ``--rounds``
times (5 unless told), so that both meet the same load; it prints each one's median and
their ratio (results/site-against.json).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
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


FIRST_CELL = """\
from cluedo_lab.rules.deal import deal
from cluedo_lab.rules.edition import all_editions, load_edition, overview

classic = load_edition("cluedo-classic-1949")
game = deal(classic, players=4, seed=2024)
game
"""
"""Lesson 00's first cell."""

STAGES = [
    ("Python up", "python", "fetch and compile the wasm, the standard library, start Python"),
    ("kernel wheels", "load", "fetch and unpack the wheels the kernel preloads"),
    ("import piplite", "run", "import piplite.piplite"),
    ("IPython shell", "run", "import pyodide_kernel"),
    ("first cell's wheels", "imports", FIRST_CELL),
    ("first cell", "run", FIRST_CELL),
]
"""The kernel's start as the pyodide kernel's worker makes it (jupyterlite-pyodide-kernel
0.7.0's worker.js: loadPyodide with the site's options, import piplite, import pyodide_kernel,
which starts the IPython shell), then lesson 00's first cell: name, step, argument."""

PROBE_WORKER = """\
let py = null;
self.onmessage = async (ev) => {
  const { step, arg } = ev.data;
  const start = performance.now();
  let out = null;
  try {
    if (step === "python") {
      importScripts("/static/pyodide/pyodide.js");
      py = await loadPyodide({ indexURL: "/static/pyodide/", ...arg });
    } else if (step === "load") {
      await py.loadPackage(arg, { messageCallback: () => {} });
    } else if (step === "imports") {
      await py.loadPackagesFromImports(arg, { messageCallback: () => {} });
    } else {
      await py.runPythonAsync(arg);
    }
  } catch (e) { out = String(e); }
  postMessage({ ms: performance.now() - start, error: out });
};
"""
PROBE_PAGE = """\
<!DOCTYPE html><meta charset="utf-8"><title>kernel stages</title>
<script>
let worker = null;
window.newWorker = () => { worker = new Worker("/bench-stages.js"); };
window.step = (step, arg) => new Promise((resolve) => {
  worker.onmessage = (ev) => resolve(ev.data); worker.postMessage({ step, arg }); });
</script>
"""


def load_average() -> float:
    """The machine's load average over the last minute."""
    return os.getloadavg()[0]


def tree_cpu(root: int) -> float:
    """CPU seconds (user and system) spent so far by the descendants of process ``root``: the
    browser's processes, Playwright's driver, the file server, and (through their parents'
    children's times) those of them that have ended."""
    children: dict[int, list[tuple[int, int]]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        children.setdefault(int(fields[1]), []).append(
            (int(entry), sum(int(f) for f in fields[11:15])))
    ticks, todo = 0, [root]
    while todo:
        for pid, used in children.get(todo.pop(), []):
            ticks += used
            todo.append(pid)
    return ticks / os.sysconf("SC_CLK_TCK")


class Meter:
    """Wall seconds, browser CPU seconds and the load average of one measured step."""

    def __enter__(self) -> Meter:
        self.load, self.cpu, self.start = load_average(), tree_cpu(os.getpid()), time.monotonic()
        return self

    def __exit__(self, *exc: object) -> None:
        self.s = round(time.monotonic() - self.start, 2)
        self.cpu_s = round(tree_cpu(os.getpid()) - self.cpu, 2)

    def figures(self) -> dict[str, float]:
        return {"s": self.s, "cpu_s": self.cpu_s, "load": round(self.load, 2)}


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


def seconds_to(page, url: str, ready) -> dict[str, float]:
    """Open ``url`` until ``ready``: the figures of :class:`Meter`, and when the kernel's
    worker started (seconds after the page was asked for)."""
    started: list[float] = []
    listener = lambda worker: started.append(time.monotonic())  # noqa: E731
    page.on("worker", listener)
    with Meter() as meter:
        page.goto(url)
        ready(page)
    page.remove_listener("worker", listener)
    figures = meter.figures()
    if started:
        figures["kernel_from_s"] = round(started[0] - meter.start, 2)
    return figures


def probe_root(site: Path) -> Path:
    """A folder served in the site's place: the site's own files (linked) and the stages page."""
    root = Path(tempfile.mkdtemp(prefix="site-bench-"))
    for entry in site.iterdir():
        (root / entry.name).symlink_to(entry.resolve())
    (root / "bench-stages.html").write_text(PROBE_PAGE)
    (root / "bench-stages.js").write_text(PROBE_WORKER)
    return root


def kernel_options(site: Path) -> dict:
    """What the site's kernel passes to loadPyodide (jupyter-lite.json)."""
    config = json.loads((site / "jupyter-lite.json").read_text())["jupyter-config-data"]
    kernel = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    return dict(kernel.get("loadPyodideOptions", {}))


def stages(page, options: dict) -> dict[str, dict[str, float]]:
    """Each of :data:`STAGES` in a new worker of the stages page (already open)."""
    preload = options.pop("packages", [])
    page.evaluate("newWorker()")
    out: dict[str, dict[str, float]] = {}
    for name, step, arg in STAGES:
        arg = {"python": options, "load": preload}.get(step, arg)
        with Meter() as meter:
            result = page.evaluate("([s, a]) => step(s, a)", [step, arg])
        if result["error"]:
            raise RuntimeError(f"{name}: {result['error']}")
        out[name] = meter.figures()
    return out


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


def serve(folder: Path) -> tuple[subprocess.Popen, str]:
    """``folder`` served on 127.0.0.1 by Python's static file server, and its base URL."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "http.server", "--bind", "127.0.0.1",
                               str(port), "--directory", str(folder)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(1)
    return server, f"http://127.0.0.1:{port}"


def page_urls(base: str) -> dict:
    return {"lesson": (f"{base}/lab/index.html?path=00_start_here.ipynb", lesson_ready),
            "classroom page": (f"{base}/voici/render/app/classroom.html", table_ready)}


def only_from(base: str):
    """A route handler that lets requests to ``base`` through and refuses every other."""
    def handle(route) -> None:
        if route.request.url.startswith(base):
            route.continue_()
        else:
            route.abort()
    return handle


def against(sites: dict[str, Path], rounds: int) -> None:
    """The seconds to ready of each of ``sites`` (name: folder), in turns, ``rounds`` times."""
    from playwright.sync_api import sync_playwright

    servers = {name: serve(folder) for name, folder in sites.items()}
    loads = {name: {page: {"first": [], "warm": []} for page in page_urls("")}
             for name in sites}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            for turn in range(rounds):
                order = list(sites) if turn % 2 == 0 else list(reversed(sites))
                for page_name in page_urls(""):
                    for name in order:
                        base = servers[name][1]
                        url, ready = page_urls(base)[page_name]
                        context = browser.new_context(viewport={"width": 1400, "height": 1000})
                        context.route("**/*", only_from(base))
                        page = context.new_page()
                        for kind in ("first", "warm"):
                            loads[name][page_name][kind].append(seconds_to(page, url, ready))
                        context.close()
            browser.close()
    finally:
        for server, _ in servers.values():
            server.terminate()
            server.wait(10)
    new, old = sites
    print(f"{os.cpu_count()} cores; {rounds} rounds in turns; load average now "
          f"{load_average():.1f}")
    summary: dict[str, dict[str, float]] = {}
    for page_name in page_urls(""):
        for kind in ("first", "warm"):
            medians = {name: statistics.median([f["s"] for f in loads[name][page_name][kind]])
                       for name in sites}
            summary[f"{page_name}, {kind}"] = {**medians, "ratio": round(medians[new]
                                                                         / medians[old], 2)}
            for name in sites:
                runs = loads[name][page_name][kind]
                print(f"{page_name}, {kind}, {name}: median {medians[name]:.1f} s; " + ", ".join(
                    f"{f['s']:.1f} (kernel from {f.get('kernel_from_s', 0):.1f}, load "
                    f"{f['load']:.1f})" for f in runs))
            print(f"{page_name}, {kind}: {new} / {old} = {medians[new] / medians[old]:.2f}")
    OUT.parent.mkdir(parents=True, exist_ok=True)
    (OUT.parent / "site-against.json").write_text(json.dumps(
        {"sites": {name: str(folder) for name, folder in sites.items()}, "rounds": rounds,
         "cores": os.cpu_count(), "medians": summary, "loads": loads}, indent=1) + "\n")


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, default=SITE, help="the built site (build/site)")
    parser.add_argument("--against", type=Path, metavar="OLD",
                        help="an older build to time in turns with the site")
    parser.add_argument("--rounds", type=int, default=5, help="rounds with --against")
    args = parser.parse_args()
    site = args.site
    for folder in filter(None, [site, args.against]):
        if not (folder / "index.html").exists():
            sys.exit(f"no site in {folder}: run `make site` first")
    if args.against is not None:
        against({"new": site, "old": args.against}, args.rounds)
        return
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    root = probe_root(site)
    server, base = serve(root)
    pages = page_urls(base)
    loads: dict[str, dict[str, list]] = {name: {"first": [], "warm": []} for name in pages}
    split: dict[str, list] = {"first": [], "warm": []}
    browser_ms: list[float] = []
    load_before = load_average()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)

            def new_page():
                context = browser.new_context(viewport={"width": 1400, "height": 1000})
                context.route("**/*", only_from(base))
                return context, context.new_page()

            for _ in range(TRIALS):
                for name, (url, ready) in pages.items():
                    context, page = new_page()
                    loads[name]["first"].append(seconds_to(page, url, ready))
                    loads[name]["warm"].append(seconds_to(page, url, ready))
                    if name == "lesson" and not browser_ms:
                        browser_ms = browser_update(page)
                    context.close()
                context, page = new_page()
                page.goto(f"{base}/bench-stages.html")
                for kind in split:   # a fresh profile, then its cache
                    split[kind].append(stages(page, kernel_options(site)))
                context.close()
            browser.close()
    finally:
        server.terminate()
        server.wait(10)
        shutil.rmtree(root)
    cpython_ms = cpython_update()
    ratios = [b / c for b, c in zip(browser_ms, cpython_ms, strict=True)]
    result = {"site_mb": round(size / 1e6, 1),
              "machine": {"cores": os.cpu_count(), "load_before": round(load_before, 2),
                          "load_after": round(load_average(), 2)},
              "loads": loads, "kernel_start": split,
              "update_ms": {"browser": browser_ms, "cpython": cpython_ms},
              "browser_over_cpython": [round(r, 2) for r in ratios]}
    print(f"site: {size / 1e6:.0f} MB; {os.cpu_count()} cores, load average "
          f"{load_before:.1f} before, {load_average():.1f} after")
    for name, kinds in loads.items():
        print(f"{name}: ready in " + "; ".join(
            f"{kind} " + ", ".join(f"{f['s']:.1f} s (cpu {f['cpu_s']:.1f} s, kernel from "
                                   f"{f.get('kernel_from_s', 0):.1f} s, load {f['load']:.1f})"
                                   for f in runs)
            for kind, runs in kinds.items()))
    for kind, runs in split.items():
        print(f"kernel start, {kind} load (wall/cpu s, load): " + "; ".join(
            " | ".join(f"{name} {f['s']:.2f}/{f['cpu_s']:.2f}" for name, f in run.items())
            + f" (load {run['Python up']['load']:.1f})" for run in runs))
    print(f"one update (ms, 5 positions): browser {browser_ms}, CPython {cpython_ms}; "
          f"browser / CPython {min(ratios):.1f}-{max(ratios):.1f}x")
    if site == SITE:   # another build's figures are printed only
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
