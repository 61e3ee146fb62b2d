"""The three board games, rule by rule: Cluedo 1949, Clue 2014 (mansion) and Clue 2023 (and
its two-player variation). One test per rule of issue 5's "Rules engine", named after it and
run on every edition the rule applies to; then the API (refusals that change nothing, seeds,
save/load, what each seat's record holds).

Tests steer games through the public API only. They may look at the deal to choose actions
and to work out what must happen (the players cannot), and expected values come from the rule
books and from independent brute force (movement is checked against every self-avoiding walk),
never from the engine's own output.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
import re
from collections.abc import Callable

import pytest

from cluedo_lab.bots.explorer import ExplorerBot
from cluedo_lab.bots.quick_detectives import BoardDetective
from cluedo_lab.bots.strategies import RandomBot
from cluedo_lab.games import game_from_json, new_game
from cluedo_lab.games.board_game import BoardGame
from cluedo_lab.games.game import Action
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.records import ENVELOPE, Record
from cluedo_lab.rules.board import Board, load_board
from cluedo_lab.rules.edition import load_edition
from cluedo_lab.rules.errors import ActionLimit, Contradiction, IllegalAction
from cluedo_lab.views.board_svg import game_svg
from cluedo_lab.views.display import to_svg

E49 = "cluedo-classic-1949"
E14 = "clue-mansion-2014"
E23 = "clue-classic-2023"
E23_2P = "clue-classic-2023-two-player"
PLAYERS = {E49: 4, E14: 4, E23: 4, E23_2P: 2}
ALL = [E49, E14, E23, E23_2P]
PASSAGES = {  # rule books: 1949 Rule 6 (the board's corners), 2014 Secret Passages
    E49: {"kitchen": "study", "study": "kitchen", "lounge": "conservatory",
          "conservatory": "lounge"},
    E14: {"spa": "guest-house", "guest-house": "spa", "kitchen": "observatory",
          "observatory": "kitchen"},
}
PASSAGES[E23] = PASSAGES[E23_2P] = PASSAGES[E49]


# -- helpers ----------------------------------------------------------------------------------

def new(edition: str, seed: int = 0, players: int | None = None, **options) -> BoardGame:
    return new_game(edition, players or PLAYERS[edition], seed, **options)


def kinds(game: BoardGame) -> set[str]:
    return {a.kind for a in game.legal_actions()}


def of_kind(game: BoardGame, kind: str) -> list[Action]:
    return [a for a in game.legal_actions() if a.kind == kind]


def quiet_action(game: BoardGame, rng: random.Random, enter: bool = True) -> Action:
    """A test player that never suggests or accuses: it rolls, goes into a room when it can
    (else to a random square), ends its turn, and answers with a random card."""
    legal = game.legal_actions()
    by_kind: dict[str, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    for kind in ("show", "reveal", "clue"):
        if kind in by_kind:
            return rng.choice(by_kind[kind])
    if "roll" in by_kind:
        return by_kind["roll"][0]
    if "move" in by_kind:
        rooms = [a for a in by_kind["move"] if isinstance(a["to"], str)]
        return rng.choice(rooms if rooms and enter else by_kind["move"])
    if "stay" in by_kind:  # 2023: after the roll, staying is a choice of its own
        return by_kind["stay"][0]
    return by_kind["end"][0]


def advance(game: BoardGame, until: Callable[[BoardGame], bool], seed: int = 0,
            limit: int = 3000, enter: bool = True) -> BoardGame:
    """Let quiet test players act until ``until(game)``."""
    rng = random.Random(seed)
    for _ in range(limit):
        if until(game):
            return game
        assert not game.is_over
        game.apply(quiet_action(game, rng, enter))
    raise AssertionError("the game did not get there")  # pragma: no cover


def steer(edition: str, until: Callable[[BoardGame], bool], seeds=range(40),
          players: int | None = None, **options) -> BoardGame:
    """The first seeded game that quiet play brings to ``until``."""
    for seed in seeds:
        game = new(edition, seed, players, **options)
        try:
            return advance(game, until, seed, limit=600)
        except AssertionError:
            continue
    raise AssertionError("no seed gets there")  # pragma: no cover


def state(game: BoardGame) -> dict:
    """Everything a game holds (caches aside), to compare before and after a refusal."""
    out = {}
    for key, value in vars(game).items():
        if key == "_cache":
            continue
        if key in ("edition", "deal", "fixed"):
            out[key] = id(value)
        elif key == "rng":
            out[key] = value.getstate()
        else:
            out[key] = copy.deepcopy(value)
    out["json"] = game.to_json()
    out["records"] = [game.record_for(s) for s in [*range(len(game.names)), None]]
    out["legal"] = list(game.legal_actions())
    out["status"] = game.status()
    return out


def position(game: BoardGame) -> dict:
    """What a game holds that play changes, with what every seat can see and do."""
    out = {k: copy.deepcopy(v) for k, v in vars(game).items()
           if k not in ("_cache", "edition", "deal", "fixed", "rng")}
    out.update(json=game.to_json(), legal=game.legal_actions(), status=game.status(),
               records=[game.record_for(s) for s in [*range(len(game.names)), None]])
    return out


def test_undo_takes_back_the_last_action_exactly():
    for edition in ALL:
        game = new(edition, 3, false_witness=True)
        rng = random.Random(5)
        for _ in range(40):
            if game.is_over:
                break
            before = position(game)
            action = quiet_action(game, rng)
            game.apply(action)
            assert game.undo() == action
            assert position(game) == before
            game.apply(action)
    with pytest.raises(IllegalAction, match="no action to undo"):
        new(E49, 3).undo()


def refused(game: BoardGame, action: Action | dict, *reason: str) -> str:
    """``action`` raises IllegalAction saying every piece of ``reason`` and nothing changes."""
    before = state(game)
    with pytest.raises(IllegalAction) as error:
        game.apply(action)
    assert state(game) == before
    for piece in reason:
        assert piece in str(error.value), str(error.value)
    return str(error.value)


def hand(game: BoardGame, seat: int) -> set[str]:
    return {c.id for c in game.deal.hands[seat]}


def envelope(game: BoardGame) -> set[str]:
    return {c.id for c in game.deal.envelope}


def last(game: BoardGame, key: str) -> dict:
    return next(e for e in reversed(game.events) if key in e)


def suggest(game: BoardGame, cards: list[str]) -> dict:
    """The current player suggests ``cards``; refuters show their first card. The event."""
    game.apply(Action.make("suggest", game.current, cards=cards))
    while game.phase == "refute":
        game.apply(of_kind(game, "show")[0])
    return last(game, "suggest")


def first_holder(game: BoardGame, asker: int, named: set[str]) -> str | None:
    """Who must show a card, worked out from the deal: the players to the asker's left are
    asked one by one, and the first holding a named card shows one."""
    n = len(game.names)
    for k in range(1, n):
        other = (asker + k) % n
        if hand(game, other) & named:
            return game.names[other]
    return None


def last_named(game: BoardGame) -> list[str]:
    """The cards named by the suggestion being answered."""
    return list(game.pending["named"])


def in_room_to_act(game: BoardGame) -> bool:
    """The current player stands in a room and may suggest now."""
    return game.phase == "act" and game.room_of(game.current) is not None and \
        bool(of_kind(game, "suggest"))


def turn_lines(game: BoardGame) -> list[list[str]]:
    """The log cut into turns (each starts with its '-- Turn' line)."""
    turns: list[list[str]] = []
    for line in game.log:
        if line.startswith("-- Turn"):
            turns.append([])
        if turns:
            turns[-1].append(line)
    return turns


# -- brute-force movement -----------------------------------------------------------------------

def walks(board: Board, start, steps: int, occupied: set, exact: bool = False) -> dict:
    """Every place a move of at most ``steps`` reaches, with the fewest moves, found by trying
    every orthogonal walk that visits no square twice, steps on no occupied square and enters
    a room only through a door (which ends the walk; stepping out through a door costs one
    move, stepping in costs one unless the board says the doorway is no space, as in 2014).
    With ``exact`` a square counts only where a walk of exactly ``steps`` ends there (1949,
    2014: "that number of squares"); rooms need no exact roll either way."""
    door_in = 1 if board.doorway_is_space else 0
    doors: dict = {}
    for door in board.doors:
        doors.setdefault(door.corridor, []).append(door.room)
    best: dict = {}

    def note(place, used: int) -> None:
        if exact and not isinstance(place, str) and used != steps:
            return
        best[place] = min(best.get(place, used), used)

    def walk(square, visited: frozenset, used: int) -> None:
        for room in doors.get(square, ()):
            if room != start and used + door_in <= steps:
                note(room, used + door_in)
        if used == steps:
            return
        r, c = square
        for nxt in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if nxt in board.corridors and nxt not in visited and nxt not in occupied:
                note(nxt, used + 1)
                walk(nxt, visited | {nxt}, used + 1)

    if isinstance(start, str):
        for door in board.doors:
            if door.room == start and door.corridor not in occupied and steps >= 1:
                note(door.corridor, 1)
                walk(door.corridor, frozenset({door.corridor}), 1)
    else:
        walk(start, frozenset({start}), 0)
    best.pop(start, None)
    return best


def exact(game: BoardGame) -> bool:
    return game.edition.turns.movement == "exact"


def occupied_by_others(game: BoardGame, seat: int) -> set:
    mine = game.characters[seat]
    return {p for s, p in game.positions.items() if s != mine and not isinstance(p, str)}


def brute_targets(game: BoardGame) -> tuple[tuple, tuple]:
    return brute_targets_for(game, game.current)


def brute_targets_for(game: BoardGame, seat: int) -> tuple[tuple, tuple]:
    found = walks(game.board, game.piece(seat), game.total, occupied_by_others(game, seat),
                  exact(game))
    rooms = tuple(r for r in game.board.rooms if r in found)
    return (tuple(sorted(rooms, key=game.fixed.order.__getitem__)),
            tuple(sorted(p for p in found if not isinstance(p, str))))


def engine_targets(game: BoardGame) -> tuple[tuple, tuple]:
    rooms, squares = game.targets()
    return tuple(sorted(rooms, key=game.fixed.order.__getitem__)), tuple(squares)


def move_states(edition: str, games: int = 12, dice: int = 1):
    """Every move phase of a few quiet games with one die (so brute force stays small),
    Clue cards off (an 'any room' card is not a walk)."""
    options = {"dice": dice, "clue_cards": False} if edition in (E23, E23_2P) else \
        {"dice": dice}
    for seed in range(games):
        game = new(edition, seed, **options)
        rng = random.Random(seed)
        for _ in range(400):
            if game.is_over:
                break
            if game.phase == "move":
                yield game
            game.apply(quiet_action(game, rng, enter=rng.random() < 0.6))


# =============================================================================================
# Turn order
# =============================================================================================

@pytest.mark.parametrize("players", range(2, 7))
def test_turn_order_1949_miss_scarlett_first_then_clockwise(players):
    game = new(E49, 3, players)
    assert game.characters[game.turn] == "scarlett" and game.turn_number == 1
    advance(game, lambda g: g.turn_number > 2 * players)
    seats = [game.names.index(re.match(r"-- Turn \d+: (P\d+)", t[0]).group(1))
             for t in turn_lines(game)]
    assert seats == [k % players for k in range(len(seats))]   # seat 0 plays Scarlett
    # Whoever sits where, the seat playing Miss Scarlett starts.
    game = new(E49, 3, 3, characters=["Plum", "White", "Scarlet"])
    assert game.turn == 2 and game.characters == ("plum", "white", "scarlett")
    with pytest.raises(ValueError, match="Miss Scarlett always moves first"):
        new(E49, 3, 3, characters=["plum", "white", "green"])


@pytest.mark.parametrize("edition", [E14, E23, E23_2P])
def test_turn_order_highest_roll_starts_and_ties_roll_again_then_clockwise(edition):
    ties = 0
    players = 2 if edition == E23_2P else 5
    for seed in range(40):
        game = new(edition, seed, players)
        rounds = []
        for line in game.log:
            if line.startswith("Roll for the first turn: "):
                rolls = dict(part.split() for part in line.split(": ", 1)[1].split(", "))
                rounds.append({name: int(r) for name, r in rolls.items()})
        assert set(rounds[0]) == set(game.names)
        for before, after in zip(rounds, rounds[1:], strict=False):
            top = max(before.values())
            tied = {n for n, r in before.items() if r == top}
            assert len(tied) > 1 and set(after) == tied     # only the tied seats roll again
            ties += 1
        final = rounds[-1]
        winner = max(final, key=final.get)
        assert list(final.values()).count(final[winner]) == 1
        assert game.names[game.turn] == winner
        assert all(1 <= r <= 6 for r in final.values())
    assert ties >= 5                                        # ties happen and are re-rolled
    # Then play goes clockwise (to the left, in seat order) from the starter.
    advance(game, lambda g: g.turn_number > 2 * players)
    seats = [game.names.index(re.match(r"-- Turn \d+: (P\d+)", t[0]).group(1))
             for t in turn_lines(game)]
    assert seats == [(seats[0] + k) % players for k in range(len(seats))]


# =============================================================================================
# Movement
# =============================================================================================

@pytest.mark.parametrize("edition", [E49, E14, E23, E23_2P])
def test_movement_orthogonal_no_square_twice_by_the_roll(edition):
    """Every move phase offers exactly the places some walk reaches (brute force): squares
    where a walk of the whole roll ends (1949, 2014) or within the roll (2023)."""
    checked = 0
    for game in move_states(edition):
        assert engine_targets(game) == brute_targets(game)
        checked += 1
    assert checked > 100


@pytest.mark.parametrize("edition", [E49, E14, E23, E23_2P])
def test_movement_never_onto_or_through_an_occupied_square(edition):
    blocked_cases = 0
    for game in move_states(edition, games=20):
        seat = game.current
        occupied = occupied_by_others(game, seat)
        rooms, squares = engine_targets(game)
        assert not occupied & set(squares)
        free = walks(game.board, game.piece(seat), game.total, set())
        if occupied & set(free):                            # a piece is in the way
            blocked_cases += 1
            assert (rooms, squares) == brute_targets(game)
            taken = next(sq for sq in sorted(p for p in free if not isinstance(p, str))
                         if sq in occupied)
            refused(game, Action.make("move", seat, to=list(taken)), "occupied by")
    assert blocked_cases >= 3


@pytest.mark.parametrize("edition", [E49, E14, E23, E23_2P])
def test_movement_rooms_only_through_doors(edition):
    board = load_board(load_edition(edition).board)
    walls = 0
    for game in move_states(edition, games=20):
        rooms, _ = engine_targets(game)
        # Squares a walk passes (an exact move need not end on the door's square).
        squares = {p for p in walks(board, game.piece(game.current), game.total,
                                    occupied_by_others(game, game.current)) if
                   not isinstance(p, str)}
        for room in rooms:                       # each room is entered from a door's square
            via = {d.corridor for d in board.doors if d.room == room}
            assert via & (set(squares) | {game.piece(game.current)}), room
        # A room touching a square in reach, but through a wall only, is not offered.
        for square in (*squares, game.piece(game.current)):
            if isinstance(square, str):
                continue
            r, c = square
            for nxt in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                room = board.room_at(nxt)
                doors = {d.corridor for d in board.doors if d.room == room}
                if room and room not in rooms and room != game.piece(game.current) and \
                        not doors & (set(squares) | {game.piece(game.current)}):
                    walls += 1
    assert walls > 50
    game = next(move_states(edition))
    refused(game, Action.make("move", game.current, to=[*sorted(board.room_squares["hall"])[0]]),
            "enter rooms through doors")


@pytest.mark.parametrize("edition", [E49, E14, E23, E23_2P])
def test_movement_entering_a_room_ends_the_move(edition):
    game = steer(edition, lambda g: g.phase == "move" and any(
        isinstance(a["to"], str) for a in of_kind(g, "move")))
    seat = game.current
    room = next(a["to"] for a in of_kind(game, "move") if isinstance(a["to"], str))
    game.apply(Action.make("move", seat, to=room))
    assert game.piece(seat) == room and game.phase == "act"
    assert "move" not in kinds(game)
    refused(game, Action.make("move", seat, to=list(game.board.doors_of(room)[0].corridor)),
            "already moved")
    # And no walk passes through a room: squares reached only beyond a room are not offered.
    for game in move_states(edition, games=6):
        assert engine_targets(game) == brute_targets(game)


@pytest.mark.parametrize("edition", [E49, E14, E23, E23_2P])
def test_movement_no_exact_roll_needed(edition):
    short = 0
    for game in move_states(edition, games=20):
        found = walks(game.board, game.piece(game.current), game.total,
                      occupied_by_others(game, game.current), exact(game))
        rooms, squares = engine_targets(game)
        for room in rooms:
            if found[room] < game.total:
                short += 1
        # Corridor moves stop short of the roll only in 2023 ("up to").
        assert {sq for sq in squares} == {p for p in found if not isinstance(p, str)}
    assert short > 20


def test_movement_when_blocked_in_a_room_counts_as_staying():
    """Choice: a roll that reaches nothing (every door blocked) leaves the piece where it is;
    in a room it may still suggest there (1949), in a corridor the turn just ends."""
    def stuck(g: BoardGame) -> bool:
        return g.phase == "act" and "cannot move" in g.log[-1]
    found = set()
    for edition in (E49, E14):
        for seed in range(200):
            game = new(edition, seed, 6)
            try:
                advance(game, stuck, seed, limit=300, enter=False)
            except AssertionError:
                continue
            seat = game.current
            assert game.rolled and "move" not in kinds(game)
            assert brute_targets_for(game, seat) == ((), ())   # nowhere to go indeed
            room = game.room_of(seat)
            assert bool(of_kind(game, "suggest")) == (room is not None and edition != E14)
            found.add(edition)
            break
    assert found == {E49, E14}


# =============================================================================================
# Secret passages, staying
# =============================================================================================

def stay(game: BoardGame, seat: int) -> None:
    """``seat`` keeps its piece where it is this turn: at once where staying replaces the roll
    (1949, 2014), after the roll where every turn rolls first (2023)."""
    if game.roll_first:
        game.apply(Action.make("roll", seat))
        while game.phase in ("clue-choose", "clue-show"):
            game.apply(game.legal_actions()[0])
    game.apply(Action.make("stay", seat))


@pytest.mark.parametrize("edition", [E49, E14])
def test_secret_passage_instead_of_rolling(edition):
    """1949 rule 6 and 2014 Secret Passages: the passage is taken instead of the roll."""
    passages = PASSAGES[edition]
    game = steer(edition, lambda g: g.phase == "start" and g.room_of(g.current) in passages)
    seat, here = game.current, game.room_of(game.current)
    there = passages[here]
    assert Action.make("passage", seat, to=there) in game.legal_actions()
    assert [a["to"] for a in of_kind(game, "passage")] == [there]
    throws = game.throws
    game.apply(Action.make("passage", seat, to=game.board.room_name(there)))  # names work too
    assert game.piece(seat) == there and game.throws == throws and game.rolled == ()
    assert game.phase == "act" and of_kind(game, "suggest")          # it is this turn's move
    refused(game, Action.make("roll", seat), "already moved")
    # Once rolled, the piece moves: no passage after the roll.
    game = steer(edition, lambda g: g.phase == "move" and g.room_of(g.current) in passages)
    assert not of_kind(game, "passage") and not of_kind(game, "stay")
    refused(game, Action.make("passage", game.current, to=passages[game.room_of(game.current)]),
            "replaces the roll")
    # From a room without a passage, and from a corridor, there is none.
    game = steer(edition, lambda g: g.phase == "start" and g.room_of(g.current) is not None
                 and g.room_of(g.current) not in passages)
    assert not of_kind(game, "passage")
    refused(game, Action.make("passage", game.current, to="kitchen"), "has no secret passage")
    game = steer(edition, lambda g: g.phase == "start" and g.room_of(g.current) is None)
    refused(game, Action.make("passage", game.current, to="kitchen"), "is not in a room")


@pytest.mark.parametrize("edition", [E23, E23_2P])
def test_2023_every_turn_rolls_first_then_moves_stays_or_takes_the_passage(edition):
    """2023 ON YOUR TURN: roll the dice, then act; a player already in a room may stay to
    suggest or take its secret passage, and nobody has to move."""
    passages = PASSAGES[edition]
    game = steer(edition, lambda g: g.phase == "start" and g.room_of(g.current) in passages)
    seat, here = game.current, game.room_of(game.current)
    assert kinds(game) <= {"roll", "accuse"} and "roll" in kinds(game)   # nothing instead
    refused(game, Action.make("passage", seat, to=passages[here]), "must roll the dice first")
    refused(game, Action.make("stay", seat), "must roll the dice first")
    throws = game.throws
    game.apply(Action.make("roll", seat))
    assert game.throws == throws + game.dice.count
    while game.phase in ("clue-choose", "clue-show"):
        game.apply(game.legal_actions()[0])
    assert game.phase == "move" and game.current == seat
    assert {"passage", "stay"} <= kinds(game)
    assert [a["to"] for a in of_kind(game, "passage")] == [passages[here]]
    trial = game_from_json(game.to_json())
    trial.apply(Action.make("passage", seat, to=passages[here]))
    assert trial.piece(seat) == passages[here] and trial.phase == "act"
    assert of_kind(trial, "suggest")
    game.apply(Action.make("stay", seat))
    assert game.piece(seat) == here and game.phase == "act" and of_kind(game, "suggest")
    refused(game, Action.make("roll", seat), "already moved")
    # In a corridor, too, the piece may stay where it is after the roll.
    game = steer(edition, lambda g: g.phase == "move" and g.room_of(g.current) is None)
    square = game.piece(game.current)
    assert not of_kind(game, "passage")
    game.apply(Action.make("stay", game.current))
    assert game.piece(game.current) == square and kinds(game) <= {"end", "check"}


def test_2023_a_piece_in_a_room_can_draw_a_clue_card_every_turn():
    """Rolling first means a player waiting in a room still rolls, and a magnifying glass
    draws a Clue card (the rule the kit once broke by letting staying replace the roll)."""
    drawn = 0
    for seed in range(30):
        game = new(E23, seed)
        rng = random.Random(seed)
        for _ in range(300):
            if game.is_over:
                break
            if game.phase == "start" and game.room_of(game.current) is not None:
                before = len([line for line in game.log if "draws a Clue card" in line])
                game.apply(Action.make("roll", game.current))
                drawn += len([line for line in game.log if "draws a Clue card" in line]) > before
            game.apply(quiet_action(game, rng))
    assert drawn > 0


@pytest.mark.parametrize("edition", ALL)
def test_staying_in_a_room(edition):
    """1949 rule 5 and 7, 2023 "if you reach or stay in a room": stay and suggest. 2014: "you
    cannot stay in the same room ...", except in a room another player's suggestion moved
    your piece to."""
    if edition == E14:
        game = steer(edition, lambda g: g.phase == "start" and g.room_of(g.current) is not None
                     and not g.summoned_now)
        assert not of_kind(game, "stay")
        refused(game, Action.make("stay", game.current), "may not stay")
        # Carry the next player's piece into a room: on its turn it may stay there.
        game = steer(edition, in_room_to_act)
        target = (game.current + 1) % len(game.names)
        game.apply(Action.make("suggest", game.current,
                               cards=[game.characters[target], game.fixed.weapons[0]]))
        advance(game, lambda g: g.phase == "start" and g.current == target)
        assert game.summoned_now and of_kind(game, "stay")
    else:
        game = steer(edition, lambda g: g.phase == "start" and g.room_of(g.current) is not None)
    seat, room = game.current, game.room_of(game.current)
    throws = game.throws
    stay(game, seat)
    assert game.piece(seat) == room and game.phase == "act"
    assert (game.throws == throws) == (not game.roll_first)     # 2023 rolled first
    assert of_kind(game, "suggest")
    game = steer(edition, lambda g: g.phase == "start" and g.room_of(g.current) is None)
    refused(game, Action.make("stay", game.current),
            "must roll the dice first" if game.roll_first else "is not in a room")


# =============================================================================================
# Suggestions
# =============================================================================================

@pytest.mark.parametrize("edition", ALL)
def test_suggestion_only_in_the_room_you_are_in(edition):
    game = steer(edition, lambda g: g.phase == "act" and g.room_of(g.current) is None)
    seat = game.current
    assert not of_kind(game, "suggest")
    refused(game, Action.make("suggest", seat, cards=["plum", game.fixed.weapons[0]]),
            "not in a room")
    game = steer(edition, in_room_to_act)
    seat, room = game.current, game.room_of(game.current)
    other = next(r for r in game.fixed.rooms if r != room)
    weapon = game.fixed.weapons[0]
    assert all(len(a["cards"]) == 2 for a in of_kind(game, "suggest"))   # the room is implied
    # 1949 5(d) calls "any other Person": the suggester's own piece is left out.
    assert len(of_kind(game, "suggest")) == (30 if edition == E49 else 36)
    refused(game, Action.make("suggest", seat, cards=["plum", weapon, other]),
            "name one suspect and one weapon", game.board.room_name(room))
    assert suggest(game, ["plum", weapon])["suggest"] == sorted(
        ["plum", weapon, room], key=game.fixed.order.__getitem__)
    refused(game, Action.make("suggest", seat, cards=["plum", weapon]), "already made")


@pytest.mark.parametrize("edition", ALL)
def test_suggested_suspect_and_weapon_move_there_and_stay(edition):
    game = steer(edition, in_room_to_act)
    seat, room = game.current, game.room_of(game.current)
    n = len(game.names)
    target = (seat + 1) % n          # name the next player's piece: it is summoned
    suspect = game.characters[target]
    weapon = next(w for w, r in game.weapons.items() if r != room)
    others = {w: r for w, r in game.weapons.items() if w != weapon}
    game.apply(Action.make("suggest", seat, cards=[suspect, weapon]))
    assert game.positions[suspect] == room and game.weapons[weapon] == room
    assert {w: r for w, r in game.weapons.items() if w != weapon} == others
    advance(game, lambda g: g.phase == "start" and g.current == target)
    # Not put back: the summoned player starts its turn in that room.
    assert game.piece(target) == room and game.weapons[weapon] == room
    assert game.log[-1].endswith(f"in the {game.board.room_name(room)}")


@pytest.mark.parametrize("edition", ALL)
def test_refutation_goes_to_the_left_in_order(edition):
    checked = 0
    for seed in range(8):
        game = steer(edition, in_room_to_act, seeds=[seed, *range(100, 140)])
        seat, room = game.current, game.room_of(game.current)
        n = len(game.names)
        rng = random.Random(seed)
        suspect = rng.choice(game.callable_suspects(seat))    # 1949: never your own piece
        weapon = rng.choice(game.fixed.weapons)
        named = {suspect, weapon, room}
        shower = first_holder(game, seat, named)
        game.apply(Action.make("suggest", seat, cards=[suspect, weapon]))
        held = hand(game, game.names.index(shower)) & named if shower else set()
        # Whoever can show a card shows it by a move of their own, even with one card to
        # show: waiting only for a choice would tell the table that they hold two.
        assert (game.phase == "refute") == bool(held)
        while game.phase == "refute":
            game.apply(of_kind(game, "show")[0])
        event = last(game, "suggest")
        left = [game.names[(seat + k) % n] for k in range(1, n)]
        assert event.get("shown_by") == shower
        assert event["passed"] == (left if shower is None else left[:left.index(shower)])
        if shower is not None:
            assert event["card"] in hand(game, game.names.index(shower)) & named
        checked += 1
    assert checked == 8


@pytest.mark.parametrize("edition", ALL)
def test_refuter_chooses_which_card_when_holding_several(edition):
    for seed in range(60):
        game = steer(edition, in_room_to_act, seeds=[seed])
        seat = game.current
        left = (seat + 1) % len(game.names)
        mine = hand(game, left)
        suspects = [c for c in game.callable_suspects(seat) if c in mine]
        weapons = [c for c in game.fixed.weapons if c in mine]
        if suspects and weapons:
            break
    else:  # pragma: no cover
        raise AssertionError("no seed deals the left player a suspect and a weapon")
    game.apply(Action.make("suggest", seat, cards=[suspects[0], weapons[0]]))
    held = {suspects[0], weapons[0]} | (mine & {game.room_of(seat)})
    assert game.phase == "refute" and game.current == left
    assert {a["card"] for a in game.legal_actions()} == held
    assert kinds(game) == {"show"}
    unheld = next(c for c in last_named(game) if c not in held) if len(held) < 3 else None
    if unheld:
        refused(game, Action.make("show", left, card=unheld), "does not hold")
    for card in sorted(held):
        trial = game_from_json(game.to_json())
        trial.apply(Action.make("show", left, card=card))
        assert last(trial, "suggest")["card"] == card
        assert last(trial, "suggest")["shown_by"] == trial.names[left]


# =============================================================================================
# 2014: leave and re-enter
# =============================================================================================

def test_2014_leave_and_reenter_to_suggest_in_a_room_again():
    game = steer(E14, in_room_to_act)
    seat, room = game.current, game.room_of(game.current)
    game.apply(of_kind(game, "suggest")[0])
    advance(game, lambda g: g.phase == "act" and g.current == seat and "suggest" not in
            {a.kind for a in g.legal_actions()} and "end" in kinds(g))
    game.apply(Action.make("end", seat))
    # Next turn: staying there does not allow a suggestion...
    advance(game, lambda g: g.phase == "start" and g.current == seat)
    assert game.piece(seat) == room
    assert not of_kind(game, "stay")        # staying is refused: it would not allow one
    refused(game, Action.make("stay", seat), "may not stay", "leave it and come back in")
    # ...and leaving cannot come back in the same turn, even by another door.
    game.apply(Action.make("roll", seat))
    if game.phase == "move":
        assert room not in game.targets()[0]
        refused(game, Action.make("move", seat, to=room), "already in the")
    # Leave (to the square nearest the room: 2014 moves the whole roll), and on a later turn
    # come back in: a suggestion is allowed again.
    if game.phase == "move" and game.targets()[1]:
        near = min(game.targets()[1], key=lambda sq: game.board.walk.free(sq).get(room, 99))
        game.apply(Action.make("move", seat, to=list(near)))
        game.apply(Action.make("end", seat))
        advance(game, lambda g: g.phase == "move" and g.current == seat)
        if room in game.targets()[0]:
            game.apply(Action.make("move", seat, to=room))
            assert of_kind(game, "suggest")
            return
    pytest.fail("this seed never re-entered the room; pick another")  # pragma: no cover


@pytest.mark.parametrize("edition", ALL)
def test_piece_moved_by_a_suggestion_may_suggest_there_next_turn(edition):
    """2014's exception to leave-and-re-enter; in 1949 and 2023 staying always allows it."""
    game = steer(edition, in_room_to_act)
    seat, room = game.current, game.room_of(game.current)
    target = (seat + 1) % len(game.names)
    if game.piece(target) == room:  # pragma: no cover - quiet play rarely shares a room
        pytest.skip("the next player is already there")
    game.apply(Action.make("suggest", seat, cards=[game.characters[target],
                                                   game.fixed.weapons[0]]))
    advance(game, lambda g: g.phase == "start" and g.current == target)
    stay(game, target)
    assert game.piece(target) == room and of_kind(game, "suggest")  # all editions: yes
    game.apply(Action.make("end", target))
    advance(game, lambda g: g.phase == "start" and g.current == target)
    if game.piece(target) == room and edition == E14:
        # Only on that next turn (2014): then staying is not even allowed.
        refused(game, Action.make("stay", target), "may not stay")
    elif game.piece(target) == room:
        stay(game, target)
        assert of_kind(game, "suggest")     # staying is enough in 1949 and 2023


