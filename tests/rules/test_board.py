"""Boards: the shipped files against the research facts, movement against hand counts, every
way a board file can be wrong, and the SVG drawing.

The expected values come from docs/research/editions.md (d) (Grid A, the door and start tables, the
square counts, the shortest-move table) and from routes counted by hand on that grid (noted at
each test), never from the code under test.
"""

from __future__ import annotations

import dataclasses
import math
import xml.etree.ElementTree as ET
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
import sympy

from cluedo_lab.rules import numbers
from cluedo_lab.rules.board import (
    Board,
    Door,
    board_ids,
    expected_turns_to_reach,
    load_board,
    reach_chance,
    reachable_rooms,
    room_distances,
    shortest_moves,
)
from cluedo_lab.rules.dice import Dice
from cluedo_lab.rules.edition import all_editions, load_edition
from cluedo_lab.rules.errors import EditionError
from cluedo_lab.views.board_svg import board_svg
from cluedo_lab.views.display import to_svg

CLASSIC_ROOMS = ("kitchen", "ballroom", "conservatory", "dining-room", "billiard-room",
                 "library", "lounge", "hall", "study")
SUSPECTS = ("scarlett", "mustard", "white", "green", "peacock", "plum")

# docs/research/editions.md (d), Grid A: the room of every square, doors not marked.
GRID_A = """\
#########3####4#########
KKKKKK#...BBBB...#CCCCCC
KKKKKK..BBBBBBBB..CCCCCC
KKKKKK..BBBBBBBB..CCCCCC
KKKKKK..BBBBBBBB..CCCCCC
KKKKKK..BBBBBBBB...CCCC#
#KKKKK..BBBBBBBB.......5
........BBBBBBBB.......#
#.................IIIIII
DDDDD.............IIIIII
DDDDDDDD..XXXXX...IIIIII
DDDDDDDD..XXXXX...IIIIII
DDDDDDDD..XXXXX...IIIIII
DDDDDDDD..XXXXX........#
DDDDDDDD..XXXXX...LLLLL#
DDDDDDDD..XXXXX..LLLLLLL
#.........XXXXX..LLLLLLL
2................LLLLLLL
#........HHHHHH...LLLLL#
OOOOOOO..HHHHHH........6
OOOOOOO..HHHHHH........#
OOOOOOO..HHHHHH..SSSSSSS
OOOOOOO..HHHHHH..SSSSSSS
OOOOOOO..HHHHHH..SSSSSSS
OOOOOO#1#HHHHHH#.#SSSSSS
""".splitlines()
GRID_A_ROOMS = {"K": "kitchen", "B": "ballroom", "C": "conservatory", "D": "dining-room",
                "I": "billiard-room", "L": "library", "O": "lounge", "H": "hall", "S": "study"}

# docs/research/editions.md (d), door table: room, door square, side it opens, corridor square.
DOOR_TABLE = {
    ("kitchen", (6, 4), "south", (7, 4)),
    ("ballroom", (5, 8), "west", (5, 7)),
    ("ballroom", (5, 15), "east", (5, 16)),
    ("ballroom", (7, 9), "south", (8, 9)),
    ("ballroom", (7, 14), "south", (8, 14)),
    ("conservatory", (4, 18), "south", (5, 18)),
    ("billiard-room", (9, 18), "west", (9, 17)),
    ("billiard-room", (12, 22), "south", (13, 22)),
    ("library", (14, 20), "north", (13, 20)),
    ("library", (16, 17), "west", (16, 16)),
    ("study", (21, 17), "north", (20, 17)),
    ("hall", (18, 11), "north", (17, 11)),
    ("hall", (18, 12), "north", (17, 12)),
    ("hall", (20, 14), "east", (20, 15)),
    ("lounge", (19, 6), "north", (18, 6)),
    ("dining-room", (12, 7), "east", (12, 8)),
    ("dining-room", (15, 6), "south", (16, 6)),
}

# docs/research/editions.md (d), start square table.
START_TABLE = {"scarlett": (24, 7), "mustard": (17, 0), "white": (0, 9), "green": (0, 14),
               "peacock": (6, 23), "plum": (19, 23)}

