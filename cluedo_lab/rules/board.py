"""Boards as data, and exact movement on them.

A board file (``data/boards/*.txt``) is a TOML header and a picture of the grid, one character
per square; the header of ``classic-24x25.txt`` explains the format. :func:`load_board` checks
everything before it builds a :class:`Board`, so a bad file raises one
:class:`~cluedo_lab.rules.errors.EditionError` naming the file and the line or field.

Movement follows the rule books (1949 rules 1-6; 2014 Playing Detectives 3-4; 2023 ON YOUR
TURN 1): orthogonal steps, no square twice in a move, never onto or through a square another
piece occupies, rooms entered only through a door and entering ends the move, no exact roll
needed to enter a room. A move that stays in the corridors either uses the whole roll
(``"exact"``, 1949 and 2014: "moves that number of squares") or may stop short (``"up-to"``,
2023: "up to the number of squares you rolled"): the edition's ``turns.movement``. The
corridor squares form a bipartite grid, so an exact move of ``k`` ends only on squares whose
distance has the parity of ``k``, and only where a walk of exactly ``k`` squares, none twice,
gets there. A piece in a room leaves through any unblocked door. On the classic board stepping
through a door, in or out, costs one move, which is what makes Mrs Peacock 7 moves from the
Conservatory and every other suspect 8 from their nearest room (docs/research/editions.md
(d)); a board whose header says ``doorway_is_space = false`` (2014: "The doorway does not
count as a space") lets a piece on the square before a door step in without another move.
Secret passages are no walk, so no function here counts them as steps;
:func:`expected_turns_to_reach` considers them only as the first move of a turn.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache, cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .data import board_ids, boards_dir
from .dice import DiceLike, total_distribution
from .edition import MOVEMENTS
from .errors import EditionError, InvalidArgument, WrongType
from .files import read_text, shown

if TYPE_CHECKING:
    import networkx as nx

Square = tuple[int, int]
Node = Square | str
"""A node of :attr:`Board.graph`: a corridor square ``(row, col)`` or a room id."""
Pieces = Mapping[str, Node]
"""Suspect id -> where the piece stands: a corridor square or a room id."""
Heat = Mapping[Node, Fraction | int]
"""Room id or square -> a non-negative number, shaded darker for larger values."""

SIDES: dict[str, Square] = {"north": (-1, 0), "south": (1, 0), "west": (0, -1), "east": (0, 1)}
PLAIN_KINDS = ("corridor", "off-board", "unusable", "staircase",
               *(f"door-{side}" for side in SIDES))
HEADER_FIELDS = {"id", "name", "description", "schematic", "unusable", "passages", "legend",
                 "doorway_is_space"}
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Door:
    """A door: the room square that has it, and the corridor square it opens onto."""

    room: str
    square: Square
    corridor: Square
    side: str


@dataclass(frozen=True, eq=False)
class Board:
    """A loaded, validated board. Build one with :func:`load_board`.

    ``graph`` has a node per corridor square (start squares included) and per room; edges join
    orthogonal corridor neighbours and a door's corridor square to its room, and secret passages
    join rooms with ``passage=True`` (every other edge has ``passage=False``): a passage is taken
    instead of rolling, so walking code must skip those edges.
    """

    id: str
    name: str
    source: str
    grid: tuple[str, ...]
    rooms: tuple[str, ...]
    doors: tuple[Door, ...]
    starts: Mapping[str, Square]
    passages: tuple[tuple[str, str], ...]
    room_squares: Mapping[str, frozenset[Square]]
    corridors: frozenset[Square]
    unusable: frozenset[Square]
    unusable_name: str
    staircases: Mapping[Square, str]
    schematic: bool
    description: str
    graph: nx.Graph = field(repr=False)
    doorway_is_space: bool = True
    """Does entering a room through its door cost a move (from the square before the door)?"""

    @property
    def rows(self) -> int:
        return len(self.grid)

    @property
    def cols(self) -> int:
        return len(self.grid[0])

    def room_at(self, square: Square) -> str | None:
        """The room a square belongs to (door and staircase squares included), else None."""
        return self._room_of.get(tuple(square))  # type: ignore[arg-type]

    def kind(self, square: Square) -> str:
        """``"corridor"``, ``"room"``, ``"unusable"`` or ``"off-board"`` (also outside the grid)."""
        square = (square[0], square[1])
        if square in self.corridors:
            return "corridor"
        if square in self._room_of:
            return "room"
        if square in self.unusable:
            return "unusable"
        return "off-board"

    def doors_of(self, room: str) -> tuple[Door, ...]:
        self._check_room(room)
        return tuple(door for door in self.doors if door.room == room)

    def passage_from(self, room: str) -> tuple[str, ...]:
        """Rooms a secret passage leads to from ``room`` (none, or one on the shipped boards)."""
        self._check_room(room)
        return tuple(b if a == room else a for a, b in self.passages if room in (a, b))

    def room_name(self, room: str) -> str:
        """Display name from the id: ``"dining-room"`` -> ``"Dining Room"``."""
        self._check_room(room)
        return room.replace("-", " ").title()

    def locate(self, where: Node | list[int]) -> Node:
        """A position as a graph node: a corridor square, a room id, a suspect id (its start
        square) or any square of a room (that room). Anything else is a ValueError."""
        if isinstance(where, str):
            if where in self.room_squares:
                return where
            if where in self.starts:
                return self.starts[where]
            raise InvalidArgument(f"{self.id}: {where!r} is neither a room "
                                  f"({', '.join(self.rooms)}) nor a suspect with a start "
                                  f"square ({', '.join(self.starts)})")
        square = _square(where)
        if square in self.corridors:
            return square
        room = self.room_at(square)
        if room is not None:
            return room
        raise InvalidArgument(f"{self.id}: square {square} is {self.kind(square)}, not a place a "
                         "piece can stand")

    def _check_room(self, room: str) -> None:
        if room not in self.room_squares:
            raise InvalidArgument(f"{self.id} has no room {room!r}; rooms: {', '.join(self.rooms)}")

    @cached_property
    def _room_of(self) -> dict[Square, str]:
        return {sq: room for room, squares in self.room_squares.items() for sq in squares}

    @cached_property
    def walk(self) -> Walk:
        """How pieces walk here: every movement question on this board is answered by it."""
        graph = self.graph
        return Walk(self, {node: tuple(n for n in graph.neighbors(node)
                                       if not graph.edges[node, n]["passage"])
                           for node in graph.nodes}, 1 if self.doorway_is_space else 0)

    def __repr__(self) -> str:
        return f"<Board {self.id}>"


# ---------------------------------------------------------------------------------------------
# Movement
# ---------------------------------------------------------------------------------------------

def _square(value: Any) -> Square:
    if (isinstance(value, tuple | list) and len(value) == 2
            and all(type(v) is int for v in value)):
        return (value[0], value[1])
    raise InvalidArgument(f"expected a square (row, col), a room id or a suspect id, got {value!r}")


def _blocked_squares(board: Board, blocked: Iterable[Node]) -> frozenset[Square]:
    """Occupied corridor squares. Room ids are ignored: a room holds any number of pieces."""
    squares = set()
    for item in blocked:
        if isinstance(item, str) and item in board.room_squares:
            continue
        squares.add(_square(item))
    return frozenset(squares)


@dataclass(frozen=True, eq=False)
class Walk:
    """A board's walking neighbours (secret passages left out) and the one breadth-first search
    every movement question uses, with the free-board answers cached (they are asked for again
    and again during play)."""

    board: Board
    adjacent: Mapping[Node, tuple[Node, ...]]
    door_step: int = 1
    """Moves it costs to step from the square before a door into the room (0 or 1)."""
    _free: dict[Node, dict[Node, int]] = field(default_factory=dict, repr=False)
    _targets: dict[tuple[Node, int, str], tuple[frozenset[str], tuple[Square, ...]]] = \
        field(default_factory=dict, repr=False)

    def reach(self, start: Node, steps: int | None = None,
              blocked: Iterable[Square] = ()) -> dict[Node, int]:
        """Fewest moves (at most ``steps``; None: any number) from ``start`` to every square
        and room it can reach.

        Breadth-first, never onto a blocked square, never through a room (entering ends the
        move), never back into the start room (leaving and re-entering in one move is not a
        move). A shortest route repeats no square, so "within ``steps``" is exactly the rule
        book's reach.
        """
        return self._search(start, steps, blocked)[0]

    def route(self, start: Node, room: str) -> list[Node] | None:
        """One shortest route (graph nodes, ``start`` first) from ``start`` into ``room`` on an
        empty board, or None if there is none."""
        if start == room:
            return [room]
        parents = self._search(start, None, ())[1]
        if room not in parents:
            return None
        route: list[Node] = [room]
        while route[-1] != start:
            route.append(parents[route[-1]])
        return route[::-1]

    def _search(self, start: Node, steps: int | None, blocked: Iterable[Square]
                ) -> tuple[dict[Node, int], dict[Node, Node]]:
        """The breadth-first search: distances and each node's predecessor on a shortest
        route."""
        blocked = set(blocked) - {start}
        dist: dict[Node, int] = {start: 0}
        parents: dict[Node, Node] = {}
        frontier = [start]
        step = 0
        entering = self.door_step
        while frontier:
            following: list[Node] = []
            for node in frontier:
                for there in self.adjacent[node]:
                    if there in dist or there in blocked:
                        continue
                    # Entering a room from a corridor square costs ``door_step`` moves; every
                    # other step (leaving a room included) costs one.
                    cost = entering if isinstance(there, str) and not isinstance(node, str) \
                        else 1
                    if steps is not None and step + cost > steps:
                        continue
                    dist[there] = step + cost
                    parents[there] = node
                    if not isinstance(there, str):
                        following.append(there)
            step += 1
            frontier = following
        return dist, parents

    def free(self, start: Node) -> Mapping[Node, int]:
        """Fewest moves from ``start`` to everything, on a board with no other piece."""
        if start not in self._free:
            self._free[start] = self.reach(start)
        return self._free[start]

    def targets(self, start: Node, steps: int, blocked: Iterable[Square],
                movement: str = "up-to") -> tuple[frozenset[str], tuple[Square, ...]]:
        """The rooms and (sorted) corridor squares a roll of ``steps`` lets the piece move to.

        Rooms: those at most ``steps`` moves away (no exact roll is needed to enter one).
        Squares: with ``movement = "up-to"`` those at most ``steps`` moves away; with
        ``"exact"`` those where a walk of exactly ``steps`` moves ends (:meth:`ends`).

        A piece more than ``steps`` moves away on the free board can neither be reached nor
        stand on a route that short, so when every piece is that far the answer is the free
        board's, computed once per start, roll and movement rule.
        """
        if movement not in MOVEMENTS:
            raise InvalidArgument(f"movement is one of {', '.join(MOVEMENTS)}, not "
                                  f"{movement!r}")
        blocked = frozenset(blocked)
        free = self.free(start)
        if all(free.get(square, steps + 1) > steps for square in blocked if square != start):
            key = (start, steps, movement)
            if key not in self._targets:
                self._targets[key] = self._targets_now(start, steps, frozenset(), movement)
            return self._targets[key]
        return self._targets_now(start, steps, blocked, movement)

    def _targets_now(self, start: Node, steps: int, blocked: frozenset[Square],
                     movement: str) -> tuple[frozenset[str], tuple[Square, ...]]:
        rooms, squares = _split(self.reach(start, steps, blocked), start)
        if movement == "exact":
            squares = tuple(sorted(self.ends(start, steps, blocked)))
        return rooms, squares

    def ends(self, start: Node, steps: int, blocked: Iterable[Square] = ()) -> frozenset[Square]:
        """The corridor squares where a walk of exactly ``steps`` moves from ``start`` ends:
        orthogonal steps, no square twice, none blocked, never through a room.

        A depth-first search over such walks, cut short where it cannot end anywhere new: a
        square ``c`` at corridor distance ``d`` from the walk's head, with ``left`` moves to
        go, needs ``d <= left`` and, the grid being bipartite, ``left - d`` even. Only squares
        the breadth-first :meth:`reach` finds within ``steps`` can be ends at all; the distances
        are the free board's (a lower bound around pieces), from the same search.
        """
        blocked = set(blocked) - {start}
        if isinstance(start, str):
            heads, left = [n for n in self.adjacent[start] if n not in blocked], steps - 1
        else:
            heads, left = [start], steps
        if left < 0:
            return frozenset()

        def may_end(head: Node, moves: int, squares: Iterable[Node]) -> bool:
            near = self.free(head)   # rooms are never crossed: corridor distances
            return any((d := near.get(square, moves + 1)) <= moves and (moves - d) % 2 == 0
                       for square in squares)

        todo = {n for n in self.reach(start, steps, blocked)
                if not isinstance(n, str) and n != start
                and any(may_end(h, left, (n,)) for h in heads)}
        found: set[Square] = set()
        corridor = self._corridor

        def walk(head: Square, moves: int, path: set[Node]) -> None:
            if moves == 0:
                found.add(head)
                todo.discard(head)
            elif may_end(head, moves, todo):
                for there in corridor[head]:
                    if there not in path and there not in blocked:
                        path.add(there)
                        walk(there, moves - 1, path)
                        path.discard(there)

        for head in heads:
            walk(head, left, {start, head})   # type: ignore[arg-type]
        return frozenset(found - {start})     # a roll of 0 goes nowhere

    @cached_property
    def _corridor(self) -> dict[Node, tuple[Square, ...]]:
        """Each corridor square's corridor neighbours: the grid a walk goes along."""
        return {node: tuple(n for n in near if not isinstance(n, str))
                for node, near in self.adjacent.items() if not isinstance(node, str)}


