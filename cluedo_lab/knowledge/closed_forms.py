"""Closed forms with sympy, for the probability lessons.

The counting engine handles any record; before anything is observed the numbers also have
short formulas a learner can read and check by hand: choose the envelope category by category,
then share the rest among the hands (a multinomial). These functions return sympy expressions
(kept unevaluated so a notebook shows the formula; call ``.doit()`` for the number), and the
tests check them against the engine.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import sympy
from sympy import Rational, binomial, factorial

from ..rules.edition import Card, Edition


def envelopes(edition: Edition) -> sympy.Expr:
    """How many envelopes are possible: one binomial per category."""
    return sympy.Mul(*(binomial(len(c.cards), edition.deal.envelope[c.id], evaluate=False)
                       for c in edition.categories), evaluate=False)


def multinomial(total: int, parts: Sequence[int]) -> sympy.Expr:
    """Ways to share ``total`` distinct cards into piles of the given sizes."""
    return sympy.Mul(factorial(total, evaluate=False),
                     sympy.Pow(sympy.Mul(*(factorial(p, evaluate=False) for p in parts),
                                         evaluate=False), -1, evaluate=False), evaluate=False)


def deals(edition: Edition, players: int) -> sympy.Expr:
    """All deals for ``players``: envelopes × ways to share the rest among hands and piles."""
    sizes = list(edition.hand_sizes(players))
    extra = [edition.face_up_count(players)] if edition.face_up_count(players) else []
    extra += [1] * edition.deal.face_down
    rest = len(edition.cards) - edition.envelope_size
    return sympy.Mul(envelopes(edition), multinomial(rest, sizes + extra), evaluate=False)


def deals_from_seat(edition: Edition, players: int, seat: int,
                    hand: Sequence[Card | str], face_up: Sequence[Card | str] = (),
                    escape_plan: Sequence[Card | str] = ()) -> sympy.Expr:
    """Deals a player holding ``hand`` cannot tell apart before anything happens: envelopes
    without the cards they see × ways to share the other cards among the other hands. The
    cards laid ``face_up`` (an edition whose cards do not share out evenly) are seen by
    everyone, so they count like the hand. A fugitive who chose the ``escape_plan`` (2002,
    one against all) knows the envelope: one envelope."""
    cards = [edition.card(c) for c in hand]
    shown = [edition.card(c) for c in face_up]
    sizes = list(edition.hand_sizes(players))
    if len(cards) != sizes[seat]:
        raise ValueError(f"seat {seat} holds {sizes[seat]} cards, not {len(cards)}")
    if len(shown) != edition.face_up_count(players):
        raise ValueError(f"{edition.name} with {players} players lays "
                         f"{edition.face_up_count(players)} cards face up, not {len(shown)}")
    seen = cards + shown
    held = {c.id: sum(1 for h in seen if h.category == c.id) for c in edition.categories}
    env = sympy.Integer(1) if escape_plan else sympy.Mul(
        *(binomial(len(c.cards) - held[c.id], edition.deal.envelope[c.id], evaluate=False)
          for c in edition.categories), evaluate=False)
    others = sizes[:seat] + sizes[seat + 1:] + [1] * edition.deal.face_down
    rest = len(edition.cards) - edition.envelope_size - len(seen)
    return sympy.Mul(env, multinomial(rest, others), evaluate=False)


def most_deals_from_a_seat(edition: Edition, players: int) -> int:
    """The most deals any seat cannot tell apart before anything happens: the largest
    :func:`deals_from_seat` over the seats (a smaller hand leaves more to share) and over how
    the cards a seat sees fall into the categories (the fewer of a category seen, the more
    envelopes; which cards of a category does not matter). No event adds deals, so no chance
    in such a game has a larger denominator."""
    sizes = edition.hand_sizes(players)
    face_up = edition.face_up_count(players)
    outside = [len(c.cards) - edition.deal.envelope[c.id] for c in edition.categories]
    best = 0
    for seat in sorted({sizes.index(size) for size in sizes}):      # one seat per hand size
        for split in _splits(sizes[seat] + face_up, outside):
            seen = [card for category, k in zip(edition.categories, split, strict=True)
                    for card in category.cards[:k]]
            count = deals_from_seat(edition, players, seat, seen[face_up:], seen[:face_up])
            best = max(best, int(count.doit()))
    return best


def accusation_chance_with_hand(edition: Edition, hand: Sequence[Card | str]) -> Rational:
    """Chance that a blind accusation avoiding your own cards is right: 1 / envelopes left."""
    cards = [edition.card(c) for c in hand]
    left = sympy.Integer(1)
    for category in edition.categories:
        free = len(category.cards) - sum(1 for c in cards if c.category == category.id)
        left *= binomial(free, edition.deal.envelope[category.id])
    return Rational(1, left)


def first_accusation_chance(edition: Edition, hand_size: int) -> Rational:
    """Before looking at your hand: the chance that a blind accusation avoiding your own
    cards is right, averaged over every hand of ``hand_size`` cards you could be dealt."""
    categories = edition.categories
    outside = [len(c.cards) - edition.deal.envelope[c.id] for c in categories]
    total = binomial(sum(outside), hand_size)
    chance = Rational(0)
    for split in _splits(hand_size, outside):
        ways = sympy.Mul(*(binomial(n, k) for n, k in zip(outside, split, strict=True)))
        left = sympy.Mul(*(binomial(len(c.cards) - k, edition.deal.envelope[c.id])
                           for c, k in zip(categories, split, strict=True)))
        chance += Rational(ways, total) / left
    return chance


def _splits(total: int, limits: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to write ``total`` as a sum of one count per category within its limit."""
    if not limits:
        if total == 0:
            yield ()
        return
    for k in range(min(total, limits[0]) + 1):
        for rest in _splits(total - k, limits[1:]):
            yield (k, *rest)
