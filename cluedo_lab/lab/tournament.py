"""Tournaments: many seeded games between bots, seats rotated fairly, results with intervals.

:func:`run_tournament` plays ``games`` games of one edition between the bots of
:mod:`cluedo_lab.bots`. Every game has its own deal, and the seats turn one place each
game, so every bot plays every seat equally often whenever ``games`` is a multiple of the
number of seats (the result says when it is not). Games are independent of each other, which
is what the confidence intervals assume.

Each game's deal, dice and bots are seeded from the tournament seed and the game's number
alone, and the bots never look at a clock, so a tournament gives the same result on any
machine and with any number of worker processes. Where processes cannot be started (the kit
in a browser, under Pyodide) the games are played one after another in the kernel itself:
tournaments still run, only more slowly, so ask for fewer games there.

Results: each bot's win rate with a 95% Wilson interval, the mean number of its own turns it
took to win, its wrong accusations; the win rate of each seat and of each place in the turn
order (who moved first, second, ...). A :class:`TournamentResult` prints as a table, shows as
HTML in Jupyter (:mod:`cluedo_lab.views.tournament_html`), gives its win rates as a chart
(:meth:`TournamentResult.chart`) and saves as JSON.
"""

from __future__ import annotations

import hashlib
import json
import math
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from ..bots.registry import make_bot
from ..games.factory import new_game
from ..games.game import Action, Game
from ..games.loop import Player, run
from ..rules.edition import Edition, load_edition
from ..rules.errors import ActionLimit
from ..rules.variant import Variant
from .charts import Chart, bar_chart

__all__ = ["run_tournament", "TournamentResult", "Row", "wilson", "play",
           "save_results", "load_results", "can_use_processes", "InProcess"]

Z95 = 1.959963984540054
"""The standard normal quantile for a two-sided 95% interval."""

FORMAT = 1
"""Version of the JSON written by :meth:`TournamentResult.to_json`."""

_T = TypeVar("_T")

GAME_COLUMNS = ("seed", "first", "winner", "turns", "wrong", "actions", "finished")
"""What is saved of each game (its lineup, number and fugitive follow from the tournament)."""


def can_use_processes() -> bool:
    """Whether worker processes can be started. Not in a browser: Pyodide (``sys.platform``
    "emscripten") has no processes and no threads, and its ``multiprocessing`` fails on use."""
    return sys.platform != "emscripten"


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``wins / games`` (0 to 1 when no games).

    Unlike "rate ± z·sd" it stays inside [0, 1] and is sensible for rates near 0 or 1 and
    for few games, which is where a weak bot's win rate lies."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = p + z * z / (2 * games)
    spread = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    denominator = 1 + z * z / games
    return max(0.0, (centre - spread) / denominator), min(1.0, (centre + spread) / denominator)


# ---------------------------------------------------------------------------------------------
# Playing one game
# ---------------------------------------------------------------------------------------------

def _derive(seed: int, *parts: Any) -> int:
    """A seed for one part of a tournament, from the tournament seed and the part's name
    (sha256, so it is the same on every machine and for every PYTHONHASHSEED)."""
    text = "/".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


class _TurnCounter:
    """Counts each seat's own turns as a game is played (the rule books' turns: a roll or a
    question and what follows, not the cards shown for other players)."""

    def __init__(self, game: Game):
        self.turns = [0] * len(game.names)
        self.family = game.edition.family
        self.last = None

    def before(self, game: Any, action: Any) -> None:
        if self.family == "board":
            if game.turn_number != self.last:
                self.last = game.turn_number
                self.turns[game.turn] += 1
        elif game.edition.actions:   # 2002: every turn ends with "end" or an accusation
            if action.seat == game.turn and action.kind in ("end", "accuse"):
                self.turns[action.seat] += 1
        elif game.stage == "ask":    # 2018: a turn is a question or a declared accusation
            self.turns[action.seat] += 1


class _Counted:
    """A bot whose every choice the turn counter sees before it is played."""

    def __init__(self, bot: Player[Game], counter: _TurnCounter):
        self.bot = bot
        self.counter = counter

    def choose(self, game: Game, seat: int) -> Action:
        action = self.bot.choose(game, seat)
        self.counter.before(game, action)
        return action


