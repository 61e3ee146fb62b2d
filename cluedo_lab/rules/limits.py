"""How big an edition may be: every size the games enumerate, checked before they enumerate.

A game lists its legal moves (every accusation is one card of each category: the product of
the category sizes; a question of ``items`` cards from the whole deck: a binomial), deals
action cards, rolls dice and counts deals. An edition file sets all those sizes, so a file of
a few lines could ask for a product of forty categories or a die of a million sides and hang
or exhaust the machine long after it loaded. :func:`check_sizes` measures each size from the
numbers alone (no list is built) when the edition is loaded, and refuses the file naming the
field. The limits sit far above every published edition (at most 6 players, 30 cards, 324
accusations, two six-sided dice).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from .errors import EditionError

if TYPE_CHECKING:
    from .dice import Dice

__all__ = ["MAX_PLAYERS", "MAX_CARDS", "MAX_CHOICES", "MAX_DICE", "MAX_SIDES",
           "MAX_ACTION_CARDS", "MAX_EXTENDS", "MAX_COUNT_STATES", "MAX_COUNT_WORK",
           "WORK_PER_MOVE", "WORK_PER_FRACTION_MOVE", "BYTES_PER_STATE", "check_sizes",
           "choices", "work_per_move"]

MAX_PLAYERS = 12
"""The most players an edition may allow."""

MAX_CARDS = 100
"""The most cards in a deck (a record's own deck too): the count of deals stays a number
Python can print, and a table of cards stays readable."""

MAX_CHOICES = 20_000
"""The most accusations, or questions, a player may choose from: games list them all."""

MAX_DICE = 4
MAX_SIDES = 20
"""Dice are added one face at a time, and movement looks at every total."""

MAX_ACTION_CARDS = 500
"""The most action cards in a deck (each is dealt or drawn by position)."""

MAX_EXTENDS = 8
"""The longest chain of edition files that ``extends`` another."""

# The exact count of a record's deals runs a DP whose size a record's deck, players and
# events decide, and no bound computed beforehand predicts it well (on the benchmark grid the
# bounds are up to a thousand times the states used). So the DP counts under a budget,
# counted as it goes: the states it memoises (its memory) and its work (the moves it tries,
# each weighed by what a move of that DP costs). Both are counts, not seconds, so a record is
# refused or admitted alike on every machine. ``benchmarks/size_guard.py`` checks them on
# custom decks from 6x6x9 to 10x10x20 with 2-6 players and prints the calibration.

BYTES_PER_STATE = 2_500
"""Peak memory of a count over the states it memoised, rounded up (on the grid's capacity-DP
counts of over 10,000 states, 39 of them over 8 seeds and both models, a median of 2.1 KB,
at most 2.5 KB: the states hold their moves; the sweep DP memoises fewer states with more
moves each, up to 11.6 KB a state, but its work budget stops it long before its states would
fill 1 GB)."""

MAX_COUNT_STATES = 400_000
"""The states a count may memoise, about 1 GB at the capacity DP's most per state
(``Knowledge(record, max_states=...)`` changes it; None: no limit, on work either)."""

WORK_PER_MOVE = {"sweep": 1, "capacity": 8}
"""The work of one move tried, by DP, when the weights are whole numbers (``model="uniform"``).
On the grid's counts of over a million units of work (count, card table and envelopes, in
processor time here) a capacity-DP move costs 17-25 µs and a sweep move 1.8-4.0 µs (a sweep
move is one filling of a hand; a capacity move places a class and carries the observations
still open)."""

WORK_PER_FRACTION_MOVE = {"sweep": 4, "capacity": 20}
"""The work of one move tried when the weights are fractions (``model="refuter-uniform"``
weighs the card a player was shown by the shower's chance of choosing it, 1/k): adding
fractions costs more than adding whole numbers. On the grid's heaviest refuter-uniform seat
records, each DP forced (``benchmarks/size_guard.py --force-dp``), a sweep move took
5.7-16.4 µs (1.8-3.3 times a whole-number move of the same record) and a capacity move 39-69
µs (2.2-4.2 times); with every weight made a fraction, a sweep move took up to 7.6 times as
long. These weights put the budget at 1.5 million sweep moves (9-25 s at the rates measured)
or 300,000 capacity moves (12-21 s)."""


def work_per_move(engine: str, fractions: bool) -> int:
    """The work of one move of the DP ``engine``, whose weights are fractions or not."""
    return (WORK_PER_FRACTION_MOVE if fractions else WORK_PER_MOVE)[engine]


MAX_COUNT_WORK = 6_000_000
"""The work a count may do (moves tried x :data:`WORK_PER_MOVE`, or
:data:`WORK_PER_FRACTION_MOVE`): 750,000 whole-number capacity moves (13-19 s of processor
time here), 6 million sweep moves (11-24 s) or 300,000 fraction capacity moves (16-26 s), so
on the machine the grid was run on (``benchmarks/size_guard.py``: 8 seeds under uniform, 5
under refuter-uniform) nothing that finishes in 10 s is refused and nothing admitted takes
over 30 s. A slower machine takes longer over the same records and refuses the same ones: the
budget is counted, not timed."""


def choices(sizes: list[int], items: int | None = None) -> int:
    """How many ways to pick one card of each category (``items`` None), or ``items`` cards
    of the whole deck, from the category sizes alone."""
    if items is None:
        return math.prod(sizes)
    return math.comb(sum(sizes), items)


def check_sizes(source: str, *, players: int, sizes: list[int], items: int | None,
                dice: Dice | None, action_cards: int, hand: int) -> None:
    """Refuse an edition whose games would enumerate or deal more than the limits above,
    naming the field of its file ``source``: ``players`` is the most players, ``sizes`` the
    category sizes, ``items`` the cards a question names when it may name any (else None),
    ``action_cards`` and ``hand`` the size of its action deck and of a hand."""
    def fail(field: str, problem: str) -> EditionError:
        return EditionError(source, field, problem)

    if players > MAX_PLAYERS:
        raise fail("players.max", f"at most {MAX_PLAYERS} players, got {players}")
    if sum(sizes) > MAX_CARDS:
        raise fail("categories", f"{sum(sizes)} cards; a deck has at most {MAX_CARDS}")
    if choices(sizes) > MAX_CHOICES:
        raise fail("categories", f"one card of each category can be chosen "
                   f"{choices(sizes):,} ways; games list every accusation, so at most "
                   f"{MAX_CHOICES:,} are allowed")
    if items is not None and choices(sizes, items) > MAX_CHOICES:
        raise fail("question.items", f"{items} cards of {sum(sizes)} can be chosen "
                   f"{choices(sizes, items):,} ways; games list every question, so at most "
                   f"{MAX_CHOICES:,} are allowed")
    if dice is not None:
        if dice.count > MAX_DICE:
            raise fail("dice.count", f"at most {MAX_DICE} dice, got {dice.count}")
        if dice.sides > MAX_SIDES:
            raise fail("dice.sides", f"at most {MAX_SIDES} sides, got {dice.sides}")
    if action_cards:
        if action_cards > MAX_ACTION_CARDS:
            raise fail("actions.cards", f"{action_cards} action cards; at most "
                       f"{MAX_ACTION_CARDS}")
        if hand * players > action_cards:
            raise fail("actions.hand", f"{players} hands of {hand} need {hand * players} "
                       f"action cards; the deck has {action_cards}")
