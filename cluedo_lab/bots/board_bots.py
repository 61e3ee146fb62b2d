"""Bots for the board games: a detective that reasons with the knowledge engine on its own
record, and a random explorer for long test games. (The plain random legal bot is
:class:`cluedo_lab.game.RandomBot`.)

The detective sees what a player at the table sees: its record (``game.record(seat)``: its
hand, the face-up cards and every event as it saw it), the board, where the pieces stand and
its legal actions. It never reads the deal. Every choice is seeded.
"""

from __future__ import annotations

import itertools
import operator
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from ..games.board_game import BoardGame
from ..games.game import Action, RandomBot
from ..knowledge import constraints as cons
from ..knowledge.engine import Knowledge
from ..records import ENVELOPE, Record, Reveal, Show, Suggest
from ..rules.board import walk_of
from ..rules.dice import Dice
from ..rules.errors import Contradiction

__all__ = ["DetectiveBot", "ExplorerBot", "RandomBot", "BOTS", "make_bot", "tournament",
           "View", "cheap_view"]


# ---------------------------------------------------------------------------------------------
# What a seat knows
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class View:
    """What a seat's record says: each card's chance of being in the envelope, the cards known
    to be in each place, and the solution once it is certain. ``exact`` tells whether the
    knowledge engine counted it (True) or the cheap rule estimated it (False)."""

    envelope: Mapping[str, Fraction]
    located: Mapping[str, str]
    possible: Mapping[str, frozenset[str]]
    solution: tuple[str, ...] | None
    exact: bool


def exact_view(record: Record, model: str = "uniform") -> View:
    """The knowledge engine's complete answer (raises Contradiction on an impossible record)."""
    known = Knowledge(record, model)
    table = known.probabilities()
    envelope = {card: row[ENVELOPE] for card, row in table.items()}
    located = {card: place for card, row in table.items()
               for place, p in row.items() if p == 1}
    possible = {card: frozenset(p for p, v in row.items() if v > 0)
                for card, row in table.items()}
    return View(envelope, located, possible, known.solution(), True)


def cheap_view(record: Record) -> View:
    """A fast, incomplete deduction for when counting takes too long: cards seen in a place,
    "lacks" from passes, a refuter who lacks all but one named card holds that one, a card
    missing from every place but one lies there, and the envelope's one card per category.
    Hand sizes and wrong accusations are not used. Envelope chances are spread evenly over
    each category's remaining candidates."""
    edition = record.edition
    places = list(record.places)
    where: dict[str, str] = {}
    lacks: dict[str, set[str]] = {c.id: set() for c in edition.cards}
    ones: list[cons.Constraint] = []
    try:
        constraints = cons.all_constraints(record)
    except Exception:  # pragma: no cover - a malformed record gives no cheap facts either
        constraints = []
    for con in constraints:
        if con.kind == cons.HOLDS:
            where[con.card] = con.place
        elif con.kind == cons.LACKS:
            lacks[con.card].add(con.place)
        elif con.kind == cons.HOLDS_ONE_OF:
            ones.append(con)
    categories = [[c.id for c in cat.cards] for cat in edition.categories]
    changed = True
    while changed:
        changed = False
        for card, place in where.items():
            others = set(places) - {place}
            if not others <= lacks[card]:
                lacks[card] |= others
                changed = True
        for card, missing in lacks.items():
            if card not in where:
                left = [p for p in places if p not in missing]
                if len(left) == 1:
                    where[card] = left[0]
                    changed = True
        for con in ones:
            open_cards = [c for c in con.cards if con.place not in lacks[c]]
            if len(open_cards) == 1 and open_cards[0] not in where:
                where[open_cards[0]] = con.place
                changed = True
        for ids in categories:
            inside = [c for c in ids if where.get(c) == ENVELOPE]
            candidates = [c for c in ids if ENVELOPE not in lacks[c]]
            if inside:
                for c in ids:
                    if c not in inside and ENVELOPE not in lacks[c]:
                        lacks[c].add(ENVELOPE)
                        changed = True
            elif len(candidates) == 1 and candidates[0] not in where:
                where[candidates[0]] = ENVELOPE
                changed = True
    envelope: dict[str, Fraction] = {}
    solution: list[str] = []
    for ids in categories:
        candidates = [c for c in ids if ENVELOPE not in lacks[c]]
        for c in ids:
            envelope[c] = Fraction(1, len(candidates)) if c in candidates and candidates \
                else Fraction(0)
        if len(candidates) == 1:
            solution.append(candidates[0])
    possible = {card: frozenset(places) - missing for card, missing in lacks.items()}
    solved = tuple(solution) if len(solution) == len(categories) else None
    return View(envelope, where, possible, solved, False)


