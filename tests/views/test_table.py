"""The table widget, driven as a learner drives it: buttons clicked and drop-downs set on the
live ipywidgets objects, for every edition family.

Expectations come from the engine (``legal_actions``, the deal, the seat's record and its
knowledge), never from the table itself.
"""

from __future__ import annotations

import random
import re
from html import escape

import pytest

from cluedo_lab.games import new_game
from cluedo_lab.games.board_game import BoardGame
from cluedo_lab.games.game import Action
from cluedo_lab.games.seat import seat_of
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.lab.table_controls import controls, makeable
from cluedo_lab.rules.edition import all_editions
from cluedo_lab.rules.errors import IllegalAction
from cluedo_lab.views.classroom import Classroom
from cluedo_lab.views.table import Table, TableChooser

pytest.importorskip("ipywidgets")

EDITIONS = [e.id for e in all_editions()]
FAMILIES = ["cluedo-card-game-2018", "cluedo-the-card-game-2002", "cluedo-classic-1949"]


def players(edition_id: str) -> int:
    edition = next(e for e in all_editions() if e.id == edition_id)
    return min(max(3, edition.min_players), edition.max_players)


def click_randomly(table: Table, rng: random.Random, accuse: float = 0.05) -> bool:
    """A learner who picks any control and any drop-down values: a suggestion when one can be
    made, an accusation with chance ``accuse`` when one can be made."""
    choices = table.controls()
    suggest = [c for c in choices if c.kind == "suggest"]
    accusations = [c for c in choices if c.kind == "accuse"]
    others = [c for c in choices if c.kind != "accuse"]
    if accusations and (not others or rng.random() < accuse):
        control = rng.choice(accusations)
    elif suggest and rng.random() < 0.8:
        control = suggest[0]
    else:
        control = rng.choice(others)
    table.widget()
    for field in control.fields:
        table.dropdown(control.label, field.name).value = rng.choice(field.options)[1]
    table.button(control.label).click()
    if control.kind == "accuse":  # an accusation asks first
        assert table.pending is not None and table.part("confirm").layout.display == "flex"
        table.part("yes").click()
    return table.message == ""


def caption(table: Table) -> str:
    return table.engine_notepad.part("caption").value


# ---------------------------------------------------------------------------------------------
# Controls
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition_id", EDITIONS)
def test_controls_make_exactly_the_legal_actions(edition_id):
    """At every move of a seeded game the controls can make every legal action and no other,
    and each legal action belongs to exactly one control."""
    table = Table(edition_id, players(edition_id), seed=2, bots=("random",))
    rng = random.Random(2)
    positions = 0
    while not table.game.is_over and positions < 40:
        legal = set(table.game.legal_actions())
        found = table.controls()
        assert sum(c.choices for c in found) == len(table.game.legal_actions())
        made = {a for c in found for a in makeable(c, table.seat)}
        assert legal <= made
        for action in made - legal:  # a permutation the game sorts, or a refused combination
            try:
                twin = type(table.game).from_dict(table.game.to_dict())
                twin.apply(action)
            except IllegalAction:
                continue
            assert twin.history[-1] in legal
        assert len({c.label for c in found}) == len(found)
        positions += 1
        click_randomly(table, rng, accuse=0.02)
    assert positions > 0


def test_controls_are_empty_unless_it_is_your_move():
    game = new_game("cluedo-card-game-2018", 3, seed=0)
    assert game.current == 0
    assert controls(seat_of(game, 1)) == []
    assert controls(seat_of(game, 0))


def test_a_choice_with_few_options_is_one_button_per_option():
    game = BoardGame("cluedo-classic-1949", 3, seed=4)
    table = Table.for_game(game, seat=game.current, bots=("random",))
    table.press("Roll the dice")
    labels = [c.label for c in table.controls()]
    moves = [a for a in table.game.legal_actions() if a.kind == "move"]
    if len(moves) <= 6:
        assert sum(label.startswith("Move to ") for label in labels) == len(moves)
    else:
        move = next(c for c in table.controls() if c.kind == "move")
        assert [v for _, v in move.fields[0].options] == [a["to"] for a in moves]


