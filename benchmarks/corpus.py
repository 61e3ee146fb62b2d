"""The whole-game corpus: seeded bot games of every edition and player count, played to the
end, and every record they give: each seat's and the public one, at the end and at the middle.

The games are generated from their seeds at run time (never stored), so the corpus follows
the rules as they are today. Bots are mixed: strong bots end games early, weak ones make the
long records (up to about a hundred events) whose public view is the hardest to count.

    from benchmarks.corpus import corpus
    for entry in corpus(seeds=2): entry.label, entry.record   # a record as a dict
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cluedo_lab.bots.registry import make_bot  # noqa: E402
from cluedo_lab.games.factory import new_game  # noqa: E402
from cluedo_lab.rules.edition import all_editions  # noqa: E402

# The seats' bots, by seed: a mix with a strong bot, then weak bots only (the longest games).
LINE_UPS = (
    ("detective", "eliminator", "random", "bluffer"),
    ("eliminator", "random"),
    ("random", "eliminator", "bluffer"),
)


@dataclass(frozen=True)
class Entry:
    edition: str
    players: int
    seed: int
    seat: int | None      # None: the public record
    stage: str            # "end" or "middle"
    record: dict[str, Any]

    @property
    def label(self) -> str:
        who = "public" if self.seat is None else f"seat {self.seat}"
        return (f"{self.edition} {self.players}p seed {self.seed} {who} {self.stage} "
                f"({len(self.record['events'])} events)")


def play(edition: str, players: int, seed: int, max_actions: int = 20_000) -> Any:
    """One seeded game played to the end by the seed's line-up of bots."""
    game = new_game(edition, players, seed)
    line_up = LINE_UPS[seed % len(LINE_UPS)]
    bots = [make_bot(line_up[(seed + i) % len(line_up)], seed * 100 + i)
            for i in range(players)]
    game.play(bots, max_actions=max_actions)
    return game


def game_records(game: Any, edition: str, players: int, seed: int) -> Iterator[Entry]:
    for seat in [None, *range(players)]:
        record = game.record_for(seat)
        events = record["events"]
        for stage, cut in (("end", len(events)), ("middle", len(events) // 2)):
            yield Entry(edition, players, seed, seat, stage, {**record, "events": events[:cut]})


def corpus(seeds: int = 3, editions: list[str] | None = None) -> Iterator[Entry]:
    """Every record of ``seeds`` games per edition and player count."""
    for ed in all_editions():
        if editions and ed.id not in editions:
            continue
        for players in range(ed.min_players, ed.max_players + 1):
            for seed in range(seeds):
                game = play(ed.id, players, seed)
                yield from game_records(game, ed.id, players, seed)