# =============================================================================================
# Accusations
# =============================================================================================

@pytest.mark.parametrize("edition", [E23, E23_2P])
def test_2023_accusation_from_any_room_naming_any_room(edition):
    game = steer(edition, lambda g: g.phase == "start" and g.room_of(g.current) is not None
                 and g.room_of(g.current) not in envelope(g), clue_cards=False)
    seat, here = game.current, game.room_of(game.current)
    answer = sorted(envelope(game), key=game.fixed.order.__getitem__)
    # "Roll the dice then you may perform one or more actions": not before the roll.
    assert kinds(game) == {"roll"}
    refused(game, Action.make("accuse", seat, cards=answer), "begins with a roll")
    game.apply(Action.make("roll", seat))
    game.apply(Action.make("stay", seat))
    assert Action.make("accuse", seat, cards=answer) in game.legal_actions()
    assert len(of_kind(game, "accuse")) == 6 * 6 * 9
    game.apply(Action.make("accuse", seat, cards=answer))
    assert game.is_over and game.winner == seat and here not in answer
    # From a corridor: no accusation.
    game = steer(edition, lambda g: g.phase == "act" and g.room_of(g.current) is None,
                 clue_cards=False)
    assert not of_kind(game, "accuse")
    refused(game, Action.make("accuse", game.current, cards=answer), "must be in a room")


