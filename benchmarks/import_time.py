"""Benchmark: how long starting the kit takes, by layer, in a fresh interpreter each time.

``import cluedo_lab`` should cost next to nothing (its names load on first use), and each layer
only what it needs: networkx is for boards, sympy for the logic and closed-form lessons,
ipywidgets for the views. Each import runs in a new process five times, the imports taking
turns so that all see the same load on a shared machine, and the least CPU time of the whole
process (the interpreter's start included) is kept; times are also given as a
ratio to a bare Python start and to the same fixed pure-Python loop as ``run.py``, timed in
this process, so runs on different machines compare.

``cluedo-lab solve`` on a small record is timed too, against a bare Python start (the goal:
under 3x), and for it the import cost of each layer: ``python -X importtime`` lists every
module's own import time, added up here by layer (the fastest of the runs per module).

That ratio is timed as a user has the kit: the wheel is built and installed in a throwaway
venv (``python -m venv``, as ``make wheel-check`` does) and timed from outside the checkout,
against that venv's own bare start. This checkout's editable install is timed beside it, but
its import finder (a ``.pth`` file) loads pathlib, fnmatch and importlib.util into every
start, the bare one included: its bare start takes nearly twice a user's (90 against 52
million instructions under callgrind), so its ratios look better than anything a user gets.
The wheel goes in without its dependencies: ``solve`` must not need them, and fails here if
it does. ``--editable-only`` skips the wheel (faster, and nothing built).

Every process may write and reuse compiled bytecode (``__pycache__``), as an installed kit does:
with ``PYTHONDONTWRITEBYTECODE`` set, each start would compile the kit's modules again and the
figures would time the compiler. A first, untimed run of each statement fills the cache.

    python benchmarks/import_time.py [--json] [--repeats N] [--editable-only]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from run import baseline  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "data" / "records" / "classic-3p-ann.json"
SOLVE = ("import sys; from cluedo_lab.cli import main; "
         f"sys.argv = ['cluedo-lab', 'solve', {str(RECORD)!r}]; main()")
PYTHON = "python itself"
SOLVE_LABEL = "cluedo-lab solve (a 3-player record)"
LAYERS = ("cli", "views", "lab", "bots", "games", "knowledge", "records", "rules")

IMPORTS = [
    (PYTHON, "pass"),
    (SOLVE_LABEL, SOLVE),
    ("import cluedo_lab.cli", "import cluedo_lab.cli"),
    ("import cluedo_lab", "import cluedo_lab"),
    ("cluedo_lab.rules (editions)", "import cluedo_lab.rules.edition"),
    ("cluedo_lab.knowledge.engine (counting)", "import cluedo_lab.knowledge.engine"),
    ("cluedo_lab.knowledge.advice (ranking)", "import cluedo_lab.knowledge.advice"),
    ("cluedo_lab.games", "import cluedo_lab.games"),
    ("cluedo_lab.bots", "import cluedo_lab.bots"),
    ("cluedo_lab.knowledge.logic (sympy)", "import cluedo_lab.knowledge.logic"),
    ("cluedo_lab.views.widgets", "import cluedo_lab.views.widgets"),
    ("networkx alone", "import networkx"),
    ("sympy alone", "import sympy"),
]
HEAVY = ("networkx", "sympy", "ipywidgets", "IPython")
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


class Install:
    """A Python with the kit installed, and the folder to run it in (outside the checkout for
    the wheel, so that ``-c`` does not import the checkout's sources)."""

    def __init__(self, python: str, folder: Path):
        self.python, self.folder = python, folder


EDITABLE = Install(sys.executable, ROOT)


def wheel_install(work: Path) -> Install:
    """The kit's wheel, built from this checkout and installed without its dependencies
    (``solve`` loads none of them) in a fresh venv under ``work``."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--quiet",
                    "-w", str(work / "dist")], check=True, cwd=work, env=ENV)
    subprocess.run([sys.executable, "-m", "venv", str(work / "venv")], check=True, env=ENV)
    python = str(work / "venv" / "bin" / "python")
    wheel = next((work / "dist").glob("cluedo_lab-*.whl"))
    subprocess.run([python, "-m", "pip", "install", "--no-deps", "--quiet", str(wheel)],
                   check=True, env=ENV)
    return Install(python, work)


def timed(runs: list[tuple[Install, str]], repeats: int = 5) -> list[tuple[float, list[str]]]:
    """For each statement, the least CPU time (user and system) of a fresh interpreter of its
    install running it, start-up included, and the heavy libraries it loaded. CPU time, not
    wall time: on a shared machine the wall time mostly measures the other processes. The runs
    take turns (each statement once per round), so that a ratio between two statements
    compares runs made under the same load."""
    codes = [(install, "import sys, io, contextlib\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n    " + statement +
              f"\nprint(' '.join(sorted(m for m in sys.modules if m in {HEAVY!r})))")
             for install, statement in runs]
    for install, code in codes:
        subprocess.run([install.python, "-c", code], capture_output=True, check=True,
                       cwd=install.folder, env=ENV)
    best = [float("inf")] * len(codes)
    heavy: list[list[str]] = [[] for _ in codes]
    for _ in range(repeats):
        for i, (install, code) in enumerate(codes):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            out = subprocess.run([install.python, "-c", code], capture_output=True, text=True,
                                 check=True, cwd=install.folder, env=ENV).stdout
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            best[i] = min(best[i], after.ru_utime - before.ru_utime
                          + after.ru_stime - before.ru_stime)
            loaded = out.splitlines()
            heavy[i] = loaded[-1].split() if loaded else []
    return list(zip(best, heavy, strict=True))


def by_layer(install: Install, statement: str, repeats: int = 5) -> dict[str, float]:
    """Seconds of import per layer of the kit (and "python and libraries" for the rest):
    each module's own time under ``-X importtime``, the fastest of ``repeats`` runs."""
    fastest: dict[str, int] = {}
    for _ in range(repeats):
        err = subprocess.run([install.python, "-X", "importtime", "-c", statement],
                             capture_output=True, text=True, check=True, cwd=install.folder,
                             env=ENV).stderr
        for line in err.splitlines():
            found = re.match(r"import time:\s+(\d+) \|\s+\d+ \|\s*(\S+)", line)
            if found:
                name, own = found[2], int(found[1])
                fastest[name] = min(own, fastest.get(name, own))
    layers: dict[str, float] = defaultdict(float)
    for name, micro in fastest.items():
        parts = name.split(".")
        layer = (parts[1] if parts[0] == "cluedo_lab" and len(parts) > 1 and parts[1] in LAYERS
                 else "cluedo_lab" if parts[0] == "cluedo_lab" else "python and libraries")
        layers[layer] += micro / 1e6
    return dict(layers)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--repeats", type=int, default=5,
                        help="runs of each process, the fastest kept (more on a busy machine)")
    parser.add_argument("--editable-only", action="store_true",
                        help="time this checkout's editable install only, not the wheel")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="import-time-") as work:
        wheel = None if args.editable_only else wheel_install(Path(work))
        report(wheel, args.repeats, args.json)


