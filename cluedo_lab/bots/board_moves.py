"""Where to go on a board: what a suggestion in each room would teach, and the walk that
reaches the most worth per turn spent.

A suggestion *teaches* when it makes someone show a card not yet placed, or pass on one: the
other players answer in order, as the rules say, and the worst is assumed of them (a player
known to hold a named card shows that card again). Its worth is 1 when the first player who
can answer may show something new (a little more for each further unknown card they may
hold), and nothing when that player already showed what they would show; the cards' chance of
being in the envelope breaks ties. A room is worth its best suggestion, plus 1 for a face-down
card not yet seen (2023 two-player). Going there costs the expected number of turns to walk
the distance with the game's dice (1 for a room entered this turn, by dice or secret passage,
or stayed in where a suggestion is allowed).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import cache
from typing import Any

from ..games.action import Action, find, of_kind
from ..games.board_game import BoardGame
from ..rules.board import Node, expected_turns_by_distance, walk_of
from ..rules.dice import Dice
from .notes import PaperNotes

__all__ = ["suggestion_worth", "best_suggestion", "room_worth", "expected_turns",
           "start_turn", "move_piece", "clue_target"]


def suggestion_worth(game: BoardGame, seat: int, notes: PaperNotes,
                     named: Sequence[str]) -> float:
    """What suggesting ``named`` teaches this seat (see the module docstring)."""
    scale = _scale(notes, named)
    answerers = _answerers(game, seat)
    return _worth([_card_facts(c, notes, answerers, scale) for c in named], scale)


def _answerers(game: BoardGame, seat: int) -> list[str]:
    """The players who answer ``seat``'s suggestion, in turn."""
    n = len(game.names)
    return [game.names[(seat + k) % n] for k in range(1, n)]


def _scale(notes: PaperNotes, cards: Sequence[str]) -> int:
    """One denominator for the cards' envelope chances: their sums are then whole-number sums,
    and a whole-number division rounds as float() of the Fraction sum does."""
    return math.lcm(*(Fraction(notes.envelope[c]).denominator for c in cards))


def best_suggestion(game: BoardGame, seat: int, notes: PaperNotes, room: str,
                    rng: random.Random) -> tuple[float, tuple[str, ...]]:
    """The suspect and weapon that teach most in ``room``, with their worth (seeded ties)."""
    best: tuple[float, float, tuple[str, ...]] | None = None
    order = game.fixed.order
    answerers = _answerers(game, seat)
    # suggestion_worth for every suspect and weapon with this room, each card read once: a
    # bot weighs every room on every move, so this is the board bots' inner loop.
    suspects = game.callable_suspects(seat)     # 1949: never the suggester's own piece
    cards = (*suspects, *game.fixed.weapons, room)
    scale = _scale(notes, cards)
    facts = {card: _card_facts(card, notes, answerers, scale) for card in cards}
    here = facts[room]
    for suspect in suspects:
        for weapon in game.fixed.weapons:
            worth = _worth((facts[suspect], facts[weapon], here), scale)
            option = (worth, rng.random(), (suspect, weapon))
            if best is None or option[:2] > best[:2]:
                best = option
    assert best is not None
    return best[0], tuple(sorted(best[2], key=order.__getitem__))


_Facts = tuple[bool, int, tuple[bool, ...], tuple[bool, ...]]


