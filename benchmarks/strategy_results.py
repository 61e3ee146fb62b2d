"""Precompute the strategy notebook's large tournaments (notebooks/30_strategy.ipynb).

Each experiment is a list of seeded tournaments; its results go to
``data/results/strategy/<experiment>.json`` with the question it answers, the command that
made the file and, for every tournament, the ``cluedo-lab simulate`` command that replays it
game for game (tournaments do not depend on the number of workers).

    python benchmarks/strategy_results.py                 # every experiment (a few minutes)
    python benchmarks/strategy_results.py --only bluffing --workers 2
    python benchmarks/strategy_results.py --quick --out /tmp/x   # a tenth of the games
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cluedo_lab.lab.tournament import run_tournament, save_results  # noqa: E402

OUT = Path(__file__).resolve().parent.parent / "data" / "results" / "strategy"
SEED = 2024

# Every edition at a usual table size, with how many games a tournament there plays (a
# multiple of the seats): card games take about 0.01-0.15 s with detectives, board games about
# 0.1-0.3 s, so the whole run takes a few minutes on two cores.
TABLES = [
    ("cluedo-classic-1949", 3, 90),
    ("clue-mansion-2014", 4, 60),
    ("clue-classic-2023", 3, 90),
    ("clue-classic-2023-two-player", 2, 90),
    ("cluedo-card-game-2018", 3, 300),
    ("cluedo-card-game-2018-advanced", 4, 300),
    ("cluedo-the-card-game-2002", 3, 150),
    ("cluedo-the-card-game-2002-one-against-all", 4, 152),
]
THRESHOLDS = (0.3, 0.5, 0.7, 0.9, 1.0)


def first_seat() -> list[tuple]:
    return [(edition, ["detective"] * players, games) for edition, players, games in TABLES]


def thresholds() -> list[tuple]:
    return [(edition, [f"detective@{p:g}" if p < 1 else "detective", "detective", "detective"],
             games)
            for edition, games in (("cluedo-card-game-2018", 300), ("cluedo-classic-1949", 90))
            for p in THRESHOLDS]


def bluffing() -> list[tuple]:
    return [(edition, ["bluffer", "detective", "detective"], games)
            for edition, games in (("cluedo-card-game-2018", 600),
                                   ("cluedo-the-card-game-2002", 150),
                                   ("cluedo-classic-1949", 90))]


def versus_weaker() -> list[tuple]:
    out = []
    for edition, players, games in TABLES:
        bots = ["detective", "eliminator", "random", "eliminator"][:players]
        out.append((edition, bots, games))
    return out


def information() -> list[tuple]:
    return [("cluedo-card-game-2018", ["infogain", "detective", "detective"], 300),
            ("cluedo-the-card-game-2002", ["infogain", "detective", "detective"], 60)]


EXPERIMENTS = {
    "first-seat": ("How much is moving first worth? Three (or four) equal detectives.",
                   first_seat),
    "thresholds": ("Accuse at certainty or earlier? One detective accusing once the likeliest "
                   "envelope reaches a threshold, against two that wait for certainty.",
                   thresholds),
    "bluffing": ("Does bluffing help? A bluffer against two detectives.", bluffing),
    "versus-weaker": ("How many turns does an exact detective need against weaker players?",
                      versus_weaker),
    "information": ("Does asking the most informative question beat the detective's rule?",
                    information),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=sorted(EXPERIMENTS), action="append")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="a tenth of the games")
    parser.add_argument("--out", default=str(OUT))
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.only or list(EXPERIMENTS):
        question, plan = EXPERIMENTS[name]
        started = time.perf_counter()
        results = []
        for edition, bots, games in plan():
            if args.quick:
                games = max(len(bots), games // 10 // len(bots) * len(bots))
            result = run_tournament(edition, bots, games, seed=SEED, workers=args.workers,
                                    progress=sys.stderr.isatty())
            result.command = result.cli_command()
            results.append(result)
            print(f"{name}: {edition} {','.join(bots)}: "
                  + ", ".join(f"{r.label} {r.rate:.1%}" for r in result.by_bot()), flush=True)
        command = "python benchmarks/strategy_results.py --only " + name
        save_results(out / f"{name}.json", results, experiment=name, question=question,
                     made_by=command + (" --quick" if args.quick else ""), seed=SEED)
        print(f"{name}: {len(results)} tournaments in {time.perf_counter() - started:.0f} s "
              f"-> {out / (name + '.json')}", flush=True)


if __name__ == "__main__":
    main()