def report(wheel: Install | None, repeats: int, as_json: bool) -> None:
    """Time the imports in the editable install, python and solve from the wheel in the same
    turns, and solve's imports by layer in the wheel (else the editable install)."""
    runs = [(EDITABLE, statement) for _, statement in IMPORTS]
    if wheel is not None:
        runs += [(wheel, "pass"), (wheel, SOLVE)]
    base = baseline()
    times = timed(runs, repeats)
    labels = [label for label, _ in IMPORTS] + [f"{PYTHON} (wheel)", f"{SOLVE_LABEL} (wheel)"]
    rows = [{"import": label, "ms": round(seconds * 1000, 1), "ratio": round(seconds / base, 2),
             "loads": heavy} for label, (seconds, heavy) in zip(labels, times, strict=False)]
    for row in rows:
        bare = rows[len(IMPORTS)]["ms"] if row["import"].endswith("(wheel)") else rows[0]["ms"]
        row["over_python"] = round(row["ms"] / bare, 2)
    layers = by_layer(wheel or EDITABLE, SOLVE, repeats)
    solve = {"editable": rows[1]["over_python"]}
    if wheel is not None:
        solve["wheel"] = rows[-1]["over_python"]
    if as_json:
        print(json.dumps({"baseline_ms": round(base * 1000, 1), "imports": rows,
                          "solve_over_python": solve,
                          "solve_layers_ms": {k: round(v * 1000, 1) for k, v in layers.items()}},
                         indent=1))
        return
    print(f"baseline loop: {base * 1000:.1f} ms")
    print(f"{'process (CPU time)':<45} {'ms':>7} {'ratio':>6} {'/python':>7}  heavy libraries")
    for row in rows:
        print(f"{row['import']:<45} {row['ms']:>7} {row['ratio']:>6} {row['over_python']:>7}  "
              f"{', '.join(row['loads']) or '-'}")
    for install, ratio in solve.items():
        print(f"cluedo-lab solve ({install}): {ratio:.1f}x a bare Python start (goal: under 3x)")
    print(f"its imports by layer ({'wheel' if wheel else 'editable'}; own time of each module, "
          "-X importtime, ms):")
    for layer, seconds in sorted(layers.items(), key=lambda kv: -kv[1]):
        print(f"  {layer:<22} {seconds * 1000:7.1f}")


if __name__ == "__main__":
    main()
