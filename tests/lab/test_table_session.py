"""A seat at the table without widgets: what the seat may do (:mod:`cluedo_lab.games.seat`,
:mod:`cluedo_lab.lab.table_controls`), what it is told (:mod:`cluedo_lab.lab.table_story`) and
a whole session with bots (:mod:`cluedo_lab.lab.table_session`).

Expectations come from the engine (the legal actions, the deal, the events as the game wrote
them with who saw what, the engine's own log), never from the session itself.
"""

from __future__ import annotations

import pytest

from cluedo_lab.bots import make_bot
from cluedo_lab.games import new_game
from cluedo_lab.games.action import Action
from cluedo_lab.games.board_game import BoardGame
from cluedo_lab.games.card_2002 import CardGame2002
from cluedo_lab.games.card_2018 import CardGame2018
from cluedo_lab.games.game import Game
from cluedo_lab.games.seat import BoardSeat, CardSeat2002, CardSeat2018, Seat, seat_of
from cluedo_lab.lab import table_session
from cluedo_lab.lab.table_controls import controls, makeable, said
from cluedo_lab.lab.table_session import TableSession
from cluedo_lab.lab.table_story import Before, narrate, opening
from cluedo_lab.records import seat_view
from cluedo_lab.rules.edition import all_editions
from cluedo_lab.rules.errors import IllegalAction

FAMILIES = ["cluedo-card-game-2018", "cluedo-the-card-game-2002", "cluedo-classic-1949"]


def played(edition: str, seed: int, actions: int) -> Game:
    """A seeded game played on by random bots for ``actions`` actions (or to its end)."""
    game = new_game(edition, 3, seed)
    bots = [make_bot("random", seed * 10 + s) for s in range(3)]
    while not game.is_over and len(game.history) < actions:
        seat = game.current
        game.apply(bots[seat].choose(game, seat))
    return game


def quiet(game: Game, seat: int) -> TableSession:
    """A session that tells the game's past and lets no bot play (the limit is 0)."""
    limit = table_session.MAX_BOT_ACTIONS
    table_session.MAX_BOT_ACTIONS = 0
    try:
        return TableSession(game, seat, bots=("random",))
    finally:
        table_session.MAX_BOT_ACTIONS = limit


# ---------------------------------------------------------------------------------------------
# What a seat may do
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition_id", FAMILIES)
def test_a_seat_may_do_the_legal_actions_on_its_move_and_nothing_else(edition_id):
    for length in (0, 5, 17, 40):
        game = played(edition_id, 3, length)
        for index in range(len(game.names)):
            seat = seat_of(game, index)
            mine = not game.is_over and game.current == index
            assert seat.to_act == mine
            assert seat.legal_actions() == (game.legal_actions() if mine else [])
            found = controls(seat)
            assert sum(c.choices for c in found) == len(seat.legal_actions())
            assert set(seat.legal_actions()) <= {a for c in found for a in makeable(c, index)}


def test_seat_of_gives_each_family_its_seat_and_its_answers():
    board = played("cluedo-classic-1949", 1, 12)
    assert isinstance(board, BoardGame)
    seat = seat_of(board, 1)
    assert type(seat) is BoardSeat and seat.name == "P2" and seat.turn == board.turn
    assert seat.piece == board.characters[1]
    assert [seat.room_of(s) for s in range(3)] == [board.room_of(s) for s in range(3)]
    assert seat.board_game is board and seat.board_lines() == board.status().splitlines()
    room = board.board.rooms[0]
    assert seat.place_name(room) == board.board.room_name(room)
    assert seat.place_name("nowhere") is None
    assert (seat.action_cards, seat.markers, seat.accusation_open) == (None, None, False)

    tips = played("cluedo-the-card-game-2002", 1, 6)
    assert isinstance(tips, CardGame2002)
    seat = seat_of(tips, 2)
    assert type(seat) is CardSeat2002 and seat.turn == tips.turn
    assert seat.action_cards == tips.action_cards(2)
    assert seat.markers == [(n, m) for n, m in zip(tips.names, tips.markers, strict=True) if m]
    assert (seat.piece, seat.board_game, seat.board_lines()) == (None, None, [])

    asks = played("cluedo-card-game-2018", 1, 3)
    assert isinstance(asks, CardGame2018)
    seat = seat_of(asks, 0)
    assert type(seat) is CardSeat2018 and seat.turn == asks.turn
    assert seat.accusation_open is False and seat.action_cards is None
    assert isinstance(seat, Seat)
    with pytest.raises(ValueError, match=r"there is no seat 3 \(seats 0-2\)"):
        seat_of(asks, 3)


