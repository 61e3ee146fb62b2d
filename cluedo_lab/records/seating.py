"""Who sits where: the players of a record in seat order, and who answers or passes whom.

A record and its parser both need the seating (the parser checks each question's answers
against it while the record is still being read), so it lives below both.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

__all__ = ["Player", "answer_order", "neighbour"]


@dataclass(frozen=True)
class Player:
    """One seat of a record: the player's name and how many cards they were dealt.

    >>> Player("Ann", 6)
    Player(name='Ann', hand_size=6)
    """

    name: str
    hand_size: int


def answer_order(names: Sequence[str], asker: str, gone: Collection[str],
                 fugitive: str | None) -> tuple[str, ...]:
    """Who is asked, in order: the players after ``asker`` clockwise, leaving out those
    ``gone`` from the game; in one-against-all the ``fugitive`` answers only when nobody
    else can, so last.

    >>> answer_order(("A", "B", "C", "D"), "C", gone={"A"}, fugitive=None)
    ('D', 'B')
    """
    i = names.index(asker)
    order = tuple(n for n in (*names[i + 1:], *names[:i]) if n not in gone)
    if fugitive and fugitive in order:
        order = tuple(n for n in order if n != fugitive) + (fugitive,)
    return order


def neighbour(names: Sequence[str], name: str, side: str, gone: Collection[str]) -> str:
    """The player on ``name``'s left (next in seat order) or right (previous), among those
    not ``gone`` from the game.

    >>> neighbour(("A", "B", "C"), "C", "left", gone=())
    'A'
    """
    seated = [n for n in names if n not in gone or n == name]
    step = 1 if side == "left" else -1
    return seated[(seated.index(name) + step) % len(seated)]