def play(game: Game, bots: Sequence[Player[Game]], max_actions: int = 20_000
         ) -> dict[str, Any]:
    """Let ``bots`` (one per seat) play ``game`` on, and summarise what happened: the seat
    that moved first, the winner, the fugitive, each seat's own turns and wrong accusations,
    the number of actions, and whether the game finished within ``max_actions``."""
    counter = _TurnCounter(game)
    first = game.current
    try:
        run(game, [_Counted(bot, counter) for bot in bots], max_actions)
    except ActionLimit:
        pass                    # counted as unfinished, won by nobody
    finished = game.is_over
    names = list(game.names)
    wrong = [0] * len(names)
    for event in game.events:
        if "accuse" in event and not event.get("correct"):
            wrong[names.index(event["by"])] += 1
    return {"first": first, "winner": game.winner if finished else None,
            "fugitive": getattr(game, "fugitive", None), "turns": counter.turns,
            "wrong": wrong, "actions": len(game.history), "finished": finished}


# ---------------------------------------------------------------------------------------------
# Running many games
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Plan:
    """Everything a worker needs to play game number ``i`` of the tournament."""

    edition: Edition | str
    lineup: tuple[str, ...]
    seed: int
    options: Mapping[str, Any]
    max_actions: int

    def game(self, index: int) -> dict[str, Any]:
        n = len(self.lineup)
        seats = [self.lineup[(s + index) % n] for s in range(n)]
        deal_seed = _derive(self.seed, "deal", index)
        game = new_game(self.edition, n, deal_seed, **self.options)
        bots = [make_bot(spec, _derive(self.seed, "bot", index, s))
                for s, spec in enumerate(seats)]
        return {"seed": deal_seed, "lineup": seats, **play(game, bots, self.max_actions),
                "game": index}

    def games(self, first: int, stop: int) -> list[dict[str, Any]]:
        """Games ``first`` to ``stop - 1``: one task for an executor."""
        return [self.game(index) for index in range(first, stop)]


