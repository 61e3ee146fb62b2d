"""Board rules the books give, read from the edition files (issue 15, items 2, 3 and 8).

A copy of an edition file under another name plays the same game, because nothing is looked
up by rule-book name; a value the engine does not know fails on loading, naming the field; and
the 1949 accusation is written down, so a wrong one moves nobody else's notepad.
"""

from __future__ import annotations

import random

import pytest
from bad_editions import assert_refused

from cluedo_lab import Knowledge, load_edition
from cluedo_lab.bots.strategies import RandomBot
from cluedo_lab.games import new_game
from cluedo_lab.games.game import Action
from cluedo_lab.rules.edition import edition_data, edition_from_dict

BOARD_EDITIONS = ["cluedo-classic-1949", "clue-mansion-2014", "clue-classic-2023"]


@pytest.mark.parametrize("edition_id", BOARD_EDITIONS)
def test_a_renamed_copy_of_an_edition_plays_the_same_game(edition_id):
    data = edition_data(edition_id)
    data["id"], data["rule_book"] = "my-copy", "my-own-rules.txt"
    copy = edition_from_dict(data, "my-copy.toml")
    for seed in range(3):
        games = [new_game(ed, 4, seed) for ed in (load_edition(edition_id), copy)]
        for game in games:
            bots = [RandomBot(seed * 10 + s) for s in range(4)]
            for _ in range(3000):       # random players may take long to finish
                if game.is_over:
                    break
                game.apply(bots[game.current].choose(game, game.current))
        assert games[0].history == games[1].history
        assert games[0].events == games[1].events


@pytest.mark.parametrize("field, value, reason", [
    ("turns.roll", "sometimes", "expected one of"),
    ("turns.must_move", "yes", ""),
    ("turns.spare_pieces", "garden", "expected one of"),
    ("accusation.when", "whenever", ""),
    ("accusation.when", "anywhere", r"contradicts accusation\.anywhere"),
])
def test_a_bad_rule_option_fails_on_loading_naming_the_field(field, value, reason):
    assert_refused("clue-classic-2023", field, value, reason)


def test_card_games_have_no_board_turn_options():
    assert_refused("cluedo-card-game-2018", "turns.roll", "first", "no board")


@pytest.mark.parametrize("edition_id, when, spares", [
    ("cluedo-classic-1949", "after-unanswered-suggestion", "rooms"),
    ("clue-mansion-2014", "after-unanswered-suggestion", "start"),
    ("clue-classic-2023", "in-room", "start"),
])
def test_each_book_s_accusation_time_and_spare_pieces_come_from_its_file(edition_id, when,
                                                                         spares):
    edition = load_edition(edition_id)
    assert (edition.accusation.when, edition.turns.spare_pieces) == (when, spares)
    game = new_game(edition_id, 3, 0)
    assert game.accuse_when == when
    spare = [s for s in game.fixed.suspects if s not in game.characters]
    in_rooms = [isinstance(game.positions[s], str) for s in spare]
    assert all(in_rooms) if spares == "rooms" else not any(in_rooms)
    # A variant may change them: the game reads the edition, not the rule book's name.
    data = edition_data(edition_id)
    data["accusation"]["when"] = "anywhere"
    data["accusation"]["anywhere"] = True
    data["id"] = "accuse-anywhere"
    assert new_game(edition_from_dict(data), 3, 0).accuse_when == "anywhere"


