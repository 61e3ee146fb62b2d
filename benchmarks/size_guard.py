"""Benchmark: the size guard of the exact count, over a grid of custom decks.

The grid: custom decks from 6x6x9 to 10x10x20 cards, 2, 4 and 6 players, ``--seeds`` seeded
games each (seeds ``--seed`` onwards) played to the end by the corpus's bots
(``benchmarks/corpus.py``), and of each game the public record at its middle and at its end
and seat 0's record at its middle (every seat's with ``--all-seats``). Each record is counted
under each observation model of ``--models`` (the card table and the envelope distribution,
as ``Knowledge(record, model=...)`` gives them) in a child process with a cap on its
processor time, so no record can hang the run:

1. under the guard (the default budget): the figures of an admitted record are its cost;
2. a refused record is counted again without the guard (up to the cap) to see what it would
   have cost.

The goal: the guard refuses nothing that finishes in 10 s and admits nothing that takes over
30 s or 1 GB. The guard counts work, not time (``MAX_COUNT_WORK``: the moves a DP tries, each
weighed by ``WORK_PER_MOVE``), so a record is refused or admitted alike on any machine; the
seconds are this machine's processor time (user and system, so the other processes of a busy
machine barely change them; the wall clock is reported too). Times are also given as ratios
to the pure-Python baseline loop of ``benchmarks/run.py`` measured in the same run (1 seed
per cell of the grid). The calibration printed at the end (bytes per state, processor time
per unit of work by DP and model) is what ``cluedo_lab/rules/limits.py`` states.

The ``refuter-uniform`` model differs from ``uniform`` only where the record's observer asked
and was shown a card (the shower's choice is weighed), so a record whose constraints are the
same under both (every public record) is counted under ``uniform`` only and listed as the
same under the other.

    python benchmarks/size_guard.py --seeds 3 --jobs 2      # the grid, 108 records
    python benchmarks/size_guard.py --models refuter-uniform --all-seats --seeds 2
    python benchmarks/size_guard.py --cap 20 --decks 6x6x9,8x8x12
    python benchmarks/size_guard.py --merge a.json b.json    # runs of other seeds, as one

The weights of a move (``WORK_PER_MOVE``, ``WORK_PER_FRACTION_MOVE``) come from counts with one
DP forced and no guard, under both models, so that each record's fraction moves are timed
against its own whole-number moves:

    python benchmarks/size_guard.py --force-dp sweep --models uniform,refuter-uniform \\
        --all-seats --seeds 2 --out sweep.json
    python benchmarks/size_guard.py --force-dp capacity --models uniform,refuter-uniform \\
        --all-seats --seeds 2 --out capacity.json
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import signal
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

DECKS = ("6x6x9", "8x8x12", "9x9x15", "10x10x20")
PLAYERS = (2, 4, 6)
FAST, SLOW, MEMORY = 10.0, 30.0, 1e9


def deck(shape: str) -> dict[str, list[str]]:
    sizes = [int(n) for n in shape.split("x")]
    return {name: [f"{name[0]}{i}" for i in range(n)]
            for name, n in zip(("suspect", "weapon", "room"), sizes, strict=True)}


def records(shapes: list[str], seed: int, all_seats: bool = False
            ) -> list[tuple[str, dict[str, Any]]]:
    """(label, record) for every record of the grid for one seed."""
    from benchmarks.corpus import LINE_UPS
    from cluedo_lab.bots.registry import make_bot
    from cluedo_lab.games.factory import new_game
    from cluedo_lab.records.parse import custom_edition

    out = []
    for shape in shapes:
        cards = deck(shape)
        for players in PLAYERS:
            game = new_game(custom_edition(cards), players, seed)
            line_up = LINE_UPS[seed % len(LINE_UPS)]
            game.play([make_bot(line_up[(seed + i) % len(line_up)], seed * 100 + i)
                       for i in range(players)], max_actions=20_000)
            seats = range(players) if all_seats else range(1)
            views = [(None, "end"), (None, "middle")] + [(s, "middle") for s in seats]
            for seat, stage in views:
                record = {k: v for k, v in game.record_for(seat).items() if k != "edition"}
                events = record["events"]
                cut = len(events) if stage == "end" else len(events) // 2
                record = {**record, "deck": cards, "events": events[:cut]}
                who = "public" if seat is None else f"seat {seat}"
                out.append((f"seed {seed} {shape} {players}p {who} {stage} ({cut} events)",
                            record))
    return out


def same_under_models(record: dict[str, Any]) -> bool:
    """Whether every observation model gives ``record`` the same constraints (no card was
    shown to its observer), so one count stands for all models."""
    from cluedo_lab.knowledge import constraints as cons
    from cluedo_lab.records import Record

    parsed = Record.from_dict(record)
    return len({tuple(cons.all_constraints(parsed, model)) for model in cons.MODELS}) == 1


def high_water() -> int:
    """This process's peak resident memory in bytes. Linux's ``VmHWM``, not ``ru_maxrss``:
    across ``exec`` Linux keeps the larger of the parent's peak and the child's in
    ``ru_maxrss``, so a child of a parent holding the grid would hide every smaller peak."""
    for entry in Path("/proc/self/status").read_text().splitlines():
        if entry.startswith("VmHWM:"):
            return int(entry.split()[1]) * 1024
    raise SystemExit("no VmHWM in /proc/self/status: the size guard's benchmark needs Linux")


def child(guarded: bool, model: str, forced: str | None = None) -> None:
    """Count the record on stdin under ``model``; print its figures as one JSON line.
    Unguarded, the count runs on the DP the guard would choose (its states limit picks it)
    with no budget; ``forced`` names the DP that counts every record instead."""
    from cluedo_lab.knowledge import constraints as cons
    from cluedo_lab.knowledge.counting import routes
    from cluedo_lab.knowledge.counting.prepared import prepare
    from cluedo_lab.knowledge.engine import Knowledge
    from cluedo_lab.records import Record
    from cluedo_lab.rules.errors import ProblemTooLarge

    if not guarded:
        limited = routes._budget
        routes._budget = lambda prep, engine, *limits: limited(prep, engine, None, None)
    if forced is not None:
        routes.choose_engine = lambda prep: forced
        routes.check_size = lambda prep, engine, limit, switch=True: engine

    record = Record.from_dict(json.loads(sys.stdin.read()))
    before = high_water()
    start, cpu = time.perf_counter(), time.process_time()
    out: dict[str, Any] = {"model": model}
    try:
        k = Knowledge(record, model=model, max_states=routes.MAX_STATES)
        k.envelope_distribution()
        solution = k._solution
        out.update(admitted=True, engine=solution.engine, states=solution.states,
                   moves=solution.moves,
                   work=solution.work)
    except ProblemTooLarge as refusal:
        out.update(admitted=False, message=str(refusal))
    out["seconds"] = time.process_time() - cpu
    out["wall_seconds"] = time.perf_counter() - start
    out["peak_bytes"] = max(0, high_water() - before)
    prep = prepare(cons.problem(record, cons.all_constraints(record, model)), "envelope")
    if prep is not None and prep.classes and out.get("engine") in ("sweep", "capacity"):
        out["bound"] = routes.state_bound(prep, out["engine"])
    print(json.dumps(out))


def run_child(record: dict[str, Any], guarded: bool, cap: float, model: str,
              forced: str | None = None) -> dict[str, Any]:
    """The figures of a child process counting ``record`` under ``model``, stopped after
    ``cap`` seconds of processor time (the wall clock is allowed ten times as much, for a
    busy machine)."""
    command = [sys.executable, __file__, "--child", "guarded" if guarded else "free",
               "--models", model] + (["--force-dp", forced] if forced else [])

    def limit_cpu() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (math.ceil(cap), math.ceil(cap) + 5))
    try:
        done = subprocess.run(command, input=json.dumps(record), capture_output=True,
                              text=True, timeout=10 * cap, preexec_fn=limit_cpu)
    except subprocess.TimeoutExpired:
        return {"timeout": True, "seconds": cap}
    if done.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return {"timeout": True, "seconds": cap}
    if done.returncode:
        return {"error": done.stderr.strip().splitlines()[-1:], "seconds": 0.0}
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def measure(label: str, record: dict[str, Any], model: str, cap: float,
            forced: str | None = None) -> dict[str, Any]:
    """One row: ``record`` counted under the guard, and again without it if refused; with
    a ``forced`` DP, only without the guard (on that DP)."""
    if forced is not None:
        free = run_child(record, False, cap, model, forced)
        return {"label": label, "model": model, "forced": forced, "guarded": free,
                "free": free}
    guarded = run_child(record, True, cap, model)
    free = guarded if guarded.get("admitted") else run_child(record, False, cap, model)
    return {"label": label, "model": model, "guarded": guarded, "free": free}


def line(row: dict[str, Any], base: float) -> str:
    """One row as the run prints it."""
    guarded, free = row["guarded"], row["free"]
    verdict = (f"{row['forced']} DP forced, no guard" if "forced" in row else
               "admitted" if guarded.get("admitted") else
               "refused" if "message" in guarded else
               "TIMED OUT under the guard" if guarded.get("timeout") else "error")
    cost = ("over the cap" if free.get("timeout") else
            f"{free['seconds']:.2f} s ({free['seconds'] / base:.0f}x; wall "
            f"{free['wall_seconds']:.1f} s), {free.get('peak_bytes', 0) / 1e6:.0f} MB, "
            f"{free.get('states', 0):,} states, {free.get('moves', 0):,} moves, work "
            f"{free.get('work', 0):,} ({free.get('engine')}), bound {free.get('bound', 0):,}"
            if "seconds" in free and "error" not in free else f"error {free.get('error')}")
    refusal = f" after {guarded['seconds']:.1f} s" if verdict == "refused" else ""
    return f"  {row['label']} [{row['model']}]: {verdict}{refusal}; unguarded {cost}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--child", choices=("guarded", "free"))
    parser.add_argument("--decks", default=",".join(DECKS))
    parser.add_argument("--seed", type=int, default=1, help="the first seed")
    parser.add_argument("--seeds", type=int, default=1, help="seeds (games) per cell")
    parser.add_argument("--models", default="uniform",
                        help="observation models, comma-separated: uniform,refuter-uniform")
    parser.add_argument("--all-seats", action="store_true",
                        help="every seat's record at the middle, not only seat 0's")
    parser.add_argument("--jobs", type=int, default=1, help="child processes at a time")
    parser.add_argument("--cap", type=float, default=45.0,
                        help="processor seconds per record")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" /
                                             "size_guard.json"))
    parser.add_argument("--force-dp", choices=("sweep", "capacity"),
                        help="count every record on this DP, without the guard (to time "
                             "a move of each DP under each model)")
    parser.add_argument("--merge", nargs="+", metavar="RESULTS",
                        help="combine the result files of runs (of other seeds) into --out")
    args = parser.parse_args()
    models = args.models.split(",")
    if args.child:
        child(args.child == "guarded", models[0], args.force_dp)
        return
    if args.merge:
        merge([json.loads(Path(name).read_text()) for name in args.merge], Path(args.out))
        return
    from benchmarks.run import baseline
    from cluedo_lab.knowledge.constraints import MODELS
    from cluedo_lab.rules import limits

    unknown = set(models) - set(MODELS)
    if unknown:
        parser.error(f"unknown model(s) {sorted(unknown)}; expected some of {MODELS}")
    base = baseline()
    seeds = list(range(args.seed, args.seed + args.seeds))
    grid = [entry for seed in seeds
            for entry in records(args.decks.split(","), seed, args.all_seats)]
    # A record every model constrains alike is counted under uniform only (in this run, or
    # in the run of uniform it is merged with).
    tasks, same = [], []
    for label, record in grid:
        agree = models != ["uniform"] and same_under_models(record)
        for model in models:
            if agree and model != "uniform":
                same.append({"label": label, "model": model, "same_as": "uniform"})
            else:
                tasks.append((label, record, model))
    print(f"baseline loop {base * 1000:.1f} ms; {len(grid)} records (seeds {seeds}, "
          f"models {models}: {len(tasks)} counts, {len(same)} the same under every model); "
          f"budget {limits.MAX_COUNT_STATES:,} states, {limits.MAX_COUNT_WORK:,} work "
          f"(per move {limits.WORK_PER_MOVE}, with fractions "
          f"{limits.WORK_PER_FRACTION_MOVE}); cap {args.cap:.0f} s a record, "
          f"{args.jobs} at a time", flush=True)
    with ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(measure, label, record, model, args.cap, args.force_dp)
                   for label, record, model in tasks]
        rows = []
        for future in futures:
            rows.append(future.result())
            print(line(rows[-1], base), flush=True)
    if args.force_dp:
        move_costs(rows, args.force_dp)
    else:
        report(rows, base)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(
        {"baseline_ms": base * 1000, "seeds": seeds, "models": models,
         "all_seats": args.all_seats, "forced_dp": args.force_dp, "budget": {
             "states": limits.MAX_COUNT_STATES, "work": limits.MAX_COUNT_WORK,
             "work_per_move": limits.WORK_PER_MOVE,
             "work_per_fraction_move": limits.WORK_PER_FRACTION_MOVE}, "cap_seconds": args.cap,
         "rows": rows, "same_under_models": same}, indent=1))
    print(f"written to {args.out}")


def merge(runs: list[dict[str, Any]], out: Path) -> None:
    """Write the runs as one result (their rows and seeds together) and report it; the runs
    must share a budget, or their verdicts do not add up."""
    if len({json.dumps(run["budget"], sort_keys=True) for run in runs}) > 1:
        raise SystemExit("the runs were made under different budgets; run them again")
    merged = {**runs[0], "seeds": sorted({s for run in runs for s in run["seeds"]}),
              "models": sorted({m for run in runs for m in run["models"]}),
              "all_seats": [run["all_seats"] for run in runs],
              "runs": [{key: run[key] for key in ("seeds", "models", "all_seats")}
                       for run in runs],
              "baseline_ms": statistics.median(run["baseline_ms"] for run in runs),
              "rows": [row for run in runs for row in run["rows"]],
              "same_under_models": [row for run in runs for row in run["same_under_models"]]}
    report(merged["rows"], merged["baseline_ms"] / 1000)
    out.write_text(json.dumps(merged, indent=1))
    print(f"{len(runs)} runs, seeds {merged['seeds']}, written to {out}")


def report(rows: list[dict[str, Any]], base: float) -> None:
    """The goal checked, and the calibration: bytes per state and processor time per unit of
    work, by DP and model."""
    wrong_refusals = [r["label"] for r in rows if not r["guarded"].get("admitted")
                      and "seconds" in r["free"] and not r["free"].get("timeout")
                      and r["free"]["seconds"] <= FAST]
    wrong_admits = [r["label"] for r in rows if r["guarded"].get("admitted")
                    and (r["guarded"]["seconds"] > SLOW
                         or r["guarded"]["peak_bytes"] > MEMORY)]
    hung = [r["label"] for r in rows if r["guarded"].get("timeout")]
    errors = [r["label"] for r in rows if "error" in r["guarded"] or "error" in r["free"]]
    print(f"refused though it finishes within {FAST:.0f} s: {wrong_refusals or 'none'}")
    print(f"admitted though it takes over {SLOW:.0f} s or 1 GB: {wrong_admits or 'none'}")
    print(f"over the cap under the guard: {hung or 'none'}")
    print(f"errors: {errors or 'none'}")
    admitted = [r for r in rows if r["guarded"].get("admitted")]
    refused = [r for r in rows if "message" in r["guarded"]]
    if admitted:
        worst = max(admitted, key=lambda r: r["guarded"]["seconds"])
        print(f"slowest admitted: {worst['label']} [{worst['model']}] "
              f"{worst['guarded']['seconds']:.1f} s, "
              f"{worst['guarded']['peak_bytes'] / 1e6:.0f} MB, work "
              f"{worst['guarded'].get('work', 0):,}; most memory admitted "
              f"{max(r['guarded']['peak_bytes'] for r in admitted) / 1e6:.0f} MB")
    if refused:
        nearest = min(refused, key=lambda r: r["free"]["seconds"])
        print(f"{len(refused)} of {len(rows)} refused; the quickest of them unguarded: "
              f"{nearest['label']} [{nearest['model']}] "
              + ("over the cap" if nearest["free"].get("timeout") else
                 f"{nearest['free']['seconds']:.1f} s"))
    measured = [r["free"] for r in rows if r["free"].get("states", 0) > 10_000]
    if measured:
        per_state = [m["peak_bytes"] / m["states"] for m in measured]
        print(f"bytes per state over the {len(measured)} counts of over 10,000 states: median "
              f"{statistics.median(per_state):,.0f}, most {max(per_state):,.0f}")
    for model in sorted({r["model"] for r in rows}):
        for engine in ("sweep", "capacity"):
            timed = [r["free"] for r in rows if r["model"] == model
                     and r["free"].get("engine") == engine
                     and r["free"].get("work", 0) >= 10_000]
            if timed:
                per_work = [m["seconds"] / m["work"] * 1e6 for m in timed]
                print(f"{model}, {engine} DP, {len(timed)} counts of at least 10,000 units "
                      f"of work: processor µs per unit {spread(per_work)} (baseline loop "
                      f"{base * 1000:.0f} ms)")


def spread(values: list[float], unit: str = "") -> str:
    """The median, least and most of ``values``, as the calibration lines print them."""
    return (f"median {statistics.median(values):.1f}{unit}, least {min(values):.1f}{unit}, "
            f"most {max(values):.1f}{unit}")


def move_costs(rows: list[dict[str, Any]], engine: str, least: int = 100_000) -> None:
    """What one move of ``engine`` costs, by model, over the counts of at least ``least``
    moves; and for each record counted under both models, its fraction moves (the
    refuter-uniform model weighs a shown card by 1/k) against its own whole-number moves:
    the ratio ``WORK_PER_FRACTION_MOVE`` to ``WORK_PER_MOVE`` should cover."""
    def per_move(row: dict[str, Any]) -> float | None:
        free = row["free"]
        if free.get("engine") != engine or free.get("moves", 0) < least:
            return None
        return float(free["seconds"]) / free["moves"] * 1e6

    for model in sorted({r["model"] for r in rows}):
        costs = [c for r in rows if r["model"] == model and (c := per_move(r)) is not None]
        if costs:
            print(f"{model}, {engine} DP forced, {len(costs)} counts of at least {least:,} "
                  f"moves: processor µs per move {spread(costs)}")
    whole = {r["label"]: c for r in rows if r["model"] == "uniform"
             and (c := per_move(r)) is not None}
    ratios = [c / whole[r["label"]] for r in rows if r["model"] == "refuter-uniform"
              and r["label"] in whole and (c := per_move(r)) is not None]
    if ratios:
        from cluedo_lab.rules.limits import WORK_PER_FRACTION_MOVE, WORK_PER_MOVE
        weighed = WORK_PER_FRACTION_MOVE[engine] / WORK_PER_MOVE[engine]
        print(f"a fraction move over the same record's whole-number move ({engine} DP, "
              f"{len(ratios)} records): {spread(ratios, 'x')}; the weights say {weighed:.1f}x")


if __name__ == "__main__":
    main()
