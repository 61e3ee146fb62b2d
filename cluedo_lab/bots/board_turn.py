"""A board turn, step by step: the one place that says which kind of move a board bot makes
when, for the table's quick detective and the strategy lab's players alike.

Each step asks the bot only for what is its own: its notes on the cards, what it accuses,
which suggestion it makes in a room and what each room is worth to walk to. Showing a card,
aiming a Clue card, checking a false witness, rolling, staying, taking a passage and moving
are the shared rules of :mod:`cluedo_lab.bots.board_moves` and :mod:`cluedo_lab.bots.showing`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ..games.action import Action, find, of_kind
from ..games.board_game import BoardGame
from .board_moves import clue_target, move_piece, start_turn
from .notes import PaperNotes
from .showing import card_to_show_on_board

__all__ = ["board_turn"]


def board_turn(game: BoardGame, seat: int, legal: Sequence[Action], rng: random.Random, *,
               notes: Callable[[], PaperNotes],
               accusation: Callable[[], Sequence[str] | None],
               suggestion: Callable[[str, list[Action]], Action],
               worth: Callable[[], dict[str, float]]) -> Action:
    """The move among ``legal`` (two or more actions) for ``seat``: show a card when asked,
    aim a Clue card, check a proven false witness, accuse when ``accusation()`` names an
    envelope, suggest (``suggestion(room, legal suggestions)``), then walk by ``worth()``,
    else end the turn. ``rng`` draws the shared rules' seeded ties."""
    kinds = {a.kind for a in legal}
    if kinds & {"show", "reveal"}:
        return card_to_show_on_board(game, seat, of_kind(legal, "show", "reveal"), rng)
    seat_notes = notes()
    if "clue" in kinds:
        return clue_target(game, seat_notes, of_kind(legal, "clue"), rng)
    if "check" in kinds:
        return of_kind(legal, "check")[0]
    if "accuse" in kinds:
        guess = accusation()
        if guess is not None:
            return find(legal, "accuse", cards=set(guess))
    # Where a shown card ends the turn (1949, 2014), an accusation needs a suggestion nobody
    # can answer: once the solution is proven, name only cards no other player can hold.
    # (``accusation()`` is not asked here: it counts the bot's chances to accuse.)
    closing = game.accuse_when == "after-unanswered-suggestion" and game.active(seat)
    guess = seat_notes.solution if closing else None
    if "suggest" in kinds:
        room = game.room_of(seat)
        assert room is not None   # a suggestion is made in a room
        unanswerable = _unanswerable(game, seat, guess, of_kind(legal, "suggest"))
        return unanswerable or suggestion(room, of_kind(legal, "suggest"))
    if kinds & {"roll", "stay", "passage", "move"}:
        room_worth = _closing_worth(game, seat, guess) if guess else worth()
        if kinds & {"roll", "stay", "passage"}:
            return start_turn(game, seat, room_worth, legal, rng)
        return move_piece(game, room_worth, legal, rng)
    return of_kind(legal, "end")[0]   # every other step is handled above


def _safe(game: BoardGame, seat: int, guess: Sequence[str]) -> set[str]:
    """Cards no other player can show if ``guess`` is the solution: the guess, this seat's
    own hand and the cards face up."""
    return {*guess, *game.hands[seat], *(c.id for c in game.deal.face_up)}


def _unanswerable(game: BoardGame, seat: int, guess: Sequence[str] | None,
                  suggestions: Sequence[Action]) -> Action | None:
    """A legal suggestion naming only cards nobody else can show, in a room that is one."""
    if not guess:
        return None
    safe = _safe(game, seat, guess)
    if game.room_of(seat) not in safe:
        return None
    return next((a for a in suggestions if set(a["cards"]) <= safe), None)


def _closing_worth(game: BoardGame, seat: int, guess: Sequence[str]) -> dict[str, float]:
    """Rooms worth walking to for a suggestion nobody can answer: those among the safe
    cards (see :func:`_safe`)."""
    safe = _safe(game, seat, guess)
    return {r: 1.0 if r in safe else 0.0 for r in game.fixed.rooms}