def _split(dist: Mapping[Node, int], start: Node) -> tuple[frozenset[str], tuple[Square, ...]]:
    rooms = frozenset(n for n in dist if isinstance(n, str) and n != start)
    squares = tuple(sorted(n for n in dist if not isinstance(n, str) and n != start))
    return rooms, squares


@cache
def walk_of(board_id: str) -> Walk:
    """The walk of a shipped board, by id: loaded once and shared by every game on it."""
    return load_board(board_id).walk


def _distances(board: Board, position: Node, blocked: Iterable[Node]) -> dict[Node, int]:
    """Fewest moves from ``position`` to each corridor square and to *entering* each room."""
    return board.walk.reach(board.locate(position), None, _blocked_squares(board, blocked))


def shortest_route(board: Board, start: Node, room: str) -> list[Node] | None:
    """One shortest route (a list of graph nodes) from ``start`` into ``room`` on an empty
    board, or None if there is none; its length is :func:`shortest_moves`.

    Walks corridor squares only (rooms are entered, never crossed) and ignores secret passages,
    exactly as the moves are counted.
    """
    here = board.locate(start)
    board._check_room(room)
    return board.walk.route(here, room)


def room_distances(board: Board, position: Node,
                   blocked: Iterable[Node] = frozenset()) -> dict[str, int]:
    """Fewest moves from ``position`` to enter each other room it can reach, in board order."""
    dist = _distances(board, position, blocked)
    here = board.locate(position)
    return {room: dist[room] for room in board.rooms if room in dist and room != here}