# ---------------------------------------------------------------------------------------------
# Playing: the human's action, the bots, the log, the notepad
# ---------------------------------------------------------------------------------------------

def test_2018_ask_by_dropdowns_then_bots_answer_and_play():
    table = Table("cluedo-card-game-2018", 3, seed=1)
    table.widget()
    before = caption(table)
    hand = {c.id for c in table.game.deal.hands[0]}
    first, second = [c.id for c in table.game.edition.cards if c.id not in hand][:2]
    table.dropdown("Ask about", "card 1").value = first
    table.dropdown("Ask about", "card 2").value = second
    table.button("Ask about").click()

    assert table.message == ""
    game = table.game
    mine = Action.make("ask", 0, items=[first, second])
    assert game.history[0] == mine
    while game.stage == "show":     # a bot asked and we hold a card it named: we show one
        assert game.current == 0
        table.act(game.legal_actions()[0])
    assert {a.seat for a in game.history[1:] if a.kind == "ask"} >= {1, 2}  # both bots asked
    assert game.current == 0
    record = game.record(0)
    assert len(record.events) == len(game.events) >= 3
    log = table.log()
    assert any(line.startswith(f"event 1: P1 asked about {game.edition.card(first).name}")
               for line in log)
    assert sum(line.startswith("event ") for line in log) == len(record.events)
    assert caption(table) != before
    assert f"after {len(record.events)} events" in caption(table)
    # The notepad is the knowledge engine on P1's own record.
    truth = Knowledge(record)
    for card in game.edition.cards:
        for place in truth.places:
            assert table.engine_notepad.knowledge.probability(card.id, place) == \
                truth.probability(card.id, place)


def test_2002_present_destination_buttons_say_what_they_do():
    """The card that suggests or moves gives two buttons: each says which, in a player's words
    (no argument names), and each makes its own kind of action."""
    table = Table("cluedo-the-card-game-2002", 3, seed=0)
    card = "Play Suggestion from present destination (or move)"
    suggest, move = [c for c in table.controls() if c.label.startswith(card)]
    assert [suggest.label, move.label] == [f"{card}: suggest a suspect and a vehicle",
                                           f"{card}: move (choose where to)"]
    assert [f.label for f in suggest.fields] == ["suspect", "vehicle"]
    assert suggest.action(0).get("cards") and move.action(0).get("destination")


def test_2002_snoop_button_shows_a_card_of_that_player():
    table = Table("cluedo-the-card-game-2002", 3, seed=1)
    table.widget()
    assert "Play Snoop on P2" in [c.label for c in table.controls()]
    events = len(table.game.events)
    table.button("Play Snoop on P2").click()
    assert table.message == ""
    snoop = table.game.events[events]
    assert snoop["snoop"] == "P2" and snoop["by"] == "P1"
    seen = table.game.edition.card(snoop["card"])
    assert seen in table.game.deal.hands[1]
    assert f"event {events + 1}: P1 snooped on P2 and saw {seen.name}" in table.log()
    assert table.engine_notepad.cell(seen.id, "P2") == "✓"
    # After playing a card the turn continues: end it, and the bots play round to P1.
    assert [c.label for c in table.controls()][0] == "End the turn"
    history = len(table.game.history)
    table.button("End the turn").click()
    assert table.game.history[history] == Action.make("end", 0)
    assert {a.seat for a in table.game.history[history + 1:]} >= {1, 2}
    assert table.game.current == 0 and "P1 ends the turn" in table.log()