def test_the_solution_is_seen_only_once_the_game_is_over():
    game = new_game("cluedo-card-game-2018", 3, seed=0)
    seat = seat_of(game, 0)
    assert seat.solution() is None
    envelope = [c.id for c in game.deal.envelope]
    game.apply(next(a for a in game.legal_actions()
                    if a.kind == "accuse" and set(a["cards"]) == set(envelope)))
    while not game.is_over:       # the others decline to join
        game.apply(next(a for a in game.legal_actions() if a.kind == "decline"))
    assert seat.solution() == tuple(game.deal.envelope)


def test_legal_form_turns_names_into_ids_and_refuses_with_the_engines_reason():
    game = new_game("cluedo-card-game-2018", 3, seed=1)
    seat = seat_of(game, 0)
    named = Action.make("ask", 0, items=["Rope", "Plum"])
    legal = seat.legal_form(named)
    assert legal in game.legal_actions() and set(legal["items"]) == {"rope", "plum"}
    assert game.legal_form(named) == legal
    with pytest.raises(IllegalAction, match=r"^you sit in seat 0 \(P1\), not seat 1$"):
        seat.legal_form(Action.make("ask", 1, items=["plum", "rope"]))
    twice = Action.make("ask", 0, items=["plum", "plum"])
    with pytest.raises(IllegalAction) as refused:
        seat.legal_form(twice)
    assert str(refused.value) == game.why_illegal(twice)
    assert game.history == []


# ---------------------------------------------------------------------------------------------
# What a seat is told
# ---------------------------------------------------------------------------------------------

def private_tip_game() -> tuple[CardGame2002, int]:
    """A 2002 game played until a Private Tip is played and answered, and the index of the
    tip's action."""
    for seed in range(20):
        game = new_game("cluedo-the-card-game-2002", 3, seed)
        assert isinstance(game, CardGame2002)
        bots = [make_bot("random", seed * 10 + s) for s in range(3)]
        while not game.is_over and len(game.history) < 300:
            action = bots[game.current].choose(game, game.current)
            game.apply(action)
            if action.kind == "play" and game.action_kind(action["card"]).kind == "private-tip":
                at = len(game.history) - 1
                while game.stage == "show":       # the target hands back a card
                    game.apply(game.legal_actions()[0])
                return game, at
    raise AssertionError("no seeded game played a Private Tip")


def test_a_private_tips_wording_reaches_only_its_two_players():
    game, at = private_tip_game()
    tip = game.history[at]
    label, by, target = tip["card"], game.names[tip.seat], tip["target"]
    event = next(e for e in game.events if "private_tip" in e and e["by"] == by)
    for index, name in enumerate(game.names):
        seat = seat_of(game, index)
        reads = name in (by, target)
        # The action is heard as the tip's own event is seen (records.seat_view).
        assert (seat.heard(tip)["card"] is not None) == reads == (
            seat_view(event, name)["private_tip"] is not None)
        assert seat.heard(tip)["target"] == target
        log = quiet(game, index).log()
        if reads:
            assert f"{by} plays {label} on {target}" in log
        else:
            assert f"{by} passes {target} a Private Tip" in log
            assert not any(label in line for line in log)


@pytest.mark.parametrize("edition_id", FAMILIES)
def test_a_seat_hears_every_argument_of_every_other_action(edition_id):
    game = played(edition_id, 1, 9)
    for action in game.legal_actions():
        for index in range(3):
            seat = seat_of(game, index)
            if isinstance(seat, CardSeat2002) and action.kind == "play" and \
                    seat.private_tip(action["card"]):
                continue
            heard = seat.heard(action)
            assert {k: heard[k] for k, _ in action.args} == dict(action.args)
            assert heard["action"] == action.kind and heard["by"] == game.names[action.seat]


def test_the_opening_names_the_game_you_and_your_hand():
    game = new_game("cluedo-classic-1949", ["Ann", "Bob", "Cy"], seed=2)
    seat = seat_of(game, 1)
    hand = ", ".join(c.name for c in game.deal.hands[1])
    character = game.edition.card(game.characters[1]).name
    lines = opening(seat)
    assert lines[0] == (f"{game.edition.name}, 3 players (Ann, Bob, Cy), seed 2. "
                        f"You are Bob, playing {character}.")
    assert lines[1] == f"Your hand: {hand}"
    whose = "your" if game.turn == 1 else f"{game.names[game.turn]}'s"
    assert lines[-1] == f"-- {whose} turn --"


