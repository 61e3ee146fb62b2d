"""Which card to show when asked: give away as little as possible.

A card the asker has already seen from you teaches them nothing new; on a board, a card
already shown to many players is the next best thing. The choices read only the answering
seat's own record and the public table.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..games.board_game import BoardGame
from ..games.game import Action, Game
from ..records import Reveal, Show, Suggest

__all__ = ["card_to_show_on_board", "card_to_show_in_card_game"]


def card_to_show_on_board(game: BoardGame, seat: int, legal: Sequence[Action],
                          rng: random.Random) -> Action:
    """A card the receiver (or, for a reveal, everyone) has already seen from this seat, else
    the card already shown to the most players; seeded ties."""
    record = game.record(seat)
    me = game.names[seat]
    to = _receiver(game)
    seen_by: dict[str, set[str]] = {}
    for event in record.events:
        if isinstance(event, Suggest) and event.shown_by == me and event.card is not None:
            seen_by.setdefault(event.card.id, set()).add(event.by)
        elif isinstance(event, Show) and event.shower == me and event.card is not None:
            seen_by.setdefault(event.card.id, set()).add(event.to)
        elif isinstance(event, Reveal) and event.by == me and event.card is not None:
            seen_by.setdefault(event.card.id, set()).update(game.names)

    def cost(action: Action) -> tuple[int, int, float]:
        who = seen_by.get(action["card"], set())
        if action.kind == "reveal":
            return (len(set(game.names) - who), 0, rng.random())
        return (0 if to in who else 1, -len(who), rng.random())
    return min(legal, key=cost)


def card_to_show_in_card_game(game: Game, seat: int, legal: Sequence[Action],
                              rng: random.Random) -> Action:
    """A card the asker has already seen from this seat when there is one, else any (seeded)."""
    asking = getattr(game, "asker", None)   # the 2018 game's asker; the 2002 game has none
    asker = None if asking is None else game.names[asking]
    shown_before: set[str] = set()
    if asker is not None:
        record = game.record(seat)
        me = game.names[seat]
        for event in record.events:
            if isinstance(event, Suggest) and event.by == asker and \
                    event.shown_by == me and event.card is not None:
                shown_before.add(event.card.id)
    repeat = [a for a in legal if a["card"] in shown_before]
    return rng.choice(repeat or list(legal))


def _receiver(game: BoardGame) -> str | None:
    """Who will see the card being chosen (public: everyone sees who asked)."""
    if game.phase == "refute":
        assert game.pending is not None
        return game.names[game.pending["by"]]
    if game.phase == "clue-show" and game.tasks:
        return game.names[game.tasks[0]["to"]]
    return None
