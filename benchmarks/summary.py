"""Print the README's benchmark summary (markdown) from benchmarks/results/latest.json."""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

path = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent / "results/latest.json")
data = json.loads(path.read_text())
print(f"Baseline loop: {data['baseline_ms']:.1f} ms; {data['seeds']} seeded games per edition "
      "and player count; times in ms (ratio = p99 / baseline).\n")
print("| edition | players | early p50 / p99 | middle p50 / p99 | late p50 / p99 | worst ratio |")
print("|---|---|---|---|---|---|")
cells = defaultdict(dict)
for row in data["updates"]:
    cells[(row["edition"], row["players"])][row["stage"]] = row
for (edition, players), stages in cells.items():
    parts = [f"{stages[s]['p50_ms']:.1f} / {stages[s]['p99_ms']:.1f}"
             for s in ("early", "middle", "late")]
    worst = max(r["p99_over_baseline"] for r in stages.values())
    print(f"| {edition} | {players} | {' | '.join(parts)} | {worst:.1f} |")
print("\nRanking all 324 classic questions by exact expected information gain: median / "
      "worst seconds over the seeded games of each cell:\n")
print("| players | early | middle | late |")
print("|---|---|---|---|")
advice = defaultdict(dict)
for row in data["advice"]:
    advice[row["players"]][row["stage"]] = row
for players, stages in sorted(advice.items()):
    print(f"| {players} | " + " | ".join(f"{stages[s]['median_s']:.2f} / {stages[s]['worst_s']:.2f}"
                                         for s in ("early", "middle", "late")) + " |")

games = path.parent / "games_per_second.json"   # benchmarks/games_per_second.py
if games.exists():
    speed = json.loads(games.read_text())
    mixes = list(dict.fromkeys(row["mix"] for row in speed["rows"]))
    print(f"\nWhole games per second, one process (baseline loop {speed['baseline_ms']:.1f} ms; "
          "bots by seat, repeated to fill the table):\n")
    print("| edition | players | " + " | ".join(mixes) + " |")
    print("|---|---|" + "---|" * len(mixes))
    table = defaultdict(dict)
    for row in speed["rows"]:
        table[(row["edition"], row["players"])][row["mix"]] = row["games_per_second"]
    for (edition, players), cells in table.items():
        print(f"| {edition} | {players} | "
              + " | ".join(f"{cells[m]:.1f}" for m in mixes) + " |")

corpus = path.parent / "whole_games.json"   # benchmarks/whole_games.py
if corpus.exists():
    whole = json.loads(corpus.read_text())["summary"]
    print(f"\nWhole-game corpus ({whole['records']} records of {whole['seeds']} seeded bot games "
          f"per edition and player count; baseline loop {whole['baseline_ms']:.1f} ms): table "
          f"p50 {whole['p50_ms']:.1f} ms, p99 {whole['p99_ms']:.1f} ms, worst "
          f"{whole['worst_ms']:.0f} ms; envelope over 2x the table on "
          f"{whole['envelope_over_2x']} records; slower than the brute-force floor on "
          f"{whole['slower_than_floor']}"
          + (f" (by at most {whole['floor_sooner_ms_worst']:.3f} ms)"
             if whole["slower_than_floor"] else "")
          + (f", at most {whole['engine_over_floor_worst']:.2f} of its time"
             if "engine_over_floor_worst" in whole else "") + ". The worst records:\n")
    print("| record | table ms | envelope ms | DP | states | peak MB |")
    print("|---|---|---|---|---|---|")
    for r in whole["worst"]:
        print(f"| {r['label']} | {r['table_s'] * 1000:.0f} | {r['envelope_s'] * 1000:.0f} | "
              f"{r['engine']} | {r['states']} | {r['peak_mb']:.1f} |")