def test_1949_a_wrong_accusation_is_written_down_unseen():
    """1949 5(g): the accuser writes the names and checks the envelope unseen; 5(i): a wrong
    accuser puts the cards back unseen. The others learn that the accusation was wrong, and
    nothing about which cards it named: their exact notepads do not move."""
    for seed in range(40):
        game = new_game("cluedo-classic-1949", 4, seed)
        rng = random.Random(seed)
        truth = {c.id for c in game.deal.envelope}
        while not game.is_over:
            legal = game.legal_actions()
            wrong = [a for a in legal if a.kind == "accuse" and set(a["cards"]) != truth]
            if wrong and len(game.events) > 3:
                break
            game.apply(rng.choice([a for a in legal if a.kind != "accuse"] or legal))
        else:
            continue
        accuser = game.current
        others = [s for s in range(4) if s != accuser]
        before = {s: Knowledge(game.record(s)).probabilities() for s in others}
        game.apply(wrong[0])
        for seat in others:
            event = game.record_for(seat)["events"][-1]
            assert event == {"accuse": None, "by": game.names[accuser], "correct": False}
            assert Knowledge(game.record(seat)).probabilities() == before[seat]
        own = game.record_for(accuser)["events"][-1]
        assert own["accuse"] == list(wrong[0]["cards"])
        assert set(own["envelope"]) == truth
        assert Knowledge(game.record(accuser)).solution() == tuple(
            sorted(truth, key=game.fixed.order.__getitem__))
        return
    pytest.fail("no seed reached a wrong accusation")  # pragma: no cover


def test_2014_a_wrong_accusation_is_said_aloud():
    game = new_game("clue-mansion-2014", 3, 1)
    rng = random.Random(1)
    while not game.is_over:
        legal = game.legal_actions()
        truth = {c.id for c in game.deal.envelope}
        wrong = [a for a in legal if a.kind == "accuse" and set(a["cards"]) != truth]
        if wrong:
            game.apply(wrong[0])
            other = (wrong[0].seat + 1) % 3
            assert game.record_for(other)["events"][-1]["accuse"] == list(wrong[0]["cards"])
            return
        game.apply(rng.choice(legal))
    pytest.fail("no wrong accusation was possible")  # pragma: no cover


def test_a_2023_turn_in_a_room_offers_only_the_roll_and_accusing_waits_for_it():
    """2023 ON YOUR TURN: "Roll the dice then you may perform one or more actions": even in a
    room, no accusation comes before the roll."""
    game = new_game("clue-classic-2023", 3, 2)
    rng = random.Random(2)
    while not (game.phase == "start" and game.room_of(game.current) is not None):
        game.apply(rng.choice([a for a in game.legal_actions() if a.kind != "accuse"]))
    assert {a.kind for a in game.legal_actions()} == {"roll"}
    seat = game.current
    accuse = Action.make("accuse", seat, cards=[c.id for c in game.deal.envelope])
    assert "begins with a roll" in game.why_illegal(accuse)
    game.apply(Action.make("roll", seat))
    if game.phase == "move":
        game.apply(Action.make("stay", seat))
    if game.phase == "act":
        assert game.is_legal(game.legal_form(accuse))   # legal_form raises if it is not


# ---------------------------------------------------------------------------------------------
# Round three (issue 31): a shown card ends the turn, the 2014 wrong accuser and staying, the
# 1949 "other Person"
# ---------------------------------------------------------------------------------------------

def _play_until(game, done, seed: int, limit: int = 3000, avoid=("accuse",)):
    """Random legal actions (never those of kinds ``avoid``) until ``done(game)``."""
    rng = random.Random(seed)
    for _ in range(limit):
        if game.is_over or done(game):
            return game
        legal = game.legal_actions()
        game.apply(rng.choice([a for a in legal if a.kind not in avoid] or legal))
    return game


def _answered_this_turn(game) -> bool:
    return game.phase == "act" and game.suggested and not game.unanswered


@pytest.mark.parametrize("edition_id", ["cluedo-classic-1949", "clue-mansion-2014"])
def test_a_shown_card_ends_the_turn_so_no_accusation_follows_it(edition_id):
    """1949 5(e) "Such card having been shown, Miss Scarlett's turn is ended"; 2014 "Your turn
    ends when another player's card matches": after a card is shown only ``end`` is left."""
    game = _play_until(new_game(edition_id, 3, 2), _answered_this_turn, 2)
    assert _answered_this_turn(game)
    seat = game.current
    assert "shown_by" in game.events[-1]
    assert {a.kind for a in game.legal_actions()} == {"end"}
    accuse = Action.make("accuse", seat, cards=[c.id for c in game.deal.envelope])
    assert "ends your turn" in game.why_illegal(accuse)


