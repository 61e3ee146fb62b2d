"""Two ways to get the notepad's chances *wrong*: teaching foils for notebook 08.

The kit never samples and never guesses (``counting`` counts every consistent deal exactly).
This module keeps two popular shortcuts, so a lesson can measure how far each one lands from the
exact answer. Do not use them for anything else.

* :func:`sample_marginals` deals cards at random and keeps the deals that fit the record
  (rejection sampling). It is right on average, but its error only shrinks like 1/√n, and late
  in a game almost every deal is rejected (:func:`acceptance_rate` says exactly how many).
* :func:`even_split_marginals` reads an unseen refutation ("Bob showed Cy one of these three
  cards") as "each of the cards Bob could hold is equally likely to be the one shown". It gets
  every certain cell right and still misjudges chances, because a card that Bob is unlikely
  to hold is unlikely to have been shown, and a deal in which Bob holds two of the cards is one
  deal, not two stories.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..records import ENVELOPE, Record
from . import constraints as cons
from .counting import solve
from .engine import Knowledge


def _record(record: Record | Mapping[str, Any]) -> Record:
    return record if isinstance(record, Record) else Record.from_dict(record)


# ---------------------------------------------------------------------------------------------
# Rejection sampling
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class SampleEstimate:
    """What ``tries`` random deals said: how many fitted the record (``accepted``), and how
    often each card lay in each place among those (``counts``)."""

    tries: int
    accepted: int
    counts: Mapping[tuple[str, str], int]
    places: tuple[str, ...]

    @property
    def acceptance(self) -> Fraction:
        """The share of random deals that fitted the record."""
        return Fraction(self.accepted, self.tries) if self.tries else Fraction(0)

    def probability(self, card: str, place: str) -> Fraction:
        """The estimate: the share of accepted deals with ``card`` (an id) in ``place``."""
        if not self.accepted:
            raise ValueError(f"none of the {self.tries:,} random deals fitted the record, "
                             "so there is no estimate")
        return Fraction(self.counts.get((card, place), 0), self.accepted)

    def __repr__(self) -> str:
        return (f"<SampleEstimate: {self.accepted:,} of {self.tries:,} random deals fitted, "
                f"acceptance {float(self.acceptance):.2%}>")


class _Dealer:
    """Random deals that put every card the record *pins* (a ``holds`` fact: your hand, a card
    you were shown, a face-up card) where it was seen, and the other cards anywhere.

    Choosing the envelope's open slots uniformly and then shuffling the rest into the hands
    makes every such deal equally likely: each envelope leaves the same cards for the same
    empty seats, so it has the same number of completions."""

    def __init__(self, record: Record):
        self.places = cons.places(record)
        constraints = cons.all_constraints(record)
        self.pinned: dict[str, str] = {}
        for con in constraints:
            if con.kind == cons.HOLDS:
                if self.pinned.setdefault(con.card, con.place) != con.place:
                    raise ValueError(f"the record puts {con.card} in two places")
        self.checks = [c for c in constraints if c.kind != cons.HOLDS]
        unknown = {c.kind for c in self.checks} - {cons.LACKS, cons.HOLDS_ONE_OF, cons.NOT_ALL}
        if unknown:
            raise ValueError(f"the sampler cannot check {sorted(unknown)} constraints")
        category = record.edition.category_of
        room = {p.name: p.size for p in self.places}
        env = next(p for p in self.places if p.name == ENVELOPE)
        assert env.per_category is not None, "the envelope holds cards by category"
        env_room = dict(env.per_category)
        for card, place in self.pinned.items():
            room[place] -= 1
            if place == ENVELOPE:
                env_room[category[card]] -= 1
        if any(n < 0 for n in [*room.values(), *env_room.values()]):
            raise ValueError("the cards the record pins do not fit in their places")
        free = [c.id for c in record.edition.cards if c.id not in self.pinned]
        self.env_pools = [([c for c in free if category[c] == cat], n)
                          for cat, n in env_room.items() if n]
        self.others = [(p.name, room[p.name]) for p in self.places
                       if p.name != ENVELOPE and room[p.name]]
        self.free = free

    def deal(self, rng: random.Random) -> dict[str, str]:
        where = dict(self.pinned)
        for pool, n in self.env_pools:
            for card in rng.sample(pool, n):
                where[card] = ENVELOPE
        rest = [c for c in self.free if c not in where]
        rng.shuffle(rest)
        start = 0
        for place, n in self.others:
            for card in rest[start:start + n]:
                where[card] = place
            start += n
        return where

    def fits(self, where: Mapping[str, str]) -> bool:
        for con in self.checks:
            inside = sum(1 for c in con.cards if where[c] == con.place)
            if con.kind == cons.LACKS and inside:
                return False
            if con.kind == cons.HOLDS_ONE_OF and not inside:
                return False
            if con.kind == cons.NOT_ALL and inside == len(con.cards):
                return False
        return True


def sample_marginals(record: Record | Mapping[str, Any], n: int, seed: int = 0
                     ) -> SampleEstimate:
    """Estimate every card × place chance from ``n`` random deals (a teaching foil).

    Each deal puts the cards the record pins where they were seen and the others at random,
    every such deal equally likely; deals that break anything else the record says (a pass, an
    unseen card, a wrong accusation) are thrown away, and the chances are shares of the deals
    kept. On average that is the exact answer, but each estimate is off by about
    √(p(1 − p)/kept), and the share kept falls towards zero as the game goes on."""
    if n < 0:
        raise ValueError("n counts random deals: it cannot be negative")
    dealer = _Dealer(_record(record))
    rng = random.Random(seed)
    counts: Counter[tuple[str, str]] = Counter()
    accepted = 0
    for _ in range(n):
        where = dealer.deal(rng)
        if dealer.fits(where):
            accepted += 1
            counts.update(where.items())
    return SampleEstimate(n, accepted, dict(counts), tuple(p.name for p in dealer.places))


def acceptance_rate(record: Record | Mapping[str, Any]) -> Fraction:
    """The exact chance that one deal of :func:`sample_marginals` fits the record: consistent
    deals over the deals that merely put the pinned cards in their places (both counted)."""
    record = _record(record)
    constraints = cons.all_constraints(record)
    pins = [c for c in constraints if c.kind == cons.HOLDS]
    dealt = solve(cons.problem(record, pins), marginals=False, want_envelope=False).total
    fitting = solve(cons.problem(record, constraints), marginals=False,
                    want_envelope=False).total
    return Fraction(fitting, dealt) if dealt else Fraction(0)


# ---------------------------------------------------------------------------------------------
# "Each card equally likely to be the one shown"
# ---------------------------------------------------------------------------------------------

def even_split_marginals(record: Record | Mapping[str, Any], limit: int = 1000
                         ) -> dict[tuple[str, str], Fraction]:
    """The chances a solver gets by reading each unseen refutation as "each card the shower
    could hold is equally likely to be the one shown" (a teaching foil).

    The foil is generous: it knows every certain cell (from the exact engine), drops the
    refutations already explained by a card the shower certainly holds and the cards the
    shower certainly lacks, and counts exactly once it has picked a shown card for each
    remaining refutation. Its one mistake is to give each pick the same weight (impossible
    combinations of picks are dropped), where the exact answer weighs each deal once. It
    enumerates every combination of picks, so it refuses records with more than ``limit``."""
    record = _record(record)
    exact = Knowledge(record)
    constraints = cons.all_constraints(record)
    plain, options = [], []
    for con in constraints:
        if con.kind == cons.HOLDS_ONE_OF:
            status = {c: exact.status(c, con.place) for c in con.cards}
            if True not in status.values():  # else certainly explained: nothing to split
                options.append([cons.Constraint(cons.HOLDS, con.place, (c,), con.source,
                                                "picked as the card shown")
                                for c in con.cards if status[c] is None])
                continue
        plain.append(con)
    combinations = math.prod(len(o) for o in options)
    if combinations > limit:
        raise ValueError(f"{combinations:,} combinations of shown cards to try; the foil "
                         f"stops at limit={limit:,}")
    places = record.places
    cards = [c.id for c in record.edition.cards]
    total: dict[tuple[str, str], Fraction] = {(c, p): Fraction(0) for c in cards for p in places}
    stories = 0
    for picks in itertools.product(*options):
        solution = solve(cons.problem(record, plain + list(picks)), want_envelope=False)
        if not solution.total:
            continue
        stories += 1
        for key in total:
            total[key] += solution.probability(*key)
    return {key: value / stories for key, value in total.items()}


def largest_error(estimate: SampleEstimate | Mapping[tuple[str, str], Fraction],
                  exact: Knowledge) -> tuple[Fraction, str, str]:
    """The worst cell of an estimate against the exact chances: (|error|, card id, place)."""
    def guess(card: str, place: str) -> Fraction:
        if isinstance(estimate, SampleEstimate):
            return estimate.probability(card, place)
        return estimate[(card, place)]

    return max((abs(guess(c.id, p) - exact.probability(c, p)), c.id, p)
               for c in exact.edition.cards for p in exact.places)