# ---------------------------------------------------------------------------------------------
# The detective
# ---------------------------------------------------------------------------------------------

@dataclass
class DetectiveBot:
    """Goes where a suggestion teaches most per turn spent, asks the suspect and weapon that
    teach most there, and accuses as soon as its own record proves the solution.

    A suggestion *teaches* when it makes someone show a card not yet placed, or pass on one:
    the bot asks the other players in answering order, as the rules do, and assumes the worst
    of them (a player known to hold a named card shows that card again). Its worth is 1 when
    the first player who can answer may show something new (a little more for each further
    unknown card they may hold), and nothing when that player already showed what they would
    show; the cards' chance of being in the envelope breaks ties. A room is worth its best
    suggestion, plus 1 for a face-down card not yet seen (2023 two-player). Going there costs
    the expected number of turns to walk the distance with these dice (1 for a room entered
    this turn, by dice or secret passage, or stayed in where a suggestion is allowed), and
    the bot goes where worth per turn is highest.

    Knowledge is recounted only after new events. With ``exact=False``, or once its record
    is contradictory (as after a false witness), the bot uses :func:`cheap_view` instead. No
    clock is consulted, so the same seed gives the same game on any machine. After
    ``patience`` rounds without a proof it accuses its likeliest guess, so no game runs
    forever.
    """

    seed: int = 0
    exact: bool = True
    model: str = "uniform"
    patience: int = 150
    rng: random.Random = field(init=False, repr=False)
    _cache: dict[str, Any] = field(init=False, repr=False, default_factory=dict)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    # -- knowledge ---------------------------------------------------------------------------
    def view(self, game: BoardGame, seat: int) -> View:
        """This seat's view, recomputed only when new events have arrived."""
        key = (id(game), seat, len(game.events))
        cache = self._cache
        if cache.get("key") == key:
            return cache["view"]
        if cache.get("game") != (id(game), seat):
            cache.clear()
            cache["game"] = (id(game), seat)
            cache["cheap"] = not self.exact
        record = game.record(seat)
        view = None
        if not cache["cheap"]:
            try:
                view = exact_view(record, self.model)
            except Contradiction:
                cache["cheap"] = True
        if view is None:
            view = cheap_view(record)
        cache["key"], cache["view"] = key, view
        cache.pop("worth", None)
        return view

    # -- choosing ----------------------------------------------------------------------------
    def choose(self, game: BoardGame, seat: int) -> Action:
        legal = game.legal_actions()
        if len(legal) == 1:
            return legal[0]
        kinds = {a.kind for a in legal}
        if kinds & {"show", "reveal"}:
            return self._show(game, seat, [a for a in legal if a.kind in ("show", "reveal")])
        view = self.view(game, seat)
        if "clue" in kinds:
            return self._clue_target(game, view, [a for a in legal if a.kind == "clue"])
        if "check" in kinds:
            return next(a for a in legal if a.kind == "check")
        if "accuse" in kinds:
            guess = view.solution
            if guess is None and game.turn_number > self.patience * len(game.names):
                guess = self._best_guess(game, view)
            if guess is not None:
                return _find(legal, "accuse", cards=tuple(guess))
        if "suggest" in kinds:
            named = self._best_suggestion(game, seat, view, game.room_of(seat))[1]
            return _find(legal, "suggest", cards=named)
        if kinds & {"roll", "stay", "passage"}:
            return self._start(game, seat, view, legal)
        if "move" in kinds:
            return self._move(game, seat, view, legal)
        if "end" in kinds:
            return _find(legal, "end")
        return self.rng.choice(legal)  # pragma: no cover - every phase is handled above

    def _best_guess(self, game: BoardGame, view: View) -> tuple[str, ...]:
        picks = [max(ids, key=lambda c: (view.envelope[c], self.rng.random()))
                 for ids in (game.fixed.suspects, game.fixed.weapons, game.fixed.rooms)]
        return tuple(sorted(picks, key=game.fixed.order.__getitem__))

    # -- what a suggestion teaches -----------------------------------------------------------
    def teaches(self, game: BoardGame, seat: int, view: View, named: Sequence[str]) -> float:
        """The worth of suggesting ``named`` (see the class docstring)."""
        unknown = [c for c in named if c not in view.located]
        if not unknown:
            return 0.0
        n = len(game.names)
        tie = 0.01 * float(sum(view.envelope[c] for c in unknown))
        for k in range(1, n):
            player = game.names[(seat + k) % n]
            maybe = sum(1 for c in unknown if player in view.possible[c])
            if any(view.located.get(c) == player for c in named):
                return 0.1 * maybe + tie
            if maybe:
                return 1.0 + 0.25 * (maybe - 1) + tie
        return tie  # nobody else can hold any of them: no answer will come

    def _best_suggestion(self, game: BoardGame, seat: int, view: View, room: str
                         ) -> tuple[float, tuple[str, ...]]:
        """The suspect and weapon that teach most in ``room``, with their worth."""
        best: tuple[float, float, tuple[str, ...]] | None = None
        order = game.fixed.order
        for suspect in game.fixed.suspects:
            for weapon in game.fixed.weapons:
                worth = self.teaches(game, seat, view, (suspect, weapon, room))
                option = (worth, self.rng.random(), (suspect, weapon))
                if best is None or option[:2] > best[:2]:
                    best = option
        assert best is not None
        return best[0], tuple(sorted(best[2], key=order.__getitem__))

    def room_worth(self, game: BoardGame, seat: int, view: View) -> dict[str, float]:
        """What a suggestion in each room is worth to this seat now (cached per view). Once
        the solution is proven every room is worth the same: any will do to accuse from."""
        cached = self._cache.get("worth")
        if cached is not None and cached[0] == seat:
            return cached[1]
        rooms = game.fixed.rooms
        if view.solution is not None:
            worth = {r: 1.0 for r in rooms}
        else:
            placed = set(view.located.values())
            worth = {}
            for room in rooms:
                worth[room] = self._best_suggestion(game, seat, view, room)[0]
                if room in game.piles and game.piles[room] not in placed:
                    worth[room] += 1.0     # its face-down card is still unknown
        self._cache["worth"] = (seat, worth)
        return worth

    # -- where to go -------------------------------------------------------------------------
    def turns(self, game: BoardGame, moves: int) -> float:
        """Expected turns to walk ``moves`` squares with the game's dice (a room reached this
        turn counts 1), on an empty board."""
        table = _turns_table(game.dice.count, game.dice.sides)
        return table[min(moves, len(table) - 1)]

    def _start(self, game: BoardGame, seat: int, view: View, legal: list[Action]) -> Action:
        worth = self.room_worth(game, seat, view)
        here = game.room_of(seat)
        options: list[tuple[float, float, Action]] = []
        if here is not None and _has(legal, "stay") and game.may_suggest_staying(seat):
            options.append((worth[here], self.rng.random(), _find(legal, "stay")))
        for action in legal:
            if action.kind == "passage":
                options.append((worth[action["to"]], self.rng.random(), action))
        walk = self._walk_worth(game, worth, game.piece(seat))
        options.append((walk, self.rng.random(), _find(legal, "roll")))
        return max(options, key=lambda o: (o[0], o[1]))[2]

    def _walk_worth(self, game: BoardGame, worth: Mapping[str, float], start: Any) -> float:
        """Worth per turn of the best room to walk to from ``start`` (not back into it)."""
        dist = walk_of(game.edition.board).free(start)
        return max((worth[r] / self.turns(game, dist[r]) for r in game.fixed.rooms
                    if r in dist and r != start), default=0.0)

    def _move(self, game: BoardGame, seat: int, view: View, legal: list[Action]) -> Action:
        """Enter the best room in reach now, or stop on the square from which the rooms are
        worth most per turn to come."""
        worth = self.room_worth(game, seat, view)
        options: list[tuple[float, float, Action]] = []
        walk = walk_of(game.edition.board)
        for action in legal:
            if action.kind != "move":
                continue
            to = action["to"]
            if isinstance(to, str):
                score = worth[to]
            else:
                dist = walk.free(to)
                score = max((worth[r] / (1.0 + self.turns(game, dist[r]))
                             for r in game.fixed.rooms if r in dist), default=0.0)
            options.append((score, self.rng.random(), action))
        return max(options, key=lambda o: (o[0], o[1]))[2]

    # -- answering ---------------------------------------------------------------------------
    def _show(self, game: BoardGame, seat: int, legal: list[Action]) -> Action:
        """Give away as little as possible: a card the receiver (or, for a reveal, everyone)
        has already seen from this seat, else the card already shown to the most players."""
        record = game.record(seat)
        me = game.names[seat]
        to = _receiver(game)
        seen_by: dict[str, set[str]] = {}
        for event in record.events:
            if isinstance(event, Suggest) and event.shown_by == me and event.card is not None:
                seen_by.setdefault(event.card.id, set()).add(event.by)
            elif isinstance(event, Show) and event.shower == me and event.card is not None:
                seen_by.setdefault(event.card.id, set()).add(event.to)
            elif isinstance(event, Reveal) and event.by == me:
                seen_by.setdefault(event.card.id, set()).update(game.names)

        def cost(action: Action) -> tuple[int, int, float]:
            who = seen_by.get(action["card"], set())
            if action.kind == "reveal":
                return (len(set(game.names) - who), 0, self.rng.random())
            return (0 if to in who else 1, -len(who), self.rng.random())
        return min(legal, key=cost)

    def _clue_target(self, game: BoardGame, view: View, legal: list[Action]) -> Action:
        """The player with the most cards this seat has not yet placed."""
        sizes = dict(zip(game.names, game.edition.hand_sizes(len(game.names)), strict=True))
        placed: dict[str, int] = {}
        for place in view.located.values():
            placed[place] = placed.get(place, 0) + 1
        return max(legal, key=lambda a: (sizes[a["player"]] - placed.get(a["player"], 0),
                                          self.rng.random()))


