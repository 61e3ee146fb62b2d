"""Benchmark: the game review (``cluedo_lab.lab.review``) of every whole game of the corpus.

Every game of the whole-game corpus (``benchmarks/corpus.py``: seeded bot games of every
edition and player count, played to the end; the longest, a 98-event public record, is a
Clue 2023 game) is reviewed for one seat: the replay, the seat's count and envelope entropy
after every event, when each other seat could have known the solution, and the ranking of
every legal question at each of the seat's turns (in its room and in every room within
reach). Each review is timed once, in processor time: on this shared machine a review's
wall clock stretched up to six times with the load. The report gives p50, p90 and the worst,
the share of the time spent ranking questions, and the games over the target (5 s), also as
ratios to a fixed pure-Python loop timed in the same process.

    python benchmarks/review.py                 # 3 games per edition and player count, seat 0
    python benchmarks/review.py --quick         # 1 game each
    python benchmarks/review.py --seat all      # every seat of every game (slow)

Every figure of a review is a count or a gain the engine works out exactly, so a change meant
only to make the review faster must leave the JSON (``--json``, every other seat's curve
included) as it was: ``--figures FILE`` writes it for every review timed (after the timing),
and ``--same-as FILE`` compares it with one written before and names the reviews that differ
(both also time the JSON: the others' curves it counts).

    python benchmarks/review.py --quick --seat all --figures before.json
    python benchmarks/review.py --quick --seat all --same-as before.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.corpus import play  # noqa: E402
from benchmarks.ranking import baseline  # noqa: E402
from benchmarks.run import percentile  # noqa: E402
from cluedo_lab.lab import action_gains  # noqa: E402
from cluedo_lab.lab import review as reviewing  # noqa: E402
from cluedo_lab.rules.edition import all_editions  # noqa: E402

TARGET_S = 5.0


def games(seeds: int, editions: list[str] | None) -> list[tuple[str, int, int]]:
    return [(ed.id, players, seed) for ed in all_editions()
            if not editions or ed.id in editions
            for players in range(ed.min_players, ed.max_players + 1)
            for seed in range(seeds)]


class RankingClock:
    """``rank_questions`` as the review and the action cards' values call it, timed call by
    call (a profiler would slow the counting it measures several times over)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.calls = 0
        self.rank = reviewing.rank_questions

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return self.rank(*args, **kwargs)
        finally:
            self.seconds += time.process_time() - start
            self.calls += 1


def time_review(game: Any, seat: int) -> tuple[dict[str, Any], Any]:
    """One review, timed, with the time spent ranking questions (one ranking per position:
    a turn's question, and in the 2002 card game the action card played), and the review."""
    clock = RankingClock()
    for module in (reviewing, action_gains):
        module.rank_questions = clock    # type: ignore[attr-defined]
    try:
        start, wall = time.process_time(), time.perf_counter()
        review = reviewing.review_game(game, seat)
        seconds, wall = time.process_time() - start, time.perf_counter() - wall
    finally:
        for module in (reviewing, action_gains):
            module.rank_questions = clock.rank    # type: ignore[attr-defined]
    return {"seconds": seconds, "wall_s": wall, "ranking_s": clock.seconds,
            "ranking_share": clock.seconds / max(seconds, 1e-9), "rankings": clock.calls,
            "turns": len(review.turns), "events": len(review.record.events)}, review


