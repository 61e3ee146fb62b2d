"""What an action card of the 2002 card game can teach the player who plays it, in exact
expected bits about the envelope — the card game's counterpart of a question's value.

An action card shows its player something that depends on the deal: a card of one hand
(Snoop, and All Snoop for the hand passed to you), one card of a printed feature from every
opponent who has one (Super Sleuth), all of one hand's cards of a category or one card of a
feature (Private Tip). Each thing it could show is an *outcome*. Its chance and the envelope
after it are counted exactly, as for a question's answer: every deal that fits the record is
equally likely, and a player choosing which of several cards to show picks each with equal
chance (so a card shown weighs more in deals where it was the only choice). The value is the
entropy of the envelope now minus the entropy expected after the outcome.

The cards that move the destination marker (a suggestion from any destination, prepared for
the next turn, or a move instead of a suggestion from the present one) show nothing now: they
choose where the next question is asked, so they are valued at the best question that could be
asked from the destination chosen, on what is known when the card is played.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from ..knowledge import Knowledge, legal_questions, rank_questions
from ..knowledge import constraints as cons
from ..knowledge.advice import Option, entropy
from ..knowledge.counting import solve
from ..rules.edition import ActionCardKind, Edition

__all__ = ["Choice", "Value", "action_values", "observation_gain"]

QUESTION_KINDS = ("ask", "move", "prepare")
"""Choices valued by a question: asked now at the marker, or from a destination chosen."""


@dataclass(frozen=True)
class Choice:
    """One way to play an action card: its ``kind`` (``snoop``, ``all-snoop``,
    ``super-sleuth``, ``private-tip``, ``ask`` — a suggestion from the present destination
    now —, ``move`` or ``prepare`` — the marker moved to ``destination`` —), the card's
    ``label``, the player it looks at (``target``; All Snoop's: the hand passed to you), and
    for ``ask`` the ``question`` asked (None: any question there)."""

    kind: str
    label: str
    target: str | None = None
    destination: str | None = None
    question: tuple[str, ...] | None = None

    def text(self, name: Mapping[str, str] | None = None) -> str:
        """The choice as a reader would say it (``name``: card id → card name)."""
        def said(card: str) -> str:
            return (name or {}).get(card, card)
        if self.kind == "ask":
            what = ", ".join(map(said, self.question)) if self.question else \
                "the best question"
            return f"{self.label}: ask {what}"
        if self.kind in ("move", "prepare"):
            return f"{self.label}, to {said(self.destination or '')}"
        if self.kind == "all-snoop":
            return f"{self.label}, seeing a card of {self.target}'s hand"
        if self.target is not None:
            return f"{self.label} on {self.target}"
        return self.label

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: the kind and card, and whom, where or what when set."""
        out: dict[str, Any] = {"kind": self.kind, "card": self.label}
        if self.target is not None:
            out["target"] = self.target
        if self.destination is not None:
            out["destination"] = self.destination
        if self.question is not None:
            out["question"] = list(self.question)
        return out

    def key(self) -> tuple[str, str, str | None, str | None]:
        """Choices alike but for the question asked: every ``ask`` at one marker is one
        alternative, valued at the best question there."""
        return (self.kind, self.label, self.target, self.destination)


@dataclass(frozen=True)
class Value:
    """A choice's exact expected gain (bits) and how many outcomes it could have (one: it
    could teach nothing)."""

    choice: Choice
    gain: float
    outcomes: int


def action_values(knowledge: Knowledge, seat: str, choices: Iterable[Choice]
                  ) -> dict[Choice, Value]:
    """Each choice's value to ``seat`` at ``knowledge``'s position, keyed by the choice as
    given. A value's own choice says what was valued: an All Snoop's with the hand it passes
    to ``seat``, an ``ask`` without a question with the best question at its destination."""
    given = list(dict.fromkeys(choices))
    resolved = {c: _resolved(knowledge, seat, c) for c in given}
    distinct = list(dict.fromkeys(resolved.values()))
    valued = {c: _observed(knowledge, seat, c) for c in distinct
              if c.kind not in QUESTION_KINDS}
    asked = [c for c in distinct if c.kind in QUESTION_KINDS]
    if asked:
        valued.update(_question_values(knowledge, seat, asked))
    return {c: valued[resolved[c]] for c in given}


def _resolved(knowledge: Knowledge, seat: str, choice: Choice) -> Choice:
    """An All Snoop's choice with the hand it passes to ``seat``: hands go towards the
    card's direction, so "left" passes you the hand of the player on your right."""
    if choice.kind != "all-snoop" or choice.target is not None:
        return choice
    direction = _kind(knowledge.edition, choice.label).direction or "left"
    side = "right" if direction == "left" else "left"
    return replace(choice, target=knowledge.record.neighbour(seat, side))


def _question_values(knowledge: Knowledge, seat: str, choices: Sequence[Choice]
                     ) -> dict[Choice, Value]:
    """The question choices, from one ranking of every question they could lead to."""
    places = list(dict.fromkeys(c.destination for c in choices if c.destination))
    sets = {p: legal_questions(knowledge, [p]) for p in places}
    questions = [q for qs in sets.values() for q in qs]
    questions += [c.question for c in choices if c.question is not None]
    options = {frozenset(o.named): o
               for o in rank_questions(knowledge, seat, questions=questions)}
    best = {p: max((options[frozenset(q)] for q in qs), key=lambda o: o.gain)
            for p, qs in sets.items()}
    out = {}
    for c in choices:
        option = options[frozenset(c.question)] if c.question else best[c.destination or ""]
        named = c if c.question or c.kind != "ask" else replace(c, question=option.named)
        out[c] = _question_value(named, option)
    return out


def _question_value(choice: Choice, option: Option) -> Value:
    return Value(choice, option.gain, len(option.outcomes))


# -- what a card shows ------------------------------------------------------------------------

Outcome = tuple[list[cons.Constraint], int]
"""What one outcome tells, as constraints (a choice among cards held weighs 1/k), and how
many outcomes like it there are: seeing either of two cards the record cannot tell apart
(:attr:`Knowledge.card_classes`) is as likely, and teaches as much."""


def _observed(knowledge: Knowledge, seat: str, choice: Choice) -> Value:
    edition = knowledge.edition
    if choice.kind in ("snoop", "all-snoop"):
        outcomes = _snoop(knowledge, _target(choice))
    elif choice.kind == "super-sleuth":
        outcomes = _sleuth(knowledge, seat, _kind(edition, choice.label))
    elif choice.kind == "private-tip":
        outcomes = _tip(knowledge, _target(choice), _kind(edition, choice.label))
    else:
        raise ValueError(f"no value for a {choice.kind!r} choice")
    gain, count = observation_gain(knowledge, outcomes)
    return Value(choice, gain, count)


def _target(choice: Choice) -> str:
    if choice.target is None:
        raise ValueError(f"{choice.label} needs a target")
    return choice.target


def _kind(edition: Edition, label: str) -> ActionCardKind:
    found = next((k for k in edition.actions if k.label() == label), None)
    if found is None:
        raise ValueError(f"{edition.id} has no action card {label!r}")
    return found


def _c(kind: str, place: str, cards: Sequence[str]) -> cons.Constraint:
    return cons.Constraint(kind, place, tuple(cards), -1, "supposed")


def _open(knowledge: Knowledge, place: str, cards: Iterable[str]) -> list[str]:
    """The cards that may lie in ``place``."""
    return [c for c in cards if knowledge.probability(c, place)]


def _groups(knowledge: Knowledge, cards: Sequence[str]) -> list[list[str]]:
    """``cards`` by the classes the record cannot tell apart."""
    chosen = set(cards)
    groups = [[c for c in members if c in chosen] for members in knowledge.card_classes]
    return [group for group in groups if group]


def _alike(knowledge: Knowledge, cards: Sequence[str]) -> list[tuple[str, int]]:
    """``cards`` by the classes the record cannot tell apart: one of each, and how many."""
    return [(group[0], len(group)) for group in _groups(knowledge, cards)]


def _snoop(knowledge: Knowledge, target: str) -> Iterator[Outcome]:
    """One card of ``target``'s hand, drawn at random: each of its cards with chance
    1/(hand size), the choice among every card there is."""
    every = [c.id for c in knowledge.edition.cards]
    for card, times in _alike(knowledge, _open(knowledge, target, every)):
        yield [_c(cons.HOLDS, target, [card]), _c(cons.CHOICE, target, every)], times


def _sleuth(knowledge: Knowledge, seat: str, kind: ActionCardKind) -> Iterator[Outcome]:
    """Every opponent shows one card of the feature (their choice) or says they have none.
    Answers differing only by cards the record cannot tell apart are as likely and teach as
    much: one of them stands for all, an answer being which class each opponent shows from
    (the cards of a class shown go to the opponents in turn)."""
    assert kind.feature is not None and kind.value is not None
    wanted = [c.id for c in knowledge.edition.cards_with(kind.feature, kind.value)]
    groups = _groups(knowledge, wanted)
    order = knowledge.record.answer_order(seat)
    answers = [[None, *(g for g, members in enumerate(groups)
                        if knowledge.probability(members[0], who))] for who in order]
    for pattern in itertools.product(*answers):
        shown = Counter(g for g in pattern if g is not None)
        if any(n > len(groups[g]) for g, n in shown.items()):
            continue
        dealt = Counter[int]()
        outcome = []
        for who, g in zip(order, pattern, strict=True):
            if g is None:
                outcome += [_c(cons.LACKS, who, [c]) for c in wanted]
            else:
                outcome += [_c(cons.HOLDS, who, [groups[g][dealt[g]]]),
                            _c(cons.CHOICE, who, wanted)]
                dealt[g] += 1
        yield outcome, math.prod(math.perm(len(groups[g]), n) for g, n in shown.items())


def _tip(knowledge: Knowledge, target: str, kind: ActionCardKind) -> Iterator[Outcome]:
    """All of ``target``'s cards of a category (as with Super Sleuth, one set of cards stands
    for every set with as many of each class), or one card of a feature (their choice)."""
    edition = knowledge.edition
    if kind.all:
        assert kind.category is not None
        cards = [c.id for c in edition.category(kind.category).cards]
        groups = _groups(knowledge, _open(knowledge, target, cards))
        for counts in itertools.product(*(range(len(g) + 1) for g in groups)):
            held = {c for g, n in zip(groups, counts, strict=True) for c in g[:n]}
            yield [_c(cons.HOLDS if c in held else cons.LACKS, target, [c]) for c in cards], \
                math.prod(math.comb(len(g), n) for g, n in zip(groups, counts, strict=True))
        return
    assert kind.feature is not None and kind.value is not None
    wanted = [c.id for c in edition.cards_with(kind.feature, kind.value)]
    yield [_c(cons.LACKS, target, [c]) for c in wanted], 1
    for card, times in _alike(knowledge, _open(knowledge, target, wanted)):
        yield [_c(cons.HOLDS, target, [card]), _c(cons.CHOICE, target, wanted)], times


def observation_gain(knowledge: Knowledge, outcomes: Iterable[Outcome]) -> tuple[float, int]:
    """The expected information gain about the envelope of seeing one of ``outcomes``
    (together they cover every consistent deal), and how many of them could happen. Each
    outcome's weight (its deals, each weighed by the choices it supposes) is counted exactly
    with the record's own constraints."""
    base = knowledge.constraints()
    total = knowledge.consistent_deals
    expected = 0.0
    mass = Fraction(0)
    count = 0
    for outcome, times in outcomes:
        problem = cons.problem(knowledge.record, [*base, *outcome])
        solution = solve(problem, marginals=False, max_states=knowledge.max_states)
        if not solution.total:
            continue
        weights = solution.envelope_weights() or {}
        share = Fraction(solution.total) / total
        expected += float(share) * times * entropy(Fraction(w) / solution.total
                                                   for w in weights.values())
        mass += share * times
        count += times
    if mass != 1:
        raise AssertionError(f"the outcomes cover {mass} of the deals, not all of them")
    return entropy(knowledge.envelope_distribution().values()) - expected, count
