"""Benchmark: a full knowledge update (the count of consistent deals and every card × place
probability, as ``Knowledge(record)`` computes them), and the envelope distribution after it
(reported as its worst ratio to the update's time in each cell).

Positions come from seeded speed games of every edition and player count, early (2
events), middle (8) and late (20), seen from seat 1. Each position is timed three times and
the fastest kept (twice for the slower question ranking). Times are reported as p50/p99 and as a
ratio to a plain baseline measured in the same process (a fixed pure-Python loop), so figures
from different machines can be compared. Also timed: ranking every legal question by exact
expected information gain in the classic game, over several seeded games per player count and
stage (the median and the worst are reported: positions differ a lot).

    python benchmarks/run.py            # full run (a few minutes)
    python benchmarks/run.py --quick    # fewer seeds
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cluedo_lab.games.speed import speed_game  # noqa: E402
from cluedo_lab.knowledge.advice import rank_questions  # noqa: E402
from cluedo_lab.knowledge.engine import Knowledge  # noqa: E402
from cluedo_lab.records import Record  # noqa: E402
from cluedo_lab.rules.edition import all_editions, load_edition  # noqa: E402

STAGES = {"early": 2, "middle": 8, "late": 20}


def baseline() -> float:
    """Seconds for a fixed pure-Python workload: the yardstick for the ratios."""
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        total = 0
        for i in range(200_000):
            total += i * i % 7
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[index]


def fastest(work, repeats: int) -> float:
    """Seconds for ``work()``, the fastest of ``repeats`` runs: the slower runs measure the
    machine's other load, not the code (on a shared 2-core machine they vary by half)."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def time_update(record: Record, repeats: int = 3) -> tuple[float, float]:
    """The table (a fresh ``Knowledge``) and then, on that object, the envelope
    distribution: each the fastest of ``repeats`` runs."""
    table, envelope, _ = timed_knowledge(record, repeats)
    return table, envelope


def timed_knowledge(record: Record, repeats: int = 3) -> tuple[float, float, Knowledge]:
    """:func:`time_update`, with the last ``Knowledge`` made (for what it says of its DP)."""
    table = envelope = float("inf")
    k: Knowledge | None = None
    for _ in range(max(1, repeats)):
        start = time.perf_counter()
        k = Knowledge(record)
        table = min(table, time.perf_counter() - start)
        start = time.perf_counter()
        k.envelope_distribution()
        envelope = min(envelope, time.perf_counter() - start)
    assert k is not None
    return table, envelope, k


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seeds", type=int, default=None)
    parser.add_argument("--advice-seeds", type=int, default=None)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "latest.json"))
    args = parser.parse_args()
    seeds = args.seeds or (3 if args.quick else 10)
    base = baseline()
    print(f"baseline loop: {base * 1000:.1f} ms")
    rows = []
    print(f"{'edition':44} {'n':>2} {'stage':>6} {'p50 ms':>8} {'p99 ms':>8} {'p99/base':>8} "
          f"{'env/tab':>8}")
    # A speed game has no fugitive: the one-against-all game is timed in the whole-game
    # corpus (benchmarks/whole_games.py), played by the bots with its fugitive.
    for edition in (e for e in all_editions() if e.mode == "standard"):
        low = max(edition.min_players, 3) if edition.max_players >= 3 else edition.min_players
        for players in range(low, edition.max_players + 1):
            times: dict[str, list[float]] = {stage: [] for stage in STAGES}
            ratios: dict[str, list[float]] = {stage: [] for stage in STAGES}
            for seed in range(seeds):
                game = speed_game(edition, players, seed, events=max(STAGES.values()))
                for stage, cut in STAGES.items():
                    table, envelope = time_update(Record.from_dict(game.record(cut)))
                    times[stage].append(table)
                    ratios[stage].append(envelope / table)
            for stage, values in times.items():
                p50, p99 = percentile(values, 50), percentile(values, 99)
                envelope = max(ratios[stage])
                rows.append({"edition": edition.id, "players": players, "stage": stage,
                             "p50_ms": p50 * 1000, "p99_ms": p99 * 1000,
                             "p99_over_baseline": p99 / base,
                             "envelope_over_table_worst": envelope})
                print(f"{edition.id:44} {players:>2} {stage:>6} {p50 * 1000:8.1f} "
                      f"{p99 * 1000:8.1f} {p99 / base:8.2f} {envelope:8.2f}")
    every = [r["p99_ms"] for r in rows]
    print(f"worst p99: {max(every):.1f} ms over {len(rows)} edition/player/stage cells")
    print(f"envelope / table, worst position: "
          f"{max(r['envelope_over_table_worst'] for r in rows):.2f}")

    classic = load_edition("cluedo-classic-1949")
    advice = []
    advice_seeds = args.advice_seeds or (2 if args.quick else 5)
    print(f"\nRanking all 324 classic questions by expected information gain "
          f"({advice_seeds} games each):")
    print(f"{'players':>8} {'stage':>6} {'median s':>9} {'worst s':>8} {'worst/base':>10}")
    for players in range(3, 7):
        seconds: dict[str, list[float]] = {stage: [] for stage in STAGES}
        for seed in range(1, advice_seeds + 1):
            game = speed_game(classic, players, seed, events=max(STAGES.values()))
            for stage, cut in STAGES.items():
                knowledge = Knowledge(Record.from_dict(game.record(cut)))
                seconds[stage].append(fastest(partial(rank_questions, knowledge), 2))
        for stage, values in seconds.items():
            worst = max(values)
            advice.append({"players": players, "stage": stage, "games": len(values),
                           "median_s": statistics.median(values), "worst_s": worst,
                           "worst_over_baseline": worst / base})
            print(f"{players:>8} {stage:>6} {statistics.median(values):9.2f} {worst:8.2f} "
                  f"{worst / base:10.1f}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"baseline_ms": base * 1000, "seeds": seeds,
                                          "updates": rows, "advice": advice}, indent=1))
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