@pytest.mark.parametrize("edition", [E49, E14])
def test_accusation_in_the_same_turn_as_your_own_suggestion(edition):
    """1949 5(g), 2014 Accusations: after your suggestion, in that turn, naming any room."""
    game = steer(edition, lambda g: g.phase == "start" and g.room_of(g.current) is not None)
    answer = sorted(envelope(game), key=game.fixed.order.__getitem__)
    refused(game, Action.make("accuse", game.current, cards=answer), "same turn as your own")
    game = steer(edition, in_room_to_act)
    seat = game.current
    refused(game, Action.make("accuse", seat, cards=answer), "same turn as your own")
    # A card shown ends the turn: no accusation after it.
    event = suggest(game, list(of_kind(game, "suggest")[0]["cards"]))
    if event.get("shown_by"):
        refused(game, Action.make("accuse", seat, cards=answer), "ends your turn")
    # After a suggestion nobody could answer, any room may be named.
    game = steer(edition, lambda g: in_room_to_act(g) and unanswerable(g) is not None)
    seat = game.current
    assert not suggest(game, unanswerable(game)).get("shown_by")
    assert len(of_kind(game, "accuse")) == 6 * 6 * 9
    game.apply(Action.make("accuse", seat, cards=answer))
    assert game.winner == seat


