"""Benchmark: ranking every question, where a user waits for it (the game review, the
information-gain bots, lesson 06).

Positions: 6-player classic (1949) games played to the end by the corpus's bots
(``benchmarks/corpus.py``), seat 1's record after every cut from 4 to 20 events, over
``--seeds`` games. On each it times ``rank_questions`` on a fresh ``Knowledge`` (the fastest
of ``--repeats`` runs, each on a new ``Knowledge``: a ranking on the same object would read
the one before from its cache) and one ``information_gain`` call on the same fresh object after
the ranking (the advisor shared) and on its own. Times are processor time, given as ratios to
a fixed pure-Python loop (``benchmarks/run.py``'s baseline workload) timed the same way just
before each position: on a machine shared with other jobs the wall clock, and a baseline timed
once, moved the ratios by several times within one run.

    python benchmarks/ranking.py              # 20 games, every cut from 4 to 20
    python benchmarks/ranking.py --seeds 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.corpus import play  # noqa: E402
from benchmarks.run import percentile  # noqa: E402
from cluedo_lab.knowledge.advice import information_gain, legal_questions, rank_questions  # noqa: E402,E501
from cluedo_lab.knowledge.engine import Knowledge  # noqa: E402
from cluedo_lab.records import Record  # noqa: E402

EDITION = "cluedo-classic-1949"
PLAYERS = 6
CUTS = range(4, 21)


def positions(seeds: int) -> Iterator[tuple[str, Record]]:
    """(label, record): seat 1's record after each cut of each seeded 6-player game."""
    for seed in range(seeds):
        game = play(EDITION, PLAYERS, seed)
        record = game.record_for(0)
        for cut in CUTS:
            if cut <= len(record["events"]):
                yield (f"{EDITION} {PLAYERS}p seed {seed} seat 0 after {cut}",
                       Record.from_dict({**record, "events": record["events"][:cut]}))


def timed(work, repeats: int) -> float:
    """The least processor time of ``repeats`` runs of ``work``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        work()
        best = min(best, time.process_time() - start)
    return best


def baseline() -> float:
    """Processor seconds for ``benchmarks/run.py``'s fixed pure-Python workload (median of
    five)."""
    def loop() -> None:
        total = 0
        for i in range(200_000):
            total += i * i % 7
    return statistics.median(timed(loop, 1) for _ in range(5))


def measure(record: Record, repeats: int) -> dict[str, float]:
    """The ranking, one question on a fresh ``Knowledge`` and after the ranking, the count."""
    ranking = timed(lambda: rank_questions(Knowledge(record)), repeats)
    k = Knowledge(record)
    question = legal_questions(k)[-1]
    alone = timed(lambda: information_gain(Knowledge(record), question), repeats)
    rank_questions(k)
    shared = timed(lambda: information_gain(k, question), repeats)
    counting = timed(lambda: Knowledge(record), repeats)
    return {"rank_s": ranking, "one_question_s": alone,
            "one_question_after_ranking_s": shared, "count_s": counting}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" /
                                             "ranking.json"))
    args = parser.parse_args()
    print(f"{args.seeds} games, cuts {CUTS.start}-{CUTS.stop - 1}; processor time, the "
          f"baseline loop timed before each position")
    rows = []
    for label, record in positions(args.seeds):
        base = baseline()
        rows.append({"label": label, "events": len(record.events), "baseline_s": base,
                     **measure(record, args.repeats)})
        row = rows[-1]
        row["rank_over_baseline"] = row["rank_s"] / base
        print(f"  {label}: ranking {row['rank_s'] * 1000:.0f} ms "
              f"({row['rank_over_baseline']:.1f}x), one question "
              f"{row['one_question_s'] * 1000:.0f} ms, after the ranking "
              f"{row['one_question_after_ranking_s'] * 1000:.2f} ms", flush=True)
    ranks = [r["rank_s"] for r in rows]
    ratios = [r["rank_over_baseline"] for r in rows]
    worst = max(rows, key=lambda r: r["rank_over_baseline"])
    ones = [r["one_question_s"] / r["rank_s"] for r in rows]
    summary = {"baseline_ms_median": statistics.median(r["baseline_s"] for r in rows) * 1000,
               "seeds": args.seeds, "positions": len(rows),
               "rank_median_s": statistics.median(ranks), "rank_p99_s": percentile(ranks, 99),
               "rank_worst_s": max(ranks),
               "rank_median_over_baseline": statistics.median(ratios),
               "rank_p90_over_baseline": percentile(ratios, 90),
               "rank_p99_over_baseline": percentile(ratios, 99),
               "rank_worst_over_baseline": max(ratios),
               "worst": worst["label"],
               "one_question_over_ranking_median": statistics.median(ones),
               "one_question_over_ranking_worst": max(ones),
               "one_question_after_ranking_worst_s": max(r["one_question_after_ranking_s"]
                                                         for r in rows)}
    print(f"{len(rows)} positions: ranking over the baseline loop median "
          f"{summary['rank_median_over_baseline']:.1f}x, p90 "
          f"{summary['rank_p90_over_baseline']:.1f}x, p99 "
          f"{summary['rank_p99_over_baseline']:.1f}x, worst "
          f"{summary['rank_worst_over_baseline']:.1f}x ({worst['rank_s'] * 1000:.0f} ms) on "
          f"{worst['label']}")
    print(f"one question on a fresh Knowledge / its full ranking: median "
          f"{statistics.median(ones):.2f}, worst {max(ones):.2f}; one question after the "
          f"ranking on the same Knowledge: worst "
          f"{summary['one_question_after_ranking_worst_s'] * 1000:.2f} ms")
    slowest = sorted(rows, key=lambda r: -r["rank_over_baseline"])[:8]
    for r in slowest:
        print(f"  {r['label']}: ranking {r['rank_over_baseline']:.1f}x, "
              f"{r['rank_s'] * 1000:.0f} ms, count "
              f"{r['count_s'] * 1000:.1f} ms, one question {r['one_question_s'] * 1000:.0f} ms")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