def test_board_game_roll_move_end_and_bots_move_their_pieces():
    table = Table("cluedo-classic-1949", 3, seed=5)
    game = table.game
    table.widget()
    drawing = table.part("board").value
    table.button("Roll the dice").click()
    assert game.history[-1] == Action.make("roll", 0)
    assert re.fullmatch(r"P1 rolls \d \+ \d = \d+", table.log()[-1])
    move = next(c for c in table.controls() if c.kind == "move")
    squares = [a["to"] for a in game.legal_actions()
               if a.kind == "move" and not isinstance(a["to"], str)]
    assert ('class="reachable"' in table.part("board").value) == bool(table.session.board_moves())
    assert set(squares) <= set(table.session.board_moves())  # where you may go
    if move.fields:
        target = move.fields[0].options[-1][1]
        table.dropdown(move.label, "to").value = target
        table.button(move.label).click()
    else:
        target = move.fixed[0][1]
        table.button(move.label).click()
    assert game.history[-1] == Action.make("move", 0, to=target)
    assert game.piece(0) == target
    assert table.part("board").value != drawing
    pieces = {s: game.piece(s) for s in (1, 2)}
    if "End the turn" not in [c.label for c in table.controls()]:
        pytest.fail(f"no end after moving: {[c.label for c in table.controls()]}")
    table.button("End the turn").click()
    assert game.current == 0 and game.turn == 0
    assert {s: game.piece(s) for s in (1, 2)} != pieces  # the bots moved
    log = table.log()
    assert "-- P2's turn --" in log and "-- P3's turn --" in log and log[-1] == "-- your turn --"


def test_board_game_notepad_follows_events_seen_from_the_seat():
    table = Table("cluedo-classic-1949", 3, seed=5, bots=("quick-detective",))
    rng = random.Random(5)
    table.widget()
    before = caption(table)
    while len(table.game.events) < 3:
        click_randomly(table, rng, accuse=0)
    assert caption(table) != before
    assert table.engine_notepad.knowledge.record.events == table.game.record(0).events
    assert table.learner_notepad.knowledge is table.engine_notepad.knowledge


@pytest.mark.parametrize("edition_id", EDITIONS)
def test_a_whole_game_by_clicks(edition_id):
    # Detectives at the other seats end the game: where only a suggestion nobody answers opens
    # an accusation (1949, 2014), random players and random clicks seldom get there.
    table = Table(edition_id, players(edition_id), seed=7, bots=("quick-detective",))
    rng = random.Random(7)
    for _ in range(1500):   # every shower's card is a click of its own
        if table.game.is_over:
            break
        click_randomly(table, rng, accuse=0.2)
    game = table.game
    assert game.is_over
    assert table.controls() == []
    assert table.whose_move().startswith("Game over")
    assert table.log()[-1] == game.log[-1]  # the engine's last line: winner and envelope
    assert table.part("controls").children == ()           # no button left on the page


def test_the_end_screen_offers_a_review_of_the_game_from_your_seat():
    table = Table("cluedo-card-game-2018", 3, seed=4, bots=("random",))
    table.widget()
    with pytest.raises(IllegalAction):
        table.review()                     # no review while the game goes on
    assert table.part("review").layout.display == "none"
    rng = random.Random(4)
    while not table.game.is_over:
        click_randomly(table, rng, accuse=0.2)
    assert table.part("review").layout.display == "flex"
    review = table.review()
    assert review.review.seat == table.me
    assert table.part("review_box").children and table.part("review").layout.display == "none"


# ---------------------------------------------------------------------------------------------
# Refusals
# ---------------------------------------------------------------------------------------------

def _unchanged(table: Table, act) -> str:
    game = table.game
    saved = (game.to_json(), list(game.log), table.log())
    act()
    assert (game.to_json(), list(game.log), table.log()) == saved
    return table.message


def test_2018_the_same_card_twice_is_refused_with_the_engines_reason():
    table = Table("cluedo-card-game-2018", 3, seed=1)
    table.widget()
    table.dropdown("Ask about", "card 1").value = "plum"
    table.dropdown("Ask about", "card 2").value = "plum"
    message = _unchanged(table, table.button("Ask about").click)
    reason = table.game.why_illegal(Action.make("ask", 0, items=["plum", "plum"]))
    assert message == f"Choose again: {reason}."
    assert reason == "a question names 2 different cards"  # the rule, said as what is allowed
    assert "cluedo-table-message" in table.part("message").get_state()["_dom_classes"]
    assert escape(reason) in table.part("message").value
    # The learner's picks survive the refusal, and the next legal click clears the message.
    assert table.dropdown("Ask about", "card 1").value == "plum"
    table.dropdown("Ask about", "card 2").value = "rope"
    table.button("Ask about").click()
    assert table.message == "" and table.part("message").value == ""
    assert table.game.history[0] == Action.make("ask", 0, items=["plum", "rope"])