def unanswerable(game: BoardGame) -> list[str] | None:
    """A suspect and weapon the current player may name that nobody else can show, in a room
    nobody else can show either (cards of the envelope, the player's hand or face up)."""
    seat = game.current
    safe = envelope(game) | hand(game, seat) | {c.id for c in game.deal.face_up}
    if game.room_of(seat) not in safe:
        return None
    suspect = next((c for c in game.callable_suspects(seat) if c in safe), None)
    weapon = next((c for c in game.fixed.weapons if c in safe), None)
    return None if suspect is None or weapon is None else [suspect, weapon]


def accusing(edition: str, **options) -> BoardGame:
    """A game where the current player may accuse now (after a suggestion if need be: one
    nobody can answer where a shown card ends the turn)."""
    game = steer(edition, lambda g: bool(of_kind(g, "accuse")) or (
        in_room_to_act(g) and unanswerable(g) is not None), **options)
    if not of_kind(game, "accuse"):
        suggest(game, unanswerable(game))
    return game


@pytest.mark.parametrize("edition", ALL)
def test_one_accusation_per_player_and_wrong_accuser_stays_only_to_refute(edition):
    game = accusing(edition)
    seat = game.current
    truth = envelope(game)
    wrong = next(a for a in of_kind(game, "accuse") if set(a["cards"]) != truth)
    game.apply(wrong)
    event = last(game, "accuse")
    assert (event["accuse"], event["by"], event["correct"]) == \
        (list(wrong["cards"]), game.names[seat], False)
    assert set(event["envelope"]) == truth          # the accuser looked in the envelope
    assert not game.is_over and game.current != seat and not game.active(seat)
    assert ("makes no more suggestions or accusations" if edition == E14    # it still moves
            else "takes no more turns but still shows cards") in game.log[-2]
    refused(game, Action.make("accuse", seat, cards=sorted(truth)), "accused wrongly")
    # The others ask about the wrong accuser's cards: they must still answer, never play.
    theirs = hand(game, seat)
    suspect = next(c for c in game.fixed.suspects + game.fixed.weapons if c in theirs)
    pair = [suspect, game.fixed.weapons[0] if suspect in game.fixed.suspects else "plum"]
    rng = random.Random(1)
    shown = 0
    while not game.is_over and game.turn_number < 80:
        assert game.turn != seat or edition == E14
        assert game.turn != seat or "suggest" not in kinds(game)
        if in_room_to_act(game) and game.characters[game.current] not in pair:
            asker = game.current
            event = suggest(game, pair)
            expected = first_holder(game, asker, set(event["suggest"]))
            assert event.get("shown_by") == expected
            shown += expected == game.names[seat]
            continue
        game.apply(quiet_action(game, rng))
    assert shown >= 2