@cache
def _turns_table(count: int, sides: int, longest: int = 80) -> tuple[float, ...]:
    """Expected turns to walk d squares (d = 0..longest) with ``count`` dice: E(d) = 1 +
    sum over totals t < d of P(t) E(d - t), a room reached this turn counting 1."""
    totals = {t: float(p) for t, p in Dice(count, sides).total_distribution().items()}
    table = [1.0]
    for d in range(1, longest + 1):
        table.append(1.0 + sum(p * table[d - t] for t, p in totals.items() if t < d))
    return tuple(table)


def _receiver(game: BoardGame) -> str | None:
    """Who will see the card being chosen (public: everyone sees who asked)."""
    if game.phase == "refute":
        return game.names[game.pending["by"]]
    if game.phase == "clue-show" and game.tasks:
        return game.names[game.tasks[0]["to"]]
    return None


def _has(legal: Sequence[Action], kind: str) -> bool:
    return any(a.kind == kind for a in legal)


def _find(legal: Sequence[Action], kind: str, **want: Any) -> Action:
    for action in legal:
        if action.kind == kind and all(action.get(k) == v for k, v in want.items()):
            return action
    raise RuntimeError(f"no legal {kind} with {want}")  # pragma: no cover


# ---------------------------------------------------------------------------------------------
# Explorer, registry, tournaments
# ---------------------------------------------------------------------------------------------

