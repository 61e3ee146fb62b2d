"""What to ask next: the exact expected information gain of every legal question.

The value of a question is how much it is expected to shrink your uncertainty about the
envelope: the entropy of the envelope now, minus the entropy expected after hearing the answer.
The answer depends on where the named cards are: the players are asked in seat order, the first
who holds one shows it (choosing uniformly when holding several) and you see which, or nobody
can. Each possible answer's chance and the envelope afterwards are computed exactly by counting
deals; only the final logarithms are floating point.

Questions with the same *kind* of cards (cards the record cannot tell apart: same category,
same places still possible, same observations) have the same value, so each kind is computed
once.
"""

from __future__ import annotations

import contextlib
import gc
import itertools
import math
import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..rules.edition import Card
from ..rules.errors import UnknownName
from . import constraints as cons
from .counting.answers import AnswerCounter
from .engine import Knowledge


def entropy(distribution: Iterable[Fraction]) -> float:
    """Shannon entropy in bits of a distribution given by its probabilities. ``math.fsum``
    rounds the exact sum once, so equal distributions give equal floats whatever their
    order."""
    return 0.0 - math.fsum(float(p) * math.log2(p) for p in distribution if p)


def _mass_and_entropy(weights: list[int]) -> tuple[int, float]:
    """The sum of positive whole weights, and the entropy in bits of the distribution
    proportional to them: log2(total) - Σ w log2(w) / total, as fast as floats (each step
    over the weights at C speed), and equal multisets of weights give equal floats whatever
    their order (``math.fsum`` rounds once)."""
    total = sum(weights)
    if len(weights) <= 1:
        return total, 0.0
    terms = map(operator.mul, weights, map(math.log2, weights))
    return total, max(0.0, math.log2(total) - math.fsum(terms) / total)


@dataclass(frozen=True)
class Outcome:
    """One possible answer: who passed, who showed, what you would see, and its chance.

    ``shown_by``/``card`` are the first shower; where every player who can answers (a
    variant), ``shows`` lists every (player, card or None) in asking order."""

    passed: tuple[str, ...]
    shown_by: str | None
    card: str | None
    probability: Fraction
    entropy_after: float
    shows: tuple[tuple[str, str | None], ...] = ()

    def label(self) -> str:
        if self.shown_by is None:
            return "nobody can show a card"
        shows = self.shows or ((self.shown_by, self.card),)
        return "; ".join(f"{who} shows {card or 'a card'}" for who, card in shows)


@dataclass
class Option:
    """A question with its expected information gain (bits) and its possible answers."""

    named: tuple[str, ...]
    gain: float
    expected_entropy: float
    outcomes: list[Outcome] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"<Option {list(self.named)}: gain {self.gain:.4f} bits>"


def legal_questions(knowledge: Knowledge, fixed: Sequence[str | Card] = ()
                    ) -> list[tuple[str, ...]]:
    """Every question the edition allows. ``fixed`` pins cards that must be named (the room
    you stand in on a board, your destination marker in 2002)."""
    edition = knowledge.edition
    pinned = [edition.card(c) for c in fixed]
    q = edition.question
    if q.form == "one-per-category":
        pools = []
        for category in edition.categories:
            here = [c for c in pinned if c.category == category.id]
            pools.append([c.id for c in (here or category.cards)])
        return [tuple(combo) for combo in itertools.product(*pools)]
    cards = [c.id for c in edition.cards]
    out = []
    for combo in itertools.combinations(cards, q.items):
        if all(p.id in combo for p in pinned):
            out.append(combo)
    return out


def information_gain(knowledge: Knowledge, named: Sequence[str | Card], asker: str | None = None
                     ) -> Option:
    """The exact expected information gain of asking about ``named``. The advisor (its DP
    and the values of the questions asked so far) is kept on ``knowledge`` until its record
    changes, so asking about another question, or ranking them all, reuses it."""
    with _collector_paused():
        return _advisor(knowledge, asker).option(tuple(knowledge.card(c).id for c in named))


def rank_questions(knowledge: Knowledge, asker: str | None = None, fixed: Sequence[str | Card] = (),
                   questions: Iterable[Sequence[str]] | None = None) -> list[Option]:
    """Every legal question, best first (ties in the order the questions were listed)."""
    with _collector_paused():
        return _ranked(knowledge, asker, fixed, questions)


