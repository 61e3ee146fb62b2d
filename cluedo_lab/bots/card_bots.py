"""Bots for the card games: a detective that reasons with the knowledge engine, and a random
explorer for long test games. (The plain random legal bot is :class:`cluedo_lab.game.RandomBot`.)

The detective sees what a player at the table sees: its own record (``game.record_for(seat)``),
its legal actions, its own action cards and the public destination markers. It never reads the
deal, so it plays exactly as well as its record allows, and every choice is seeded.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..games.game import Action, Game, RandomBot
from ..knowledge.engine import Knowledge
from ..records import ENVELOPE, Suggest

__all__ = ["DetectiveBot", "ExplorerBot", "RandomBot", "make_bot", "BOTS"]


@dataclass
class DetectiveBot:
    """Asks about cards it is not yet sure of and accuses as soon as its record proves the
    solution (``Knowledge.solution()``). Asked to show a card, it repeats one the asker has
    already seen from it when it can, so it gives away as little as possible."""

    seed: int = 0
    model: str = "uniform"
    rng: random.Random = field(init=False, repr=False)
    _known: tuple[Any, int, int, Knowledge] | None = field(init=False, repr=False,
                                                            default=None)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    # -- what the seat knows -----------------------------------------------------------------
    def knowledge(self, game: Game, seat: int) -> Knowledge:
        """The knowledge of ``seat``'s own record, recounted only when new events arrive."""
        record = game.record(seat)
        cached = self._known
        if cached and cached[0] is game and cached[1:3] == (seat, len(record.events)):
            return cached[3]
        known = Knowledge(record, self.model)
        self._known = (game, seat, len(record.events), known)
        return known

    # -- choosing ----------------------------------------------------------------------------
    def choose(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions()
        kinds = {a.kind for a in legal}
        if "show" in kinds:
            return self._show(game, seat, legal)
        known = self.knowledge(game, seat)
        solution = known.solution()
        if "decline" in kinds or (kinds == {"accuse"}):
            return self._join(game, known, solution, legal)
        if solution is not None and "accuse" in kinds:
            return self._pick(legal, "accuse", cards=set(solution))
        env = {c.id: known.probability(c, ENVELOPE) for c in game.edition.cards}
        if "ask" in kinds:
            return self._pick(legal, "ask", items=set(self._question(game, env)))
        if "suggest" in kinds:
            return self._pick(legal, "suggest", cards=set(self._suggestion(game, env)))
        if "play" in kinds:
            return self._play(game, seat, known, env, legal)
        if "end" in kinds:
            return Action.make("end", seat)
        return self.rng.choice(legal)

    def _pick(self, legal: Sequence[Action], kind: str, **want: set[str]) -> Action:
        """The legal action of ``kind`` whose card lists are exactly the wanted sets."""
        for action in legal:
            if action.kind == kind and all(set(action.get(k, ())) == v for k, v in want.items()):
                return action
        raise RuntimeError(f"no legal {kind} with {want}")  # pragma: no cover

    def _ranked(self, cards: Sequence[str], env: dict[str, Fraction]) -> list[str]:
        """Cards by decreasing chance of being in the envelope; seeded ties."""
        keyed = [(env[c], self.rng.random(), c) for c in cards]
        return [c for _, _, c in sorted(keyed, reverse=True)]

    def _best(self, env: dict[str, Fraction], count: int) -> list[str]:
        """The ``count`` uncertain cards most likely to be in the envelope."""
        uncertain = [c for c, p in env.items() if 0 < p < 1]
        ranked = self._ranked(uncertain, env)
        rest = self._ranked([c for c in env if c not in ranked], env)
        return (ranked + rest)[:count]

    def _question(self, game: Game, env: dict[str, Fraction]) -> list[str]:
        """What to ask (2018 and its variants): ``question.items`` cards as :meth:`_best`
        picks them, or one card of each category when the question names one of each."""
        q = game.edition.question
        if q.form == "one-per-category":
            return [self._ranked([c.id for c in cat.cards], env)[0]
                    for cat in game.edition.categories]
        return self._best(env, q.items)

    def _suggestion(self, game: Game, env: dict[str, Fraction]) -> list[str]:
        """One card per non-place category: the likeliest uncertain one, or the known
        envelope card when the category is solved (so answers speak of the others)."""
        chosen = []
        for category in game.edition.categories[:-1]:
            ids = [c.id for c in category.cards]
            chosen.append(self._ranked(ids, env)[0])
        return chosen

    def _join(self, game: Game, known: Knowledge, solution: tuple[str, ...] | None,
              legal: Sequence[Action]) -> Action:
        """Join an accusation when sure, when forced, or when the game ends anyway."""
        others = len(getattr(game, "accusing", ()))
        forced = not any(a.kind == "decline" for a in legal)
        if solution is None and (forced or others >= 2):
            dist = known.envelope_distribution()
            solution = max(dist, key=lambda k: (dist[k], self.rng.random()))
        if solution is None:
            return next(a for a in legal if a.kind == "decline")
        return self._pick(legal, "accuse", cards=set(solution))

    def _show(self, game: Game, seat: int, legal: Sequence[Action]) -> Action:
        asker = None if getattr(game, "asker", None) is None else game.names[game.asker]
        shown_before: set[str] = set()
        if asker is not None:
            record = game.record(seat)
            me = game.names[seat]
            for event in record.events:
                if isinstance(event, Suggest) and event.by == asker and \
                        event.shown_by == me and event.card is not None:
                    shown_before.add(event.card.id)
        repeat = [a for a in legal if a["card"] in shown_before]
        return self.rng.choice(repeat or list(legal))

    # -- 2002: which action card to play -----------------------------------------------------
    def _play(self, game: Any, seat: int, known: Knowledge, env: dict[str, Fraction],
              legal: Sequence[Action]) -> Action:
        names = game.names
        me = names[seat]
        opponents = [n for n in names if n != me]
        hidden = {o: known.record.hand_size(o) - sum(
            1 for c in game.edition.cards if known.probability(c, o) == 1) for o in opponents}
        place_cat = game.edition.categories[-1]
        places = [c.id for c in place_cat.cards]
        uncertain = {c for c, p in env.items() if 0 < p < 1}
        best_place = self._ranked(places, env)[0]
        options: list[tuple[float, float, Action]] = []

        def offer(score: float, action: Action) -> None:
            if action in legal:
                options.append((score, self.rng.random(), action))

        for label in dict.fromkeys(game.action_cards(seat)):
            kind = game.action_kind(label)
            if kind.kind == "suggest-any":
                offer(2.0 if best_place in uncertain else 0.5,
                      Action.make("play", seat, card=label, destination=best_place))
            elif kind.kind == "suggest-current":
                pair = self._suggestion(game, env)
                named = set(pair) | {game.markers[seat]}
                if named & uncertain:
                    here = 2.5 + (game.markers[seat] in uncertain)
                    offer(here, Action.make("play", seat, card=label, cards=pair))
                elif best_place != game.markers[seat]:
                    offer(1.0, Action.make("play", seat, card=label, destination=best_place))
            elif kind.kind == "snoop":
                target = max(opponents, key=lambda o: (hidden[o], self.rng.random()))
                offer(1.5 if hidden[target] else 0.1,
                      Action.make("play", seat, card=label, target=target))
            elif kind.kind == "all-snoop":
                offer(1.2 if any(hidden.values()) else 0.1, Action.make("play", seat, card=label))
            elif kind.kind == "super-sleuth":
                cards = {c.id for c in game.edition.cards_with(kind.feature, kind.value)}
                offer(2.5 if cards & uncertain else 0.3, Action.make("play", seat, card=label))
            elif kind.kind == "private-tip":
                if kind.all:
                    cards = {c.id for c in game.edition.category(kind.category).cards}
                else:
                    cards = {c.id for c in game.edition.cards_with(kind.feature, kind.value)}

                def unsure(o: str, cards: set[str] = cards) -> int:
                    return sum(1 for c in cards if 0 < known.probability(c, o) < 1)
                target = max(opponents, key=lambda o: (unsure(o), self.rng.random()))
                score = (3.5 if kind.all else 2.2) if cards & uncertain else 0.4
                offer(score if unsure(target) else 0.2,
                      Action.make("play", seat, card=label, target=target))
        if not options:
            return self.rng.choice([a for a in legal if a.kind == "play"])
        return max(options, key=lambda o: (o[0], o[1]))[2]


@dataclass
class ExplorerBot:
    """Random legal play for long test games: it picks a kind of action (each action card
    counts as its own kind) uniformly, then an action of it, and accuses only with chance
    ``accuse_chance`` (uniform random play would accuse almost at once, as there are hundreds
    of possible accusations and a few dozen other moves)."""

    seed: int = 0
    accuse_chance: float = 0.05
    rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def choose(self, game: Game, seat: int) -> Action:
        groups: dict[Any, list[Action]] = {}
        for action in game.legal_actions():
            key = ("play", action.get("card")) if action.kind == "play" else action.kind
            groups.setdefault(key, []).append(action)
        accusations = groups.pop("accuse", None)
        if accusations and (not groups or self.rng.random() < self.accuse_chance):
            return self.rng.choice(accusations)
        return self.rng.choice(self.rng.choice(list(groups.values())))


BOTS: dict[str, Any] = {"detective": DetectiveBot, "random": RandomBot, "explorer": ExplorerBot}


def make_bot(name: str, seed: int = 0) -> Any:
    """A bot by name: ``detective``, ``random`` or ``explorer``."""
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"no bot {name!r}; bots: {', '.join(BOTS)}") from None