def test_a_roll_is_told_as_the_engine_says_the_dice_and_a_move_by_the_room_entered():
    game = BoardGame("cluedo-classic-1949", 3, seed=5)
    seat = seat_of(game, game.current)
    before = Before.at(seat)
    game.apply(Action.make("roll", seat.index))
    told = narrate(seat, game.history[-1], before)
    assert told[0] == game.log[before.log] and told[0].startswith(f"{seat.name} rolls ")
    rooms = [a for a in game.legal_actions() if a.kind == "move" and isinstance(a["to"], str)]
    squares = [a for a in game.legal_actions() if a.kind == "move" and a not in rooms]
    move = (rooms or squares)[0]
    before = Before.at(seat)
    game.apply(move)
    told = narrate(seat, game.history[-1], before)
    if rooms:
        assert told[0] == f"{seat.name} moves into the {game.board.room_name(move['to'])}"
    else:
        assert told[0] == f"{seat.name} moves to square {move['to'][0]}, {move['to'][1]}"
    assert told[1:] == list(range(before.events, len(game.events)))


def test_a_question_waiting_for_a_card_says_who_must_show_one():
    for seed in range(10):
        game = new_game("cluedo-card-game-2018", 3, seed)
        session = quiet(game, 0)
        hand = {c.id for c in game.deal.hands[0]}
        asked = [c for c in game.deal.hands[1] if c.id not in hand][:2]
        if len(asked) < 2:
            continue
        assert session.do(Action.make("ask", 0, items=[c.id for c in asked]))
        if game.current != 1:
            continue
        names = ", ".join(c.name for c in sorted(asked, key=game.edition.cards.index))
        assert session.log()[-1] == f"P1 asks about {names}; P2 must choose a card to show"
        return
    pytest.fail("no seed where P2 must show a card")


# ---------------------------------------------------------------------------------------------
# A session: acting, confirming, the bots, the ending
# ---------------------------------------------------------------------------------------------

def test_an_accusation_waits_warns_and_ends_the_game_with_its_story():
    session = TableSession(new_game("cluedo-card-game-2018", 3, seed=0), 0)
    game = session.game
    held = next(c for c in game.deal.hands[0] if c.category == "weapon")
    solution = {c.category: c.id for c in game.deal.envelope}
    wrong = [solution["suspect"], held.id, solution["location"]]
    assert not session.press("Accuse", **{f"cards.{i}": c for i, c in enumerate(wrong)})
    assert session.pending is not None and game.history == []
    assert f"Careful! You hold {held.name}: it is not in the envelope." in \
        session.confirmation().splitlines()
    session.cancel()
    assert session.pending is None and session.confirmation() == ""
    assert not session.confirm()
    assert session.message == "Choose an accusation first, then confirm it."
    right = [solution[c] for c in ("suspect", "weapon", "location")]
    session.press("Accuse", **{f"cards.{i}": c for i, c in enumerate(right)})
    assert "Careful" not in session.confirmation()
    assert session.confirm() and game.is_over and game.winner == 0
    names = ", ".join(c.name for c in game.deal.envelope)
    assert session.ending() == [
        "You won!", f"You accused {names}, and were right: the crime is solved.",
        f"The solution: {names}."]
    assert session.whose_move() == "Game over: you won!" and session.controls() == []
    assert session.log()[-1] == game.log[-1]
    assert session.text().splitlines()[:4] == [session.whose_move(), *session.ending()]


class Closer:
    """A 2018 bot that asks (or shows, or declines to join) until P1 has accused wrongly, then
    accuses the solution on its turn (it reads the deal: a test's bot)."""

    def choose(self, game, seat):
        legal = game.legal_actions()
        if game.out[0] and game.stage == "ask":
            envelope = {c.id for c in game.deal.envelope}
            return next(a for a in legal if a.kind == "accuse" and set(a["cards"]) == envelope)
        return next(a for a in legal if a.kind != "accuse")