@pytest.mark.parametrize("edition_id, first", [("cluedo-classic-1949", "Roll the dice"),
                                               ("cluedo-the-card-game-2002", "Play Snoop on P2")])
def test_a_stale_button_clicked_twice_changes_nothing(edition_id, first):
    table = Table(edition_id, 3, seed=1)
    table.widget()
    button = table.button(first)
    button.click()
    assert table.message == ""
    message = _unchanged(table, button.click)  # the old button, no longer shown
    assert message.startswith("Choose again: ")
    assert len(message) > len("Choose again: ") + 10


def test_acting_for_another_seat_or_with_nonsense_changes_nothing():
    table = Table("cluedo-card-game-2018", 3, seed=1)
    assert _unchanged(table, lambda: table.act(Action.make("ask", 1, items=["plum", "rope"])))\
        == "Choose again: you sit in seat 0 (P1), not seat 1."
    assert "not an action" in _unchanged(table, lambda: table.act({"kind": "ask"}))
    assert "the buttons now are Ask about; Accuse" in _unchanged(
        table, lambda: table.press("Roll the dice"))
    assert "has no choice" in _unchanged(table, lambda: table.press("Ask about", weapon="rope"))
    assert not table.play("ask", items=["plum", "nonsense"])
    assert "nonsense" in table.message


def test_a_failing_bot_is_reported_not_raised():
    class Broken:
        def choose(self, game, seat):
            raise RuntimeError("out of ideas")

    table = Table("cluedo-card-game-2018", 3, seed=1, bots=(Broken(),))
    assert table.play("ask", items=["scarlett", "rope"])
    assert table.message == "The bot in seat 1 (P2) failed: RuntimeError('out of ideas')"
    assert table.game.current == 1


# ---------------------------------------------------------------------------------------------
# Privacy: your log shows only what your seat saw
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition_id", ["cluedo-card-game-2018", "cluedo-the-card-game-2002",
                                        "clue-classic-2023"])
def test_the_log_never_names_a_card_shown_to_someone_else(edition_id):
    table = Table(edition_id, 3, seed=3, bots=("quick-detective",))
    rng = random.Random(3)
    while not table.game.is_over:
        click_randomly(table, rng, accuse=0.01)
    game, log = table.game, table.log()[:-1]  # the last line reveals the envelope
    hidden = [(i, game.edition.card(e["card"]).name) for i, e in enumerate(game.events)
              if "_seen_by" in e and "P1" not in e["_seen_by"] and e.get("card")]
    assert hidden, "the game should have private events to hide"
    engine = "\n".join(game.log)
    told = "\n".join(line for line in log if not line.startswith("event "))
    record = game.record(0)
    for i, name in hidden:
        assert re.search(rf"(shows \w+|sees) {re.escape(name)}", engine)  # the engine names it
        line = next(line for line in log if line.startswith(f"event {i + 1}: "))
        assert line == record.events[i].describe()
        assert re.search(r"showed (\w+ )?a card|snooped on \w+$", line)
        assert not re.search(rf"\b(shows|showed|sees|saw) (\w+ )?{re.escape(name)}", told)
    log, engine = "\n".join(log), "\n".join(game.log)
    assert " holds " not in log  # nobody's hand is listed (the engine's set-up line does)
    assert " holds " in engine


# ---------------------------------------------------------------------------------------------
# Sitting down at a game in progress; static rendering; the chooser
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("edition_id", FAMILIES)
def test_for_game_tells_the_same_story(edition_id):
    table = Table(edition_id, 3, seed=4, bots=("random",))
    rng = random.Random(4)
    for _ in range(6):
        if not table.game.is_over:
            click_randomly(table, rng, accuse=0)
    again = Table.for_game(table.game, seat=0, bots=("random",))
    assert again.log() == table.log()