def shortest_moves(board: Board, start: Node, room: str,
                   blocked: Iterable[Node] = frozenset()) -> int | None:
    """Fewest moves from ``start`` (square, room or suspect id) to enter ``room``: 0 if already
    there, None if other pieces cut every route. Secret passages are not moves by dice."""
    board._check_room(room)
    return _distances(board, start, blocked).get(room)


def reachable_rooms(board: Board, square_or_room: Node, steps: int,
                    blocked: Iterable[Node] = frozenset()) -> tuple[str, ...]:
    """Rooms a roll of ``steps`` lets you enter this turn, in board order.

    No exact roll is needed, so these are the rooms at most ``steps`` moves away. The room you
    start in is not listed: staying is not a move, and the 2014 rules forbid leaving and
    re-entering a room in one turn.
    """
    if steps < 0:
        raise InvalidArgument(f"steps must be >= 0, got {steps}")
    return tuple(r for r, d in room_distances(board, square_or_room, blocked).items()
                 if d <= steps)


def reach_chance(board: Board, position: Node, dice: DiceLike,
                 blocked: Iterable[Node] = frozenset()) -> dict[str, Fraction]:
    """Exact chance, for every other room, that this turn's roll lets you enter it.

    A room ``d`` moves away can be entered on any total of at least ``d``. Staying in a room
    and taking a secret passage need no roll, so they are not part of these chances.
    """
    here = board.locate(position)
    dist = room_distances(board, here, blocked)
    totals = total_distribution(dice)
    chances = {}
    for room in board.rooms:
        if room == here:
            continue
        need = dist.get(room)
        chances[room] = (Fraction(0) if need is None
                         else sum((p for t, p in totals.items() if t >= need), Fraction(0)))
    return chances


