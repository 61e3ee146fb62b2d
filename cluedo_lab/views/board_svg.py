"""Draw a board as SVG, so notebooks show positions, reach chances and routes.

Plain strings in a fixed order with fixed attribute order and rounded numbers: the same board
and arguments always give the same bytes (no dates, no random ids), so notebook outputs stay
stable under nbval and diffs show real changes. Unlike the classic board's art, the layout is
read entirely from the :class:`~cluedo_lab.rules.board.Board`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from ..rules import numbers
from ..rules.board import Board, Heat, Node, Pieces, Square

if TYPE_CHECKING:
    from ..games.board_game import BoardGame

# Piece colours by suspect id (rule book 1949 2(a): the persons' colours).
PIECE_COLOURS = {
    "scarlett": "#c62828", "scarlet": "#c62828", "mustard": "#e0a800", "white": "#fafafa",
    "green": "#2e7d32", "peacock": "#1e5bb8", "plum": "#6a1b9a", "orchid": "#d36fc6",
}
OFF_BOARD = "#5d4e3c"
CORRIDOR = "#f1dea8"
CORRIDOR_LINE = "#b59a5b"
ROOM = "#e6d9bd"
WALL = "#3b2f22"
DOOR = "#a0522d"
UNUSABLE = "#b9c6cf"
HEAT = "#d84315"
REACHABLE = "#1e88e5"
REACHABLE_EDGE = "#0d47a1"


def _n(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros: stable text."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _rect(x: float, y: float, w: float, h: float, fill: str, extra: str = "") -> str:
    return (f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" '
            f'fill="{fill}"{extra}/>')


def _line(x1: float, y1: float, x2: float, y2: float, stroke: str, width: float,
          extra: str = "") -> str:
    return (f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
            f'stroke="{stroke}" stroke-width="{_n(width)}"{extra}/>')


def _text(x: float, y: float, size: float, content: str, extra: str = "") -> str:
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" text-anchor="middle"'
            f'{extra}>{escape(content)}</text>')


def _centre(squares: frozenset[Square] | set[Square]) -> tuple[float, float]:
    """Mean of the squares' centres, in (row, col) units."""
    rows = sum(r for r, _ in squares) / len(squares)
    cols = sum(c for _, c in squares) / len(squares)
    return rows + 0.5, cols + 0.5


def origin(cell: int = 20, title: str | None = None, coordinates: bool = False
           ) -> tuple[float, float]:
    """Where square (0, 0)'s top left corner is drawn: (x, y) in pixels. Drawings laid over
    the board (a route, clickable squares) start from here."""
    margin = cell / 2
    band = cell * 1.1 if coordinates else 0
    return margin + band, margin + band + (cell * 1.2 if title else 0)


