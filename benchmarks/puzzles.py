"""Benchmark: the puzzle generator — how long a puzzle takes, and what each level measures.

For every kind and level, puzzles are made from several seeds over every edition that has the
level (the others are refused at once, see ``levels_of``); the table gives, per level, how many
were found and the distribution of their proof features (steps, events needed, share needing
hand-size counting, share needing contradiction or cases), so one can see that the levels
differ, and the generation time (median, 90th percentile and worst;
the worst also as a ratio to the plain baseline loop of ``benchmarks/run.py``, to compare
machines), and how long a search that finds nothing takes before it says so. The goal: a
level-5 puzzle in under 2 s.

For the deduction kinds it also reports the share of candidates refused for grading by a
harder proof than the record needs (``puzzle_kinds.REFUSED``): the level came only from
counting the face-up cards like a hand, or fewer events than the worked solution's force the
answer. Every level ``levels_of`` accepts must still be found. For chance puzzles, the share of
level 4-5 candidates refused for a denominator past ``CHANCE_DENOMINATOR[5]`` (no division a
learner checks by hand); for best-question, the share of level-5 candidates refused because the
only runner-up that made them level 5 was closer than ``BEST_MARGIN[-1]`` bits.

    python benchmarks/puzzles.py            # a few minutes
    python benchmarks/puzzles.py --quick    # fewer seeds
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from run import baseline, percentile  # noqa: E402

from cluedo_lab.lab.puzzle_kinds import REFUSED, generate, levels_of  # noqa: E402
from cluedo_lab.lab.puzzles import KINDS, PuzzleError  # noqa: E402
from cluedo_lab.rules.edition import all_editions  # noqa: E402

EDITIONS = tuple(e.id for e in all_editions())


def _spread(values: list[float]) -> str:
    if not values:
        return "-"
    return f"{min(values):g}/{statistics.median(values):g}/{max(values):g}"


def survey(kind: str, seeds: int) -> list[dict]:
    rows = []
    for level in range(1, 6):
        found, times, missing, failed = [], [], 0, []
        # Only the editions where the kind has the level: the others are refused at once.
        editions = [e for e in EDITIONS if level in levels_of(kind, e)[0]]
        REFUSED.clear()
        for edition in editions:
            for seed in range(seeds):
                start = time.perf_counter()
                try:
                    puzzle = generate(edition, kind, level, seed)
                except PuzzleError:
                    missing += 1
                    failed.append(time.perf_counter() - start)
                    continue
                times.append(time.perf_counter() - start)
                found.append(puzzle.features)
        rows.append({"kind": kind, "level": level, "editions": len(editions),
                     "found": len(found), "missing": missing, "refused": dict(REFUSED),
                     "features": found, "seconds": times, "failed_seconds": failed})
    return rows


def describe(row: dict) -> str:
    f = row["features"]
    steps = [x["steps"] for x in f]
    events = [x["events"] for x in f]

    def share(key: str) -> str:
        return f"{sum(bool(x.get(key)) for x in f) / len(f):.0%}" if f else "-"

    extra = ""
    if row["kind"] == "chance" and f:
        extra = f" denominators {_spread([x['denominator'] for x in f])}"
    if row["kind"] == "best-question" and f:
        extra = f" margin bits {_spread([x['margin_bits'] for x in f])}"
    if row["kind"] == "reach" and f:
        extra = (f" rooms {_spread([x['rooms'] for x in f])} blocked "
                 f"{share('blocked_matters')}")
    refused = row.get("refused", {})
    if refused.get("candidates"):
        wrong = refused.get("bookkeeping", 0) + refused.get("smaller-set", 0)
        extra += (f" refused {wrong}/{refused['candidates']} "
                  f"({wrong / refused['candidates']:.0%}: bookkeeping "
                  f"{refused.get('bookkeeping', 0)}, smaller set {refused.get('smaller-set', 0)};"
                  f" one-event distractors kept out {refused.get('kept-out', 0)})")
    for kind, total, why in (("chance", "chance", "denominator"),
                             ("best-question", "best-question", "too-close")):
        if row["kind"] == kind and refused.get(total):
            extra += (f" refused {refused.get(why, 0)}/{refused[total]} "
                      f"({refused.get(why, 0) / refused[total]:.0%}) for {why}")
    t = row["seconds"]
    timing = f"{statistics.median(t):.2f}/{percentile(t, 90):.2f}/{max(t):.2f}s" if t else "-"
    if row["missing"] and max(row["failed_seconds"]) >= 0.01:
        timing += f" (none found: {max(row['failed_seconds']):.2f}s)"
    return (f"{row['kind']:14} L{row['level']} {row['editions']} editions n={row['found']:>2} "
            f"(missing {row['missing']})"
            f" steps {_spread(steps):>9} events {_spread(events):>8} counting "
            f"{share('counting'):>4} cases {share('cases'):>4}{extra}  time {timing}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seeds", type=int, help="seeds per edition and level")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--out", default=str(HERE / "results" / "puzzles.json"))
    args = parser.parse_args()
    base = baseline()
    print(f"baseline loop: {base * 1000:.1f} ms")
    print("features as min/median/max over the puzzles found; time as median/p90/worst")
    seeds = args.seeds or (2 if args.quick else 4)
    rows = []
    for kind in args.kinds.split(","):
        for row in survey(kind, seeds):
            rows.append(row)
            print(describe(row), flush=True)
    candidates = sum(r["refused"].get("candidates", 0) for r in rows)
    if candidates:
        books = sum(r["refused"].get("bookkeeping", 0) for r in rows)
        smaller = sum(r["refused"].get("smaller-set", 0) for r in rows)
        kept = sum(r["refused"].get("kept-out", 0) for r in rows)
        print(f"deduction candidates refused for an easier proof: {books + smaller}/{candidates}"
              f" ({(books + smaller) / candidates:.1%}; face-up bookkeeping {books}, a smaller "
              f"set of events {smaller}); cut-downs that kept out a distractor proving the "
              f"answer alone: {kept}")
    for kind, total, why, what in (
            ("chance", "chance", "denominator",
             "level 4-5 chance candidates refused for a denominator past 1,000"),
            ("best-question", "best-question", "too-close",
             "level-5 best-question candidates refused for a margin under 0.05 bits")):
        mine = [r for r in rows if r["kind"] == kind and (kind == "chance" or r["level"] == 5)]
        tried = sum(r["refused"].get(total, 0) for r in mine)
        if tried:
            cut = sum(r["refused"].get(why, 0) for r in mine)
            print(f"{what}: {cut}/{tried} ({cut / tried:.1%})")
    lost = [f"{r['kind']} L{r['level']}" for r in rows if r["editions"] and not r["found"]]
    print("levels with no puzzle found: " + (", ".join(lost) if lost else "none"))
    every = [t for r in rows for t in r["seconds"]]
    if every:
        found = sum(r["found"] for r in rows)
        tried = found + sum(r["missing"] for r in rows)
        print(f"every accepted edition x kind x level: {found}/{tried} found; median "
              f"{statistics.median(every):.2f} s, p90 {percentile(every, 90):.2f} s, worst "
              f"{max(every):.2f} s")
    level5 = [t for r in rows if r["level"] == 5 for t in r["seconds"]]
    if level5:
        worst = max(level5)
        print(f"level 5: median {statistics.median(level5):.2f} s, p90 "
              f"{percentile(level5, 90):.2f} s, worst {worst:.2f} s "
              f"({worst / base:.0f} baseline loops); goal < 2 s")
    out = [{k: v for k, v in r.items() if k != "features"} |
           {"steps": [x["steps"] for x in r["features"]]} for r in rows]
    Path(args.out).write_text(json.dumps({"baseline_s": base, "rows": out}, indent=1))


if __name__ == "__main__":
    main()