# docs/research/editions.md (d), derived counts (door squares count as room squares).
SQUARE_COUNTS = {"kitchen": 35, "ballroom": 52, "conservatory": 28, "dining-room": 53,
                 "billiard-room": 30, "library": 31, "lounge": 41, "hall": 42, "study": 27}

# docs/research/editions.md (d), nearest rooms from each start (moves include the door step).
NEAREST = {"scarlett": ({"lounge"}, 8), "mustard": ({"dining-room", "lounge"}, 8),
           "white": ({"ballroom"}, 8), "green": ({"ballroom"}, 8),
           "peacock": ({"conservatory"}, 7), "plum": ({"study"}, 8)}


@pytest.fixture(scope="module")
def classic() -> Board:
    return load_board("classic-24x25")


@pytest.fixture(scope="module")
def mansion() -> Board:
    return load_board("mansion-2014")


# ---------------------------------------------------------------------------------------------
# The classic board against the research facts
# ---------------------------------------------------------------------------------------------

def test_shipped_boards():
    assert board_ids() == ["classic-24x25", "mansion-2014"]


def test_classic_shape_and_rooms(classic):
    assert (classic.rows, classic.cols) == (25, 24)
    assert classic.rooms == CLASSIC_ROOMS
    assert not classic.schematic
    assert repr(classic) == "<Board classic-24x25>"


def test_classic_every_square_matches_grid_a(classic):
    for row, line in enumerate(GRID_A):
        for col, char in enumerate(line):
            sq = (row, col)
            if char in GRID_A_ROOMS:
                assert classic.kind(sq) == "room" and classic.room_at(sq) == GRID_A_ROOMS[char]
            elif char == "X":
                assert classic.kind(sq) == "unusable"
            elif char == "#":
                assert classic.kind(sq) == "off-board"
            else:  # corridor or a start square
                assert classic.kind(sq) == "corridor", sq


def test_classic_square_counts(classic):
    assert {room: len(sqs) for room, sqs in classic.room_squares.items()} == SQUARE_COUNTS
    assert len(classic.corridors) == 182 + 6   # corridor + start squares
    assert len(classic.unusable) == 35          # the cellar, rows 10-16, cols 10-14
    assert classic.unusable_name == "Cellar"


def test_classic_doors(classic):
    assert {(d.room, d.square, d.side, d.corridor) for d in classic.doors} == DOOR_TABLE
    assert Counter(d.room for d in classic.doors) == {
        "kitchen": 1, "ballroom": 4, "conservatory": 1, "billiard-room": 2, "library": 2,
        "study": 1, "hall": 3, "lounge": 1, "dining-room": 2}
    assert classic.doors_of("study") == (Door("study", (21, 17), (20, 17), "north"),)


def test_classic_starts_and_passages(classic):
    assert dict(classic.starts) == START_TABLE
    assert tuple(classic.starts) == SUSPECTS   # legend order is the turn order 1-6
    assert {frozenset(p) for p in classic.passages} == {
        frozenset({"kitchen", "study"}), frozenset({"conservatory", "lounge"})}
    assert classic.passage_from("kitchen") == ("study",)
    assert classic.passage_from("lounge") == ("conservatory",)
    assert classic.passage_from("hall") == ()
    # research: the staircases sit in the corner squares (1,5), (5,22), (19,0), (21,23).
    assert dict(classic.staircases) == {(1, 5): "kitchen", (5, 22): "conservatory",
                                        (19, 0): "lounge", (21, 23): "study"}


def test_classic_matches_its_editions(classic):
    for edition_id in ("cluedo-classic-1949", "clue-classic-2023"):
        edition = load_edition(edition_id)
        assert edition.board == classic.id
        assert set(classic.rooms) == {c.id for c in edition.category("room").cards}
        assert set(classic.starts) == {c.id for c in edition.category("suspect").cards}