def render_svg(board: Board, pieces: Pieces | None = None, heat: Heat | None = None, *,
               cell: int = 20, title: str | None = None,
               colours: Mapping[str, str] | None = None, passages: bool = True,
               coordinates: bool = False, reachable: Iterable[Node] = ()) -> str:
    """The board as an SVG document.

    ``pieces`` places suspects on squares or in rooms (several in one room sit side by side);
    ``heat`` shades rooms or squares: values up to 1 (chances) are shaded on an absolute scale,
    larger values relative to the largest, and rooms also print their value (``11/36``).
    ``colours`` overrides piece colours by suspect id. ``passages=False`` leaves out the
    dashed lines of the secret passages (the staircases stay: they are printed on the board);
    ``coordinates`` numbers the rows down the left side and the columns along the top;
    ``reachable`` squares and rooms (where a piece may go this turn) are filled in blue and
    outlined, a shade apart from the heat's orange.
    """
    palette = {**PIECE_COLOURS, **(colours or {})}
    margin = cell / 2
    left, top = origin(cell, title, coordinates)
    width = board.cols * cell + left + margin
    height = board.rows * cell + top + margin

    def x(col: float) -> float:
        return left + col * cell

    def y(row: float) -> float:
        return top + row * cell

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" '
           f'height="{_n(height)}" viewBox="0 0 {_n(width)} {_n(height)}" '
           f'font-family="sans-serif">',
           f"<title>{escape(board.name)}</title>",
           _rect(0, 0, width, height, OFF_BOARD)]
    if title:
        out.append(_text(width / 2, margin + cell * 0.8, cell * 0.8, title,
                         ' fill="#ffffff" font-weight="bold"'))
    if coordinates:  # "row, col" as the explorer and the table write squares
        small = cell * 0.5
        out.append('<g class="coordinates" fill="#ffffff">')
        out += [_text(left - cell * 0.6, y(row + 0.5) + small * 0.35, small, str(row))
                for row in range(board.rows)]
        out += [_text(x(col + 0.5), top - cell * 0.35, small, str(col))
                for col in range(board.cols)]
        out.append("</g>")

    # Squares, row by row.
    start_of = {sq: suspect for suspect, sq in board.starts.items()}
    out.append('<g class="squares">')
    for row in range(board.rows):
        for col in range(board.cols):
            sq = (row, col)
            kind = board.kind(sq)
            if kind == "corridor":
                fill = palette.get(start_of.get(sq, ""), CORRIDOR) if sq in start_of else CORRIDOR
                out.append(_rect(x(col), y(row), cell, cell, fill,
                                 f' stroke="{CORRIDOR_LINE}" stroke-width="0.5"'))
            elif kind == "room":
                out.append(_rect(x(col), y(row), cell, cell, ROOM))
            elif kind == "unusable":
                out.append(_rect(x(col), y(row), cell, cell, UNUSABLE))
    out.append("</g>")

    # Heat: one translucent layer over rooms and squares.
    shading: list[tuple[Node, Fraction]] = []
    if heat:
        for where, value in heat.items():
            if not isinstance(value, Fraction | int) or value < 0:
                raise ValueError(f"heat values are exact and not negative; {where!r}: {value!r}")
            shading.append((board.locate(where), Fraction(value)))
        scale = max(Fraction(1), max(v for _, v in shading))
        out.append('<g class="heat">')
        for node, value in shading:
            opacity = f' fill-opacity="{_n(0.85 * float(value / scale))}"'
            squares = (sorted(board.room_squares[node]) if isinstance(node, str) else [node])
            for row, col in squares:
                out.append(_rect(x(col), y(row), cell, cell, HEAT, opacity))
        out.append("</g>")

    # Reachable: blue, outlined squares; a reachable room's squares filled a lighter blue.
    targets = [board.locate(node) for node in reachable]
    if targets:
        out.append('<g class="reachable">')
        for node in targets:
            if isinstance(node, str):
                out += [_rect(x(col), y(row), cell, cell, REACHABLE, ' fill-opacity="0.35"')
                        for row, col in sorted(board.room_squares[node])]
            else:
                row, col = node
                out.append(_rect(x(col) + 1, y(row) + 1, cell - 2, cell - 2, REACHABLE,
                                 f' fill-opacity="0.45" stroke="{REACHABLE_EDGE}" '
                                 'stroke-width="2"'))
        out.append("</g>")

    # Walls on every room edge that is not the same room; doors are gaps with a marker.
    door_edges = {(d.square, d.side) for d in board.doors}
    edges = {"north": ((0, 0), (0, 1)), "south": ((1, 0), (1, 1)),
             "west": ((0, 0), (1, 0)), "east": ((0, 1), (1, 1))}
    steps = {"north": (-1, 0), "south": (1, 0), "west": (0, -1), "east": (0, 1)}
    wall_width = max(1.5, cell / 8)
    out.append('<g class="walls">')
    for room in board.rooms:
        for sq in sorted(board.room_squares[room]):
            for side, ((r1, c1), (r2, c2)) in edges.items():
                there = (sq[0] + steps[side][0], sq[1] + steps[side][1])
                if board.room_at(there) == room:
                    continue
                x1, y1, x2, y2 = x(sq[1] + c1), y(sq[0] + r1), x(sq[1] + c2), y(sq[0] + r2)
                if (sq, side) in door_edges:
                    out.append(_line(x1, y1, x2, y2, DOOR, wall_width * 2,
                                     ' stroke-linecap="butt" class="door"'))
                else:
                    out.append(_line(x1, y1, x2, y2, WALL, wall_width,
                                     ' stroke-linecap="square"'))
    out.append("</g>")

    # Secret passages: a staircase mark in each corner room and a dashed line between them.
    stairs = {room: sq for sq, room in sorted(board.staircases.items())}
    out.append('<g class="passages">')
    for a, b in board.passages if passages else ():
        (ra, ca), (rb, cb) = (
            (stairs[r][0] + 0.5, stairs[r][1] + 0.5) if r in stairs
            else _centre(board.room_squares[r]) for r in (a, b))
        out.append(f'<line x1="{_n(x(ca))}" y1="{_n(y(ra))}" x2="{_n(x(cb))}" '
                   f'y2="{_n(y(rb))}" stroke="{WALL}" stroke-width="{_n(cell / 10)}" '
                   f'stroke-dasharray="{_n(cell / 3)} {_n(cell / 4)}" stroke-opacity="0.35" '
                   f'class="passage"><title>{escape(board.room_name(a))} - '
                   f"{escape(board.room_name(b))}</title></line>")
    for sq, _room in sorted(board.staircases.items()):
        inset = cell * 0.15
        out.append(_rect(x(sq[1]) + inset, y(sq[0]) + inset, cell - 2 * inset,
                         cell - 2 * inset, WALL))
        for k in (1, 2, 3):
            yy = y(sq[0]) + inset + k * (cell - 2 * inset) / 4
            out.append(_line(x(sq[1]) + inset, yy, x(sq[1]) + cell - inset - k * cell / 8,
                             yy, ROOM, 1))
    out.append("</g>")

    # Labels: each room's name at the middle of its squares, with its heat value if any.
    heat_of = {node: v for node, v in shading if isinstance(node, str)}
    size = cell * 0.62
    out.append('<g class="labels" fill="#2b2118">')
    for room in board.rooms:
        middle_row, middle_col = _centre(board.room_squares[room])
        out.append(_text(x(middle_col), y(middle_row) + size * 0.35, size, board.room_name(room),
                         ' font-weight="bold"'))
        if room in heat_of:
            value = heat_of[room]   # a chance (up to 1) or a count, in the learner's format
            label = numbers.chance(value) if value <= 1 else numbers.count(value)
            out.append(_text(x(middle_col), y(middle_row) + size * 1.5, size, label))
    if board.unusable:
        middle_row, middle_col = _centre(board.unusable)
        out.append(_text(x(middle_col), y(middle_row) + size * 0.35, size, board.unusable_name,
                         ' font-style="italic"'))
    out.append("</g>")

    # Pieces: a disc per suspect; pieces sharing a room sit on free squares near its middle.
    if pieces:
        out.append('<g class="pieces">')
        in_room: dict[str, list[str]] = {}
        for suspect, where in pieces.items():
            node = board.locate(where)
            if isinstance(node, str):
                in_room.setdefault(node, []).append(suspect)
            else:
                out.append(_piece(suspect, node, palette, x, y, cell))
        for room in board.rooms:
            for suspect, sq in zip(in_room.get(room, []), _slots(board, room), strict=False):
                out.append(_piece(suspect, sq, palette, x, y, cell))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _slots(board: Board, room: str) -> list[Square]:
    """Squares for pieces in a room: two rows below the label (clear of its name and heat
    value) first, nearest the middle; never a door or staircase square."""
    row, col = _centre(board.room_squares[room])
    taken = {d.square for d in board.doors} | set(board.staircases)
    free = [sq for sq in board.room_squares[room] if sq not in taken]
    return sorted(free, key=lambda sq: (abs(sq[0] + 0.5 - (row + 2)),
                                        abs(sq[1] + 0.5 - col), sq))


def _piece(suspect: str, sq: Square, palette: Mapping[str, str],
           x: Callable[[float], float], y: Callable[[float], float], cell: int) -> str:
    colour = palette.get(suspect, "#888888")
    return (f'<circle cx="{_n(x(sq[1] + 0.5))}" cy="{_n(y(sq[0] + 0.5))}" '
            f'r="{_n(cell * 0.38)}" fill="{colour}" stroke="#111111" stroke-width="1.5">'
            f"<title>{escape(suspect)}</title></circle>")


def board_svg(board: Board, pieces: Pieces | None = None, heat: Heat | None = None,
              **options: Any) -> str:
    """The board as SVG; see :func:`render_svg` for the options."""
    return render_svg(board, pieces=pieces, heat=heat, **options)


def game_svg(game: BoardGame, heat: Heat | None = None, **options: Any) -> str:
    """A board game's board with every piece where it stands (deterministic SVG)."""
    options.setdefault("title", f"{game.edition.name}: turn {game.turn_number}")
    return render_svg(game.board, pieces=game.pieces(), heat=heat, **options)