def _card_facts(card: str, notes: PaperNotes, answerers: Sequence[str], scale: int) -> _Facts:
    """A card as :func:`suggestion_worth` reads it: unplaced?, its envelope chance times
    ``scale`` (a whole number), and for each answerer in turn whether they may hold it and
    whether they are known to."""
    possible = notes.possible[card]
    held_by = notes.located.get(card)
    chance = Fraction(notes.envelope[card])
    return (card not in notes.located, chance.numerator * (scale // chance.denominator),
            tuple(p in possible for p in answerers), tuple(p == held_by for p in answerers))


def _worth(named: Sequence[_Facts], scale: int) -> float:
    """What suggesting the named cards teaches, from their facts: a named card an answerer
    holds is worth little (they may show it), an unplaced card someone may hold is worth a
    question; the envelope chances break ties."""
    unknown = [c for c in named if c[0]]
    if not unknown:
        return 0.0
    tie = 0.01 * (sum(c[1] for c in unknown) / scale)
    for i in range(len(named[0][2])):
        maybe = sum(1 for c in unknown if c[2][i])
        if any(c[3][i] for c in named):
            return 0.1 * maybe + tie
        if maybe:
            return 1.0 + 0.25 * (maybe - 1) + tie
    return tie  # nobody else can hold any of them: no answer will come


def room_worth(game: BoardGame, seat: int, notes: PaperNotes,
               rng: random.Random) -> dict[str, float]:
    """What a suggestion in each room is worth to this seat now. Once the solution is proven
    every room is worth the same: any will do to accuse from."""
    rooms = game.fixed.rooms
    if notes.solution is not None:
        return {r: 1.0 for r in rooms}
    placed = set(notes.located.values())
    worth = {}
    for room in rooms:
        worth[room] = best_suggestion(game, seat, notes, room, rng)[0]
        if room in game.piles and game.piles[room] not in placed:
            worth[room] += 1.0     # its face-down card is still unknown
    return worth


def expected_turns(game: BoardGame, moves: int) -> float:
    """Expected turns to walk ``moves`` squares with the game's dice (a room reached this
    turn counts 1), on an empty board."""
    table = _turns_table(game.dice.count, game.dice.sides)
    return table[min(moves, len(table) - 1)]


def start_turn(game: BoardGame, seat: int, worth: Mapping[str, float],
               legal: Sequence[Action], rng: random.Random) -> Action:
    """Stay, take a secret passage, roll or move: whichever reaches the most worth per turn.
    Before the roll (1949, 2014) staying and the passage compete with rolling; once rolled
    (every 2023 turn rolls first) they compete with the best move the roll allows."""
    here = game.room_of(seat)
    options: list[tuple[float, float, Action]] = []
    for action in legal:
        if action.kind == "stay":
            score = worth[here] if here is not None and game.may_suggest_staying(seat) \
                else _square_worth(game, worth, game.piece(seat))
            options.append((score, rng.random(), action))
        elif action.kind == "passage":
            options.append((worth[action["to"]], rng.random(), action))
    if of_kind(legal, "roll"):
        walk = _walk_worth(game, worth, game.piece(seat))
        options.append((walk, rng.random(), find(legal, "roll")))
    if of_kind(legal, "move"):
        options.append(_best_move(game, worth, legal, rng))
    return max(options, key=lambda o: (o[0], o[1]))[2]


def move_piece(game: BoardGame, worth: Mapping[str, float], legal: Sequence[Action],
               rng: random.Random) -> Action:
    """Enter the best room in reach now, or stop on the square from which the rooms are
    worth most per turn to come."""
    return _best_move(game, worth, legal, rng)[2]


def _best_move(game: BoardGame, worth: Mapping[str, float], legal: Sequence[Action],
               rng: random.Random) -> tuple[float, float, Action]:
    options: list[tuple[float, float, Action]] = []
    for action in legal:
        if action.kind != "move":
            continue
        to = action["to"]
        score = worth[to] if isinstance(to, str) else _square_worth(game, worth, to)
        options.append((score, rng.random(), action))
    return max(options, key=lambda o: (o[0], o[1]))


def _square_worth(game: BoardGame, worth: Mapping[str, float], square: Any) -> float:
    """The rooms' worth per turn to come, seen from a corridor square."""
    dist = walk_of(game.edition.board).free(square)
    return max((worth[r] / (1.0 + expected_turns(game, dist[r]))
                for r in game.fixed.rooms if r in dist), default=0.0)


def clue_target(game: BoardGame, notes: PaperNotes, legal: Sequence[Action],
                rng: random.Random) -> Action:
    """A 2023 Clue card aimed at the player with the most cards this seat has not placed."""
    sizes = dict(zip(game.names, game.edition.hand_sizes(len(game.names)), strict=True))
    placed: dict[str, int] = {}
    for place in notes.located.values():
        placed[place] = placed.get(place, 0) + 1
    return max(legal, key=lambda a: (sizes[a["player"]] - placed.get(a["player"], 0),
                                     rng.random()))


def _walk_worth(game: BoardGame, worth: Mapping[str, float], start: Node) -> float:
    """Worth per turn of the best room to walk to from ``start`` (not back into it)."""
    dist = walk_of(game.edition.board).free(start)
    return max((worth[r] / expected_turns(game, dist[r]) for r in game.fixed.rooms
                if r in dist and r != start), default=0.0)


@cache
def _turns_table(count: int, sides: int, longest: int = 80) -> tuple[float, ...]:
    """Expected turns to walk d squares (d = 0..longest) with ``count`` dice, a room reached
    this turn counting 1 (:func:`~cluedo_lab.rules.board.expected_turns_by_distance`)."""
    totals = Dice(count, sides).total_distribution()
    return (1.0, *(float(e) for e in expected_turns_by_distance(longest, totals)[1:]))