def test_graph_structure(classic):
    g = classic.graph
    corridor = [n for n, k in g.nodes(data="kind") if k == "corridor"]
    rooms = [n for n, k in g.nodes(data="kind") if k == "room"]
    assert len(corridor) == 188 and set(rooms) == set(CLASSIC_ROOMS)
    assert g.nodes[(6, 23)]["start"] == "peacock"
    passages = {frozenset((a, b)) for a, b, p in g.edges(data="passage") if p}
    assert passages == {frozenset({"kitchen", "study"}), frozenset({"conservatory", "lounge"})}
    # A room's walking neighbours are exactly its doors' corridor squares.
    for room in CLASSIC_ROOMS:
        walk = {n for n in g.neighbors(room) if not g.edges[room, n]["passage"]}
        assert walk == {c for r, _, _, c in DOOR_TABLE if r == room}
    # Corridor edges join orthogonal neighbours only.
    for a, b in g.edges():
        if not isinstance(a, str) and not isinstance(b, str):
            assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
    assert (4, 18) not in g   # a door square is part of its room, not a node of its own
    assert (12, 12) not in g  # nor is the cellar


# ---------------------------------------------------------------------------------------------
# Movement
# ---------------------------------------------------------------------------------------------

def test_peacock_is_one_move_closer(classic):
    for suspect, (rooms, moves) in NEAREST.items():
        dist = room_distances(classic, suspect)
        assert min(dist.values()) == moves, suspect
        assert {r for r, d in dist.items() if d == moves} == rooms, suspect
        for room in rooms:
            assert shortest_moves(classic, suspect, room) == moves
            assert shortest_moves(classic, START_TABLE[suspect], room) == moves


def test_routes_counted_by_hand(classic):
    # Peacock (6,23) walks west along row 6: (6,17) is 6 moves; (5,16) for the Ballroom's
    # east door is 8, so 9 to enter; (9,17) for the Billiard Room's west door is 9, so 10.
    assert shortest_moves(classic, "peacock", "ballroom") == 9
    assert shortest_moves(classic, "peacock", "billiard-room") == 10
    # Out of the Kitchen to (7,4) is 1; (7,5),(7,6),(7,7),(6,7),(5,7) is 5 more; in is 1.
    assert shortest_moves(classic, "kitchen", "ballroom") == 7
    # (7,4) -> (8,4)..(8,8) -> (9,8)..(12,8) is 9 moves, plus out and in.
    assert shortest_moves(classic, "kitchen", "dining-room") == 11
    assert shortest_moves(classic, "hall", "hall") == 0


def test_reachable_rooms(classic):
    assert reachable_rooms(classic, "peacock", 6) == ()
    assert reachable_rooms(classic, "peacock", 7) == ("conservatory",)
    assert reachable_rooms(classic, "peacock", 9) == ("ballroom", "conservatory")
    assert reachable_rooms(classic, (6, 23), 10) == ("ballroom", "conservatory",
                                                     "billiard-room")
    # No exact roll needed: a larger roll keeps every room a smaller one reached.
    for steps in range(1, 30):
        assert set(reachable_rooms(classic, "white", steps)) <= set(
            reachable_rooms(classic, "white", steps + 1))
    # Leaving a room: the room you are in is never listed (stay or re-enter next turn).
    assert reachable_rooms(classic, "kitchen", 7) == ("ballroom",)
    assert "kitchen" not in reachable_rooms(classic, "kitchen", 12)
    # Any square of a room means that room.
    assert reachable_rooms(classic, (3, 3), 7) == ("ballroom",)
    with pytest.raises(ValueError, match="steps"):
        reachable_rooms(classic, "kitchen", -1)


def test_blocking(classic):
    # Peacock's only way out of her corner is (6,22): block it and nothing is reachable.
    assert reachable_rooms(classic, "peacock", 12, blocked={(6, 22)}) == ()
    assert shortest_moves(classic, "peacock", "conservatory", blocked={(6, 22)}) is None
    # The Conservatory has one door, opening onto (5,18).
    assert shortest_moves(classic, "green", "conservatory", blocked={(5, 18)}) is None
    # Blocking a door's square shuts that exit from inside the room too (1 door: no exit).
    assert reachable_rooms(classic, "kitchen", 12, blocked={(7, 4)}) == ()
    # A detour: with (6,18) taken ((5,19) is Conservatory wall), Peacock goes (6,22)..(6,19),
    # (7,19),(7,18),(7,17),(6,17),(5,17),(5,18): 10 moves, and 1 through the door.
    assert shortest_moves(classic, "peacock", "conservatory", blocked={(6, 18)}) == 11
    # Pieces in rooms never block, and a piece does not block itself.
    assert shortest_moves(classic, "peacock", "conservatory",
                          blocked={"conservatory", (6, 23)}) == 7
    with pytest.raises(ValueError, match="square"):
        reachable_rooms(classic, "peacock", 7, blocked={"nowhere"})


