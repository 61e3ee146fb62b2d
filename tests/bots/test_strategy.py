"""The strategy lab's bots: legal moves in every edition, choices that depend on the seat's
record and never on the hidden deal, and each strategy doing what its name promises."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from cluedo_lab.bots import BOTS, catalogue, make_bot
from cluedo_lab.bots.notes import paper_notes
from cluedo_lab.bots.strategies import Bluffer, Detective, Eliminator, InfoGain, RandomBot
from cluedo_lab.games import new_game
from cluedo_lab.knowledge.advice import rank_questions
from cluedo_lab.knowledge.constraints import violated
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.records import ENVELOPE
from cluedo_lab.rules.deal import Deal
from cluedo_lab.rules.edition import all_editions, load_edition

SPECS = ["random", "eliminator", "detective", "detective@0.7", "infogain", "bluffer", "explorer",
         "quick-detective"]
QUESTION_KINDS = ("ask", "suggest")


def lineup(edition, players: int, turn: int) -> list[str]:
    """A table of ``players`` seats cycling through every bot, shifted by ``turn``; at most
    one information-gain bot (the slowest) per table."""
    specs = [SPECS[(turn + k) % len(SPECS)] for k in range(players)]
    seen = False
    for i, spec in enumerate(specs):
        if spec == "infogain":
            specs[i] = "infogain" if not seen else "detective"
            seen = True
    return specs


def player_counts(edition) -> list[int]:
    low = max(edition.min_players, 3) if edition.max_players >= 3 else edition.min_players
    return sorted({low, min(edition.max_players, 4)} | {edition.min_players})


def question_cards(game, action) -> tuple[list[str], list[str]] | None:
    """(free cards named, fixed cards) of a question action, or None if it asks nothing."""
    if action.kind == "ask":
        return list(action["items"]), []
    if action.kind == "suggest":
        fixed = game.markers[action.seat] if game.edition.family == "card" \
            else game.room_of(action.seat)
        return list(action["cards"]), [fixed]
    if action.kind == "play" and action.get("cards") is not None:
        return list(action["cards"]), [game.markers[action.seat]]
    return None


def free_pools(game, fixed: list[str]) -> list[list[str]]:
    """The card pools of a question's free slots (one per category without a fixed card;
    for 'any two items', every card for each slot)."""
    edition = game.edition
    if edition.question.form == "any":
        return [[c.id for c in edition.cards]] * edition.question.items
    return [[c.id for c in cat.cards] for cat in edition.categories
            if not any(c.id in fixed for c in cat.cards)]


def watch(game, bots, check=None, max_actions: int = 5000) -> None:
    """Play on, asserting every chosen action is legal; ``check`` sees each decision."""
    for _ in range(max_actions):
        if game.is_over:
            return
        seat = game.current
        legal = game.legal_actions()
        action = bots[seat].choose(game, seat)
        assert action in legal, f"{bots[seat]!r} chose an illegal {action}"
        if check:
            check(game, seat, bots[seat], action)
        game.apply(action)


def questions_by(kind: type, check):
    """A ``watch`` check that hands ``check(game, seat, action, named, fixed)`` each question a
    bot of class ``kind`` asks (its free cards named, its fixed cards), and nothing else."""
    def on_decision(game, seat, bot, action):
        cards = question_cards(game, action)
        if isinstance(bot, kind) and cards is not None:
            check(game, seat, action, *cards)
    return on_decision


# ---------------------------------------------------------------------------------------------
# Legal moves, every edition
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", all_editions(), ids=lambda e: e.id)
def test_every_bot_makes_only_legal_moves_and_games_end(edition):
    board = edition.family == "board"
    for players in player_counts(edition):
        for seed in range(2 if board else 4):
            game = new_game(edition, players, seed)
            specs = lineup(edition, players, seed + players)
            bots = [make_bot(spec, seed * 10 + s) for s, spec in enumerate(specs)]
            watch(game, bots)
            assert game.is_over, f"{edition.id} {players}p seed {seed}: {specs} did not finish"


def test_every_registered_bot_is_in_the_legality_sweep():
    swept = {spec.split("@")[0] for spec in SPECS}
    assert swept == set(BOTS)
    assert [name for name, _ in catalogue()] == list(BOTS)


# ---------------------------------------------------------------------------------------------
# Never reading the deal
# ---------------------------------------------------------------------------------------------

def another_deal(game, seat: int, rng: random.Random) -> dict[str, str] | None:
    """A deal other than the true one that fits everything ``seat`` has seen (card id ->
    place name), found by dealing at random and checking against the seat's record."""
    record = game.record(seat)
    truth = game.true_places()
    me = game.names[seat]
    fixed = {c: p for c, p in truth.items() if p in (me, "face-up")}
    others = [p for p in record.places if p not in (me, ENVELOPE, "face-up")]
    sizes = {p: sum(1 for q in truth.values() if q == p) for p in others}
    for _ in range(4000):
        where = dict(fixed)
        free = [c.id for c in game.edition.cards if c.id not in fixed]
        for category in game.edition.categories:
            pool = [c.id for c in category.cards if c.id in free]
            pick = rng.choice(pool)
            where[pick] = ENVELOPE
            free.remove(pick)
        rng.shuffle(free)
        for place in others:
            for _ in range(sizes[place]):
                where[free.pop()] = place
        if where != truth and not violated(record, where):
            return where
    return None


