"""The card-game bots: the detective reasons only from its own record, asks about what it is
not sure of, accuses exactly when its record proves the solution, and beats random players."""

from __future__ import annotations

import time
from typing import Any

import pytest

from cluedo_lab.bots import make_bot
from cluedo_lab.bots.explorer import ExplorerBot
from cluedo_lab.bots.quick_detectives import CardDetective, QuickDetective
from cluedo_lab.bots.strategies import Detective, RandomBot
from cluedo_lab.games import new_game
from cluedo_lab.games.card_game import CardGame
from cluedo_lab.games.game import Action
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.rules.edition import load_edition

E18 = load_edition("cluedo-card-game-2018")
E18A = load_edition("cluedo-card-game-2018-advanced")
E02 = load_edition("cluedo-the-card-game-2002")
E02F = load_edition("cluedo-the-card-game-2002-one-against-all")


class SeatView:
    """What one seat may look at: its own record and action cards, its legal actions, and the
    public table (names, markers, who asks, who accuses). Anything else fails the test."""

    PUBLIC = {"edition", "names", "markers", "asker", "accusing", "current", "is_over",
              "action_kind", "event_count"}

    def __init__(self, game: CardGame, seat: int):
        self._game, self._seat = game, seat

    def _own(self, seat: int) -> None:
        assert seat == self._seat, f"seat {self._seat} looked at seat {seat}'s private view"

    def record_for(self, seat: int) -> dict:
        self._own(seat)
        return self._game.record_for(seat)

    def record(self, seat: int):
        self._own(seat)
        return self._game.record(seat)

    def action_cards(self, seat: int) -> list[str]:
        self._own(seat)
        return self._game.action_cards(seat)

    def legal_actions(self) -> list[Action]:
        self._own(self._game.current)
        return self._game.legal_actions()

    def __getattr__(self, name: str) -> Any:
        assert name in self.PUBLIC, f"a bot read game.{name}"
        return getattr(self._game, name)


def play_watched(game: CardGame, bots: list, check=None) -> None:
    """Play to the end, each bot seeing only its seat's view; ``check`` sees every decision."""
    while not game.is_over:
        seat = game.current
        action = bots[seat].choose(SeatView(game, seat), seat)
        if check:
            check(game, seat, bots[seat], action)
        game.apply(action)


def wins_by_kind(edition, kinds: list[str], games: int, seed: int = 0) -> dict[str, int]:
    """Seats take turns with each bot kind; count wins by kind ('none': nobody won)."""
    wins: dict[str, int] = {}
    n = len(kinds)
    for number in range(games):
        seats = kinds[number % n:] + kinds[:number % n]
        game = new_game(edition, n, seed * 1000 + number)
        game.play([make_bot(k, seed * 100_000 + number * 10 + i) for i, k in enumerate(seats)])
        fugitive = getattr(game, "fugitive", None)
        key = ("none" if game.winner is None else
               "fugitive" if game.winner == fugitive else seats[game.winner])
        wins[key] = wins.get(key, 0) + 1
    return wins


@pytest.mark.parametrize("edition, players", [(E18, 3), (E18A, 2), (E02, 3), (E02F, 4)],
                         ids=["2018-3p", "2018-advanced-2p", "2002-3p", "2002-fugitive-4p"])
def test_detective_reads_only_its_own_record_and_the_public_table(edition, players):
    game = new_game(edition, players, 5)
    play_watched(game, [CardDetective(seat) for seat in range(players)])
    assert game.is_over


def test_detective_accuses_exactly_when_its_record_proves_the_solution():
    seen = {"certain": 0}

    def check(game, seat, bot, action):
        if game.stage not in ("ask", "play", "after"):
            return
        solution = Knowledge(game.record(seat)).solution()
        if solution is None:
            assert action.kind != "accuse"
        else:
            seen["certain"] += 1
            assert action.kind == "accuse" and set(action["cards"]) == set(solution)
            assert set(solution) == {c.id for c in game.deal.envelope}
    for edition, players in [(E18, 3), (E18A, 4), (E02, 3), (E02F, 3)]:
        for seed in range(3):
            game = new_game(edition, players, seed)
            play_watched(game, [CardDetective(seed * 10 + s) for s in range(players)], check)
            assert game.winner is not None
    assert seen["certain"] >= 12