@dataclass
class ExplorerBot:
    """Random play that makes long games for tests: picks a kind of action uniformly (entering
    a room and stopping on a square count as two kinds, as rooms are few among the squares),
    then an action of that kind, and accuses only with chance ``accuse_chance`` (a uniform
    random bot almost always accuses at its first chance: there are 324 accusations and ~40
    other actions)."""

    seed: int = 0
    accuse_chance: float = 0.05
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, game: BoardGame, seat: int) -> Action:
        groups: dict[str, list[Action]] = {}
        for kind, actions in itertools.groupby(game.legal_actions(), key=_KIND):
            groups.setdefault(kind, []).extend(actions)   # kinds come in runs: one pass
        moves = groups.pop("move", None)
        if moves:
            rooms = [a for a in moves if type(a.args[0][1]) is str]
            for kind, actions in (("move-room", rooms), ("move-square", moves[len(rooms):])):
                if actions:
                    groups[kind] = actions
        accusations = groups.pop("accuse", None)
        if accusations and (not groups or self.rng.random() < self.accuse_chance):
            return self.rng.choice(accusations)
        return self.rng.choice(groups[self.rng.choice(sorted(groups))])


_KIND = operator.attrgetter("kind")


BOTS: dict[str, Any] = {"detective": DetectiveBot, "random": RandomBot, "explorer": ExplorerBot}


def make_bot(name: str, seed: int = 0) -> Any:
    """A bot by name: ``detective``, ``random`` or ``explorer``."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"no bot {name!r}; bots: {', '.join(BOTS)}") from None


def tournament(edition_id: str, lineup: Sequence[str], games: int, seed: int = 0,
               **options: Any) -> dict[str, int]:
    """Wins by bot kind over ``games`` seeded games (plus ``"nobody"``). The lineup turns one
    seat to the left each game, so every kind plays every seat and moves first as often."""
    wins = {kind: 0 for kind in lineup}
    wins["nobody"] = 0
    n = len(lineup)
    for number in range(games):
        game_seed = seed * 100_003 + number
        kinds = [lineup[(seat + number) % n] for seat in range(n)]
        game = BoardGame(edition_id, n, game_seed, **options)
        winner = game.play([make_bot(k, game_seed * 10 + s) for s, k in enumerate(kinds)])
        wins["nobody" if winner is None else kinds[winner]] += 1
    return wins
