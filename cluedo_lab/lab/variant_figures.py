"""What a rule change does to the game, in numbers: exact figures for any edition or variant.

Exact (counting, no sampling; only logarithms are floating point):

- how many envelopes and how many deals there are (:mod:`cluedo_lab.knowledge.closed_forms`);
- the chance that an accusation made at once is right, for the player in ``seat``;
- the most information the first question can give that player.

Both per-player figures depend on the cards the player can see before play starts: their hand
and any face-up spares. They are averaged over every such set of cards, weighted by how likely
the deal makes it. Because all cards of a category are alike until someone sees one, only how
many cards of each category the player sees matters, so the average runs over those counts (a
multivariate hypergeometric distribution), not over hands one by one.

*The first question's information*, precisely: the player in ``seat`` asks the game's first
question; the players after them are asked in seat order (a 2002 fugitive last) and answer by
the edition's rule, the first who can or every one who can, each shower choosing uniformly
among the named cards they hold, and the asker sees every card shown. The information is the
mutual information between the envelope and the answer, ``I(E; A) = H(A) - H(A | E)`` in bits,
which equals the expected drop in the envelope's entropy (the measure of
:func:`cluedo_lab.knowledge.advice.information_gain`). "At best" is the maximum over every question
the edition's form allows, ignoring where a piece or marker stands. The figure is that maximum
averaged over what the player sees.

By simulation (seeded): :func:`simulate` plays whole games with the strategy lab's bots and
reports win rates by seat and the mean number of turns until a seat's record makes the
envelope certain.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb, prod
from typing import TYPE_CHECKING

from ..knowledge import closed_forms as closed_forms
from ..rules.edition import Card, Edition, TextTable
from ..rules.variant import Variant, variant

if TYPE_CHECKING:
    from .charts import Chart
    from .tournament import TournamentResult

Answer = tuple[tuple[int, str], ...]
"""An answer as the asker sees it: (opponent's position in the asking order, card) for each
card shown, in asking order; () when nobody shows one."""


def _edition(game: Edition | Variant | str) -> tuple[Edition, str]:
    if isinstance(game, Variant):
        return game.edition, game.name
    if isinstance(game, str):
        game = variant(game)
        return game.edition, game.base.name
    return game, game.name


def _count(edition: Edition, players: int | None) -> int:
    if players is None:
        if edition.min_players != edition.max_players:
            raise ValueError(f"{edition.name} is for {edition.min_players}-"
                             f"{edition.max_players} players: say how many")
        players = edition.min_players
    edition.check_players(players)
    return players


# ---------------------------------------------------------------------------------------------
# Counting
# ---------------------------------------------------------------------------------------------

def envelopes(game: Edition | Variant | str) -> int:
    """How many envelopes are possible."""
    return int(closed_forms.envelopes(_edition(game)[0]).doit())


def deals(game: Edition | Variant | str, players: int | None = None) -> int:
    """How many deals are possible (envelope, hands in seat order, face-up and face-down)."""
    edition = _edition(game)[0]
    return int(closed_forms.deals(edition, _count(edition, players)).doit())


def seen_count(edition: Edition, players: int, seat: int = 0) -> int:
    """How many cards ``seat`` sees before play: its hand and the face-up spares."""
    return edition.hand_sizes(players)[seat] + edition.face_up_count(players)


def first_accusation_chance(game: Edition | Variant | str, players: int | None = None,
                            seat: int = 0) -> Fraction:
    """The chance that ``seat``'s accusation made before anything happens is right.

    With nothing learnt yet, every envelope without a card the player sees is equally likely,
    so the best accusation is right with chance 1 / (those envelopes); averaged over what the
    player may see (its hand and the face-up spares)."""
    edition = _edition(game)[0]
    players = _count(edition, players)
    chance = closed_forms.first_accusation_chance(edition, seen_count(edition, players, seat))
    return Fraction(int(chance.p), int(chance.q))


def seen_distribution(edition: Edition, players: int, seat: int = 0
                      ) -> dict[tuple[int, ...], Fraction]:
    """How many cards of each category ``seat`` sees before play, with its chance.

    What the player sees is a uniformly random set of that many cards among those outside the
    envelope (the deal is a uniform shuffle), so the counts are hypergeometric."""
    outside = [len(c.cards) - edition.deal.envelope[c.id] for c in edition.categories]
    size = seen_count(edition, players, seat)
    total = comb(sum(outside), size)
    out = {}
    for split in closed_forms._splits(size, outside):
        ways = prod(comb(n, k) for n, k in zip(outside, split, strict=True))
        out[split] = Fraction(ways, total)
    return out


# ---------------------------------------------------------------------------------------------
# The first question
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Setting:
    """What the asker knows before the first question, reduced to what the answer depends
    on: per category, how many cards the asker does not see and how many the envelope takes;
    the hand sizes of the players asked, in order; and how many cards lie face down."""

    unseen: tuple[int, ...]
    envelope: tuple[int, ...]
    hands: tuple[int, ...]
    face_down: int
    answer: str

    @property
    def free(self) -> int:
        """Unseen cards outside the envelope: the ones in other hands or face down."""
        return sum(self.unseen) - sum(self.envelope)


def setting(edition: Edition, players: int, seen: Sequence[int], seat: int = 0) -> Setting:
    """The :class:`Setting` of ``seat`` seeing ``seen[i]`` cards of category ``i``."""
    sizes = edition.hand_sizes(players)
    order = [(seat + k) % players for k in range(1, players)]
    if edition.mode == "one-against-all":           # the fugitive (last seat) answers last
        order = [s for s in order if s != players - 1] + [s for s in order if s == players - 1]
    return Setting(
        unseen=tuple(len(c.cards) - k for c, k in zip(edition.categories, seen, strict=True)),
        envelope=tuple(edition.deal.envelope[c.id] for c in edition.categories),
        hands=tuple(sizes[s] for s in order), face_down=edition.deal.face_down,
        answer=edition.question.answer)


def question_information(s: Setting, named: Sequence[int]) -> float:
    """``I(E; A)`` in bits for a first question naming ``named[i]`` unseen cards of category
    ``i`` (cards the asker sees may fill the other slots: they change nothing).

    Whether each named card is in the envelope (S) is all the answer depends on the envelope
    through: given S, the named cards outside it lie in a uniformly random place among the
    other hands and face-down piles. So ``H(A | E) = sum_S P(S) H(A | S)``."""
    return _information(s, tuple(named))


@lru_cache(maxsize=4096)
def _information(s: Setting, named: tuple[int, ...]) -> float:
    cards = [(c, i) for c, j in enumerate(named) for i in range(j)]   # (category, index)
    mixture: dict[Answer, Fraction] = {}
    conditional = 0.0
    for inside in itertools.product((False, True), repeat=len(cards)):
        p_s = Fraction(1)
        for c, j in enumerate(named):
            s_c = sum(1 for (cat, _), x in zip(cards, inside, strict=True) if cat == c and x)
            rest = s.envelope[c] - s_c     # envelope cards of category c not named
            p_s *= Fraction(comb(s.unseen[c] - j, rest) if rest >= 0 else 0,
                            comb(s.unseen[c], s.envelope[c]))
        if not p_s:
            continue
        outside = [f"{c}.{i}" for (c, i), x in zip(cards, inside, strict=True) if not x]
        given = _answers(s, tuple(outside))
        conditional += float(p_s) * _entropy(given.values())
        for answer, p in given.items():
            mixture[answer] = mixture.get(answer, Fraction(0)) + p_s * p
    return _entropy(mixture.values()) - conditional


def _answers(s: Setting, cards: tuple[str, ...]) -> dict[Answer, Fraction]:
    """The answer's distribution when ``cards`` lie, uniformly at random, among the hands
    asked (``s.hands``, in order) and the face-down piles."""
    places = list(range(len(s.hands))) + ([-1] if s.face_down else [])
    room = {p: (s.face_down if p == -1 else s.hands[p]) for p in places}
    out: dict[Answer, Fraction] = {}
    for where in itertools.product(places, repeat=len(cards)):
        p = Fraction(1)
        used: dict[int, int] = {}
        for i, place in enumerate(where):
            p *= Fraction(room[place] - used.get(place, 0), s.free - i)
            used[place] = used.get(place, 0) + 1
        if not p:
            continue
        held = {h: [c for c, w in zip(cards, where, strict=True) if w == h]
                for h in range(len(s.hands))}
        showers = [h for h in range(len(s.hands)) if held[h]]
        if s.answer == "first-who-can":
            showers = showers[:1]
        for shown in itertools.product(*(held[h] for h in showers)):
            answer = tuple(zip(showers, shown, strict=True))
            weight = p / prod(len(held[h]) for h in showers)
            out[answer] = out.get(answer, Fraction(0)) + weight
    return out


def _entropy(probabilities: Iterable[Fraction]) -> float:
    return 0.0 - math.fsum(sorted(float(p) * math.log2(p) for p in probabilities if p))


def question_kinds(edition: Edition, seen: Sequence[int]) -> list[tuple[int, ...]]:
    """Every kind of legal question for a player seeing ``seen[i]`` cards of category i: how
    many unseen cards of each category it names."""
    q = edition.question
    unseen = [len(c.cards) - k for c, k in zip(edition.categories, seen, strict=True)]
    if q.form == "one-per-category":
        choices = [[1] + ([0] if k else []) for k in seen]
        return sorted(set(itertools.product(*choices)))
    out = []
    for named in itertools.product(*(range(min(q.items, n) + 1) for n in unseen)):
        if sum(named) <= q.items and q.items - sum(named) <= sum(seen):
            out.append(named)
    return out


def best_first_question(game: Edition | Variant | str, hand: Sequence[Card | str],
                        players: int | None = None, seat: int = 0,
                        face_up: Sequence[Card | str] = ()) -> tuple[tuple[int, ...], float]:
    """For a player holding ``hand`` (and seeing ``face_up``): the kind of question that
    gives most information (unseen cards named per category) and that information in bits."""
    edition = _edition(game)[0]
    players = _count(edition, players)
    cards = {edition.card(c) for c in [*hand, *face_up]}
    seen = tuple(sum(1 for c in cards if c.category == cat.id) for cat in edition.categories)
    return _best(edition, players, seat, seen)


def _best(edition: Edition, players: int, seat: int, seen: tuple[int, ...]
          ) -> tuple[tuple[int, ...], float]:
    s = setting(edition, players, seen, seat)
    scored = [(question_information(s, named), named)
              for named in question_kinds(edition, seen)]
    bits, named = max(scored, key=lambda t: (round(t[0], 12), t[1]))
    return named, bits


def first_question_bits(game: Edition | Variant | str, players: int | None = None,
                        seat: int = 0) -> float:
    """The most information (bits) ``seat``'s first question can give, averaged over what
    the player sees before play (see the module docstring)."""
    edition = _edition(game)[0]
    players = _count(edition, players)
    return math.fsum(float(p) * _best(edition, players, seat, seen)[1]
                     for seen, p in seen_distribution(edition, players, seat).items())


# ---------------------------------------------------------------------------------------------
# All figures, and comparisons
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Figures:
    """The exact figures of one game (edition or variant) for one player count and seat."""

    name: str
    players: int
    seat: int
    envelopes: int
    deals: int
    accusation: Fraction
    first_question_bits: float
    envelope_bits: float = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "envelope_bits", math.log2(self.envelopes))

    def rows(self) -> list[tuple[str, str]]:
        return [
            ("players", str(self.players)),
            ("possible envelopes", f"{self.envelopes:,}"),
            ("possible deals", f"{self.deals:.3e}" if self.deals >= 10**7 else f"{self.deals:,}"),
            (f"first accusation right (seat {self.seat})",
             f"{float(self.accusation):.2%} ({self.accusation})"
             if self.accusation.denominator < 10**6 else f"{float(self.accusation):.2%}"),
            ("bits to find (log2 envelopes)", f"{self.envelope_bits:.2f}"),
            (f"best first question (seat {self.seat}), bits", f"{self.first_question_bits:.3f}"),
        ]


def figures(game: Edition | Variant | str, players: int | None = None, seat: int = 0
            ) -> Figures:
    """Every exact figure of ``game`` with ``players`` players, for the player in ``seat``."""
    edition, name = _edition(game)
    players = _count(edition, players)
    return Figures(name, players, seat, envelopes(edition), deals(edition, players),
                   first_accusation_chance(edition, players, seat),
                   first_question_bits(edition, players, seat))


def compare(games: Sequence[Edition | Variant | str], players: int | Sequence[int | None]
            | None = None, seat: int = 0) -> TextTable:
    """The exact figures of several games side by side: one column per game."""
    counts = players if isinstance(players, Sequence) else [players] * len(games)
    found = [figures(g, p, seat) for g, p in zip(games, counts, strict=True)]
    labels = [label for label, _ in found[0].rows()]
    rows = tuple((label, *(dict(f.rows())[label] for f in found)) for label in labels)
    return TextTable(("", *(f.name for f in found)), rows)


# ---------------------------------------------------------------------------------------------
# By simulation
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Simulation:
    """Seeded games of one game between copies of one bot (by default the exact detective,
    which accuses the moment its record makes the envelope certain), each on a new deal.

    ``turns_to_solve`` is the mean number of its own turns the winner took, its accusation
    turn included: at a table of exact detectives, how long it takes the fastest to be
    certain. Win rates by seat come with 95% Wilson intervals."""

    name: str
    result: TournamentResult

    @property
    def games(self) -> int:
        return len(self.result.games)

    @property
    def players(self) -> int:
        return self.result.players

    def seat_rates(self) -> list[float]:
        return [row.rate for row in self.result.by_seat()]

    def seat_intervals(self) -> list[tuple[float, float]]:
        return [row.interval for row in self.result.by_seat()]

    @property
    def turns_to_solve(self) -> float | None:
        won = [g["turns"][g["winner"]] for g in self.result.games if g["winner"] is not None]
        return sum(won) / len(won) if won else None

    @property
    def nobody(self) -> int:
        return self.result.nobody

    def rows(self) -> list[tuple[str, str]]:
        turns = "-" if self.turns_to_solve is None else f"{self.turns_to_solve:.1f}"
        out = [(f"turns to certainty (mean of {self.games} games)", turns)]
        out += [(f"seat {s} wins", f"{rate:.0%}") for s, rate in enumerate(self.seat_rates())]
        return out

    def chart(self, title: str | None = None) -> Chart:
        """Win rate by seat, with 95% intervals."""
        from .charts import bar_chart

        return bar_chart([f"seat {s}" for s in range(self.players)], self.seat_rates(),
                         intervals=self.seat_intervals(), percent=True, ymin=0, ymax=1,
                         title=title or f"{self.name}: wins by seat ({self.games} games)",
                         ylabel="win rate")

    def __repr__(self) -> str:
        return f"<Simulation {self.name!r}, {self.games} games: " + ", ".join(
            f"{k} {v}" for k, v in self.rows()) + ">"


def simulate(game: Edition | Variant | str, games: int = 30, seed: int = 0,
             players: int | None = None, bot: str = "detective",
             max_actions: int = 20_000, executor: Executor | None = None) -> Simulation:
    """Play ``games`` seeded games of ``game``, every seat played by ``bot`` (a name for
    :func:`cluedo_lab.bots.make_bot`), each game on its own deal: a tournament
    (:func:`~cluedo_lab.lab.tournament.run_tournament`, played by ``executor`` if given)
    between copies of one bot."""
    from .tournament import run_tournament

    edition, name = _edition(game)
    result = run_tournament(game, [bot], games, seed, players=_count(edition, players),
                            max_actions=max_actions, executor=executor)
    return Simulation(name, result)