@pytest.mark.parametrize("edition", ALL)
def test_game_ends_when_someone_is_right(edition):
    game = accusing(edition)
    seat = game.current
    game.apply(Action.make("accuse", seat, cards=list(envelope(game))))
    assert game.is_over and game.winner == seat and game.current is None
    assert game.legal_actions() == [] and last(game, "accuse")["correct"] is True
    assert "solves the crime" in game.log[-1]
    refused(game, Action.make("end", seat), "the game is over", f"{game.names[seat]} won")


def accusing_now(game: BoardGame, limit: int = 3000) -> BoardGame:
    """Bring ``game`` to a moment its current player may accuse (AssertionError if ``limit``
    actions do not: in 1949 a player may find no suggestion nobody can answer)."""
    rng = random.Random(0)
    for _ in range(limit):
        if of_kind(game, "accuse"):
            return game
        if in_room_to_act(game):
            suggest(game, unanswerable(game) or list(of_kind(game, "suggest")[0]["cards"]))
        else:
            game.apply(quiet_action(game, rng))
    raise AssertionError("no accusation came within reach")


@pytest.mark.parametrize("edition", ALL)
def test_game_ends_when_nobody_can_still_win(edition):
    game = new(edition, 5)
    rng = random.Random(5)
    truth = envelope(game)
    while not game.is_over:
        accusations = [a for a in of_kind(game, "accuse") if set(a["cards"]) != truth]
        if accusations:
            game.apply(accusations[0])
        elif in_room_to_act(game):
            suggest(game, unanswerable(game) or list(of_kind(game, "suggest")[0]["cards"]))
        else:
            game.apply(quiet_action(game, rng))
    assert game.winner is None and not any(game.active(s) for s in range(len(game.names)))
    assert [e["correct"] for e in game.events if "accuse" in e] == [False] * len(game.names)
    assert "Nobody can still win" in game.log[-1]


def _all_but_the_last_accuse_wrongly(edition: str, seed: int, limit: int = 5000
                                     ) -> BoardGame | None:
    """A seeded game where every player but the last has accused wrongly, or None if
    ``limit`` actions do not get there (in 1949 a player whose own piece is the only suspect
    nobody else can show never makes the suggestion nobody answers that an accusation needs)."""
    game = new(edition, seed)
    rng = random.Random(seed)
    truth = envelope(game)
    last_one = len(game.names) - 1
    for _ in range(limit):
        if sum(game.active(s) for s in range(len(game.names))) == 1:
            return game
        accusations = [a for a in of_kind(game, "accuse") if set(a["cards"]) != truth]
        if accusations and game.current != last_one:
            game.apply(accusations[0])
        elif in_room_to_act(game) and game.current != last_one:
            suggest(game, unanswerable(game) or list(of_kind(game, "suggest")[0]["cards"]))
        else:
            game.apply(quiet_action(game, rng))
    return None