def test_reach_chance(classic):
    two = Dice(2)
    chances = reach_chance(classic, "peacock", two)
    assert list(chances) == list(CLASSIC_ROOMS)
    # Totals of 7+ with two dice: 6+5+4+3+2+1 = 21 of 36; 9+: 4+3+2+1 = 10; 10+: 6.
    assert chances["conservatory"] == Fraction(21, 36)
    assert chances["ballroom"] == Fraction(10, 36)
    assert chances["billiard-room"] == Fraction(6, 36)
    assert all(chances[r] == 0 for r in CLASSIC_ROOMS
               if r not in ("conservatory", "ballroom", "billiard-room"))
    assert all(isinstance(p, Fraction) for p in chances.values())
    assert reach_chance(classic, "peacock", Dice(1))["conservatory"] == 0
    assert set(reach_chance(classic, "peacock", two, blocked={(6, 22)}).values()) == {0}
    from_room = reach_chance(classic, "kitchen", 2)
    assert "kitchen" not in from_room and from_room["ballroom"] == Fraction(21, 36)
    # The edition's dice are accepted as they are.
    edition_dice = load_edition("clue-classic-2023").dice
    assert reach_chance(classic, "peacock", edition_dice) == chances


def test_expected_turns_one_die_closed_form(classic):
    # One die, distance d <= 7: E(d) = 1 + (E(d-1) + ... + E(1)) / 6 solves to (7/6)^(d-1).
    assert expected_turns_to_reach(classic, "peacock", "conservatory", Dice(1)) == (
        Fraction(7, 6) ** 6)
    assert expected_turns_to_reach(classic, "conservatory", "conservatory", Dice(1)) == 0


TWO_DICE_TOTALS = {t: sympy.Rational(6 - abs(t - 7), 36) for t in range(2, 13)}  # 1,2,..6,..1


def chain_by_sympy(distance: int) -> Fraction:
    """The turn-count chain as simultaneous equations E_k = 1 + sum P(t) E_(k-t), solved by
    sympy: a second, independent way to the same exact expectation."""
    unknowns = sympy.symbols(f"e1:{distance + 1}")
    equations = []
    for k in range(1, distance + 1):
        rest = sum(p * unknowns[k - t - 1] for t, p in TWO_DICE_TOTALS.items() if t < k)
        equations.append(sympy.Eq(unknowns[k - 1], 1 + rest))
    return Fraction(str(sympy.solve(equations, unknowns)[unknowns[-1]]))


def test_expected_turns_agrees_with_a_linear_solve(classic):
    # By hand: (0,9) -> (1,9),(1,8),(1,7) -> down column 7 to (7,7) -> (7,6),(7,5),(7,4) is 12
    # moves (the Manhattan distance, so no shorter route), and 1 more through the door.
    assert shortest_moves(classic, "white", "kitchen") == 13
    assert expected_turns_to_reach(classic, "white", "kitchen", Dice(2)) == chain_by_sympy(13)


def test_expected_turns_with_passages(classic):
    assert expected_turns_to_reach(classic, "kitchen", "study", 2) == 1
    # Kitchen to Lounge: walk all the way, or take the passage to the Study (one turn) and
    # walk from there, whichever is expected to be quicker.
    walk = chain_by_sympy(shortest_moves(classic, "kitchen", "lounge"))
    via_study = 1 + chain_by_sympy(shortest_moves(classic, "study", "lounge"))
    assert expected_turns_to_reach(classic, "kitchen", "lounge", 2) == min(walk, via_study)
    # A square has no passage, so it is the walk alone.
    outside = (7, 4)  # the Kitchen's door square: one move nearer than the Kitchen itself
    assert expected_turns_to_reach(classic, outside, "lounge", 2) == chain_by_sympy(
        shortest_moves(classic, "kitchen", "lounge") - 1)