def test_for_game_lets_the_bots_play_up_to_your_seat():
    game = new_game("cluedo-card-game-2018", ["Ann", "Bob", "Cy"], seed=0)
    table = Table.for_game(game, seat=2)
    assert game.current == 2
    if game.stage == "show":        # Cy holds a card someone asked about: Cy shows it
        assert {a.seat for a in game.history} & {0, 1}
    else:
        assert game.turn == 2 and {a.seat for a in game.history} >= {0, 1}
    assert table.log()[0].endswith("You are Cy.")


def test_static_rendering_says_whose_move_hand_actions_and_log():
    table = Table("cluedo-the-card-game-2002", 3, seed=1)
    text = repr(table)
    hand = ", ".join(c.name for c in table.game.deal.hands[0])
    assert text.splitlines()[0] == "Your move (P1): accuse, play"
    assert f"Your hand: {hand}" in text
    assert "Your action cards: " + ", ".join(table.game.action_cards(0)) in text
    for control in table.controls():
        assert "  " + control.summary() in text.splitlines()
    assert "Accuse (suspect, vehicle, destination: 324 choices)" in text
    assert text.splitlines()[-1] == "  " + table.log()[-1]
    html = table._repr_html_()
    assert "own notes after" in html and "<svg" not in html
    assert "notepad after" in Table("cluedo-the-card-game-2002", 3, seed=1,
                                    notes="engine")._repr_html_()

    board = Table("clue-mansion-2014", 3, seed=1, bots=("random",))
    assert "<svg" in board._repr_html_()
    assert "Weapons: " in repr(board)


def test_the_chooser_starts_a_new_game_of_the_chosen_edition():
    chooser = TableChooser("cluedo-card-game-2018", players=3)
    ui = chooser.widget()
    chooser.part("edition").value = "clue-classic-2023-two-player"
    chooser.part("seed").value = 9
    start = next(b for b in ui.children[0].children if getattr(b, "description", "") ==
                 "New game")
    start.click()
    game = chooser.table.game
    assert isinstance(game, BoardGame) and game.edition.id == "clue-classic-2023-two-player"
    assert game.seed == 9 and len(game.names) == 2
    assert ui.children[2].children == (chooser.table.widget(),)


def test_new_game_always_answers_and_closes_the_old_table():
    chooser = TableChooser("cluedo-card-game-2018", players=3)
    chooser.widget()
    first = chooser.table
    old = first.widget()
    chooser.part("start").click()                 # the same settings: the same deal, said so
    assert chooser.table is not first and chooser.games == 2
    assert chooser.table.game.deal.hands == first.game.deal.hands
    note = chooser.part("note")
    assert "Game 2 started" in note.value and "same settings" in note.value
    assert old.comm is None                         # closed: the page forgets its models
    assert not chooser.part("start").disabled
    chooser.part("seed").value = 4
    chooser.part("start").click()
    assert "Game 3 started" in note.value and "same settings" not in note.value
    assert chooser.table.game.seed == 4 and chooser.table.notes == "learner"


# ipykernel's IOPub socket (a ZMQ XPUB, no high-water mark set) queues at most ZMQ's default
# 1,000 messages for a reader that is behind, and drops the rest without a word. The Voila
# server reads that queue for the page; busy (a class, a loaded machine), it may read nothing
# while a New game is sent, so a New game has to fit in the queue.
IOPUB_QUEUE = 1000


def shared_looks(widget) -> list:
    """The layouts and styles a notepad's cells share, found in its widget tree as
    :func:`~cluedo_lab.views.table.close_tree` finds them."""
    found = list(getattr(widget, "shared_models", list)())
    for child in getattr(widget, "children", ()):
        found += shared_looks(child)
    return found


