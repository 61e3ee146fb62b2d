"""Legality is stated once per game family, so the legal actions and the refusals must agree:
over seeded positions of every edition, every listed action is accepted, and every action
not listed is refused with a reason, the same reason :meth:`Game.why_illegal` gives, and
changes nothing.

Positions come from games the registry's explorer bot plays (its long random games reach
rare stages); the illegal actions are made from the position itself: another seat's move,
every kind without its arguments, a listed action with an extra argument, and the actions
the previous position listed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest

from cluedo_lab.bots import make_bot
from cluedo_lab.games import Game, new_game
from cluedo_lab.games.action import Action
from cluedo_lab.rules.errors import IllegalAction
from cluedo_lab.rules.variant import variant

GAMES = [
    ("cluedo-card-game-2018", 3, {}), ("cluedo-card-game-2018-advanced", 2, {}),
    ("cluedo-card-game-2018-advanced", 4, {}), ("cluedo-the-card-game-2002", 3, {}),
    ("cluedo-the-card-game-2002-one-against-all", 4, {}),
    ("cluedo-classic-1949", 3, {}), ("cluedo-classic-1949", 4, {"false_witness": True}),
    ("clue-mansion-2014", 4, {}), ("clue-classic-2023", 3, {}),
    ("clue-classic-2023-two-player", 2, {}),
]
VARIANTS = [("cluedo-card-game-2018", 4), ("cluedo-the-card-game-2002", 4),
            ("cluedo-classic-1949", 4)]
"""Bases played with every player who can answering and wrong accusers leaving."""

KINDS = ("ask", "show", "accuse", "decline", "play", "suggest", "end", "roll", "move",
         "passage", "stay", "pass", "clue", "reveal", "check")
STEPS = 120
"""Positions looked at per game (board games run longer: the first ones are enough)."""


def new(edition: str, players: int, seed: int, options: dict, every: bool = False) -> Game:
    if every:
        return new_game(variant(edition, players=players, answer="every-who-can",
                                wrong="leaves"), players, seed)
    return new_game(edition, players, seed, **options)


def positions(game: Game, seed: int) -> Iterator[tuple[list[Action], list[Action]]]:
    """The legal actions of each position of an explorer game, with the previous ones."""
    bots = [make_bot("explorer", seed * 10 + s) for s in range(len(game.names))]
    previous: list[Action] = []
    for _ in range(STEPS):
        if game.is_over:
            return
        legal = game.legal_actions()
        yield legal, previous
        seat = game.current
        assert seat is not None
        game.apply(bots[seat].choose(game, seat))
        previous = legal


def illegal(game: Game, legal: list[Action], previous: list[Action]) -> list[Action]:
    seat = game.current
    assert seat is not None
    n = len(game.names)
    made = [Action.make(kind, seat) for kind in KINDS]
    made += [Action(a.kind, (seat + 1) % n, a.args) for a in legal[:3]]
    made += [Action(a.kind, seat, (*a.args, ("loud", True))) for a in legal[:3]]
    made += [Action(a.kind, seat, a.args) for a in previous]
    offered = set(legal)
    return [a for a in made if a not in offered]


def snapshot(game: Game) -> tuple[object, ...]:
    return (json.dumps(game.to_dict()), game.event_count, len(game.log), game.current,
            tuple(game.legal_actions()))


def check_position(game: Game, legal: list[Action], previous: list[Action],
                   rng: random.Random, carry_out: bool) -> None:
    for action in rng.sample(legal, min(len(legal), 12)):
        assert game.legal_form(action) == action
    before = snapshot(game)
    wrong = illegal(game, legal, previous)
    for action in rng.sample(wrong, min(len(wrong), 8)):
        reason = game.why_illegal(action)
        assert reason and "\n" not in reason
        with pytest.raises(IllegalAction) as refused:
            game.apply(action)
        assert str(refused.value) == reason
        assert snapshot(game) == before
    if not carry_out:
        return
    # One listed action of each kind is carried out, and undone to the same position.
    for action in {a.kind: a for a in reversed(legal)}.values():
        game.apply(action)
        assert game.undo() == action
        assert snapshot(game) == before


def play_and_check(game: Game, seed: int) -> int:
    rng = random.Random(seed)
    checked = 0
    for legal, previous in positions(game, seed):
        assert legal, "a game that is not over lists an action"
        check_position(game, legal, previous, rng, carry_out=checked % 4 == 0)
        checked += 1
    return checked


@pytest.mark.parametrize("edition, players, options", GAMES,
                         ids=[f"{e}-{n}p{'-fw' if o else ''}" for e, n, o in GAMES])
def test_every_legal_action_is_accepted_and_every_other_refused_with_its_reason(
        edition, players, options):
    checked = sum(play_and_check(new(edition, players, seed, options), seed)
                  for seed in range(2))
    assert checked >= 20


@pytest.mark.parametrize("edition, players", VARIANTS, ids=[e for e, _ in VARIANTS])
def test_the_same_holds_when_every_player_who_can_answers_and_wrong_accusers_leave(
        edition, players):
    checked = sum(play_and_check(new(edition, players, seed, {}, every=True), seed)
                  for seed in range(2))
    assert checked >= 20


@pytest.mark.parametrize("edition, players", [
    ("cluedo-card-game-2018", 3), ("cluedo-the-card-game-2002", 3),
    ("cluedo-classic-1949", 3), ("clue-mansion-2014", 4), ("clue-classic-2023", 3)])
def test_refusals_come_from_a_rule_not_the_catch_all(edition, players):
    """Every refusal comes from the rules that list the legal actions (the phase, the kind,
    the arguments): the base class's last resort ("is not allowed now") is never needed."""
    checked = 0
    for seed in range(4):
        game = new_game(edition, players, seed)
        for legal, previous in positions(game, seed):
            for action in illegal(game, legal, previous):
                assert "is not allowed now" not in game.why_illegal(action), action
                checked += 1
    assert checked >= 200
