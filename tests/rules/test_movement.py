"""Movement by the number thrown (``turns.movement``): the one search,
:meth:`cluedo_lab.rules.board.Walk.targets`, against an independent brute force that tries
every walk, on a small hand-drawn board (both kinds of door) and on the classic board near
its start squares, for both rules: ``"exact"`` (1949, 2014) and ``"up-to"`` (2023)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from bad_editions import assert_refused

from cluedo_lab.rules.board import Board, load_board
from cluedo_lab.rules.edition import MOVEMENTS, load_edition
from cluedo_lab.rules.errors import InvalidArgument

TINY = """\
id = "{id}"
name = "Two rooms, a loop and a dead end"
doorway_is_space = {space}

[legend]
"." = "corridor"
"#" = "off-board"
"A" = "room:attic"
"B" = "room:barn"
"v" = "door-south"
">" = "door-east"
"^" = "door-north"
"1" = "start:red"

[grid]
AAAv.....
AAA......
A>..##...
....#..^B
1...#..BB
.......BB
"""


def tiny(tmp_path: Path, space: bool) -> Board:
    name = "tiny-space" if space else "tiny-free"
    path = tmp_path / f"{name}.txt"
    path.write_text(TINY.format(id=name, space=str(space).lower()))
    return load_board(path)


def brute(board: Board, start, steps: int, blocked: set) -> dict[str, set]:
    """Every walk of at most ``steps`` moves, none of them pruned: orthogonal steps on free
    corridor squares, no square twice, rooms only through their doors and entering one ends
    the walk (the doorway costs a move unless the board says it is no space); out of a room
    through any door, one move. Returns the rooms entered, the squares where some walk of
    exactly ``steps`` ends, and every square some walk stands on."""
    door_in = 1 if board.doorway_is_space else 0
    rooms_at: dict = {}
    for door in board.doors:
        rooms_at.setdefault(door.corridor, set()).add(door.room)
    found: dict[str, set] = {"rooms": set(), "exact": set(), "up-to": set()}

    def walk(square, visited: frozenset, used: int) -> None:
        found["up-to"].add(square)
        if used == steps:
            found["exact"].add(square)
        for room in rooms_at.get(square, ()):
            if room != start and used + door_in <= steps:
                found["rooms"].add(room)
        if used == steps:
            return
        r, c = square
        for there in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if there in board.corridors and there not in visited and there not in blocked:
                walk(there, visited | {there}, used + 1)

    if isinstance(start, str):
        for door in board.doors:
            if door.room == start and door.corridor not in blocked and steps >= 1:
                walk(door.corridor, frozenset({door.corridor}), 1)
    else:
        walk(start, frozenset({start}), 0)
    found["up-to"].discard(start)
    found["exact"].discard(start)
    return found


def check(board: Board, starts, rolls, blocked_sets) -> int:
    checked = 0
    for start in starts:
        for steps in rolls:
            for blocked in blocked_sets:
                blocked = set(blocked) - {start}
                want = brute(board, start, steps, blocked)
                for movement in MOVEMENTS:
                    rooms, squares = board.walk.targets(start, steps, blocked, movement)
                    assert set(rooms) == want["rooms"], (start, steps, blocked, movement)
                    assert set(squares) == want[movement], (start, steps, blocked, movement)
                    assert list(squares) == sorted(squares)
                checked += 1
    return checked


@pytest.mark.parametrize("space", [True, False])
def test_exact_and_up_to_agree_with_every_walk_on_a_small_board(tmp_path, space):
    board = tiny(tmp_path, space)
    rng = random.Random(7)
    corridor = sorted(board.corridors)
    blocked_sets = [set(), *(set(rng.sample(corridor, 3)) for _ in range(3))]
    starts = [*corridor, *board.rooms]
    assert check(board, starts, range(0, 10), blocked_sets) == len(starts) * 10 * 4


def test_exact_and_up_to_agree_with_every_walk_on_the_classic_board():
    board = load_board("classic-24x25")
    rng = random.Random(3)
    corridor = sorted(board.corridors)
    starts = [*board.starts.values(), *board.rooms, *rng.sample(corridor, 12)]
    blocked_sets = [set(), set(rng.sample(corridor, 8))]
    assert check(board, starts, range(1, 8), blocked_sets) > 300


def test_an_exact_move_ends_only_on_squares_of_the_rolls_parity():
    """The corridor grid is bipartite: a walk of k moves from a square ends on a square whose
    colour (row + col) differs by k. Up-to reaches both colours; rooms are the same."""
    board = load_board("classic-24x25")
    start = board.starts["scarlett"]
    for steps in range(2, 13):
        rooms, exact = board.walk.targets(start, steps, (), "exact")
        rooms_up, up_to = board.walk.targets(start, steps, (), "up-to")
        assert rooms == rooms_up
        assert set(exact) < set(up_to)
        assert {(r + c - sum(start)) % 2 for r, c in exact} == {steps % 2}
        assert {(r + c - sum(start)) % 2 for r, c in up_to} == {0, 1}


def test_a_movement_rule_the_search_does_not_know_is_refused():
    board = load_board("classic-24x25")
    with pytest.raises(InvalidArgument, match="movement is one of exact, up-to"):
        board.walk.targets("kitchen", 6, (), "roughly")


# -- the edition option ---------------------------------------------------------------------------

def test_each_board_edition_names_its_movement_rule_and_why():
    assert load_edition("cluedo-classic-1949").turns.movement == "exact"
    assert load_edition("clue-mansion-2014").turns.movement == "exact"
    assert load_edition("clue-classic-2023").turns.movement == "up-to"
    assert load_edition("clue-classic-2023-two-player").turns.movement == "up-to"
    for edition in ("cluedo-classic-1949", "clue-mansion-2014"):
        about = {a.about: a for a in load_edition(edition).assumptions}
        # The books say "that number"; whether a square may be crossed twice they do not say.
        assert "twice" in about["turns.movement"].why
        assert "exact" not in [a.about for a in load_edition(edition).assumptions]


def test_a_bad_movement_value_fails_naming_the_field():
    assert_refused("cluedo-classic-1949", "turns.movement", "any", "'exact', 'up-to'")
    assert_refused("cluedo-card-game-2018", "turns.movement", "exact", "no board")