def test_positions_are_checked(classic):
    with pytest.raises(ValueError, match="neither a room"):
        shortest_moves(classic, "nobody", "hall")
    with pytest.raises(ValueError, match="off-board"):
        shortest_moves(classic, (0, 0), "hall")
    with pytest.raises(ValueError, match="unusable"):
        shortest_moves(classic, (12, 12), "hall")
    with pytest.raises(ValueError, match="no room"):
        shortest_moves(classic, "peacock", "cellar")


# ---------------------------------------------------------------------------------------------
# The 2014 schematic mansion board
# ---------------------------------------------------------------------------------------------

MANSION_CLOCKWISE = ("kitchen", "patio", "spa", "theater", "living-room", "observatory",
                     "hall", "guest-house", "dining-room")


def _centre(squares) -> tuple[float, float]:
    return (sum(r for r, _ in squares) / len(squares), sum(c for _, c in squares) / len(squares))


def _bearing(board: Board, room: str) -> float:
    """Clockwise angle of a room's centre around the pool's centre, 0 = straight up."""
    pr, pc = _centre(board.unusable)
    r, c = _centre(board.room_squares[room])
    return math.degrees(math.atan2(c - pc, -(r - pr))) % 360


def test_mansion_rooms_clockwise_around_the_pool(mansion):
    assert set(mansion.rooms) == set(MANSION_CLOCKWISE)
    order = sorted(mansion.rooms, key=lambda room: _bearing(mansion, room))
    start = order.index("kitchen")
    assert tuple(order[start:] + order[:start]) == MANSION_CLOCKWISE
    # The corners: Kitchen top-left, Spa top-right, Observatory bottom-right, Guest House
    # bottom-left (research (c), inferred from the clockwise order).
    corners = {"kitchen": (0, 0), "spa": (0, 23), "observatory": (23, 23), "guest-house": (23, 0)}
    for room, sq in corners.items():
        assert mansion.room_at(sq) == room


def test_mansion_pool_and_passages(mansion):
    assert mansion.schematic and mansion.unusable_name == "Swimming Pool"
    pr, pc = _centre(mansion.unusable)
    assert abs(pr - (mansion.rows - 1) / 2) <= 1 and abs(pc - (mansion.cols - 1) / 2) <= 1
    assert not any(sq in mansion.graph for sq in mansion.unusable)
    assert {frozenset(p) for p in mansion.passages} == {
        frozenset({"spa", "guest-house"}), frozenset({"kitchen", "observatory"})}
    for a, b in mansion.passages:  # diagonal: the two ends face each other across the pool
        assert abs((_bearing(mansion, a) - _bearing(mansion, b)) % 360 - 180) < 20


def test_mansion_starts_doors_and_edition(mansion):
    assert (mansion.rows, mansion.cols) == (24, 24)
    assert set(mansion.starts) == set(SUSPECTS)
    assert all(mansion.doors_of(room) for room in mansion.rooms)
    edition = load_edition("clue-mansion-2014")
    assert edition.board == mansion.id
    assert set(mansion.rooms) == {c.id for c in edition.category("room").cards}
    # Design claim in the file's header: every guest is 7 moves from their nearest room
    # (8 squares to the square before its door; the doorway is no space in 2014).
    assert {s: min(room_distances(mansion, s).values()) for s in SUSPECTS} == dict.fromkeys(
        SUSPECTS, 7)


# ---------------------------------------------------------------------------------------------
# Bad board files
# ---------------------------------------------------------------------------------------------

MINI = """\
# A tiny valid board used to make broken copies.
id = "{stem}"
name = "Mini"
unusable = "Pit"
passages = [["attic", "cellar"]]

[legend]
"." = "corridor"
"#" = "off-board"
"X" = "unusable"
"A" = "room:attic"
"C" = "room:cellar"
"v" = "door-south"
"^" = "door-north"
"%" = "staircase"
"1" = "start:scarlett"
"2" = "start:plum"

[grid]
%AAv#
....1
2..X.
CC^..
CCC%#
"""
MINI_GRID_LINE = MINI.splitlines().index("[grid]") + 2   # file line of grid row 0