def compare(figures: dict[str, Any], before: dict[str, Any]) -> None:
    """Name the reviews whose JSON differs from ``before`` (or is missing there)."""
    differ = [label for label, review in figures.items() if before.get(label) != review]
    missing = [label for label in figures if label not in before]
    print(f"figures: {len(figures) - len(differ)} of {len(figures)} reviews the same"
          + (f"; not in the file: {len(missing)}" if missing else ""))
    for label in differ:
        if label in before:
            keys = [k for k in figures[label] if figures[label][k] != before[label].get(k)]
            print(f"  DIFFERENT {label}: {', '.join(keys)}")
    if differ:
        sys.exit(1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seeds", type=int, default=None)
    parser.add_argument("--seat", default="0", help="a seat number, or 'all'")
    parser.add_argument("--edition", action="append", help="only these editions")
    parser.add_argument("--players", type=int, action="append",
                        help="only these player counts")
    parser.add_argument("--figures", help="write every review's JSON to this file")
    parser.add_argument("--same-as", help="compare every review's JSON with this file")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" /
                                             "review.json"))
    args = parser.parse_args()
    from tqdm import tqdm
    seeds = args.seeds or (1 if args.quick else 3)
    base = baseline()
    print(f"baseline loop: {base * 1000:.1f} ms; {seeds} game(s) per edition and player count, "
          f"seat {args.seat}")
    plan = [g for g in games(seeds, args.edition)
            if not args.players or g[1] in args.players]
    figures: dict[str, Any] = {}
    rows: list[dict[str, Any]] = []
    bar = tqdm(plan, file=sys.stderr, unit="game", disable=None)
    for edition, players, seed in bar:
        game = play(edition, players, seed)
        seats = range(players) if args.seat == "all" else [int(args.seat) % players]
        for seat in seats:
            bar.set_postfix_str(f"{edition} {players}p seed {seed} seat {seat}")
            timed, review = time_review(game, seat)
            rows.append({"edition": edition, "players": players, "seed": seed, "seat": seat,
                         "public_events": len(game.events), **timed})
            if args.figures or args.same_as:
                label = f"{edition} {players}p seed {seed} seat {seat}"
                start = time.process_time()
                figures[label] = review.to_dict()
                rows[-1]["json_s"] = time.process_time() - start
    bar.close()
    if args.figures:
        Path(args.figures).write_text(json.dumps(figures, indent=None))
        print(f"figures of {len(figures)} reviews written to {args.figures}")
    if args.same_as:
        compare(figures, json.loads(Path(args.same_as).read_text()))
    times = [r["seconds"] for r in rows]
    worst = sorted(rows, key=lambda r: -r["seconds"])
    over = [r for r in rows if r["seconds"] > TARGET_S]
    print(f"{len(rows)} reviews: p50 {percentile(times, 50):.2f} s, p90 "
          f"{percentile(times, 90):.2f} s, worst {max(times):.2f} s "
          f"(worst / baseline {max(times) / base:.0f}); over {TARGET_S:g} s: {len(over)}; "
          f"wall clock worst {max(r['wall_s'] for r in rows):.2f} s at load "
          f"{os.getloadavg()[0]:.1f}")
    print(f"share of the time ranking questions: median "
          f"{percentile([r['ranking_share'] for r in rows], 50):.2f}")
    if figures:
        extra = [r["json_s"] for r in rows]
        print(f"the JSON after the review (every other seat's curve): p50 "
              f"{percentile(extra, 50):.2f} s, worst {max(extra):.2f} s")
    print(f"\n{'game':48} {'events':>6} {'turns':>5} {'s':>7} {'ranking':>7}")
    for r in worst[:10]:
        label = f"{r['edition']} {r['players']}p seed {r['seed']} seat {r['seat']}"
        print(f"{label:48} {r['public_events']:6} {r['turns']:5} {r['seconds']:7.2f} "
              f"{r['ranking_share']:7.2f}")
    longest = max(rows, key=lambda r: r["public_events"])
    print(f"\nthe longest game ({longest['edition']} {longest['players']}p seed "
          f"{longest['seed']}, {longest['public_events']} events): {longest['seconds']:.2f} s")
    summary = {"baseline_ms": base * 1000, "seeds": seeds, "reviews": len(rows),
               "p50_s": percentile(times, 50), "p90_s": percentile(times, 90),
               "worst_s": max(times), "wall_worst_s": max(r["wall_s"] for r in rows),
               "load_after": os.getloadavg()[0], "over_target": len(over), "target_s": TARGET_S,
               "worst": worst[:10]}
    if figures:
        summary |= {"json_p50_s": percentile([r["json_s"] for r in rows], 50),
                    "json_worst_s": max(r["json_s"] for r in rows)}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"summary": summary, "rows": rows}, indent=1))
    print(f"\nwritten to {args.out}")


if __name__ == "__main__":
    main()