@pytest.mark.parametrize("edition_id", ["cluedo-classic-1949", "clue-mansion-2014"])
def test_an_accusation_may_follow_a_suggestion_nobody_answered(edition_id):
    """1949 5(g): accuse "in this same turn" when none showed a card."""
    for seed in range(30):
        game = _play_until(new_game(edition_id, 3, seed),
                           lambda g: g.phase == "act" and g.unanswered, seed)
        if game.is_over or not game.unanswered:
            continue
        assert "accuse" in {a.kind for a in game.legal_actions()}
        return
    pytest.fail("no seed reached an unanswered suggestion")  # pragma: no cover


@pytest.mark.parametrize("edition_id", ["cluedo-classic-1949", "clue-mansion-2014"])
def test_random_players_never_accuse_after_a_shown_card(edition_id):
    """The seeded games of the audit (3 random bots) hold no accusation in a turn whose
    suggestion was answered by a card (a ``show``; the turn ends with ``end``)."""
    accusations = 0
    for seed in range(6):
        game = new_game(edition_id, 3, seed)
        bots = [RandomBot(seed * 10 + s) for s in range(3)]
        for _ in range(4000):
            if game.is_over:
                break
            game.apply(bots[game.current].choose(game, game.current))
        accusations += sum(a.kind == "accuse" for a in game.history)
        shown = False
        for action in game.history:
            if action.kind == "end":
                shown = False
            elif action.kind == "show":
                shown = True
            elif action.kind == "accuse":
                assert not shown, (seed, action)
    assert accusations > 0


def test_2014_a_wrong_accuser_keeps_moving_but_never_suggests_or_accuses_again():
    """2014: "You must remain in the game to answer the other players' suggestions, but you
    can't make another suggestion or accusation": the piece still moves (1949 and 2023 say "no
    further turns")."""
    for seed in range(40):
        game = new_game("clue-mansion-2014", 3, seed)
        truth = {c.id for c in game.deal.envelope}
        game = _play_until(game, lambda g, truth=truth: any(
            a.kind == "accuse" and set(a["cards"]) != truth for a in g.legal_actions()), seed)
        wrong = [a for a in game.legal_actions()
                 if a.kind == "accuse" and set(a["cards"]) != truth]
        if game.is_over or not wrong:
            continue
        accuser = wrong[0].seat
        game.apply(wrong[0])
        moved = False
        rng = random.Random(seed)
        for _ in range(400):
            if game.is_over:
                break
            legal = game.legal_actions()
            if game.current == accuser:
                assert not {a.kind for a in legal} & {"suggest", "accuse"}
                moved |= any(a.kind == "move" for a in legal)
            game.apply(rng.choice([a for a in legal if a.kind != "accuse"] or legal))
        assert moved, "the wrong accuser's piece should still move"
        return
    pytest.fail("no seed reached a wrong accusation")  # pragma: no cover


def test_2014_staying_in_a_room_is_offered_only_after_being_moved_there():
    """2014: "you cannot stay in the same room ... you must leave it and reenter each time";
    only a piece moved there by another player's suggestion may stay and suggest."""
    checked = summoned = 0
    for seed in range(12):
        game = new_game("clue-mansion-2014", 4, seed)
        rng = random.Random(seed)
        for _ in range(600):
            if game.is_over:
                break
            seat = game.current
            legal = game.legal_actions()
            if game.phase == "start" and game.room_of(seat) is not None:
                stays = any(a.kind == "stay" for a in legal)
                assert stays == game.summoned_now, seed
                checked += 1
                summoned += stays
                if not stays:
                    assert "may not stay" in game.why_illegal(Action.make("stay", seat))
            game.apply(rng.choice([a for a in legal if a.kind != "accuse"] or legal))
    assert checked > 20 and summoned > 0