def write(tmp_path: Path, text: str, stem: str = "mini") -> Path:
    path = tmp_path / f"{stem}.txt"
    path.write_text(text.replace("{stem}", stem), encoding="utf-8")
    return path


def broken(tmp_path: Path, old: str, new: str) -> EditionError:
    assert old in MINI
    path = write(tmp_path, MINI.replace(old, new, 1))
    with pytest.raises(EditionError) as info:
        load_board(path)
    assert info.value.source == "mini.txt"
    assert str(info.value).startswith("mini.txt: field '")
    return info.value


def test_mini_board_loads(tmp_path):
    board = load_board(write(tmp_path, MINI))
    assert board.rooms == ("attic", "cellar")
    assert {(d.room, d.square, d.corridor) for d in board.doors} == {
        ("attic", (0, 3), (1, 3)), ("cellar", (3, 2), (2, 2))}
    assert dict(board.starts) == {"scarlett": (1, 4), "plum": (2, 0)}
    assert board.passage_from("cellar") == ("attic",)
    assert shortest_moves(board, "plum", "cellar") == 3     # (2,1), (2,2), then in
    assert shortest_moves(board, "scarlett", "attic") == 2  # (1,3), then in
    assert shortest_moves(board, "attic", "cellar") == 4    # out to (1,3), (1,2), (2,2), in


def test_unknown_character(tmp_path):
    err = broken(tmp_path, "2..X.", "2..Q.")
    assert err.field == f"grid line {MINI_GRID_LINE + 2}"
    assert "'Q'" in err.problem and "(2, 3)" in err.problem


def test_ragged_rows(tmp_path):
    err = broken(tmp_path, "....1\n", "....1.\n")
    assert err.field == f"grid line {MINI_GRID_LINE + 1}" and "row 1 has 6" in err.problem


def test_door_not_onto_a_corridor(tmp_path):
    err = broken(tmp_path, "%AAv#\n....1", "%AAv#\n...#1")
    assert err.field == f"grid line {MINI_GRID_LINE}"
    assert "door at (0, 3)" in err.problem and "corridor" in err.problem


def test_door_outside_any_room(tmp_path):
    err = broken(tmp_path, "2..X.", "2..Xv")
    assert "touches no room square" in err.problem


def test_passage_to_unknown_room(tmp_path):
    err = broken(tmp_path, '[["attic", "cellar"]]', '[["attic", "ballroom"]]')
    assert err.field == "passages[0]" and "'ballroom'" in err.problem


def test_passage_to_itself_and_bad_shape(tmp_path):
    assert "itself" in broken(tmp_path, '[["attic", "cellar"]]', '[["attic", "attic"]]').problem
    assert broken(tmp_path, '[["attic", "cellar"]]', '[["attic"]]').field == "passages[0]"


def test_missing_start(tmp_path):
    err = broken(tmp_path, "2..X.", "...X.")
    assert err.field == "legend.'2'" and "'plum'" in err.problem


def test_duplicate_start(tmp_path):
    err = broken(tmp_path, "2..X.", "2..X2")
    assert err.field == f"grid line {MINI_GRID_LINE + 2}" and "second start" in err.problem


def test_unknown_legend_meaning(tmp_path):
    err = broken(tmp_path, '"X" = "unusable"', '"X" = "lava"')
    assert err.field == "legend.'X'" and "lava" in err.problem


def test_room_without_door(tmp_path):
    err = broken(tmp_path, "%AAv#", "%AAA#")
    assert err.field == "legend.'A'" and "no door" in err.problem


def test_staircase_needs_a_passage(tmp_path):
    err = broken(tmp_path, 'passages = [["attic", "cellar"]]\n', "")
    # One header line fewer, so the grid starts a line higher.
    assert err.field == f"grid line {MINI_GRID_LINE - 1}" and "staircase" in err.problem


def test_unreachable_area(tmp_path):
    err = broken(tmp_path, "2..X.\nCC^..", "2..X#\nCC^#.")
    assert err.field == "[grid]" and "cannot be reached" in err.problem


