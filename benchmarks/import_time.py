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

Every process may write and reuse compiled bytecode (``__pycache__``), as an installed kit does:
with ``PYTHONDONTWRITEBYTECODE`` set, each start would compile the kit's modules again and the
figures would time the compiler. A first, untimed run of each statement fills the cache.

    python benchmarks/import_time.py [--json] [--repeats N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from run import baseline  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "tests" / "data" / "records" / "classic-3p-ann.json"
SOLVE = ("import sys; from cluedo_lab.cli import main; "
         f"sys.argv = ['cluedo-lab', 'solve', {str(RECORD)!r}]; main()")
LAYERS = ("cli", "views", "lab", "bots", "games", "knowledge", "records", "rules")

IMPORTS = [
    ("python itself", "pass"),
    ("cluedo-lab solve (a 3-player record)", SOLVE),
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


def timed(statements: list[str], repeats: int = 5) -> list[tuple[float, list[str]]]:
    """For each statement, the least CPU time (user and system) of a fresh interpreter
    running it, start-up included, and the heavy libraries it loaded. CPU time, not wall
    time: on a shared machine the wall time mostly measures the other processes. The runs
    take turns (each statement once per round), so that a ratio between two statements
    compares runs made under the same load."""
    codes = [("import sys, io, contextlib\n"
              "with contextlib.redirect_stdout(io.StringIO()):\n    " + statement +
              f"\nprint(' '.join(sorted(m for m in sys.modules if m in {HEAVY!r})))")
             for statement in statements]
    for code in codes:
        subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, cwd=ROOT,
                       env=ENV)
    best = [float("inf")] * len(codes)
    heavy: list[list[str]] = [[] for _ in codes]
    for _ in range(repeats):
        for i, code in enumerate(codes):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                 check=True, cwd=ROOT, env=ENV).stdout
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            best[i] = min(best[i], after.ru_utime - before.ru_utime
                          + after.ru_stime - before.ru_stime)
            loaded = out.splitlines()
            heavy[i] = loaded[-1].split() if loaded else []
    return list(zip(best, heavy, strict=True))


def by_layer(statement: str, repeats: int = 5) -> dict[str, float]:
    """Seconds of import per layer of the kit (and "python and libraries" for the rest):
    each module's own time under ``-X importtime``, the fastest of ``repeats`` runs."""
    fastest: dict[str, int] = {}
    for _ in range(repeats):
        err = subprocess.run([sys.executable, "-X", "importtime", "-c", statement],
                             capture_output=True, text=True, check=True, cwd=ROOT,
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
    args = parser.parse_args()
    base = baseline()
    rows = []
    times = timed([statement for _, statement in IMPORTS], args.repeats)
    for (label, _), (seconds, heavy) in zip(IMPORTS, times, strict=True):
        rows.append({"import": label, "ms": round(seconds * 1000, 1),
                     "ratio": round(seconds / base, 2), "loads": heavy})
    bare = rows[0]["ms"]
    for row in rows:
        row["over_python"] = round(row["ms"] / bare, 2)
    layers = by_layer(SOLVE, args.repeats)
    if args.json:
        print(json.dumps({"baseline_ms": round(base * 1000, 1), "imports": rows,
                          "solve_layers_ms": {k: round(v * 1000, 1) for k, v in layers.items()}},
                         indent=1))
        return
    print(f"baseline loop: {base * 1000:.1f} ms")
    print(f"{'process (CPU time)':<38} {'ms':>7} {'ratio':>6} {'/python':>7}  heavy libraries")
    for row in rows:
        print(f"{row['import']:<38} {row['ms']:>7} {row['ratio']:>6} {row['over_python']:>7}  "
              f"{', '.join(row['loads']) or '-'}")
    print(f"cluedo-lab solve: {rows[1]['over_python']:.1f}x a bare Python start (goal: under 3x)")
    print("its imports by layer (own time of each module, -X importtime, ms):")
    for layer, seconds in sorted(layers.items(), key=lambda kv: -kv[1]):
        print(f"  {layer:<22} {seconds * 1000:7.1f}")


if __name__ == "__main__":
    main()
