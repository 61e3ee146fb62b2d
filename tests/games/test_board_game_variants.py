"""Board-game variants: the two rule options the board engine reads from a variant edition.

- ``answer="every-who-can"``: after a suggestion every other player holding a named card shows
  one to the suggester (in answering order, choosing when holding several); the rest pass.
- ``wrong="leaves"``: a wrong accuser leaves the game: no more turns, no longer asked.

Tests steer games through the public API only. They may read the deal to work out what must
happen (who holds a named card, who must be skipped); expected values come from the rules and
the deal, never from the engine's own output. The published editions' games are checked
byte-for-byte elsewhere (tests/games/test_board_game.py, notebooks 10-12, saved tournaments).
"""

from __future__ import annotations

import contextlib
import functools
import random
from collections.abc import Callable

import pytest
from test_board_game import advance as advance_quietly
from test_board_game import envelope, hand, of_kind, quiet_action, refused, unanswerable

from cluedo_lab.bots import make_bot as strategy_bot
from cluedo_lab.bots.explorer import ExplorerBot
from cluedo_lab.bots.quick_detectives import BoardDetective
from cluedo_lab.bots.strategies import RandomBot
from cluedo_lab.games import game_from_json, new_game
from cluedo_lab.games.board_game import BoardGame
from cluedo_lab.games.game import Action
from cluedo_lab.knowledge.constraints import violated
from cluedo_lab.rules.errors import ActionLimit
from cluedo_lab.rules.variant import variant

E49 = "cluedo-classic-1949"
E14 = "clue-mansion-2014"
E23 = "clue-classic-2023"
BASES = (E49, E14, E23)


# -- helpers ----------------------------------------------------------------------------------

advance = functools.partial(advance_quietly, limit=600)


def game_of(base: str, players: int, seed: int, **options) -> BoardGame:
    return new_game(variant(base, players=players, **options), players, seed)


def ready_to_suggest(game: BoardGame) -> bool:
    return game.phase == "act" and bool(of_kind(game, "suggest"))


def asked_in_order(game: BoardGame, asker: int, gone: set[int] = frozenset()) -> list[int]:
    """The seats asked after ``asker``, from the rules: to the left, round the table,
    leaving out seats that left the game."""
    n = len(game.names)
    return [(asker + k) % n for k in range(1, n) if (asker + k) % n not in gone]


def suggestion_for(game: BoardGame, seat: int, want: Callable[[set[str]], bool]
                   ) -> Action | None:
    """A legal suggestion whose named cards (with the room) satisfy ``want``."""
    room = game.room_of(seat)
    for action in of_kind(game, "suggest"):
        if want({*action["cards"], room}):
            return action
    return None


def departed_after(game: BoardGame) -> list[set[str]]:
    """For each event, who had left the game before it (wrong accusers, by the rules)."""
    gone: set[str] = set()
    out = []
    for event in game.events:
        out.append(set(gone))
        if "accuse" in event and not event["correct"]:
            gone.add(event["by"])
    return out


def involved(event: dict) -> set[str]:
    """Every player an event names as answering, showing or being shown a card."""
    names = {*event.get("passed", ()), *event.get("showed", {}), event.get("shown_by"),
             event.get("show"), event.get("to")}
    return names - {None}


def sweep_game(base: str, players: int, seed: int, options: dict) -> BoardGame:
    """A long random game: explorers that seldom accuse (so suggestions pile up)."""
    game = game_of(base, players, seed, **options)
    game.play([ExplorerBot(seed * 10 + s, accuse_chance=0.08) for s in range(players)])
    return game