class InProcess(Executor):
    """An executor that runs each task at once, in the calling process: the default, and
    where no processes can be started (the kit in a browser)."""

    def submit(self, fn: Callable[..., _T], /, *args: Any, **kwargs: Any) -> Future[_T]:
        future: Future[_T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:     # the caller's .result() raises it
            future.set_exception(error)
        return future


def run_tournament(edition: Edition | Variant | str, bots: Sequence[str], games: int,
                   seed: int = 0, players: int | None = None, workers: int = 1,
                   progress: bool = False, max_actions: int = 20_000,
                   executor: Executor | None = None, **options: Any) -> TournamentResult:
    """Play ``games`` seeded games of ``edition`` (an Edition, an id or a :class:`Variant`)
    between ``bots`` (names for :func:`cluedo_lab.bots.make_bot`, one per seat; with
    ``players`` larger than the list, the list repeats to fill the table). Each game has its
    own deal and the seats turn one place each game (see the module docstring).

    The games are played by ``executor`` (any :class:`concurrent.futures.Executor`: a Dask
    client's, see :mod:`cluedo_lab.lab.cluster`), in batches of consecutive games; without
    one, by ``workers`` processes of this machine (in this process when ``workers`` is 1 or
    :func:`can_use_processes` says no). The result does not depend on the executor nor on
    how many workers it has. ``progress`` shows a progress bar (tqdm). Other keyword
    ``options`` go to the game (e.g. ``dice=1`` on a board, ``clue_cards=False``). A game
    still running after ``max_actions`` actions counts as won by nobody and is marked
    unfinished."""
    ed, name = _edition_and_name(edition)
    specs = [b.strip() for b in bots]
    if not specs or any(not b for b in specs):
        raise ValueError("name at least one bot (and no empty names)")
    for spec in dict.fromkeys(specs):
        make_bot(spec)   # a bad name fails here, before any game is played
    n = len(specs) if players is None else players
    ed.check_players(n)
    if len(specs) > n:
        raise ValueError(f"{len(specs)} bots for {n} seats: name at most one bot per seat")
    lineup = tuple(specs[i % len(specs)] for i in range(n))
    if games < 1:
        raise ValueError("play at least one game")
    if workers < 1:
        raise ValueError("workers must be at least 1")
    # A bad option, or a board variant changing a rule the board engine does not read,
    # fails here too.
    new_game(edition if isinstance(edition, Variant) else ed, n, 0, **options)
    plan = _Plan(ed, lineup, seed, dict(options), max_actions)
    rows = _play_all(plan, games, workers, executor,
                     _progress_bar(games, progress, f"{ed.id} ({', '.join(specs)})"))
    return TournamentResult(edition=ed.id, edition_name=name, players=n, bots=lineup,
                            seed=seed, options=dict(options), games=rows)


def _edition_and_name(edition: Edition | Variant | str) -> tuple[Edition, str]:
    if isinstance(edition, Variant):
        return edition.edition, edition.name
    ed = load_edition(edition) if isinstance(edition, str) else edition
    return ed, ed.name


def _progress_bar(total: int, shown: bool, label: str) -> Any:
    from tqdm.auto import tqdm

    if not can_use_processes():
        tqdm.monitor_interval = 0   # nor threads: tqdm's monitor thread would warn on each bar
    return tqdm(total=total, disable=not shown, desc=label, unit="game")


def _play_all(plan: _Plan, games: int, workers: int, executor: Executor | None,
              bar: Any) -> list[dict[str, Any]]:
    """Every game of ``plan``, in order, played by ``executor`` (or by ``workers``
    processes), in batches small enough to keep every worker busy to the end."""
    size = max(1, min(16, games // (workers * 8)))
    batches = [(first, min(first + size, games)) for first in range(0, games, size)]
    rows: list[dict[str, Any]] = []
    with ExitStack() as stack:
        stack.callback(bar.close)
        if executor is None:
            executor = InProcess() if workers == 1 or not can_use_processes() else \
                stack.enter_context(_process_pool(workers))
        # Every batch goes to a pool at once; in this process, each when its turn comes
        # (so the progress bar moves).
        submit = executor.submit
        futures: Iterator[Future[list[dict[str, Any]]]] = (
            submit(plan.games, first, stop) for first, stop in batches)
        if not isinstance(executor, InProcess):
            futures = iter(list(futures))
        for future in futures:
            batch = future.result()
            rows += batch
            bar.update(len(batch))
    return rows


def _process_pool(workers: int) -> Executor:
    from concurrent.futures import ProcessPoolExecutor  # not importable everywhere
    from multiprocessing import get_context

    return ProcessPoolExecutor(workers, mp_context=get_context())


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    """One line of a results table: how often ``label`` won out of ``played``."""

    label: str
    played: int
    wins: int
    turns_to_win: float | None = None
    wrong: float | None = None

    @property
    def rate(self) -> float:
        return self.wins / self.played if self.played else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins, self.played)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {"label": self.label, "played": self.played, "wins": self.wins,
                "rate": round(self.rate, 6), "low": round(low, 6), "high": round(high, 6),
                "turns_to_win": None if self.turns_to_win is None else round(self.turns_to_win, 4),
                "wrong_per_game": None if self.wrong is None else round(self.wrong, 4)}


@dataclass
class TournamentResult:
    """The games of a tournament and the tables computed from them.

    ``games`` holds one dict per game: its deal ``seed``, the ``lineup`` by seat, the seat
    that moved ``first``, the ``winner`` seat (None: nobody), the ``fugitive`` seat (2002
    one-against-all), each seat's own ``turns`` and ``wrong`` accusations, the number of
    ``actions`` and whether it ``finished``."""

    edition: str
    edition_name: str
    players: int
    bots: tuple[str, ...]
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    games: list[dict[str, Any]] = field(default_factory=list)
    command: str | None = None

    # -- tables ------------------------------------------------------------------------------
    def by_bot(self) -> list[Row]:
        """Each bot (by name, over all the seats it played): wins, the mean of its own turns
        in the games it won (fugitive escapes left out), wrong accusations per game."""
        played: dict[str, int] = {}
        wins: dict[str, int] = {}
        turns: dict[str, list[int]] = {}
        wrong: dict[str, int] = {}
        for g in self.games:
            for seat, name in enumerate(g["lineup"]):
                played[name] = played.get(name, 0) + 1
                wrong[name] = wrong.get(name, 0) + g["wrong"][seat]
                wins.setdefault(name, 0)
                turns.setdefault(name, [])
            if g["winner"] is not None:
                name = g["lineup"][g["winner"]]
                wins[name] += 1
                if g["winner"] != g.get("fugitive"):
                    turns[name].append(g["turns"][g["winner"]])
        return [Row(name, played[name], wins[name],
                    sum(turns[name]) / len(turns[name]) if turns[name] else None,
                    wrong[name] / played[name]) for name in dict.fromkeys(self.bots)]

    def by_seat(self) -> list[Row]:
        """Each seat, whoever sat there."""
        return [Row(f"seat {s}", len(self.games),
                    sum(1 for g in self.games if g["winner"] == s)) for s in range(self.players)]

    def by_order(self) -> list[Row]:
        """Each place in the turn order: the seat that moved first, the next one, ..."""
        n = self.players
        wins = [0] * n
        for g in self.games:
            if g["winner"] is not None:
                wins[(g["winner"] - g["first"]) % n] += 1
        return [Row(_ordinal(k + 1) + " to move", len(self.games), wins[k]) for k in range(n)]

    def row(self, label: str, by: str = "bot") -> Row:
        """One row of a table: a bot's name, ``"seat 0"``, ``"1st to move"``, ..."""
        rows = {"bot": self.by_bot, "seat": self.by_seat, "order": self.by_order}[by]()
        for r in rows:
            if r.label == label:
                return r
        raise KeyError(f"no row {label!r} by {by}; rows: {', '.join(r.label for r in rows)}")

    def cli_command(self) -> str | None:
        """The ``cluedo-lab simulate`` command that plays this tournament again, game for
        game (None when it used game options, which the command line does not take)."""
        if self.options:
            return None
        return (f"cluedo-lab simulate --edition {self.edition} --bots {','.join(self.bots)} "
                f"--games {len(self.games)} --seed {self.seed}")

    @property
    def nobody(self) -> int:
        """Games nobody won (everyone accused wrongly, or unfinished)."""
        return sum(1 for g in self.games if g["winner"] is None)

    @property
    def unfinished(self) -> int:
        return sum(1 for g in self.games if not g["finished"])

    @property
    def balanced(self) -> bool:
        """Did every bot play every seat equally often?"""
        return len(self.games) % self.players == 0

    def mean_turns(self) -> float:
        """The mean length of a game in rounds (the most turns any seat took)."""
        return sum(max(g["turns"]) for g in self.games) / len(self.games) if self.games else 0

    # -- display -----------------------------------------------------------------------------
    def title(self) -> str:
        """One line: the edition, the table, the games and the bots."""
        return (f"{self.edition_name} ({self.edition}), {self.players} players, "
                f"{len(self.games)} games, seed {self.seed}: " + ", ".join(self.bots))

    def notes(self) -> list[str]:
        """What to bear in mind reading the tables (games nobody won, unfinished, ...)."""
        notes = [f"nobody won {self.nobody} of {len(self.games)} games"]
        if self.unfinished:
            notes.append(f"{self.unfinished} games were stopped unfinished")
        if not self.balanced:
            notes.append(f"{len(self.games)} games is not a multiple of {self.players} seats: "
                         "the seats are not equally shared")
        if self.options:
            notes.append("options: " + ", ".join(f"{k}={v}" for k, v in self.options.items()))
        return notes

    def table(self) -> str:
        """The results as plain text."""
        lines = [self.title(), ""]
        head = (f"{'bot':16} {'seats':>6} {'wins':>5} {'win rate':>9} {'95% interval':>15} "
                f"{'turns to win':>12} {'wrong/game':>10}")
        lines += [head, "-" * len(head)]
        for r in self.by_bot():
            low, high = r.interval
            turns = "-" if r.turns_to_win is None else f"{r.turns_to_win:.1f}"
            lines.append(f"{r.label:16} {r.played:6} {r.wins:5} {r.rate:9.1%} "
                         f"{f'{low:.1%}-{high:.1%}':>15} {turns:>12} {r.wrong:10.2f}")
        lines.append("")
        head = f"{'':16} {'wins':>6} {'win rate':>9} {'95% interval':>15}"
        lines.append(head)
        for r in [*self.by_seat(), *self.by_order()]:
            low, high = r.interval
            lines.append(f"{r.label:16} {r.wins:6} {r.rate:9.1%} "
                         f"{f'{low:.1%}-{high:.1%}':>15}")
        lines.append("")
        lines += self.notes()
        if self.command:
            lines.append(f"made by: {self.command}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.table()

    def chart(self, by: str = "bot", title: str | None = None) -> Chart:
        """Win rates with 95% Wilson intervals, by ``"bot"``, ``"seat"`` or ``"order"``."""
        rows = {"bot": self.by_bot, "seat": self.by_seat, "order": self.by_order}
        if by not in rows:
            raise ValueError(f"chart by 'bot', 'seat' or 'order', not {by!r}")
        items = rows[by]()
        return bar_chart([r.label for r in items], [r.rate for r in items],
                         intervals=[r.interval for r in items], percent=True, ymin=0.0,
                         title=title or f"{self.edition_name}: win rate by {by}",
                         ylabel="win rate (95% interval)")

    # -- saving ------------------------------------------------------------------------------
    def to_dict(self, games: bool = True) -> dict[str, Any]:
        """The tables and, with ``games``, every game as a row of ``game_columns`` (each
        game's lineup and number follow from its position: seats turn one place a game)."""
        data = {"format": FORMAT, "edition": self.edition, "edition_name": self.edition_name,
                "players": self.players, "bots": list(self.bots), "seed": self.seed,
                "games_played": len(self.games), "options": self.options,
                "command": self.command,
                "by_bot": [r.to_dict() for r in self.by_bot()],
                "by_seat": [r.to_dict() for r in self.by_seat()],
                "by_order": [r.to_dict() for r in self.by_order()],
                "nobody": self.nobody, "unfinished": self.unfinished,
                "mean_rounds": round(self.mean_turns(), 4)}
        if games:
            data["fugitive"] = self.games[0].get("fugitive") if self.games else None
            data["game_columns"] = list(GAME_COLUMNS)
            data["games"] = [[g[c] for c in GAME_COLUMNS] for g in self.games]
        return data

    def to_json(self, indent: int | None = 1, games: bool = True) -> str:
        """JSON text; with an ``indent``, each game takes one line (short, diff-friendly)."""
        if indent is None or not games:
            return json.dumps(self.to_dict(games), indent=indent)
        data = self.to_dict(games=True)
        rows = data.pop("games")
        head = json.dumps(data, indent=indent)
        pad = " " * indent
        body = ",\n".join(pad * 2 + json.dumps(g, separators=(",", ":")) for g in rows)
        return f'{head[:-2]},\n{pad}"games": [\n{body}\n{pad}]\n}}'

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TournamentResult:
        if data.get("format") != FORMAT or "games" not in data:
            raise ValueError("not a saved tournament with its games (format "
                             f"{FORMAT}): {sorted(data)[:6]}")
        bots = tuple(data["bots"])
        columns = data.get("game_columns", GAME_COLUMNS)
        games = []
        for index, row in enumerate(data["games"]):
            game = dict(row) if isinstance(row, Mapping) else dict(zip(columns, row, strict=True))
            game.setdefault("lineup", [bots[(s + index) % len(bots)] for s in range(len(bots))])
            game.setdefault("game", index)
            game.setdefault("fugitive", data.get("fugitive"))
            games.append(game)
        return cls(edition=data["edition"], edition_name=data["edition_name"],
                   players=data["players"], bots=bots, seed=data["seed"],
                   options=dict(data.get("options") or {}), games=games,
                   command=data.get("command"))

    @classmethod
    def from_json(cls, text: str) -> TournamentResult:
        return cls.from_dict(json.loads(text))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> TournamentResult:
        return cls.from_json(Path(path).read_text(encoding="utf-8"))


def save_results(path: str | Path, results: Sequence[TournamentResult],
                 **about: Any) -> None:
    """Save several tournaments in one JSON file, with notes (``about``: the question, the
    command that made them, ...)."""
    parts = [json.dumps({"format": FORMAT, **about}, indent=1)[:-2] + ',\n "results": [']
    parts.append(",\n".join(r.to_json() for r in results))
    Path(path).write_text("\n".join(parts) + "\n ]\n}\n", encoding="utf-8")


def load_results(path: str | Path) -> list[TournamentResult]:
    """The tournaments saved in a file by :func:`save_results` or
    :meth:`TournamentResult.save`."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if "results" in data:
        return [TournamentResult.from_dict(r) for r in data["results"]]
    return [TournamentResult.from_dict(data)]


def _ordinal(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(k, f"{k}th")