def test_1949_a_suggestion_calls_another_person_never_the_suggester_s_own_piece():
    """1949 5(d): "calling into that particular room any other Person"; 2014 ("yourself") and
    2023 ("any character") let a player name their own piece."""
    def holds_a_suspect(g) -> bool:     # a seat holding none may name itself: see below
        return not g.hands[g.current].isdisjoint(g.fixed.suspects)
    game = _play_until(new_game("cluedo-classic-1949", 3, 4), lambda g: holds_a_suspect(g)
                       and any(a.kind == "suggest" for a in g.legal_actions()), 4)
    seat = game.current
    own = game.characters[seat]
    assert holds_a_suspect(game)
    named = {a["cards"][0] for a in game.legal_actions() if a.kind == "suggest"}
    assert own not in named and named == set(game.fixed.suspects) - {own}
    weapon = game.fixed.weapons[0]
    assert "any other person" in game.why_illegal(Action.make("suggest", seat,
                                                               cards=[own, weapon]))
    for edition_id in ("clue-mansion-2014", "clue-classic-2023"):
        other = _play_until(new_game(edition_id, 3, 4),
                            lambda g: any(a.kind == "suggest" for a in g.legal_actions()), 4)
        mine = other.characters[other.current]
        assert mine in {a["cards"][0] for a in other.legal_actions() if a.kind == "suggest"}


def test_1949_a_player_holding_no_suspect_may_name_their_own_piece_and_so_can_accuse():
    """The kit's reading of 5(d) with 5(e) and 5(g) (an [[assumptions]] entry): seed 2 deals
    Mrs White's player (seat 2) no suspect card, and Mrs White is the murderer. Naming only
    other persons, every suggestion of hers would name a card another player holds, and she
    could never accuse; she may name herself, nobody can answer, and she accuses and wins."""
    game = new_game("cluedo-classic-1949", 3, 2)
    seat, truth = 2, {c for c, p in game.true_places().items() if p == "envelope"}
    own = game.characters[seat]
    assert own in truth and game.hands[seat].isdisjoint(game.fixed.suspects)
    others = set(game.fixed.suspects) - {own}
    assert all(any(c in game.hands[s] for s in (0, 1)) for c in others)   # the literal bind
    safe = truth | game.hands[seat]
    game = _play_until(game, lambda g: g.current == seat and g.room_of(seat) in safe
                       and any(a.kind == "suggest" for a in g.legal_actions()), 2, limit=20000)
    assert game.current == seat and game.room_of(seat) in safe
    suggestions = [a for a in game.legal_actions() if a.kind == "suggest"]
    assert {a["cards"][0] for a in suggestions} == set(game.fixed.suspects)
    weapon = next(w for w in game.fixed.weapons if w in safe)
    game.apply(Action.make("suggest", seat, cards=[own, weapon]))
    while game.phase == "refute":
        game.apply(game.legal_actions()[0])
    assert game.unanswered and game.current == seat
    accusation = next(a for a in game.legal_actions()
                      if a.kind == "accuse" and set(a["cards"]) == truth)
    game.apply(accusation)
    assert game.is_over and game.winner == seat


def test_must_move_false_lets_a_piece_stay_after_the_roll_whatever_the_roll_rule():
    """``turns.must_move = false`` is read with ``turns.roll = "or-passage"`` too (it was only
    honoured where every turn rolls first)."""
    data = edition_data("cluedo-classic-1949")
    data["turns"]["must_move"] = False
    data["id"] = "may-stay"
    edition = edition_from_dict(data, "may-stay.toml")
    for rules, stays in ((edition, True), (load_edition("cluedo-classic-1949"), False)):
        game = _play_until(new_game(rules, 3, 1), lambda g: g.phase == "move"
                           and g.room_of(g.current) is None and any(g.reachable), 1)
        assert ("stay" in {a.kind for a in game.legal_actions()}) == stays
        if stays:
            square = game.piece(game.current)
            game.apply(Action.make("stay", game.current))
            assert game.piece(game.current) == square and game.phase == "act"