def test_detective_asks_about_cards_that_are_not_yet_certain():
    asked = {"2018": 0, "2002": 0}

    def check(game, seat, bot, action):
        known = Knowledge(game.record(seat))
        env = {c.id: known.probability(c, "envelope") for c in game.edition.cards}
        if action.kind == "ask":
            asked["2018"] += 1
            assert all(0 < env[c] < 1 for c in action["items"])
        named = list(action.get("cards", ())) if action.kind in ("suggest", "play") else []
        for card in named:
            category = game.edition.card(card).category
            solved = all(env[c.id] in (0, 1) for c in game.edition.category(category).cards)
            asked["2002"] += 1
            assert 0 < env[card] < 1 or (solved and env[card] == 1)
    for edition, players in [(E18, 4), (E18A, 3), (E02, 4), (E02F, 4)]:
        game = new_game(edition, players, 2)
        play_watched(game, [CardDetective(s) for s in range(players)], check)
    assert asked["2018"] > 10 and asked["2002"] > 10


def test_detective_shows_again_a_card_the_asker_has_already_seen():
    game = new_game(E18, 2, 4)
    pair = [c.id for c in game.deal.hands[1][:2]]
    shower = CardDetective(1)
    game.apply(Action.make("ask", 0, items=pair))
    first = shower.choose(game, 1)
    game.apply(first)
    game.apply(Action.make("ask", 1, items=[c.id for c in game.deal.hands[0][:2]]))
    game.apply(game.legal_actions()[0])
    game.apply(Action.make("ask", 0, items=pair))
    for seed in range(5):                      # whatever its random tie-breaks, it repeats
        assert CardDetective(seed).choose(game, 1) == first


def test_detective_must_accuse_with_its_best_guess_when_the_rules_force_it():
    game = new_game(E18A, 2, 3)
    game.apply(Action.make("accuse", 0, cards=[c.id for c in game.deal.envelope]))
    action = CardDetective(0).choose(game, 1)
    assert action.kind == "accuse"
    dist = Knowledge(game.record(1)).envelope_distribution()
    assert dist[tuple(action["cards"])] == max(dist.values())


def test_detectives_beat_random_bots_2002():
    wins = wins_by_kind(E02, ["quick-detective", "random", "random"], 24, seed=1)
    assert wins.get("quick-detective", 0) >= 20 and wins.get("random", 0) <= 1
    wins = wins_by_kind(E02, ["quick-detective", "explorer", "explorer"], 12, seed=2)
    assert wins.get("quick-detective", 0) >= 10


def test_detectives_beat_random_bots_2018():
    # Random players accuse within a turn or two, and several accusers end the game, so
    # many games have no winner; of the games someone wins, the detectives win most.
    wins = wins_by_kind(E18, ["quick-detective", "random", "quick-detective", "random"], 60, seed=3)
    assert wins.get("quick-detective", 0) >= 15 and wins.get("random", 0) <= 1
    wins = wins_by_kind(E18A, ["quick-detective", "random"], 60, seed=7)
    assert wins.get("quick-detective", 0) >= 4 * max(1, wins.get("random", 0))
    wins = wins_by_kind(E18, ["quick-detective", "explorer", "explorer"], 24, seed=5)
    assert wins.get("quick-detective", 0) >= 20


def test_detectives_catch_the_fugitive_more_often_than_random_detectives():
    smart = wins_by_kind(E02F, ["quick-detective", "quick-detective", "random"], 12, seed=6)
    naive = wins_by_kind(E02F, ["explorer", "explorer", "random"], 12, seed=6)
    assert smart.get("fugitive", 0) <= 2 and naive.get("fugitive", 0) >= 8


def test_bots_are_seeded():
    for edition, players in [(E18, 3), (E02, 4)]:
        runs = []
        for _ in range(2):
            game = new_game(edition, players, 8)
            game.play([CardDetective(1), RandomBot(2), ExplorerBot(3), CardDetective(4)][
                :players])
            runs.append(game.to_json())
        assert runs[0] == runs[1]


def test_detective_decides_in_a_few_milliseconds():
    timings = []
    for edition, players in [(E18, 4), (E02, 3)]:
        game = new_game(edition, players, 9)
        bots = [CardDetective(s) for s in range(players)]
        while not game.is_over:
            start = time.perf_counter()
            action = bots[game.current].choose(game, game.current)
            timings.append(time.perf_counter() - start)
            game.apply(action)
    assert sum(timings) / len(timings) < 0.05


def test_make_bot_names_each_bot_one_class():
    assert isinstance(make_bot("quick-detective", 1), QuickDetective)
    assert isinstance(make_bot("detective", 1), Detective)
    assert isinstance(make_bot("random", 1), RandomBot)
    assert isinstance(make_bot("explorer", 1), ExplorerBot)
    with pytest.raises(ValueError, match="no bot 'oracle'"):
        make_bot("oracle")
