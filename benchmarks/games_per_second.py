"""Benchmark: whole games per second for each bot mix, in every edition (one process).

A game is played from the deal to the end by :func:`cluedo_lab.lab.tournament.play_game`,
seats rotated as in a tournament. The figure to compare across machines is the ratio to the
same pure-Python baseline loop as ``benchmarks/run.py`` (games per baseline-loop time).

    python benchmarks/games_per_second.py            # about two minutes
    python benchmarks/games_per_second.py --quick    # fewer games
    python benchmarks/summary.py                      # prints its table with the others
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from run import baseline  # noqa: E402

from cluedo_lab.lab.tournament import run_tournament  # noqa: E402

TABLES = [
    ("cluedo-card-game-2018", 3), ("cluedo-card-game-2018-advanced", 4),
    ("cluedo-the-card-game-2002", 3), ("cluedo-the-card-game-2002-one-against-all", 4),
    ("cluedo-classic-1949", 3), ("clue-mansion-2014", 4), ("clue-classic-2023", 3),
    ("clue-classic-2023-two-player", 2),
]
MIXES = {
    "random": ["random"],
    "eliminator": ["eliminator"],
    "detective": ["detective"],
    "detective, eliminator, random": ["detective", "eliminator", "random"],
    "bluffer, detective": ["bluffer", "detective"],
    "infogain": ["infogain"],
}


def games_for(edition: str, mix: str, quick: bool) -> int:
    board = not edition.startswith("cluedo-card") and not edition.startswith("cluedo-the-card")
    count = {"infogain": 4 if board else 12}.get(mix, 12 if board else 48)
    return max(2, count // 3) if quick else count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", default=str(HERE / "results" / "games_per_second.json"))
    args = parser.parse_args()
    base = baseline()
    print(f"baseline loop: {base * 1000:.1f} ms")
    rows = []
    print(f"{'edition':44} {'n':>2} {'bots':30} {'games':>5} {'games/s':>8}")
    for edition, players in TABLES:
        for mix, bots in MIXES.items():
            games = games_for(edition, mix, args.quick)
            games -= games % players   # whole rotations
            games = max(games, players)
            lineup = [bots[i % len(bots)] for i in range(players)]
            started = time.perf_counter()
            run_tournament(edition, lineup, games, seed=1)
            seconds = time.perf_counter() - started
            rate = games / seconds
            rows.append({"edition": edition, "players": players, "mix": mix, "games": games,
                         "seconds": round(seconds, 4), "games_per_second": round(rate, 3),
                         "games_per_baseline": round(rate * base, 4)})
            print(f"{edition:44} {players:2} {mix:30} {games:5} {rate:8.1f}", flush=True)
    Path(args.out).write_text(json.dumps({"baseline_ms": base * 1000, "quick": args.quick,
                                          "rows": rows}, indent=1) + "\n")
    print(f"-> {args.out}")


if __name__ == "__main__":
    main()