def test_header_problems(tmp_path):
    assert broken(tmp_path, "[grid]\n", "").field == "[grid]"
    assert broken(tmp_path, 'name = "Mini"', "name = Mini").field == "header"
    assert broken(tmp_path, 'name = "Mini"', 'name = "Mini"\ncolour = "red"').field == "colour"
    assert broken(tmp_path, 'id = "{stem}"', 'id = "other"').field == "id"
    assert broken(tmp_path, 'name = "Mini"\n', "").field == "name"
    assert broken(tmp_path, 'unusable = "Pit"\n', "").field == "unusable"


def test_unknown_board_id():
    with pytest.raises(EditionError, match="known boards: classic-24x25, mansion-2014"):
        load_board("monopoly")


# ---------------------------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------------------------

SVG = "{http://www.w3.org/2000/svg}"


def test_svg_is_deterministic_and_well_formed(classic):
    pieces = {"scarlett": "lounge", "mustard": "lounge", "peacock": (6, 22)}
    heat = reach_chance(classic, "peacock", Dice(2))
    one = board_svg(classic, pieces=pieces, heat=heat, title="Peacock, two dice")
    two = board_svg(load_board("classic-24x25"), pieces=dict(pieces), heat=dict(heat),
                                          title="Peacock, two dice")
    assert one == two
    root = ET.fromstring(one)
    assert root.tag == f"{SVG}svg"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for room in CLASSIC_ROOMS:
        assert classic.room_name(room) in texts
    assert "Cellar" in texts and "Peacock, two dice" in texts
    # heat values, in the learner's one format (the exact fraction is a tooltip's job)
    assert {numbers.chance(Fraction(n, d)) for n, d in ((7, 12), (5, 18), (1, 6))} <= set(texts)
    doors = [e for e in root.iter(f"{SVG}line") if e.get("class") == "door"]
    assert len(doors) == 17
    passages = [e for e in root.iter(f"{SVG}line") if e.get("class") == "passage"]
    assert len(passages) == 2
    assert len(list(root.iter(f"{SVG}circle"))) == 3
    assert " id=" not in one   # no generated ids: the same input gives the same bytes


def test_svg_without_options(classic, mansion):
    assert to_svg(classic) == board_svg(classic)
    root = ET.fromstring(board_svg(mansion))
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "Swimming Pool" in texts and "Guest House" in texts
    assert not list(root.iter(f"{SVG}circle"))


def test_svg_rejects_bad_heat(classic):
    with pytest.raises(ValueError, match="not negative"):
        board_svg(classic, heat={"hall": Fraction(-1, 2)})
    with pytest.raises(ValueError, match="exact"):
        board_svg(classic, heat={"hall": 0.5})


@pytest.mark.parametrize("edition", [e for e in all_editions() if e.board],
                         ids=lambda e: e.id)
def test_every_board_edition_matches_its_board(edition):
    """The edition's room cards are the board's rooms and its suspects have start squares."""
    board = load_board(edition.board)
    assert {c.id for c in edition.category("room").cards} == set(board.rooms)
    assert {c.id for c in edition.category("suspect").cards} == set(board.starts)


def test_a_doorway_is_a_space_on_the_classic_board_and_not_on_the_2014_mansion(mansion):
    """2014 Playing Detectives 4: "The doorway does not count as a space"; 1949 rule 3 counts
    the step through the door. From the square before a door the room is 0 moves away on the
    mansion and 1 on the classic board, and every room from every start is exactly one move
    nearer on the mansion than the same board walked with the classic count."""
    classic = load_board("classic-24x25")
    assert classic.doorway_is_space and not mansion.doorway_is_space
    for board, cost in ((classic, 1), (mansion, 0)):
        for door in board.doors:
            assert board.walk.reach(door.corridor, 1)[door.room] == cost
    counted = dataclasses.replace(mansion.walk, door_step=1, _free={}, _targets={})
    for start in mansion.starts.values():
        free, classic_count = mansion.walk.reach(start), counted.reach(start)
        assert {r: free[r] + 1 for r in mansion.rooms if r in free} == \
            {r: classic_count[r] for r in mansion.rooms if r in classic_count}
    # Leaving a room still lands on a space: a room's door square is one move out.
    room = mansion.rooms[0]
    door = mansion.doors_of(room)[0]
    assert mansion.walk.reach(room, 1)[door.corridor] == 1