def expected_turns_to_reach(board: Board, position: Node, room: str,
                            dice: DiceLike) -> Fraction:
    """Exact expected number of turns to enter ``room`` on an otherwise empty board.

    Policy: each turn, enter the room if the roll reaches it; otherwise walk the whole roll
    along a shortest route (so a distance ``d`` and a total ``t < d`` leave ``d - t``), never
    stopping in another room. Ending as close as possible is best here because only the
    distance matters. That gives a Markov chain on the distance, E(0) = 0 and
    E(d) = 1 + sum over t < d of P(t) * E(d - t). From a room with a secret passage, the first
    turn may take the passage instead (1 turn, or 1 + the expectation from the far room),
    whichever is smaller. Other pieces are ignored: they move.
    """
    board._check_room(room)
    here = board.locate(position)
    if here == room:
        return Fraction(0)
    totals = total_distribution(dice)

    def by_dice(start: Node) -> Fraction | None:
        need = shortest_moves(board, start, room)
        return None if need is None else expected_turns_by_distance(need, totals)[need]

    options = [] if (e := by_dice(here)) is None else [e]
    if isinstance(here, str):
        for far in board.passage_from(here):
            rest = Fraction(0) if far == room else by_dice(far)
            if rest is not None:
                options.append(1 + rest)
    if not options:
        raise InvalidArgument(f"{board.id}: {room} cannot be reached from {position!r}")
    return min(options)