def test_a_wrong_accusation_made_face_down_stays_face_down_for_the_others():
    game = new_game("cluedo-card-game-2018", 3, seed=3)
    assert game.edition.accusation.reveal == "accuser"
    session = TableSession(game, 0, bots=(Closer(),))
    envelope = {c.id for c in game.deal.envelope}
    wrong = next(a for a in session.seat.legal_actions()
                 if a.kind == "accuse" and set(a["cards"]) != envelope)
    assert session.act(wrong)
    while not game.is_over:       # out of the game, P1 still shows cards when asked
        assert session.act(session.seat.legal_actions()[0])
    names = ", ".join(game.edition.card(c).name for c in wrong["cards"])
    winner = game.names[game.winner]
    solution = ", ".join(c.name for c in game.deal.envelope)
    assert session.ending() == [
        f"{winner} won.",
        f"You accused {names}, and were wrong, so you could only answer questions from then on.",
        f"{winner} accused {solution}, and was right: the crime is solved.",
        f"The solution: {solution}."]
    assert quiet(game, 1).ending()[1] == ("P1 accused three cards, face down, and was wrong, so "
                                          "P1 could only answer questions from then on.")


def test_the_bots_play_after_your_action_and_are_told_as_a_replay_tells_them():
    session = TableSession(new_game("clue-mansion-2014", 3, seed=2), 0, bots=("random",))
    game = session.game
    mine: list[Action] = []
    session.before_bots = lambda: mine.append(game.history[-1])
    while not game.is_over and len(game.history) < 120:
        legal = session.seat.legal_actions()
        assert session.act(([a for a in legal if a.kind != "accuse"] or legal)[-1])
        assert mine[-1].seat == 0        # the bots had not played yet
        assert session.log() == quiet(game.from_dict(game.to_dict()), 0).log()
    assert len(mine) >= 5 and {a.seat for a in game.history} == {0, 1, 2}


def test_a_failing_or_endless_bot_is_reported_and_what_it_did_is_told(monkeypatch):
    class Broken:
        def choose(self, game, seat):
            raise RuntimeError("out of ideas")

    session = TableSession(new_game("cluedo-card-game-2018", 3, seed=1), 0, bots=(Broken(),))
    assert session.play("ask", items=["scarlett", "rope"])
    assert session.message == "The bot in seat 1 (P2) failed: RuntimeError('out of ideas')"
    assert session.game.current == 1 and session.controls() == []

    monkeypatch.setattr(table_session, "MAX_BOT_ACTIONS", 4)
    game = new_game("cluedo-classic-1949", 3, seed=1)
    session = TableSession(game, 2, bots=("random",))
    assert session.message == "The bots made 4 actions without reaching your move"
    assert len(game.history) == 4
    assert session.log() == quiet(BoardGame.from_dict(game.to_dict()), 2).log()


def test_an_illegal_action_changes_nothing_and_says_why():
    session = TableSession(new_game("cluedo-card-game-2018", 3, seed=1), 0)
    game = session.game
    saved = (game.to_json(), session.log())
    assert not session.act(Action.make("ask", 1, items=["plum", "rope"]))
    assert session.message == "Choose again: you sit in seat 0 (P1), not seat 1."
    assert not session.act({"kind": "ask"}) and "not an action" in session.message
    assert not session.press("Roll the dice")
    assert session.message == "Choose again: the buttons now are Ask about; Accuse."
    assert not session.press("Ask about", weapon="rope") and "has no choice" in session.message
    assert (game.to_json(), session.log()) == saved
    assert session.play("ask", items=["plum", "rope"]) and session.message == ""


@pytest.mark.parametrize("edition_id", [e.id for e in all_editions()])
def test_the_facts_are_your_hand_and_the_public_state(edition_id):
    edition = next(e for e in all_editions() if e.id == edition_id)
    session = TableSession(new_game(edition, min(max(3, edition.min_players),
                                                 edition.max_players), 4), 0)
    game, facts = session.game, session.facts()
    assert facts[0] == f"You: P1. Your hand: {', '.join(c.name for c in game.deal.hands[0])}"
    if isinstance(game, CardGame2002):
        assert facts[1] == f"Your action cards: {', '.join(game.action_cards(0)) or 'none'}"
        assert facts[2].startswith("Destination markers: ")
    elif isinstance(game, BoardGame):
        assert facts[1:] == game.status().splitlines()
    else:
        assert facts[1:] == []


def test_an_action_said_in_a_players_words_names_the_cards():
    """``said`` gives a learner the names on the cards; ``str`` keeps the records' ids."""
    game = new_game("cluedo-classic-1949", ["Ann", "Bob", "Cy"], seed=10)
    show = Action.make("show", 1, card="peacock")
    assert said(game, show) == "Bob: Show Mrs. Peacock"
    assert str(show) == "seat 1: show (card=peacock)"
    ask = Action.make("ask", 0, items=["scarlett", "knife"])
    assert said(new_game("cluedo-card-game-2018", 3), ask) == "P1: Ask about Scarlett, Knife"
