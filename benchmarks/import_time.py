"""Benchmark: how long importing the kit takes, by layer, in a fresh interpreter each time.

``import cluedo_lab`` should cost next to nothing (its names load on first use), and each layer
only what it needs: networkx is for boards, sympy for the logic and closed-form lessons,
ipywidgets for the views. Each import runs in a new process five times and the fastest run is
kept; times are also given as a ratio to the same fixed pure-Python loop as ``run.py``, timed
in this process, so runs on different machines compare.

    python benchmarks/import_time.py [--json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from run import baseline  # noqa: E402

IMPORTS = [
    ("python itself", "pass"),
    ("import cluedo_lab", "import cluedo_lab"),
    ("cluedo_lab.rules (editions)", "import cluedo_lab.rules.edition"),
    ("cluedo_lab.knowledge", "import cluedo_lab.knowledge"),
    ("cluedo_lab.games", "import cluedo_lab.games"),
    ("cluedo_lab.bots", "import cluedo_lab.bots"),
    ("cluedo_lab.knowledge.logic (sympy)", "import cluedo_lab.knowledge.logic"),
    ("cluedo_lab.views.widgets", "import cluedo_lab.views.widgets"),
    ("networkx alone", "import networkx"),
    ("sympy alone", "import sympy"),
]
HEAVY = ("networkx", "sympy", "ipywidgets", "IPython")


def timed(statement: str, repeats: int = 5) -> tuple[float, list[str]]:
    """The fastest wall time of ``statement`` in a fresh interpreter, and the heavy libraries
    it loaded."""
    code = ("import time, sys; t = time.perf_counter(); " + statement +
            "; print(time.perf_counter() - t); print(' '.join(sorted(m for m in sys.modules "
            f"if m in {HEAVY!r})))")
    best, heavy = float("inf"), []
    for _ in range(repeats):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, cwd=Path(__file__).resolve().parent.parent).stdout
        seconds, loaded = out.splitlines()[0], out.splitlines()[1:]
        best = min(best, float(seconds))
        heavy = loaded[0].split() if loaded else []
    return best, heavy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    base = baseline()
    rows = []
    for label, statement in IMPORTS:
        seconds, heavy = timed(statement)
        rows.append({"import": label, "ms": round(seconds * 1000, 1),
                     "ratio": round(seconds / base, 2), "loads": heavy})
    if args.json:
        print(json.dumps({"baseline_ms": round(base * 1000, 1), "imports": rows}, indent=1))
        return
    print(f"baseline loop: {base * 1000:.1f} ms")
    print(f"{'import':<38} {'ms':>7} {'ratio':>6}  heavy libraries loaded")
    for row in rows:
        print(f"{row['import']:<38} {row['ms']:>7} {row['ratio']:>6}  "
              f"{', '.join(row['loads']) or '-'}")


if __name__ == "__main__":
    main()