def with_deal(game, where: dict[str, str]):
    """A copy of ``game`` whose hidden cards lie as ``where`` says (and whose dice and
    shuffles will fall differently)."""
    twin = copy.deepcopy(game)
    ed = game.edition
    hands = tuple(tuple(c for c in ed.cards if where[c.id] == name) for name in game.names)
    piles = tuple((pile, next(c for c in ed.cards if where[c.id] == pile))
                  for pile, _ in game.deal.face_down)
    envelope = tuple(c for c in ed.cards if where[c.id] == ENVELOPE)
    twin.deal = Deal(ed, envelope, hands, game.deal.face_up, piles, game.deal.seed)
    ids = tuple(frozenset(c.id for c in hand) for hand in hands)
    if ed.family == "board":
        rooms = {room: pile for room, pile in game.piles.items()}
        pile_cards = {room: dict((p, c.id) for p, c in piles)[pile]
                      for room, pile in rooms.items()}
        twin.fixed = dataclasses.replace(game.fixed, hands=ids, pile_cards=pile_cards)
    else:
        twin.fixed = copy.copy(game.fixed)
        twin.fixed.hands = ids
    twin.rng.seed(987654321)
    return twin


@pytest.mark.parametrize("edition_id, players", [
    ("cluedo-card-game-2018", 3), ("cluedo-the-card-game-2002", 3),
    ("cluedo-the-card-game-2002-one-against-all", 4), ("cluedo-classic-1949", 3),
    ("clue-classic-2023-two-player", 2)])
def test_choices_do_not_change_when_the_hidden_deal_does(edition_id, players):
    """At positions along a game, each bot makes the same choice on a copy of the game whose
    unseen cards were dealt differently (but fit everything the seat saw)."""
    rng = random.Random(1)
    game = new_game(edition_id, players, 3)
    movers = [make_bot("detective", s) for s in range(players)]
    compared = 0
    for step in range(400):
        if game.is_over or compared >= 6:
            break
        seat = game.current
        if step % 3 == 0 and len(game.events) >= 1:
            where = another_deal(game, seat, rng)
            if where is not None:
                twin = with_deal(game, where)
                assert twin.true_places() != game.true_places()
                for spec in SPECS:
                    here = make_bot(spec, 42).choose(game, seat)
                    there = make_bot(spec, 42).choose(twin, seat)
                    assert here == there, f"{spec} read the deal at step {step}"
                compared += 1
        game.apply(movers[seat].choose(game, seat))
    assert compared >= 3


# ---------------------------------------------------------------------------------------------
# Each strategy does what its name says
# ---------------------------------------------------------------------------------------------

GAMES = [("cluedo-card-game-2018", 3), ("cluedo-card-game-2018-advanced", 4),
         ("cluedo-the-card-game-2002", 3), ("cluedo-classic-1949", 3),
         ("clue-classic-2023", 3)]