@pytest.mark.parametrize("edition", EDITIONS)
def test_a_new_game_fits_in_the_kernels_iopub_queue(monkeypatch, edition):
    """One press of New game in the classroom app, at the edition's most players (the biggest
    notepad, closed and opened again), sends fewer widget messages than the kernel's IOPub
    socket queues: a burst above it lost its tail (the last of them "New game" and the new
    table) and the page stayed on "Dealing…"."""
    import comm

    sent: list[str] = []

    class Counting(comm.DummyComm):
        def publish_msg(self, msg_type, *args, **kwargs):
            sent.append(msg_type)

    monkeypatch.setattr(comm, "create_comm", lambda **kwargs: Counting(**kwargs))
    classroom = Classroom(edition, players=6)        # kept to the edition's most players
    classroom.widget()
    old = classroom.table
    looks = shared_looks(old.learner_notepad.widget())
    sent.clear()
    classroom.chooser.part("seed").value = 1
    classroom.chooser.part("start").click()
    assert classroom.table is not old and classroom.chooser.part("start").description == \
        "New game"
    assert sent.count("comm_close") > 100 and sent.count("comm_open") > 100
    assert len(sent) < IOPUB_QUEUE, f"{len(sent)} messages"
    assert looks and all(model.comm is None for model in looks)    # shared looks closed too


def test_the_classroom_board_follows_the_game_and_card_games_have_none():
    classroom = Classroom("cluedo-card-game-2018", players=3)
    ui = classroom.widget()
    classroom.part("tabs").selected_index = 1                  # the board tab: built when opened
    assert classroom.explorer is None and classroom.part("board").children == ()
    assert "is a card game: it has no board" in classroom.part("note").value
    for edition, board in (("cluedo-classic-1949", "classic-24x25"),
                           ("clue-mansion-2014", "mansion-2014"),
                           ("clue-classic-2023", "classic-24x25")):
        chooser = classroom.chooser
        chooser.part("edition").value = edition
        chooser.part("start").click()
        explorer = classroom.explorer
        assert explorer.board.id == board == classroom.table.game.board.id
        assert explorer.roll == classroom.edition.turns.roll
        assert classroom.part("board").children == (explorer.widget(),)
    classroom.part("tabs").selected_index = 0
    classroom.new("clue-classic-2023-two-player", 2)
    assert classroom.explorer._ui is None                # not built while its tab is closed
    classroom.part("tabs").selected_index = 1
    assert classroom.part("board").children == (classroom.explorer.widget(),)
    classroom.new("cluedo-the-card-game-2002", 3)
    assert classroom.part("board").children == () and "no board" in classroom.part("note").value
    assert ui is classroom.widget() and "no board" in repr(classroom)


# ---------------------------------------------------------------------------------------------
# Learner mode, accusing with confirmation, the end of a game
# ---------------------------------------------------------------------------------------------

class Scripted:
    """A bot that accuses the solution on its first turn if it is ``accuser``, else makes the
    first legal action that is no accusation (asking, showing, declining)."""

    def __init__(self, accuser: int | None):
        self.accuser = accuser

    def choose(self, game, seat):
        legal = game.legal_actions()
        if seat == self.accuser and game.turn == seat:
            envelope = [c.id for c in game.deal.envelope]
            return next(a for a in legal if a.kind == "accuse" and set(a["cards"]) == set(
                envelope))
        return next(a for a in legal if a.kind != "accuse")


def test_the_table_opens_with_the_learners_own_notepad_and_switches_to_the_engines():
    table = Table("cluedo-card-game-2018", 3, seed=1)
    ui = table.widget()
    assert table.notes == "learner" and table.notepad is table.learner_notepad
    box = table.part("notepad")
    assert box.children == (table.learner_notepad.widget(),)
    # The learner marks a card of their own hand; Check counts it right without the engine's
    # cells ever being shown.
    mine = table.game.deal.hands[0][0]
    table.learner_notepad.cell_button(mine.id, "P1").click()
    assert table.learner_notepad.notes.marks == {(mine.id, "P1"): "holds"}
    assert table.learner_notepad.check().startswith("1 mark right")
    table.part("notes").value = "engine"
    assert table.notes == "engine" and box.children == (table.engine_notepad.widget(),)
    table.part("notes").value = "learner"
    assert box.children == (table.learner_notepad.widget(),)
    # The marks stay as the game goes on, and are checked against the longer record.
    table.play("ask", items=["plum", "rope"])
    notes = table.learner_notepad.notes
    assert notes.knowledge is table.engine_notepad.knowledge
    assert notes.knowledge.record.events == table.game.record(0).events
    assert notes.marks == {(mine.id, "P1"): "holds"}
    assert ui is table.widget()
    with pytest.raises(ValueError, match="notes is one of learner, engine"):
        table.use_notes("solver")