def expected_turns_by_distance(longest: int, totals: Mapping[int, Fraction]
                               ) -> list[Fraction]:
    """E(d) for d = 0..``longest``: the expected turns to walk ``d`` squares when a turn walks
    the dice ``totals`` (a room reached this turn counts 1), solved upwards from E(0) = 0
    by E(d) = 1 + sum over t < d of P(t) * E(d - t) (no self-loops: every total is at
    least 1). The one place this recurrence is written."""
    expected = [Fraction(0)]
    for d in range(1, longest + 1):
        expected.append(1 + sum((p * expected[d - t] for t, p in totals.items() if t < d),
                                Fraction(0)))
    return expected


# ---------------------------------------------------------------------------------------------
# Loading and validation
# ---------------------------------------------------------------------------------------------

MAX_SIDE = 100
"""The most rows, and squares in a row, of a board (the classic board is 24 x 25)."""


def load_board(id_or_path: str | Path) -> Board:
    """Load a board by id (``"classic-24x25"``) or by the path of its ``.txt`` file."""
    if not isinstance(id_or_path, str | Path):
        raise WrongType(f"a board is named by its id or the path of its file, not "
                        f"{id_or_path!r}")
    if isinstance(id_or_path, str) and (len(id_or_path) > 200 or "\0" in id_or_path):
        raise EditionError(id_or_path[:40] + "...", "(file)", "not a board id or a file name")
    path = Path(id_or_path)
    if path.suffix != ".txt" and not path.is_file():
        path = boards_dir() / f"{id_or_path}.txt"
        if not path.is_file():
            raise EditionError(str(id_or_path), "(file)",
                               f"no such board; known boards: {', '.join(board_ids())}")
    name = shown(path.name)

    def fail(problem: str) -> EditionError:
        return EditionError(name, "(file)", problem.removeprefix(f"{name}: "))
    return _parse(read_text(path, fail), path.name, path.stem)