def test_the_eliminator_never_asks_about_a_card_it_has_placed_while_an_unplaced_one_fits():
    asked = 0

    def check(game, seat, action, named, fixed):
        nonlocal asked
        view = paper_notes(game.record(seat))
        asked += 1
        if game.edition.question.form == "any":
            unplaced = [c.id for c in game.edition.cards if c.id not in view.located]
            placed_named = [c for c in named if c in view.located]
            assert not placed_named or len(unplaced) < len(named), (named, unplaced)
            return
        if view.solution is not None and game.family == "board":
            return      # closing: a suggestion nobody can answer opens the accusation (1949)
        callable_ = set(game.callable_suspects(seat)) if game.family == "board" else None
        for pool in free_pools(game, fixed):
            card = next(c for c in named if c in pool)
            if callable_ is not None and card in game.fixed.suspects:
                pool = [c for c in pool if c in callable_]   # 1949: never its own piece
            if card in view.located:
                assert all(c in view.located for c in pool), (card, pool)

    for edition_id, players in GAMES:
        for seed in range(2):
            game = new_game(edition_id, players, seed)
            specs = ["eliminator"] * (players - 1) + ["detective"]
            watch(game, [make_bot(s, seed * 10 + i) for i, s in enumerate(specs)],
                  questions_by(Eliminator, check))
    assert asked >= 40


def test_the_bluffer_names_one_of_its_own_cards_whenever_it_can():
    """Whenever one slot of the question can take a card of its own while another slot still
    has an open card (not placed, another player may hold it), the bluffer names its own."""
    asked = bluffed = 0

    def check(game, seat, action, named, fixed):
        nonlocal asked, bluffed
        record = game.record(seat)
        mine = {c.id for c in record.hand}
        me = game.names[seat]
        table = Knowledge(record).probabilities()

        def open_card(card):
            row = table[card]
            return all(v < 1 for v in row.values()) and \
                any(row[p] > 0 for p in game.names if p != me)

        pools = free_pools(game, fixed)
        can = any(mine & set(pools[i]) and any(open_card(c) for c in pools[j])
                  for i in range(len(pools)) for j in range(len(pools)) if i != j)
        asked += 1
        if can:
            assert mine & set(named), (named, sorted(mine))
            bluffed += 1

    for edition_id, players in GAMES:
        for seed in range(2):
            game = new_game(edition_id, players, seed)
            specs = ["bluffer"] + ["detective"] * (players - 1)
            watch(game, [make_bot(s, seed * 10 + i) for i, s in enumerate(specs)],
                  questions_by(Bluffer, check))
    assert asked >= 20 and bluffed >= asked // 2


def test_the_detective_accuses_exactly_when_its_record_proves_the_envelope():
    accusations = 0

    def check(game, seat, bot, action):
        nonlocal accusations
        if not isinstance(bot, Detective) or action.kind != "accuse":
            return
        if getattr(game, "stage", None) == "accusing":
            return   # joining another player's accusation (2018) is a different decision
        solution = Knowledge(game.record(seat)).solution()
        assert solution is not None and set(action["cards"]) == set(solution)
        assert set(solution) == {c.id for c in game.deal.envelope}
        accusations += 1

    for edition_id, players in GAMES:
        for seed in range(2):
            game = new_game(edition_id, players, seed)
            watch(game, [make_bot("detective", seed * 10 + i) for i in range(players)], check)
            assert game.winner is not None
    assert accusations >= len(GAMES) * 2


def first_accusation(edition_id: str, players: int, seed: int, spec: str) -> tuple[int, list]:
    """Where the first accusation falls in a game of ``spec`` bots, and the bots' checks."""
    game = new_game(edition_id, players, seed)
    bots = [make_bot(spec, seed * 10 + i) for i in range(players)]
    chances = []
    while not game.is_over:
        seat = game.current
        action = bots[seat].choose(game, seat)
        if action.kind == "accuse":
            dist = Knowledge(game.record(seat)).envelope_distribution()
            chances.append(max(dist.values()))
            return len(game.history), chances
        game.apply(action)
    return len(game.history), chances  # pragma: no cover - someone always accuses


def test_a_threshold_detective_accuses_earlier_than_the_certain_one():
    """Until its first accusation the threshold detective plays exactly like the certain one
    (the threshold only changes when to accuse), so on the same deals its first accusation
    comes at the same point or earlier, and always at its threshold or above."""
    earlier = 0
    for edition_id, players in [("cluedo-card-game-2018", 3), ("cluedo-classic-1949", 3),
                                ("cluedo-the-card-game-2002", 4)]:
        for seed in range(4):
            certain, p_certain = first_accusation(edition_id, players, seed, "detective")
            gamble, p_gamble = first_accusation(edition_id, players, seed, "detective@0.4")
            assert p_certain == [1]
            assert p_gamble[0] >= 0.4
            assert gamble <= certain
            earlier += gamble < certain
    assert earlier >= 3