def test_accusing_asks_first_and_warns_about_a_card_you_hold():
    table = Table("cluedo-card-game-2018", 3, seed=0)
    table.widget()
    game = table.game
    held = game.deal.hands[0]
    weapon = next(c for c in held if c.category == "weapon")
    table.dropdown("Accuse", "weapon").value = weapon.id
    saved = game.to_json()
    table.button("Accuse").click()
    assert game.to_json() == saved and table.pending is not None   # nothing done yet
    assert table.part("confirm").layout.display == "flex"
    question = table.confirmation()
    assert question.startswith("Accuse ") and weapon.name in question.splitlines()[0]
    assert f"Careful! You hold {weapon.name}: it is not in the envelope." in question
    assert escape(weapon.name) in table.part("question").value
    table.part("no").click()                                                  # think again
    assert table.pending is None and table.part("confirm").layout.display == "none"
    assert game.to_json() == saved
    # The solution: no warning, and Yes makes the accusation.
    envelope = {c.category: c.id for c in game.deal.envelope}
    for label, value in (("suspect", envelope["suspect"]), ("weapon", envelope["weapon"]),
                         ("location", envelope["location"])):
        table.dropdown("Accuse", label).value = value
    table.button("Accuse").click()
    assert "Careful" not in table.confirmation()
    table.part("yes").click()
    assert game.is_over and game.winner == 0
    assert table.whose_move() == "Game over: you won!"
    ending = table.ending()
    assert ending[0] == "You won!"
    names = ", ".join(c.name for c in game.deal.envelope)
    assert ending[-1] == f"The solution: {names}."
    assert f"You accused {names}, and were right: the crime is solved." in ending
    assert "cluedo-table-ending" in table.part("status").value


def test_a_lost_simultaneous_accusation_is_explained():
    """P3 declares first and is right; P1 (the learner) accuses too, also right, and loses
    because P3 comes first in the order agreed (2018 rule book: MAKING AN ACCUSATION)."""
    game = new_game("cluedo-card-game-2018", 3, seed=3)
    assert game.edition.accusation.simultaneous
    table = Table.for_game(game, seat=0, bots=(Scripted(None), Scripted(2)))
    table.widget()
    hand = {c.id for c in game.deal.hands[0]}
    ask = [c.id for c in game.edition.cards if c.id not in hand][:2]
    table.play("ask", items=ask)
    while game.current == 0 and game.stage == "show":
        table.act(game.legal_actions()[0])
    assert game.accusing == [2] and game.current == 0    # P3 is ready: do we accuse too?
    solution = [c.id for c in game.deal.envelope]
    table.press("Accuse", **{f"cards.{i}": c for i, c in enumerate(solution)})
    assert table.confirm()
    assert game.is_over and game.winner == 2
    ending = table.ending()
    text = "\n".join(ending)
    names = ", ".join(c.name for c in game.deal.envelope)
    assert ending[0] == "P3 won."
    assert "P3 said they were ready to accuse and you accused too" in text
    assert f"  1. P3: {names}: right" in ending and f"  2. you: {names}: right" in ending
    assert "You were right too, but P3 came before you in the order." in text
    assert ending[-1] == f"The solution: {names}."
    assert ending == Table.for_game(game, seat=0).ending()   # told the same after a reload
    assert "\n".join(ending) in table.text()