SWEEPS = [(BASES[i % 3], 3 + (i // 3) % 4, i) for i in range(60)]


# -- every who can answers ----------------------------------------------------------------------

def test_every_who_can_every_holder_shows_in_order_and_the_rest_pass():
    """Checked against the deal in every suggestion of many games: the showers are exactly
    the players asked who hold a named card, in answering order, each showing one card they
    hold that was named; everyone else asked passes."""
    suggestions = several = 0
    for base, players, seed in SWEEPS[:24]:
        game = sweep_game(base, players, seed, {"answer": "every-who-can"})
        for event in game.events:
            if "suggest" not in event:
                continue
            suggestions += 1
            asker = game.names.index(event["by"])
            named = set(event["suggest"])
            asked = asked_in_order(game, asker)
            holders = [game.names[s] for s in asked if hand(game, s) & named]
            assert list(event["showed"]) == holders
            assert event["passed"] == [game.names[s] for s in asked
                                       if game.names[s] not in holders]
            for who, card in event["showed"].items():
                assert card in named and card in hand(game, game.names.index(who))
            assert "shown_by" not in event and "card" not in event
            several += len(holders) > 1
    assert suggestions > 300 and several > 100   # the rule was exercised


def test_every_who_can_a_shower_with_several_cards_chooses_and_the_next_is_asked():
    """Steer to a suggestion where the first holder holds two named cards and a later
    player holds one too: the first chooses (a show action), then the later one shows their
    single card by a show action too (a step only for a choice would tell the table who held
    two); one event lists both."""
    for seed in range(60):
        game = game_of(E49, 4, seed, answer="every-who-can")
        advance(game, ready_to_suggest, seed)
        asker = game.current
        asked = asked_in_order(game, asker)
        first, later = asked[0], asked[1:]

        def fits(named: set[str], game=game, first=first, later=later) -> bool:
            return len(hand(game, first) & named) == 2 and any(
                len(hand(game, s) & named) == 1 for s in later)
        action = suggestion_for(game, asker, fits)
        if action is None:
            continue
        named = {*action["cards"], game.room_of(asker)}
        game.apply(action)
        assert game.phase == "refute" and game.current == first
        shows = of_kind(game, "show")
        assert {a["card"] for a in shows} == hand(game, first) & named
        assert all(a.seat == first for a in game.legal_actions())
        choice = shows[-1]["card"]
        game.apply(shows[-1])
        while game.phase == "refute":            # each later holder takes a step to show
            single = of_kind(game, "show")
            assert len(single) == 1 and game.current in later
            game.apply(single[0])
        event = game.events[-1]
        assert event["showed"][game.names[first]] == choice
        expected = {game.names[s]: next(iter(hand(game, s) & named))
                    for s in later if len(hand(game, s) & named) == 1}
        assert expected.items() <= event["showed"].items()
        assert game.phase == "act" and game.current == asker
        return
    raise AssertionError("no seed gives such a suggestion")  # pragma: no cover


def test_every_who_can_records_hold_what_each_seat_learned():
    """The suggester's record has every shown card; every other seat sees who showed and
    who passed, and a shower their own card only (as in the card games); the public record
    none. Checked event by event against the game's own event with its cards."""
    checked = 0
    for base, players, seed in SWEEPS[:9]:
        game = sweep_game(base, players, seed, {"answer": "every-who-can"})
        records = {s: game.record_for(s) for s in [*range(players), None]}
        for index, event in enumerate(game.events):
            if "suggest" not in event:
                continue
            for seat, record in records.items():
                seen = record["events"][index]
                me = None if seat is None else game.names[seat]
                assert seen["suggest"] == event["suggest"] and seen["by"] == event["by"]
                assert seen["passed"] == event["passed"]
                if me == event["by"]:
                    assert seen["showed"] == event["showed"]
                else:
                    assert seen["showed"] == {who: card if who == me else None
                                              for who, card in event["showed"].items()}
                checked += 1
        for seat in records:
            game.record(seat)           # and each parses as a record of the variant
    assert checked > 500


@pytest.mark.parametrize("option", ["every-who-can", "leaves", "both"])
def test_true_deal_fits_every_seats_record_in_random_games(option):
    """A few hundred seeded random games per option (60 long explorer games played to the
    end, plus the first 400 actions of 150 random-bot games: where a shown card ends the turn,
    random bots seldom get to accuse and play thousands of actions): the true deal breaks no
    constraint of any seat's record (nor of the public record)."""
    options = {"every-who-can": {"answer": "every-who-can"}, "leaves": {"wrong": "leaves"},
               "both": {"answer": "every-who-can", "wrong": "leaves"}}[option]
    games = [sweep_game(base, players, seed, options) for base, players, seed in SWEEPS]
    assert all(game.is_over for game in games)
    for seed in range(150):
        game = game_of(BASES[seed % 3], 3 + seed % 4, 1000 + seed, **options)
        with contextlib.suppress(ActionLimit):
            game.play([RandomBot(seed * 10 + s) for s in range(len(game.names))], 400)
        games.append(game)
    for game in games:
        where = game.true_places()
        for seat in [*range(len(game.names)), None]:
            assert violated(game.record(seat), where) == []
    assert len(games) >= 200


def test_every_who_can_refusals_change_nothing():
    for seed in range(60):
        game = game_of(E14, 4, seed, answer="every-who-can")
        advance(game, ready_to_suggest, seed)
        asker = game.current
        first, *later = asked_in_order(game, asker)
        def fits(named: set[str], game=game, first=first, later=later) -> bool:
            return len(hand(game, first) & named) >= 2 and any(hand(game, s) & named
                                                               for s in later)
        action = suggestion_for(game, asker, fits)
        if action is None:
            continue
        named = {*action["cards"], game.room_of(asker)}
        game.apply(action)
        chooser = game.names[first]
        other = next(s for s in later if hand(game, s) & named)
        card = next(iter(hand(game, other) & named))
        refused(game, Action.make("show", other, card=card), f"{chooser} must choose")
        refused(game, Action.make("end", asker), f"{chooser} must choose")
        refused(game, Action.make("pass", first), "must show one")
        not_held = next(iter(named - hand(game, first)), None)
        if not_held is not None:
            refused(game, Action.make("show", first, card=not_held), "does not hold")
        unnamed = next(iter(hand(game, first) - named))
        refused(game, Action.make("show", first, card=unnamed), "was not named")
        refused(game, Action.make("suggest", asker, cards=list(action["cards"])))
        return
    raise AssertionError("no seed gives such a suggestion")  # pragma: no cover


def test_every_who_can_detective_deduces_soundly_when_several_show():
    """Detectives read answers from several showers at once: they accuse only when their
    record proves the solution, so every accusation is right and someone wins."""
    several = 0
    for seed, base in enumerate(BASES * 2):
        game = game_of(base, 4, seed, answer="every-who-can")
        winner = game.play([BoardDetective(seed * 10 + s) for s in range(4)])
        accusations = [e for e in game.events if "accuse" in e]
        assert winner is not None and len(accusations) == 1 and accusations[0]["correct"]
        assert set(accusations[0]["accuse"]) == envelope(game)
        several += sum(len(e.get("showed", {})) > 1 for e in game.events)
    assert several > 10


def test_every_who_can_with_false_witness_a_holder_may_lie_and_the_suggester_proves_it():
    """With ``false_witness=True`` each holder may pass (a lie). The suggester sees every
    card of an every-who-can answer, so when the liar later shows them the withheld card,
    their record proves the lie and they may ``check`` it."""
    for seed in range(40):
        game = new_game(variant(E49, players=3, answer="every-who-can"), 3, seed,
                                                                    false_witness=True)
        advance(game, ready_to_suggest, seed)
        asker = game.current
        liar = asked_in_order(game, asker)[0]
        pieces = set(game.fixed.suspects) | set(game.fixed.weapons)
        held = hand(game, liar) & pieces
        lie = suggestion_for(game, asker, lambda named, held=held: bool(held & named))
        if lie is None:
            continue
        withheld = next(iter(hand(game, liar) & set(lie["cards"]) & pieces))
        game.apply(lie)
        assert game.current == liar
        game.apply(Action.make("pass", liar))
        while game.phase == "refute":
            game.apply(of_kind(game, "show")[0])
        assert game.names[liar] in game.events[-1]["passed"]
        assert (game.names[liar], withheld) not in game.proofs(asker)
        game.apply(of_kind(game, "end")[0])
        advance(game, lambda g, me=asker: g.current == me and ready_to_suggest(g), seed)
        again = next(a for a in of_kind(game, "suggest") if withheld in a["cards"])
        game.apply(again)
        while game.phase == "refute":
            mine = Action.make("show", liar, card=withheld)
            game.apply(mine if game.current == liar else of_kind(game, "show")[0])
        assert game.events[-1]["showed"][game.names[liar]] == withheld
        assert (game.names[liar], withheld) in game.proofs(asker)
        game.apply(Action.make("check", asker, player=game.names[liar], card=withheld))
        assert game.false_witnesses[liar] and game.events[-1] == {
            "reveal": withheld, "by": game.names[liar]}
        return
    raise AssertionError("no seed gives such a suggestion")  # pragma: no cover


# -- a wrong accuser leaves ---------------------------------------------------------------------

def wrong_accusation(game: BoardGame, seat: int) -> Action:
    right = envelope(game)
    return next(a for a in of_kind(game, "accuse") if set(a["cards"]) != right)


def accuse_wrongly_when_possible(game: BoardGame, seed: int) -> int:
    """Quiet play until the current player may accuse, then a wrong accusation: the seat."""
    def can_accuse(g: BoardGame) -> bool:
        if g.phase == "act" and of_kind(g, "suggest"):
            # where a shown card ends the turn (1949, 2014) only a suggestion nobody can
            # answer leads to an accusation: make one when the room allows it
            cards = unanswerable(g) or list(of_kind(g, "suggest")[0]["cards"])
            g.apply(Action.make("suggest", g.current, cards=cards))
            while g.phase == "refute":
                g.apply(of_kind(g, "show")[0])
        return bool(of_kind(g, "accuse"))
    advance(game, can_accuse, seed)
    seat = game.current
    game.apply(wrong_accusation(game, seat))
    return seat


@pytest.mark.parametrize("base", BASES)
def test_wrong_leaves_no_more_turns_and_skipped_when_answering(base):
    game = game_of(base, 4, 2, wrong="leaves")
    out = accuse_wrongly_when_possible(game, 2)
    name = game.names[out]
    assert game.current != out and "left the game" in game.status()
    refused(game, Action.make("roll", out), f"{name} accused wrongly and left the game")
    # Play on: the leaver never acts again and is never asked, even about their own cards.
    rng = random.Random(5)
    asked_about_theirs = 0
    for _ in range(1500):
        if game.is_over:
            break
        seat = game.current
        assert seat != out
        if game.phase == "act" and of_kind(game, "suggest"):
            action = suggestion_for(game, seat, lambda named: bool(hand(game, out) & named)) \
                or of_kind(game, "suggest")[0]
            named = {*action["cards"], game.room_of(seat)}
            game.apply(action)
            while game.phase == "refute":
                assert game.current != out
                game.apply(of_kind(game, "show")[0])
            event = game.events[-1]
            asked = [game.names[s] for s in asked_in_order(game, seat, {out})]
            holder = next((game.names[s] for s in asked_in_order(game, seat, {out})
                           if hand(game, s) & named), None)
            assert event.get("shown_by") == holder
            assert event["passed"] == (asked[:asked.index(holder)] if holder else asked)
            asked_about_theirs += bool(hand(game, out) & named)
        else:
            game.apply(quiet_action(game, rng))
    assert asked_about_theirs > 0
    record = game.record(None)
    assert record.departed() == (name,)


def test_wrong_leaves_their_piece_stays_and_can_be_moved_by_a_suggestion():
    game = game_of(E49, 4, 3, wrong="leaves")
    out = accuse_wrongly_when_possible(game, 3)
    piece = game.characters[out]
    advance(game, ready_to_suggest, 3)
    seat = game.current
    room = game.room_of(seat)
    action = next(a for a in of_kind(game, "suggest") if piece in a["cards"])
    game.apply(action)
    while game.phase == "refute":
        game.apply(of_kind(game, "show")[0])
    assert game.positions[piece] == room
    assert game.piece(out) == room


@pytest.mark.parametrize("answer", ["first-who-can", "every-who-can"])
def test_wrong_leaves_game_ends_when_nobody_is_left_who_can_win(answer):
    """Three players accuse wrongly one after the other: the last one plays on alone (their
    suggestions reach nobody), and when they too accuse wrongly the game ends, nobody won."""
    game = game_of(E49, 3, 1, wrong="leaves", answer=answer)
    first = accuse_wrongly_when_possible(game, 1)
    second = accuse_wrongly_when_possible(game, 2)
    last = game.current
    assert {first, second, last} == {0, 1, 2} and not game.is_over
    advance(game, ready_to_suggest, 3)
    assert game.current == last
    game.apply(of_kind(game, "suggest")[0])
    event = game.events[-1]
    assert event["passed"] == [] and not event.get("showed") and "shown_by" not in event
    assert game.phase == "act"
    game.apply(of_kind(game, "end")[0])
    assert game.current == last                      # alone at the table, still playing
    accuse_wrongly_when_possible(game, 4)
    assert game.is_over and game.winner is None
    assert game.legal_actions() == []
    for seat in [0, 1, 2, None]:
        assert violated(game.record(seat), game.true_places()) == []


def test_wrong_leaves_random_games_never_involve_a_departed_player():
    """In random games (2023 with Clue cards among them) nobody who left is asked, shows,
    is shown a Clue card's card or acts after leaving."""
    departures = 0
    for base, players, seed in SWEEPS[:30]:
        game = sweep_game(base, players, seed, {"wrong": "leaves"})
        for event, gone in zip(game.events, departed_after(game), strict=True):
            assert not gone & involved(event), event
            assert event.get("by") not in gone or "reveal" in event
            departures += bool(gone)
        gone_seats = {game.names.index(n) for n in departed_after(game)[-1]}
        # and no action by a departed seat after its wrong accusation
        left: set[int] = set()
        for action in game.history:
            assert action.seat not in left
            if action.kind == "accuse" and set(action["cards"]) != envelope(game):
                left.add(action.seat)
        assert gone_seats <= left
    assert departures > 100


def test_wrong_leaves_2023_clue_cards_skip_departed_players():
    """'Everyone shows the player on their left' goes round the players still in the game;
    a Clue card that lets you pick a player offers only players still in it."""
    chosen = ring = 0
    for seed in range(40):
        game = sweep_game(E23, 5, 500 + seed, {"wrong": "leaves"})
        gone: set[str] = set()
        for event in game.events:
            if "accuse" in event and not event["correct"]:
                gone.add(event["by"])
            if "show" in event:
                assert event["show"] not in gone and event["to"] not in gone
                ring += bool(gone)
        replay = game_of(E23, 5, 500 + seed, wrong="leaves")
        for action in game.history:
            if replay.phase == "clue-choose":
                players = {a["player"] for a in of_kind(replay, "clue")}
                out = {e["by"] for e in replay.events if "accuse" in e and not e["correct"]}
                assert not players & out and players | out | {replay.names[replay.current]} \
                    == set(replay.names)
                chosen += bool(out)
            replay.apply(action)
    assert ring > 0 and chosen > 0


# -- bots, saving ---------------------------------------------------------------------------------

@pytest.mark.parametrize("options", [{"answer": "every-who-can"}, {"wrong": "leaves"}])
def test_strategy_bots_play_variant_board_games_to_the_end(options):
    # infogain's question advice models first-who-can answers only (cluedo_lab.knowledge.advice), so
    # it plays the leaves variant; the other strategies play both.
    lineup = ["random" if "answer" in options else "infogain", "eliminator", "detective",
              "bluffer"]
    for seed, base in enumerate(BASES):
        game = game_of(base, 4, seed, **options)
        game.play([strategy_bot(lineup[s], seed * 10 + s) for s in range(4)])
        assert game.is_over
        for seat in range(4):
            assert violated(game.record(seat), game.true_places()) == []


def test_a_variant_board_game_saves_and_replays_exactly():
    game = game_of(E23, 4, 7, answer="every-who-can", wrong="leaves")
    game.play([ExplorerBot(70 + s, accuse_chance=0.1) for s in range(4)])
    assert any(len(e.get("showed", {})) > 1 for e in game.events)
    again = game_from_json(game.to_json())
    assert again.edition.id == game.edition.id
    assert list(again.history) == list(game.history)
    assert list(again.log) == list(game.log) and list(again.events) == list(game.events)
    assert again.winner == game.winner and again.status() == game.status()
    assert [again.record_for(s) for s in range(4)] == [game.record_for(s) for s in range(4)]
    half = BoardGame.from_dict({**game.to_dict(), "actions": game.to_dict()["actions"][:40]})
    assert half.history == game.history[:40]