def test_the_information_gain_bot_asks_the_question_that_gains_most():
    checked = 0

    def check(game, seat, action, named, fixed):
        nonlocal checked
        known = Knowledge(game.record(seat))
        if known.solution() is not None:
            return
        candidates = [question_cards(game, a) for a in game.legal_actions()
                      if question_cards(game, a) is not None
                      and (action.kind != "play" or a.get("card") == action["card"])]
        options = rank_questions(known, questions=[tuple(n + f) for n, f in candidates])
        mine = next(o for o in options if set(o.named) == set(named + fixed))
        assert mine.gain == pytest.approx(options[0].gain, abs=1e-12)
        checked += 1

    for edition_id, players in [("cluedo-card-game-2018", 3), ("cluedo-the-card-game-2002", 3),
                                ("cluedo-classic-1949", 3)]:
        game = new_game(edition_id, players, 5)
        specs = ["infogain"] + ["detective"] * (players - 1)
        watch(game, [make_bot(s, i) for i, s in enumerate(specs)], questions_by(InfoGain, check))
    assert checked >= 6


def test_the_random_bot_tries_every_kind_of_move():
    game = new_game("cluedo-classic-1949", 3, 1)
    kinds = set()
    bots = [RandomBot(s) for s in range(3)]
    watch(game, bots, lambda g, s, b, a: kinds.add(a.kind))
    assert {"roll", "move", "suggest", "accuse"} <= kinds


def test_bots_are_reproducible_from_their_seed():
    def history(seed_shift: int) -> list:
        game = new_game("cluedo-the-card-game-2002", 3, 2)
        game.play([make_bot(s, 7 + i + seed_shift) for i, s in
                   enumerate(["bluffer", "eliminator", "detective@0.8"])])
        return list(game.history)
    assert history(0) == history(0)


# ---------------------------------------------------------------------------------------------
# The registry
# ---------------------------------------------------------------------------------------------

def test_make_bot_reads_names_and_thresholds():
    assert isinstance(make_bot("detective"), Detective)
    bot = make_bot("detective@0.8", 3)
    assert bot.threshold == 0.8 and bot.seed == 3 and bot.label == "detective@0.8"
    assert make_bot("infogain@0.5").label == "infogain@0.5"
    assert make_bot("bluffer").label == "bluffer"


@pytest.mark.parametrize("spec, message", [
    ("sherlock", "no bot 'sherlock'"), ("random@0.5", "takes no threshold"),
    ("detective@x", "must be a number"), ("detective@1.5", "probability in (0, 1]"),
    ("detective@0", "probability in (0, 1]")])
def test_make_bot_refuses_bad_names_clearly(spec, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_bot(spec)


def test_a_board_strategy_walks_towards_rooms_and_suggests():
    game = new_game(load_edition("clue-mansion-2014"), 4, 0)
    suggestions = []
    watch(game, [make_bot("infogain", 0)] + [make_bot("detective", s) for s in (1, 2, 3)],
          lambda g, s, b, a: suggestions.append(s) if a.kind == "suggest" else None)
    assert game.is_over and suggestions.count(0) >= 2


@pytest.mark.parametrize("base", ["cluedo-card-game-2018", "cluedo-classic-1949"])
def test_every_bot_plays_a_variant_where_every_player_who_can_answers(base):
    """The question advisor models both answer rules, so even the information-gain bot plays
    an every-who-can variant, legally, to the end."""
    from cluedo_lab.rules.variant import variant

    edition = variant(base, answer="every-who-can").edition
    specs = ["infogain", "detective", "eliminator", "bluffer", "random"]
    showers = []
    for seed in range(4):
        game = new_game(edition, 3, seed)
        chosen = [specs[(seed + s) % len(specs)] for s in range(3)]
        watch(game, [make_bot(spec, seed * 10 + s) for s, spec in enumerate(chosen)])
        assert game.is_over
        assert all("shown_by" not in e for e in game.events)
        showers += [len(e["showed"]) for e in game.events if "showed" in e]
    assert max(showers) > 1, "no question was answered by two players"