@pytest.mark.parametrize("edition_id", ["cluedo-classic-1949", "cluedo-the-card-game-2002"])
def test_the_ending_keeps_a_face_down_accusation_face_down(edition_id):
    """Every accusation of a finished game is listed in order, as the seat's record holds it."""
    table = Table(edition_id, 3, seed=7, bots=("random",))
    rng = random.Random(7)
    for _ in range(1500):
        if table.game.is_over:
            break
        click_randomly(table, rng, accuse=0.2)
    game = table.game
    assert game.is_over
    ending = table.ending()
    accusations = [e for e in game.record(0).events if type(e).__name__ == "Accuse"]
    told = [line for line in ending if " accused " in line]
    assert len(told) == len(accusations) > 0
    for line, event in zip(told, accusations, strict=True):
        if event.named:
            assert ", ".join(c.name for c in event.named) in line
        else:
            assert "face down" in line
    assert ending[-1].startswith("The solution: ")


def test_choosing_an_edition_does_not_rewrite_the_players_a_learner_typed():
    """The "ignored" New game: every edition change used to send the players box new limits and
    a value, and the page then reset a number typed just after it, so New game dealt the old
    game again. Now nothing is sent to the boxes until a game starts; New game keeps the
    number within the edition's range and the box then shows what was dealt."""
    chooser = TableChooser("cluedo-card-game-2018", players=3)
    chooser.widget()
    boxes = (chooser.part("players"), chooser.part("seed"))
    assert all(box.continuous_update for box in boxes)   # every keystroke reaches the kernel
    sent: list[set[str]] = []
    for box in boxes:
        original = box.send_state
        box.send_state = (lambda key=None, original=original:
                          (sent.append(set(key or ())), original(key))[1])
    for edition in ("cluedo-classic-1949", "clue-mansion-2014", "clue-classic-2023-two-player"):
        chooser.part("edition").value = edition
    assert sent == []
    chooser.part("players").value = 6                     # 6 players for the two-player game
    chooser.part("start").click()
    assert len(chooser.table.game.names) == 2 and chooser.part("players").value == 2
    assert "2 players" in chooser.part("note").value
    chooser.part("edition").value = "cluedo-classic-1949"
    chooser.part("players").value = 5
    chooser.part("start").click()
    assert len(chooser.table.game.names) == 5 and chooser.part("players").value == 5
    chooser.new("cluedo-card-game-2018", 4, seed=2)          # from code: the controls follow
    assert [chooser.part(name).value for name in ("edition", "players", "seed")] == [
        "cluedo-card-game-2018", 4, 2]


def test_a_click_on_the_board_moves_the_piece_as_the_drop_down_would():
    table = Table("cluedo-classic-1949", 3, seed=5)
    game = table.game
    table.widget()
    assert table.part("targets").children == ()  # nothing to click before the roll
    assert not table.click_board((0, 0)) and "cannot go to row 0, column 0" in table.message
    table.button("Roll the dice").click()
    moves = table.session.board_moves()
    assert moves and all(a.kind in ("move", "passage") for a in moves.values())
    assert len(table.part("targets").children) == len(moves)   # a button on each place, no more
    assert {table.board_button(t) for t in moves} == set(table.part("targets").children)
    # Every square the move drop-down offers is a place to click, worded row then column.
    move = next(c for c in table.controls() if c.kind == "move")
    for text, value in (move.fields[0].options if move.fields else ()):
        assert value in moves
        if isinstance(value, tuple):
            assert text == f"row {value[0]}, column {value[1]}"
    svg = table.part("board").value
    assert svg.count('fill="#1e88e5"') >= len([t for t in moves if not isinstance(t, str)])
    history = len(game.history)
    target = next(t for t in moves if not isinstance(t, str))
    table.board_button(target).click()
    assert game.history[history] == moves[target] == Action.make("move", 0, to=target)
    assert game.piece(0) == target and table.message == ""
    assert f"P1 moves to row {target[0]}, column {target[1]}" in table.log()


def test_a_click_on_a_room_square_enters_the_room():
    for seed in range(40):
        table = Table("cluedo-classic-1949", 3, seed=seed)
        table.press("Roll the dice")
        rooms = [t for t in table.session.board_moves() if isinstance(t, str)]
        if rooms:
            break
    else:
        pytest.fail("no roll in 40 games reached a room")
    room = rooms[0]
    square = sorted(table.game.board.room_squares[room])[-1]
    assert table.click_board(square)
    assert table.game.piece(0) == room
