"""Benchmark: p99 and the worst record of the whole-game corpus, table and envelope, without
the floor and the memory pass of ``whole_games.py``: quick enough to run a tree before and
after a change, in turns, on the same machine.

    python benchmarks/table_times.py                     # this tree
    python benchmarks/table_times.py --trees OLD NEW     # each in turn, twice, as subprocesses
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def measure(seeds: int, repeats: int) -> dict[str, float]:
    sys.path.insert(0, str(HERE.parent))
    from benchmarks.corpus import corpus
    from benchmarks.run import baseline, percentile, timed_knowledge
    from cluedo_lab.records import Record

    base = baseline()
    tables, sums = [], []
    for entry in corpus(seeds):
        table, envelope, _ = timed_knowledge(Record.from_dict(entry.record), repeats)
        tables.append(table)
        sums.append(table + envelope)
    return {"baseline_ms": base * 1000, "records": len(tables),
            "p50_ms": percentile(tables, 50) * 1000, "p99_ms": percentile(tables, 99) * 1000,
            "worst_ms": max(tables) * 1000,
            "p99_over_baseline": percentile(tables, 99) / base,
            "worst_over_baseline": max(tables) / base,
            "with_envelope_worst_ms": max(sums) * 1000}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--trees", nargs="*", default=None,
                        help="source trees to time in turns (each holds benchmarks/)")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if not args.trees:
        print(json.dumps(measure(args.seeds, args.repeats)))
        return
    for round_ in range(args.rounds):
        for tree in args.trees:
            out = subprocess.run([sys.executable, str(Path(tree) / "benchmarks" /
                                                      "table_times.py"),
                                  "--seeds", str(args.seeds), "--repeats", str(args.repeats)],
                                 capture_output=True, text=True, check=True,
                                 env={"PYTHONHASHSEED": "0", "PYTHONPATH": tree})
            row = json.loads(out.stdout.splitlines()[-1])
            print(f"round {round_ + 1} {tree}: p50 {row['p50_ms']:.2f} ms, p99 "
                  f"{row['p99_ms']:.1f} ms, worst {row['worst_ms']:.1f} ms; baseline "
                  f"{row['baseline_ms']:.1f} ms: p99 {row['p99_over_baseline']:.2f}x, worst "
                  f"{row['worst_over_baseline']:.2f}x", flush=True)


if __name__ == "__main__":
    main()