@pytest.mark.parametrize("edition", ALL)
def test_last_player_left_plays_on_until_they_accuse(edition):
    game = next(g for g in map(_all_but_the_last_accuse_wrongly, [edition] * 20, range(6, 26))
                if g is not None)
    last_one = len(game.names) - 1
    assert not game.is_over and game.active(last_one)
    turns = game.turn_number
    advance(game, lambda g: g.turn_number >= turns + 3)
    # Every turn is now the last player's (2014: the others still move, never suggesting).
    if edition != E14:
        assert all(f": {game.names[last_one]} (" in t[0] for t in turn_lines(game)[-3:])
    accusation = next(iter(of_kind(accusing_now(game), "accuse")))
    game.apply(accusation)
    assert game.is_over


# =============================================================================================
# False witness
# =============================================================================================

@pytest.mark.parametrize("edition", ALL)
def test_false_witness_rule(edition):
    # By default nobody may withhold a card.
    game = steer_refute(edition)
    refused(game, Action.make("pass", game.current), "false-witness rule", "false_witness=True")

    # With the option, the left player shows a card, then later withholds it (a lie) ...
    for seed in range(40):
        game = steer(edition, in_room_to_act, seeds=[seed], false_witness=True)
        witness = game.current
        liar = (witness + 1) % len(game.names)
        held = sorted(c for c in hand(game, liar) if c in game.callable_suspects(witness))
        if held and game.room_of(witness) not in hand(game, liar):
            break
    else:  # pragma: no cover
        raise AssertionError("no seed")
    card = held[0]
    weapon = next(w for w in game.fixed.weapons if w not in hand(game, liar))
    game.apply(Action.make("suggest", witness, cards=[card, weapon]))
    assert game.phase == "refute" and game.current == liar
    assert {a.kind for a in game.legal_actions()} == {"show", "pass"}
    game.apply(Action.make("show", liar, card=card))
    assert not of_kind(game, "check")                       # nobody has lied yet
    # ... when the witness asks about it again.
    first = game.turn_number
    advance(game, lambda g: g.turn_number > first and g.current == witness and
            in_room_to_act(g))
    game.apply(Action.make("suggest", witness, cards=[card, weapon]))
    assert game.phase == "refute" and game.current == liar
    game.apply(Action.make("pass", liar))
    while game.phase == "refute":
        game.apply(of_kind(game, "show")[0])
    event = last(game, "suggest")
    assert event["passed"][0] == game.names[liar]
    # Every record now holds the lie: the witness's record has no consistent deal.
    with pytest.raises(Contradiction):
        Knowledge(game.record(witness))
    # On the witness's turn (now, before ending it), they may prove it ...
    check = Action.make("check", witness, player=game.names[liar], card=card)
    assert check in game.legal_actions()
    for seat in range(len(game.names)):                    # nobody else saw the card
        if seat not in (witness, liar):
            assert not game.proofs(seat)
    game.apply(check)
    assert game.false_witnesses[liar] and not game.active(liar)
    assert last(game, "reveal") == {"reveal": card, "by": game.names[liar]}
    for seat in [*range(len(game.names)), None]:            # everyone sees the withheld card
        assert any(e.get("reveal") == card for e in game.record_for(seat)["events"])
    refused(game, check, "already takes no more turns")
    # ... and the liar takes no more turns but still answers suggestions.
    first = game.turn_number
    advance(game, lambda g: g.turn_number > first and g.current == witness and
            in_room_to_act(g))
    assert suggest(game, [card, weapon]).get("shown_by") == game.names[liar]
    turns = game.turn_number
    advance(game, lambda g: g.turn_number > turns + 2 * len(g.names))
    assert all(f": {game.names[liar]} (" not in t[0] for t in turn_lines(game)[-2 * len(
        game.names):])
    assert game.status().count("false witness") == 1


# =============================================================================================
# Spare cards
# =============================================================================================

@pytest.mark.parametrize("edition, players", [(E49, n) for n in range(2, 7)] +
                         [(E23, n) for n in range(3, 7)])
def test_spare_cards_1949_dealt_unevenly(edition, players):
    """1949 Act 9 (and 2023, by the edition file's assumption)."""
    game = new(edition, 2, players)
    sizes = [len(h) for h in game.deal.hands]
    # Act 9: all 18 cards dealt one at a time clockwise, some players get one more.
    assert sum(sizes) == 18 and max(sizes) - min(sizes) <= (0 if 18 % players == 0 else 1)
    assert sorted(sizes, reverse=True) == sizes and not game.deal.face_up
    assert all("face_up" not in game.record_for(s) for s in range(players))