def _ranked(knowledge: Knowledge, asker: str | None, fixed: Sequence[str | Card],
            questions: Iterable[Sequence[str]] | None) -> list[Option]:
    """:func:`rank_questions`, with the advisor kept on ``knowledge``."""
    advisor = _advisor(knowledge, asker)
    chosen = legal_questions(knowledge, fixed) if questions is None else questions
    options = [advisor.option(tuple(knowledge.card(c).id for c in q)) for q in chosen]
    return sorted(options, key=lambda o: -o.gain)


def _advisor(knowledge: Knowledge, asker: str | None) -> _Advisor:
    """The advisor of ``knowledge`` for ``asker`` (the observer if None), made on first use
    and kept by ``knowledge`` until its record changes."""
    who = asker or knowledge.record.observer
    return knowledge.derived(("advisor", who), lambda: _Advisor(knowledge, who))


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector while ranking. The ranking builds a few
    hundred thousand small containers (DP states, moves, packed sums) that all live until it
    returns and hold no reference cycles: the collector would scan them again and again and
    free nothing (a quarter of the time on six-player positions). Plain reference counting
    still frees everything (before the collector runs again, as it was: else its first pass
    would scan them all once more)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


class _Advisor:
    def __init__(self, knowledge: Knowledge, asker: str | None):
        self.record = knowledge.record
        self.asker = asker or self.record.observer
        if self.asker is None:
            raise ValueError("give the asker: a public record has no observer")
        if self.asker not in self.record.player_names:
            raise UnknownName(f"{self.asker!r} is not a player")
        self.every = knowledge.edition.question.answer == "every-who-can"
        self.problem = cons.problem(self.record, knowledge.constraints())
        self.total = knowledge.consistent_deals
        self.before = entropy(knowledge.envelope_distribution().values())
        self.kind = {card: k for k, members in enumerate(knowledge.card_classes)
                     for card in members}
        self.cache: dict[tuple[int, ...], tuple[list[str], float, list[Outcome]]] = {}
        self.order = self.record.answer_order(self.asker)
        self.counter = AnswerCounter(self.problem, self.order, every=self.every)

    def option(self, named: tuple[str, ...]) -> Option:
        """The question's value, computed once for all questions of its kinds."""
        by_kind = sorted(named, key=lambda c: self.kind[c])
        signature = tuple(self.kind[c] for c in by_kind)
        if signature not in self.cache:
            self.cache[signature] = (by_kind, *self._evaluate(named))
        representative, expected, outcomes = self.cache[signature]
        # An equivalent question: rename the representative's cards to this one's.
        rename: dict[str | None, str | None] = dict(zip(representative, by_kind, strict=True))
        outcomes = [Outcome(o.passed, o.shown_by, rename.get(o.card), o.probability,
                            o.entropy_after, tuple((w, rename.get(c)) for w, c in o.shows))
                    for o in outcomes]
        return Option(named, self.before - expected, expected, outcomes)

    def _evaluate(self, named: tuple[str, ...]) -> tuple[float, list[Outcome]]:
        order = self.order
        joint, scale = self.counter.weights(named, sees_card=self.record.observer == self.asker)
        outcomes = []
        terms = []
        for answer, envelopes in joint.items():
            mass, after = _mass_and_entropy(envelopes)
            if not mass:
                continue
            p = Fraction(mass) / (self.total * scale)
            terms.append(float(p) * after)
            if not answer:
                outcomes.append(Outcome(order, None, None, p, after))
            elif self.every:
                shows = tuple((part[0], part[1] if len(part) > 1 else None) for part in answer)
                showers = {who for who, _ in shows}
                passed = tuple(who for who in order if who not in showers)
                outcomes.append(Outcome(passed, shows[0][0], shows[0][1], p, after, shows))
            else:
                who = answer[0]
                passed = order[:order.index(who)]
                card = answer[1] if len(answer) > 1 else None
                outcomes.append(Outcome(passed, who, card, p, after))
        def position(o: Outcome) -> tuple[tuple[int, int], ...]:
            shows = o.shows or ((o.shown_by, o.card),) if o.shown_by else ()
            return tuple((order.index(w), named.index(c) if c else -1) for w, c in shows) \
                or ((len(order), -1),)

        outcomes.sort(key=position)
        return math.fsum(terms), outcomes


def outcome_table(option: Option, names: Mapping[str, str] | None = None) -> str:
    """A question's possible answers as text: chance and entropy afterwards."""
    lines = [f"{'answer':40} {'chance':>12} {'bits left':>9}"]
    for o in option.outcomes:
        label = o.label() if names is None else o.label().replace(o.card or "\0",
                                                                   names.get(o.card or "\0", ""))
        lines.append(f"{label:40} {str(o.probability):>12} {o.entropy_after:9.3f}")
    return "\n".join(lines)
