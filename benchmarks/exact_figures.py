"""Every exact figure the knowledge layer gives, dumped for comparison before and after a change.

A change to the counting or the question ranking must leave every figure as it was: the count
of consistent deals, every card x place chance, the envelope distribution and, for records
with an observer, every question's gain and answers. This dumps them all, as exact fractions
(gains and entropies as 12 significant digits, the order of the ranking as it is), for

- the whole-game corpus (``benchmarks/corpus.py``, every record);
- the seeded speed-game positions of ``benchmarks/run.py`` (every edition and player count,
  2, 8 and 20 events) and its classic ranking positions;
- the 6-player classic positions of ``benchmarks/ranking.py`` (bot-played games, seat 1's
  record after 4 to 20 events).

    python benchmarks/exact_figures.py --out /tmp/figures-before.json
    python benchmarks/exact_figures.py --out /tmp/figures-after.json \
        --compare /tmp/figures-before.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.corpus import corpus  # noqa: E402
from benchmarks.ranking import positions as ranking_positions  # noqa: E402
from benchmarks.run import STAGES  # noqa: E402
from cluedo_lab.games.speed import speed_game  # noqa: E402
from cluedo_lab.knowledge.advice import Option, rank_questions  # noqa: E402
from cluedo_lab.knowledge.engine import Knowledge  # noqa: E402
from cluedo_lab.records import Record  # noqa: E402
from cluedo_lab.rules.edition import all_editions, load_edition  # noqa: E402
from cluedo_lab.rules.errors import ProblemTooLarge  # noqa: E402


def digits(x: float) -> str:
    return f"{x:.12g}"


def option_figures(option: Option) -> list[Any]:
    return [list(option.named), digits(option.gain), digits(option.expected_entropy),
            [[o.label(), str(o.probability), digits(o.entropy_after)]
             for o in option.outcomes]]


def figures(record: Record, rank: bool) -> dict[str, Any]:
    """The count, every cell, the envelope distribution and (``rank``, with an observer) the
    ranking of every legal question."""
    try:
        k = Knowledge(record)
    except ProblemTooLarge as refused:
        return {"refused": str(refused).splitlines()[0]}
    out: dict[str, Any] = {
        "deals": str(k.consistent_deals),
        "cells": {f"{c}|{p}": str(v) for c, row in k.probabilities().items()
                  for p, v in row.items()},
        "envelope": {"|".join(key): str(v) for key, v in k.envelope_distribution().items()},
    }
    if rank and record.observer is not None:
        out["ranking"] = [option_figures(o) for o in rank_questions(k)]
    return out


def every_position(corpus_seeds: int, run_seeds: int, advice_seeds: int, ranking_seeds: int,
                   rank_corpus: bool) -> Iterator[tuple[str, Record, bool]]:
    """(label, record, whether to rank its questions) for every position covered."""
    for entry in corpus(corpus_seeds):
        yield "corpus " + entry.label, Record.from_dict(entry.record), rank_corpus
    # A speed game has no fugitive: the one-against-all game is in the corpus above.
    for edition in (e for e in all_editions() if e.mode == "standard"):
        low = max(edition.min_players, 3) if edition.max_players >= 3 else edition.min_players
        for players in range(low, edition.max_players + 1):
            for seed in range(run_seeds):
                game = speed_game(edition, players, seed, events=max(STAGES.values()))
                for stage, cut in STAGES.items():
                    yield (f"run {edition.id} {players}p seed {seed} {stage}",
                           Record.from_dict(game.record(cut)), False)
    classic = load_edition("cluedo-classic-1949")
    for players in range(3, 7):
        for seed in range(1, advice_seeds + 1):
            game = speed_game(classic, players, seed, events=max(STAGES.values()))
            for stage, cut in STAGES.items():
                yield (f"advice {players}p seed {seed} {stage}",
                       Record.from_dict(game.record(cut)), True)
    for label, record in ranking_positions(ranking_seeds):
        yield "ranking " + label, record, True


def compare(now: dict[str, Any], before: dict[str, Any]) -> int:
    """Print every position whose figures differ; the number of them."""
    differ = 0
    for label, figures_before in before.items():
        if label not in now:
            print(f"missing now: {label}")
            differ += 1
        elif now[label] != figures_before:
            differ += 1
            keys = [k for k in figures_before if now[label].get(k) != figures_before[k]]
            print(f"differs: {label} ({', '.join(keys)})")
    extra = [label for label in now if label not in before]
    print(f"{len(before)} positions before, {len(now)} now ({len(extra)} new); "
          f"{differ} differ")
    return differ


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default="/tmp/figures.json")
    parser.add_argument("--compare", default=None, help="an earlier dump to compare with")
    parser.add_argument("--corpus-seeds", type=int, default=3)
    parser.add_argument("--run-seeds", type=int, default=10)
    parser.add_argument("--advice-seeds", type=int, default=5)
    parser.add_argument("--ranking-seeds", type=int, default=20)
    parser.add_argument("--rank-corpus", action="store_true",
                        help="also rank every question on the corpus's seat records")
    args = parser.parse_args()
    start = time.perf_counter()
    dump: dict[str, Any] = {}
    for label, record, rank in every_position(args.corpus_seeds, args.run_seeds,
                                              args.advice_seeds, args.ranking_seeds,
                                              args.rank_corpus):
        dump[label] = figures(record, rank)
        if len(dump) % 100 == 0:
            print(f"{len(dump)} positions, {time.perf_counter() - start:.0f} s", flush=True)
    Path(args.out).write_text(json.dumps(dump, sort_keys=True))
    ranked = sum("ranking" in f for f in dump.values())
    print(f"{len(dump)} positions ({ranked} ranked) in {time.perf_counter() - start:.0f} s, "
          f"written to {args.out}")
    if args.compare:
        before = json.loads(Path(args.compare).read_text())
        sys.exit(1 if compare(dump, before) else 0)


if __name__ == "__main__":
    main()