@pytest.mark.parametrize("players", range(3, 7))
def test_spare_cards_2014_face_up(players):
    game = new(E14, 2, players)
    sizes = {len(h) for h in game.deal.hands}
    spares = 18 % players                      # Set the Scene 5: equal hands, spares face up
    assert sizes == {18 // players} and len(game.deal.face_up) == spares
    face_up = sorted(c.id for c in game.deal.face_up)
    for seat in [*range(players), None]:
        record = game.record_for(seat)
        assert sorted(record.get("face_up", [])) == face_up
        known = Knowledge(game.record(seat))
        for card in face_up:
            assert known.probability(card, ENVELOPE) == 0
    if spares:
        assert any(line.startswith("Face up for everyone: ") for line in game.log)


def test_spare_pieces_1949_in_rooms_2014_and_2023_on_their_start_squares():
    game = new(E49, 4, 3)
    spare = [s for s in game.fixed.suspects if s not in game.characters]
    assert all(isinstance(game.positions[s], str) for s in spare)       # Act 1
    assert all(game.positions[s] == game.board.starts[s] for s in game.characters)
    for edition in (E14, E23):
        game = new(edition, 4, 3)
        assert all(game.positions[s] == game.board.starts[s] for s in game.fixed.suspects)
    # Weapons each in a different room (1949 Act 2; 2014 "no more than one per room").
    for edition in (E49, E14, E23):
        game = new(edition, 7)
        assert len(set(game.weapons.values())) == 6


# =============================================================================================
# 2023: two-player face-down cards, magnifying glass, Clue cards
# =============================================================================================

def test_2023_two_player_face_down_room_cards_seen_on_entering():
    piles = {"kitchen", "conservatory", "lounge", "study"}
    game = steer(E23_2P, lambda g: g.phase == "act" and g.entered in piles)
    seat, room = game.current, game.room_of(game.current)
    other = 1 - seat
    event = last(game, "room_card")
    pile_card = dict(game.deal.face_down)[game.piles[room]].id
    assert event["by"] == game.names[seat] and event["card"] == pile_card
    mine = [e for e in game.record_for(seat)["events"] if "room_card" in e][-1]
    theirs = [e for e in game.record_for(other)["events"] if "room_card" in e][-1]
    public = [e for e in game.record_for(None)["events"] if "room_card" in e][-1]
    assert mine["card"] == pile_card and "card" not in theirs and "card" not in public
    assert Knowledge(game.record(seat)).probability(pile_card, game.piles[room]) == 1
    assert sorted(game.record_for(seat)["face_down"]) == sorted(p for p, _ in game.deal.face_down)
    # A piece moved into such a room by a suggestion does not look.
    game = steer(E23_2P, lambda g: in_room_to_act(g) and g.room_of(g.current) in piles
                 and g.piece(1 - g.current) != g.room_of(g.current), clue_cards=False)
    seat = game.current
    looks = sum("room_card" in e for e in game.events)
    game.apply(Action.make("suggest", seat, cards=[game.characters[1 - seat], "rope"]))
    while game.phase == "refute":
        game.apply(of_kind(game, "show")[0])
    assert game.piece(1 - seat) == game.room_of(seat)
    assert sum("room_card" in e for e in game.events) == looks
    # Rooms without a card show nothing.
    assert set(game.piles) == piles


def glass_turns(game: BoardGame) -> list[tuple[tuple[int, ...], list[str]]]:
    """Each turn's dice faces (1 for a glass) and its log lines."""
    out = []
    for lines in turn_lines(game):
        roll = next((line for line in lines if " rolls " in line), None)
        if roll is None:
            continue
        faces = tuple(int(f) for f in re.findall(r"(\d) ?(?:\(glass\))?(?= \+| =)", roll))
        out.append((faces, lines))
    return out


@pytest.mark.parametrize("edition", [E23, E23_2P])
def test_2023_magnifying_glass_draws_exactly_one_clue_card_even_with_two_icons(edition):
    counts = {0: 0, 1: 0, 2: 0}
    for seed in range(12 if edition == E23 else 24):
        game = new(edition, seed)
        advance(game, lambda g: g.turn_number > 40, seed)
        for faces, lines in glass_turns(game):
            roll = next(line for line in lines if " rolls " in line)
            glasses = roll.count("(glass)")
            assert glasses == faces.count(1)          # the glass is face 1, counted as 1
            assert roll.endswith(f"= {sum(faces)}")
            draws = sum(" draws a Clue card" in line for line in lines)
            assert draws == (1 if glasses else 0)
            counts[glasses] += 1
    assert counts[2] >= 3 and counts[1] >= 20 and counts[0] >= 50
    # Each draw puts the card at the bottom: the deck turns by exactly one.
    game = steer(edition, lambda g: g.clue_index is not None)
    order = game.clue_order
    assert order[-1] == game.clue_index and len(order) == 29


def test_2023_without_clue_cards_the_glass_is_just_a_one():
    game = new(E23, 3, clue_cards=False)
    advance(game, lambda g: g.turn_number > 60)
    assert any("(glass)" in line for line in game.log)
    assert not any("Clue card" in line for line in game.log)


# =============================================================================================
# The API: refusals, seeds, saving, records
# =============================================================================================

@pytest.mark.parametrize("edition", ALL)
def test_illegal_actions_raise_a_clear_error_and_change_nothing(edition):
    game = new(edition, 11)
    seat = game.current
    other = (seat + 1) % len(game.names)
    refused(game, Action.make("roll", other), f"it is {game.names[seat]}'s turn",
            f"not {game.names[other]}'s")
    refused(game, Action.make("dance", seat), "no action 'dance'")
    refused(game, Action.make("roll", 9), "no seat 9")
    refused(game, {"kind": "roll"}, "needs 'kind' and 'seat'")
    refused(game, Action.make("move", seat, to="hall"), "must roll the dice first")
    refused(game, Action.make("end", seat), "must first roll")
    refused(game, Action.make("show", seat, card="plum"), "nobody is waiting")
    refused(game, Action.make("suggest", seat, cards=["plum", "rope"]), "not in a room")
    refused(game, Action.make("roll", seat, fast=True), "roll takes nothing, not fast")
    game.apply(Action.make("roll", seat))
    if game.phase == "move":
        refused(game, Action.make("roll", seat), "already rolled")
        refused(game, Action.make("move", seat, to="narnia"), "'narnia' is not a room")
        refused(game, Action.make("move", seat, to=[-5, 99]), "is off-board")
        refused(game, Action.make("move", seat, to="up"), "not a room")
        far = next(r for r in game.fixed.rooms if r not in game.targets()[0])
        refused(game, Action.make("move", seat, to=far), "moves away; the roll was",
                game.board.room_name(far))
    game = steer_refute(edition)
    refuter = game.current
    refused(game, Action.make("end", game.turn), f"{game.names[refuter]} must choose")
    named = game.pending["named"]
    stranger = next(c for c in game.fixed.order if c not in named)
    refused(game, Action.make("show", refuter, card=stranger), "was not named")
    missing = next((c for c in named if c not in hand(game, refuter)), None)
    if missing:
        refused(game, Action.make("show", refuter, card=missing), "does not hold")
    refused(game, Action.make("pass", refuter), "must show one", "false-witness rule")
    refused(game, Action.make("check", game.turn, player=game.names[refuter], card=named[0]),
            "must choose which card to show")
    if edition in (E23, E23_2P):
        game = steer(edition, lambda g: g.phase in ("clue-choose", "clue-show"))
        seat = game.current
        if game.phase == "clue-choose":
            refused(game, Action.make("roll", seat), "must first choose a player for the Clue")
            refused(game, Action.make("clue", seat, player=game.names[seat]),
                    "is not another player")
        else:
            refused(game, Action.make("end", seat), "must first choose a card for the Clue")
            card = next(c for c in game.fixed.order if c not in hand(game, seat))
            kind = "reveal" if game.tasks[0]["public"] else "show"
            refused(game, Action.make(kind, seat, card=card), "does not hold")
    game = steer(edition, lambda g: g.phase == "act")
    refused(game, Action.make("check", game.current, player=game.names[game.current - 1],
                              card="plum"), "nobody can withhold a card")


def steer_refute(edition: str) -> BoardGame:
    """A game waiting for a refuter to choose (test helper for the refusal test)."""
    for seed in range(60):
        game = steer(edition, in_room_to_act, seeds=[seed])
        seat = game.current
        left = (seat + 1) % len(game.names)
        mine = hand(game, left)
        s = [c for c in game.callable_suspects(seat) if c in mine]
        w = [c for c in game.fixed.weapons if c in mine]
        if s and w:
            game.apply(Action.make("suggest", seat, cards=[s[0], w[0]]))
            return game
    raise AssertionError("no seed")  # pragma: no cover


@pytest.mark.parametrize("edition", ALL)
def test_same_seed_same_game(edition):
    def play(seed: int) -> BoardGame:
        # the first 600 actions: where a shown card ends the turn (1949, 2014) random
        # players seldom get to accuse, and a whole game takes thousands of actions
        game = new(edition, seed)
        with contextlib.suppress(ActionLimit):
            game.play([RandomBot(seed * 7 + s) for s in range(len(game.names))], 600)
        return game
    one, two = play(4), play(4)
    assert one.to_json() == two.to_json() and list(one.log) == list(two.log)
    assert one.events == two.events and one.deal.envelope == two.deal.envelope
    assert play(5).to_json() != one.to_json()


@pytest.mark.parametrize("edition", ALL)
def test_save_load_replays_exactly(edition):
    game = new(edition, 21)
    rng = random.Random(21)
    advance(game, lambda g: g.turn_number > 12 and g.phase == "move", 21)
    for _ in range(2):                                     # mid-move, then finished
        text = game.to_json()
        loaded = game_from_json(text)
        assert loaded.to_json() == text and loaded.history == game.history
        assert loaded.events == game.events and list(loaded.log) == list(game.log)
        assert loaded.positions == game.positions and loaded.weapons == game.weapons
        assert loaded.current == game.current and loaded.phase == game.phase
        assert loaded.legal_actions() == game.legal_actions()
        assert loaded.status() == game.status() and game_svg(loaded) == game_svg(game)
        for seat in [*range(len(game.names)), None]:
            assert loaded.record_for(seat) == game.record_for(seat)
        # Both continue identically (dice included), to the end: detectives finish a game.
        bots = [BoardDetective(s) for s in range(len(game.names))]
        twins = [BoardDetective(s) for s in range(len(game.names))]
        game.play(bots)
        loaded.play(twins)
        assert loaded.to_json() == game.to_json()
        assert json.loads(text)["actions"] == json.loads(game.to_json())["actions"][
            :len(json.loads(text)["actions"])]
    del rng
    bad = json.loads(game.to_json())
    bad["actions"].append({"kind": "roll", "seat": 0})
    with pytest.raises(IllegalAction, match=f"saved action {len(bad['actions'])}"):
        game_from_json(json.dumps(bad))


def expected_viewers(game: BoardGame, event: dict) -> set[str] | None:
    """Who may see an event's card, from what the event is (None: everyone)."""
    if "suggest" in event:
        return {event["by"], event["shown_by"]} if event.get("shown_by") else set()
    if "show" in event:
        return {event["show"], event["to"]}
    if "room_card" in event:
        return {event["by"]}
    return None


@pytest.mark.parametrize("edition", ALL)
def test_every_seats_record_is_exactly_what_that_seat_learned(edition):
    game = new(edition, 8)
    bots = [ExplorerBot(8 + s, accuse_chance=0.02) for s in range(len(game.names))]
    for _ in range(20_000):   # where only an unanswered suggestion opens an accusation, random
        if game.is_over:      # players may never end the game: a long stretch of it will do
            break
        game.apply(bots[game.current].choose(game, game.current))
    assert sum("card" in e for e in game.events) > 10
    for seat in [*range(len(game.names)), None]:
        me = None if seat is None else game.names[seat]
        record = game.record_for(seat)
        assert record.get("hand") == (None if seat is None else
                                      [c.id for c in game.deal.hands[seat]])
        assert len(record["events"]) == len(game.events)
        for full, seen in zip(game.events, record["events"], strict=True):
            viewers = expected_viewers(game, full)
            own = ("card", "accuse", "envelope")      # checked one by one below
            public = {k: v for k, v in full.items() if not k.startswith("_") and k not in own}
            assert {k: v for k, v in seen.items() if k not in own} == public
            if "accuse" in full:
                # The accuser alone looks in the envelope; a wrong accusation's cards are
                # heard by all (2014, 2023: said aloud) or written down unseen (1949 5(g)).
                hidden = not full["correct"] and me != full["by"] and \
                    game.edition.accusation.reveal == "accuser"
                assert seen["accuse"] == (None if hidden else full["accuse"])
                assert ("envelope" in seen) == (not full["correct"] and me == full["by"])
            if "card" in full:
                assert ("card" in seen) == (viewers is None or me in viewers)
                if "card" in seen:
                    assert seen["card"] == full["card"]
        Record.from_dict(record)                   # every record reads as a record
    # A seat not involved in a shown card does not learn which card it was.
    event = next(e for e in game.events if e.get("shown_by"))
    position = game.events.index(event)
    outsiders = [s for s in [*range(len(game.names)), None]
                 if s is None or game.names[s] not in (event["by"], event["shown_by"])]
    assert outsiders
    for seat in outsiders:
        assert "card" not in game.record_for(seat)["events"][position]


def test_record_parses_like_record_from_dict():
    game = new(E23, 16)
    game.play([RandomBot(s) for s in range(4)])
    for seat in [*range(4), None]:
        fast, slow = game.record(seat), Record.from_dict(game.record_for(seat))
        assert fast.events == slow.events and fast.hand == slow.hand
        assert fast.players == slow.players and fast.face_up == slow.face_up


def test_games_refuse_editions_and_options_they_do_not_play():
    with pytest.raises(ValueError, match="not a board game"):
        BoardGame("cluedo-card-game-2018", 3)
    with pytest.raises(ValueError, match="unknown option 'speed'"):
        new_game(E49, 3, speed=2)
    with pytest.raises(ValueError, match="option dice"):
        new_game(E49, 3, dice=7)
    with pytest.raises(ValueError, match="option accuse_when"):
        new_game(E49, 3, accuse_when="never")
    with pytest.raises(ValueError, match="option characters"):
        new_game(E49, 3, characters=["plum", "plum", "scarlett"])
    with pytest.raises(ValueError, match="for 3-6 players|3-6"):
        new_game(E14, 2)


def test_one_die_option_for_1949():
    """1949 says only 'the dice': two by default, one as an option."""
    assert str(new(E49).dice) == "2d6" and str(new(E49, dice=1).dice) == "1d6"
    game = new(E49, 2, dice=1)
    advance(game, lambda g: g.turn_number > 20)
    totals = [int(m.group(1)) for line in game.log if (m := re.search(r"rolls (\d) = ", line))]
    assert totals and all(1 <= t <= 6 for t in totals)


def test_svg_and_status_show_the_pieces():
    game = new(E49, 1)
    advance(game, lambda g: g.turn_number > 6)
    svg = game_svg(game)
    assert svg.startswith("<svg") and svg == to_svg(game)
    status = game.status()
    assert all(name in status for name in game.names) and "to act" in status


def test_a_failing_action_is_undone_completely(monkeypatch):
    """Should carrying out a legal action fail half-way (a bug), the game is restored exactly:
    every container in the state is a plain dict, list or set, the kinds a saved position
    copies (checked in many states)."""
    for edition in ALL:
        game = new(edition, 3, false_witness=True)
        rng = random.Random(3)
        for _ in range(300):
            if game.is_over:
                break
            odd = {k for k, v in vars(game).items()
                   if isinstance(v, dict | list | set) and type(v) not in (dict, list, set)}
            assert not odd, odd
            game.apply(quiet_action(game, rng))
    game = steer(E49, lambda g: g.phase == "move" and any(
        isinstance(a["to"], str) for a in of_kind(g, "move")))
    room = next(a["to"] for a in of_kind(game, "move") if isinstance(a["to"], str))
    before = state(game)

    def broken_enter(self, seat, room):
        self.positions[self.characters[seat]] = room
        self.log.append("half done")
        raise RuntimeError("bug")
    monkeypatch.setattr(BoardGame, "_enter", broken_enter)
    with pytest.raises(RuntimeError, match="bug"):
        game.apply(Action.make("move", game.current, to=room))
    assert state(game) == before


@pytest.mark.parametrize("edition", [E49, E14])
def test_move_targets_with_two_dice_match_a_fresh_search(edition):
    """The engine reuses the free board's answer when no piece is within the roll; with two
    dice (too many walks for brute force) it must still equal a fresh breadth-first search
    around the pieces, and every exact move a fresh walk search (both checked against brute
    force above for one die)."""
    from cluedo_lab.rules.board import walk_of

    walk = walk_of(load_edition(edition).board)
    checked = 0
    for seed in range(15):
        game = new(edition, seed, 6)
        rng = random.Random(seed)
        for _ in range(300):
            if game.is_over:
                break
            if game.phase == "move" and not game.any_room:
                seat = game.current
                here = game.piece(seat)
                dist = walk.reach(here, game.total, occupied_by_others(game, seat))
                rooms, squares = game.targets()
                assert set(rooms) == {n for n in dist if isinstance(n, str) and n != here}
                # Exact (1949, 2014): the walk search run afresh around the pieces.
                assert set(squares) == set(walk.ends(here, game.total,
                                                     occupied_by_others(game, seat)))
                checked += 1
            game.apply(quiet_action(game, rng, enter=rng.random() < 0.5))
    assert checked > 300


def test_a_clue_card_whose_showers_have_no_choice_starts_the_move_once(monkeypatch):
    """Each shower with a single card shows it at once; the move starts once, after the last."""
    import dataclasses
    game = new_game("clue-classic-2023", 3, 0)
    one_card = tuple(frozenset(sorted(hand)[:1]) if seat else hand
                     for seat, hand in enumerate(game.hands))
    game.fixed = dataclasses.replace(game.fixed, hands=one_card)
    starts = []
    monkeypatch.setattr(game, "_after_clue", lambda: starts.append(game.phase))
    game.tasks = [{"shower": 1, "to": 0, "public": False},
                  {"shower": 2, "to": 1, "public": False}]
    game._run_tasks()
    assert starts == [game.phase] and not game.tasks
    assert [e["show"] for e in game.events[-2:]] == [game.names[1], game.names[2]]


@pytest.mark.parametrize("edition", [E49, E14, E23])
def test_movement_by_the_number_thrown_or_up_to_it(edition):
    """1949 and 2014 move "that number of squares": a corridor square nearer than the roll
    where no walk of the whole roll ends is refused, saying why; 2023 moves "up to" the roll,
    so every square within it is offered. Rooms need no exact roll in any edition."""
    seen = 0
    for game in move_states(edition, games=20):
        seat, here = game.current, game.piece(game.current)
        occupied = occupied_by_others(game, seat)
        within = walks(game.board, here, game.total, occupied)
        rooms, squares = engine_targets(game)
        short = sorted(p for p, d in within.items() if not isinstance(p, str)
                       and p not in squares)
        assert set(rooms) == {p for p in within if isinstance(p, str)}
        if exact(game):
            assert set(squares) == {p for p in walks(game.board, here, game.total, occupied,
                                                     True) if not isinstance(p, str)}
            if short:
                refused(game, Action.make("move", seat, to=list(short[0])),
                        "uses the whole roll")
                seen += 1
        else:
            assert not short
            seen += any(within[sq] < game.total for sq in squares)
    assert seen > 20