def _parse(text: str, source: str, stem: str) -> Board:
    def fail(where: str, problem: str) -> EditionError:
        return EditionError(source, where, problem)

    lines = text.splitlines()
    marker = next((i for i, line in enumerate(lines) if line.strip() == "[grid]"), None)
    if marker is None:
        raise fail("[grid]", "missing: the picture of the board goes below a line '[grid]'")
    try:
        header = tomllib.loads("\n".join(lines[:marker]))
    except tomllib.TOMLDecodeError as exc:
        raise fail("header", f"not valid TOML: {exc}") from None

    unknown = sorted(set(header) - HEADER_FIELDS)
    if unknown:
        raise fail(unknown[0], f"unknown field; expected one of {sorted(HEADER_FIELDS)}")
    board_id = _text(header, "id", fail)
    if not ID_PATTERN.match(board_id):
        raise fail("id", f"{board_id!r} is not a lower-case id like 'classic-24x25'")
    if board_id != stem:
        raise fail("id", f"{board_id!r} differs from the file name {stem!r}")
    name = _text(header, "name", fail)
    description = _text(header, "description", fail, default="")
    unusable_name = _text(header, "unusable", fail, default="")
    schematic = header.get("schematic", False)
    if not isinstance(schematic, bool):
        raise fail("schematic", "expected true or false")
    doorway_is_space = header.get("doorway_is_space", True)
    if not isinstance(doorway_is_space, bool):
        raise fail("doorway_is_space", "expected true or false")

    # -- legend -----------------------------------------------------------------------------
    legend = header.get("legend")
    if not isinstance(legend, dict) or not legend:
        raise fail("legend", "missing: a table mapping each grid character to its meaning")
    kinds: dict[str, str] = {}
    room_of_char: dict[str, str] = {}
    start_of_char: dict[str, str] = {}
    for char, meaning in legend.items():
        where = f"legend.{char!r}"
        if len(char) != 1 or char.isspace():
            raise fail(where, "a legend key is one printable character")
        if not isinstance(meaning, str):
            raise fail(where, "expected a string such as 'corridor' or 'room:kitchen'")
        kind, _, ident = meaning.partition(":")
        if kind in ("room", "start"):
            if not ID_PATTERN.match(ident):
                raise fail(where, f"{meaning!r}: expected '{kind}:ID' with a lower-case id")
            names = room_of_char if kind == "room" else start_of_char
            if ident in names.values():
                raise fail(where, f"{ident!r} already has a character in the legend")
            names[char] = ident
        elif ident or kind not in PLAIN_KINDS:
            raise fail(where, f"unknown meaning {meaning!r}; expected 'room:ID', 'start:ID' "
                              f"or one of {list(PLAIN_KINDS)}")
        kinds[char] = kind
    if "unusable" in kinds.values() and not unusable_name:
        raise fail("unusable", "missing: the legend has unusable squares, so name them")

    # -- grid -------------------------------------------------------------------------------
    body = [line.rstrip() for line in lines[marker + 1:]]
    while body and not body[-1]:
        body.pop()
    if not body:
        raise fail("[grid]", "no rows below '[grid]'")
    first_line = marker + 2  # 1-based file line of grid row 0

    def at(square: Square) -> str:
        return f"grid line {first_line + square[0]}"

    width = len(body[0])
    if len(body) > MAX_SIDE or width > MAX_SIDE:
        raise fail("[grid]", f"{len(body)} rows of {width} squares; a board has at most "
                             f"{MAX_SIDE} of each (movement looks at every square)")
    for row, line in enumerate(body):
        if len(line) != width:
            raise fail(at((row, 0)), f"row {row} has {len(line)} squares but row 0 has {width}; "
                                     "every row must be as long as the first")
        for col, char in enumerate(line):
            if char not in kinds:
                raise fail(at((row, col)), f"square ({row}, {col}): character {char!r} is not "
                                           f"in the legend ({''.join(kinds)})")
    grid = tuple(body)

    def char_at(square: Square) -> str | None:
        row, col = square
        if 0 <= row < len(grid) and 0 <= col < width:
            return grid[row][col]
        return None

    def kind_at(square: Square) -> str:
        char = char_at(square)
        return "off-board" if char is None else kinds[char]

    def neighbour(square: Square, side: str) -> Square:
        return (square[0] + SIDES[side][0], square[1] + SIDES[side][1])

    cells = [(r, c) for r in range(len(grid)) for c in range(width)]
    walkable = {sq for sq in cells if kind_at(sq) in ("corridor", "start")}
    room_squares: dict[str, set[Square]] = {room: set() for room in room_of_char.values()}
    for sq in cells:
        if kind_at(sq) == "room":
            room_squares[room_of_char[grid[sq[0]][sq[1]]]].add(sq)

    def owning_room(sq: Square, skip: str | None, what: str) -> str:
        rooms = sorted({room_of_char[char_at(n)]  # type: ignore[index]
                        for side in SIDES if side != skip
                        for n in [neighbour(sq, side)] if kind_at(n) == "room"})
        if len(rooms) != 1:
            touching = f"squares of {', '.join(rooms)}" if rooms else "no room square"
            raise fail(at(sq), f"{what} at {sq} touches {touching}; it must sit in one room")
        return rooms[0]

    doors: list[Door] = []
    staircases: dict[Square, str] = {}
    for sq in cells:
        kind = kind_at(sq)
        if kind.startswith("door-"):
            side = kind.removeprefix("door-")
            outside = neighbour(sq, side)
            if outside not in walkable:
                raise fail(at(sq), f"door at {sq} opens {side} onto {kind_at(outside)} square "
                                   f"{outside}; a door must open onto a corridor square")
            room = owning_room(sq, side, "door")
            doors.append(Door(room, sq, outside, side))
        elif kind == "staircase":
            staircases[sq] = owning_room(sq, None, "staircase")
    for door in doors:
        room_squares[door.room].add(door.square)
    for sq, room in staircases.items():
        room_squares[room].add(sq)

    for char, room in room_of_char.items():
        if not room_squares[room]:
            raise fail(f"legend.{char!r}", f"room {room!r} has no squares on the grid")
        if not any(door.room == room for door in doors):
            raise fail(f"legend.{char!r}", f"room {room!r} has no door; mark one with a door "
                                           "character on the room's edge")

    found: dict[str, Square] = {}
    for sq in cells:
        char = grid[sq[0]][sq[1]]
        if char in start_of_char:
            if char in found:
                raise fail(at(sq), f"second start square for {start_of_char[char]!r} at {sq} "
                                   f"(the first is at {found[char]})")
            found[char] = sq
    for char, suspect in start_of_char.items():
        if char not in found:
            raise fail(f"legend.{char!r}", f"start square of {suspect!r} ({char!r}) is not on "
                                           "the grid")
    starts = {suspect: found[char] for char, suspect in start_of_char.items()}  # legend order

    # -- passages ---------------------------------------------------------------------------
    raw_passages = header.get("passages", [])
    if not isinstance(raw_passages, list):
        raise fail("passages", "expected a list of room pairs like [['kitchen', 'study']]")
    passages: list[tuple[str, str]] = []
    for index, pair in enumerate(raw_passages):
        where = f"passages[{index}]"
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str)
                                                                 for p in pair)):
            raise fail(where, "expected a pair of room ids like ['kitchen', 'study']")
        for room in pair:
            if room not in room_squares:
                raise fail(where, f"unknown room {room!r}; rooms: {', '.join(room_squares)}")
        if pair[0] == pair[1]:
            raise fail(where, f"a passage joins two different rooms, not {pair[0]!r} to itself")
        if any({pair[0], pair[1]} == set(p) for p in passages):
            raise fail(where, f"passage {pair[0]} - {pair[1]} is listed twice")
        passages.append((pair[0], pair[1]))
    for sq, room in staircases.items():
        if not any(room in pair for pair in passages):
            raise fail(at(sq), f"staircase at {sq} is in {room!r}, which has no passage in "
                               "'passages'")

    # -- graph ------------------------------------------------------------------------------
    import networkx as nx  # loaded with the first board, not with every import of the kit

    graph = nx.Graph()
    suspect_at = {sq: s for s, sq in starts.items()}
    for sq in cells:
        if sq in walkable:
            graph.add_node(sq, kind="corridor", start=suspect_at.get(sq))
    for room in room_squares:
        graph.add_node(room, kind="room")
    for sq in cells:
        if sq in walkable:
            for side in ("east", "south"):
                if (n := neighbour(sq, side)) in walkable:
                    graph.add_edge(sq, n, passage=False, door=False)
    for door in doors:
        graph.add_edge(door.corridor, door.room, passage=False, door=True)
    walk = graph.copy()
    for a, b in passages:
        graph.add_edge(a, b, passage=True, door=False)
    parts = sorted(nx.connected_components(walk), key=len, reverse=True)
    if len(parts) > 1:
        stray = min(parts[1], key=lambda n: (isinstance(n, str), str(n)))
        raise fail("[grid]", f"{stray!r} cannot be reached on foot from the rest of the board "
                             f"({len(parts)} separate areas)")

    return Board(
        id=board_id, name=name, source=source, grid=grid, rooms=tuple(room_squares),
        doors=tuple(doors), starts=starts, passages=tuple(passages),
        room_squares={room: frozenset(sqs) for room, sqs in room_squares.items()},
        corridors=frozenset(walkable),
        unusable=frozenset(sq for sq in cells if kind_at(sq) == "unusable"),
        unusable_name=unusable_name, staircases=staircases, schematic=schematic,
        description=description, graph=graph, doorway_is_space=doorway_is_space,
    )


def _text(header: dict[str, Any], key: str, fail: Any, default: str | None = None) -> str:
    value = header.get(key, default)
    if value is None:
        raise fail(key, "missing")
    if not isinstance(value, str):
        raise fail(key, f"expected a string, got {type(value).__name__}")
    return value
