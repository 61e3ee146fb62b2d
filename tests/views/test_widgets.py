"""The notebook widgets, driven from Python as a learner's clicks would drive them.

Every expectation is read from the engine (``Knowledge``, ``Deduction``, ``reach_chance``,
``rank_questions``), never from the widget itself: the views must show exactly what the library
computes, and the live widget must show the same as the static rendering.
"""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from html import escape
from pathlib import Path

import pytest
from lesson01 import ann_record

from cluedo_lab.knowledge.advice import outcome_table, rank_questions
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.knowledge.explain import Deduction, Fact
from cluedo_lab.lab.learner import BOOKKEEPING, same_argument
from cluedo_lab.records import Record
from cluedo_lab.rules import numbers
from cluedo_lab.rules.board import load_board, reach_chance, room_distances, shortest_moves
from cluedo_lab.rules.dice import Dice
from cluedo_lab.rules.edition import load_edition
from cluedo_lab.rules.errors import Contradiction
from cluedo_lab.views.board_svg import origin
from cluedo_lab.views.widgets import (
    BoardExplorer,
    DeductionStepper,
    EngineNotepad,
    SuggestionAdvisor,
    shortest_route,
)

pytest.importorskip("ipywidgets")

RECORDS = Path(__file__).parents[1] / "data" / "records"
CLASSIC = load_edition("cluedo-classic-1949")
SMALL_DECK = {"suspect": ["Plum", "White", "Green"], "weapon": ["Rope", "Knife", "Pipe"],
              "room": ["Hall", "Study", "Den"]}
SMALL = {"deck": SMALL_DECK, "players": ["Ann", "Bob", "Cy"], "observer": "Ann",
         "hand": ["Plum", "Rope"],
         "events": [{"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "shown_by": "Bob",
                     "card": "Knife"}]}

# The game of notebooks 01, 04 and 06 after seven events.
SEVEN_EVENTS = ann_record(7)


def classic_record() -> dict:
    return json.loads((RECORDS / "classic-3p-ann.json").read_text())


@pytest.fixture
def ann() -> Knowledge:
    return Knowledge.from_dict(classic_record())


# -- EngineNotepad ----------------------------------------------------------------------------

def test_notepad_cells_are_the_engine_probabilities(ann):
    pad = EngineNotepad(ann)
    pad.widget()
    for card in CLASSIC.cards:
        for place in ann.places:
            p = ann.probability(card.id, place)
            button = pad.cell_button(card.id, place)
            expected = "✓" if p == 1 else "·" if p == 0 else None
            if expected:
                assert button.description == expected
            else:  # the learner's format (percent by default); exact in the tooltip
                assert button.description == f"{float(p):.1%}"
            assert button.tooltip.endswith(f": {numbers.exact(p)}")
    assert pad.cell_button("White", "Cy").description == "✓"
    assert "4,431 consistent deals" in pad.part("caption").value


def test_clicking_a_cell_shows_its_explanation(ann):
    pad = EngineNotepad(ann)
    pad.widget()
    assert "Click a cell" in pad.part("explanation").value
    pad.cell_button("White", "Cy").click()
    assert pad.selected == ("white", "Cy")
    assert pad.part("explanation").value == ("<pre style='white-space:pre-wrap'>"
                                      f"{escape(str(ann.explain('White', 'Cy')))}</pre>")
    assert "cluedo-selected" in pad.cell_button("White", "Cy")._dom_classes
    pad.cell_button("Scarlett", "Cy").click()  # not certain: the exact chance instead
    assert "cluedo-selected" not in pad.cell_button("White", "Cy")._dom_classes
    assert str(ann.probability("Scarlett", "Cy")) in pad.part("explanation").value
    assert "Not certain" in pad.part("explanation").value


def test_adding_an_event_updates_every_cell(ann):
    pad = EngineNotepad(ann)
    pad.widget()
    assert pad.cell_button("Scarlett", "Cy").description not in ("✓", "·")
    pad.add({"suggest": ["Scarlett", "Revolver", "Hall"], "by": "Ann", "passed": ["Bob"],
             "shown_by": "Cy", "card": "Scarlett"})
    assert pad.cell_button("Scarlett", "Cy").description == "✓"
    assert pad.cell_button("Scarlett", "envelope").description == "·"
    for card in CLASSIC.cards:
        for place in ann.places:
            p = ann.probability(card.id, place)
            assert pad.cell_button(card.id, place).tooltip.endswith(f": {numbers.exact(p)}")
    pad.undo()
    assert pad.cell_button("Scarlett", "Cy").description == "50.9%"


def test_a_contradiction_leaves_the_notepad_as_it_was(ann):
    pad = EngineNotepad(ann)
    before = repr(pad)
    with pytest.raises(Contradiction):
        pad.add({"reveal": "Mrs. White", "by": "Bob"})  # Cy holds White
    assert repr(pad) == before


def test_notepad_static_rendering(ann):
    pad = EngineNotepad(ann)
    assert repr(pad).splitlines()[1:] == ann.notepad().splitlines()
    assert pad._repr_html_().count("<td style='background:rgb(") == 21 * 4
    pad.select("Lounge", "Cy")
    assert str(ann.explain("Lounge", "Cy")) in repr(pad)
    assert EngineNotepad(Knowledge.from_dict(classic_record()))._repr_html_() in pad._repr_html_()


# -- Deduction stepper ------------------------------------------------------------------------

def test_next_inference_skips_only_observed_steps(ann):
    steps = ann.deduction().steps

    def repeats(step):
        return step.number > 1 and same_argument(step, steps[step.number - 2])

    stepper = DeductionStepper.from_knowledge(ann)
    stepper.widget()
    visited = []
    while stepper.position < len(steps):
        before = stepper.position
        stepper.part("next").click()
        skipped = steps[before:stepper.position - 1]
        # Only bookkeeping and the argument just shown, applied to another card, are skipped.
        assert all(s.rule in BOOKKEEPING or repeats(s) for s in skipped)
        if stepper.step.rule not in BOOKKEEPING:
            visited.append(stepper.position)
    assert visited == [s.number for s in steps if s.rule not in BOOKKEEPING and not repeats(s)]
    assert len(visited) >= 2
    # Ann's full hand crosses off card after card: one argument, shown once.
    assert sum(repeats(s) for s in steps) >= 5
    first = next(s for s in steps if s.rule == "full-hand")
    assert "The same argument gives" in DeductionStepper(ann.deduction(), first.number).text()
    # No two inferences in a row are one argument repeated.
    assert not any(same_argument(steps[a - 1], steps[b - 1])
                   for a, b in zip(visited, visited[1:], strict=False))
    end = stepper.position
    stepper.part("previous").click()
    assert stepper.position == max(n for n in visited if n < end)
    assert stepper.step.rule not in BOOKKEEPING


def test_the_proof_shape_adds_up(ann):
    steps = ann.deduction().steps
    shape = DeductionStepper.from_knowledge(ann).shape()
    assert shape.observed + shape.bookkeeping + shape.inferences == len(steps)
    assert dict(shape.by_rule) == {r: sum(s.rule_name == r for s in steps)
                                   for r in {s.rule_name for s in steps
                                             if s.rule not in BOOKKEEPING}}
    assert 1 <= shape.depth <= shape.inferences
    assert str(shape) in DeductionStepper.from_knowledge(ann).text()


def test_stepping_forward_shows_step_one(ann):
    deduction = ann.deduction()
    stepper = DeductionStepper(deduction)
    stepper.widget()
    assert stepper.part("back").disabled and not stepper.part("forward").disabled
    assert "Step 0 of 47" in stepper.part("text").value
    stepper.part("forward").click()
    first = deduction.steps[0]
    assert stepper.position == 1 and stepper.part("step").value == 1
    assert escape(first.text) in stepper.part("text").value
    assert f"[{first.rule_name}]" in stepper.part("text").value
    assert stepper.part("grid").value.count("cluedo-concluded") == 1
    assert "cluedo-event-used" in stepper.part("events").value  # the set-up: Ann's hand
    stepper.part("back").click()
    assert stepper.position == 0 and "Step 0" in stepper.part("text").value


def test_stepper_highlights_premises_and_events(ann):
    deduction = ann.deduction()
    stepper = DeductionStepper(deduction)
    stepper.widget()
    shown = next(s for s in deduction.steps if s.rule == "showed-one")
    stepper.part("step").value = shown.number  # the step box jumps, like the buttons
    assert stepper.step is shown and stepper.position == shown.number
    assert stepper.part("grid").value.count("cluedo-premise") == len(shown.premises) > 0
    used = [line for line in stepper.part("events").value.split("<li")
            if "cluedo-event-used" in line]
    assert len(used) == len(shown.events) == 1
    assert escape(deduction.record.events[shown.events[0] - 1].describe()) in used[0]
    assert str(stepper) == stepper.text()


def test_stepper_end_shows_everything_the_rules_found(ann):
    deduction = ann.deduction()
    stepper = DeductionStepper(deduction)
    stepper.widget()
    stepper.go(len(deduction.steps))
    assert stepper.part("forward").disabled
    stepper.part("forward").click()  # a disabled button's handler does nothing harmful
    assert stepper.position == len(deduction.steps)
    assert stepper.facts() == {key: s.fact.holds for key, s in deduction.cells.items()}
    # every rule-found fact is a known cell of the exact count
    for (card, place), holds in stepper.facts().items():
        assert ann.status(card, place) is holds
    with pytest.raises(IndexError):
        stepper.go(len(deduction.steps) + 1)


def test_stepper_shows_a_contradiction():
    record = Record.from_dict(classic_record())  # Cy holds White: suppose the envelope does
    stepper = DeductionStepper(Deduction(record, assume=[Fact("white", "envelope", True)]))
    stepper.go(len(stepper.deduction.steps))
    assert stepper.step is stepper.deduction.contradiction
    assert "[Contradiction]" in stepper.text()
    assert "cluedo-concluded" not in stepper._repr_html_()


# -- Board explorer ---------------------------------------------------------------------------

def test_picking_peacocks_start_shows_reach_chances():
    board = load_board("classic-24x25")
    dice = Dice.for_edition(CLASSIC)
    explorer = BoardExplorer.for_edition(CLASSIC)
    explorer.widget()
    explorer.part("where").value = "peacock"
    expected = reach_chance(board, "peacock", dice)
    assert {room: chance for room, _, chance in explorer.table()} == expected
    assert dict((r, m) for r, m, _ in explorer.table()) == room_distances(board, "peacock")
    assert "Mrs. Peacock&#x27;s start square (6, 23)" in explorer.part("table").value
    moves = room_distances(board, "peacock")
    for room, chance in expected.items():
        assert (f"<td>{board.room_name(room)}</td><td style='text-align:right'>{moves[room]}"
                f"</td><td style='text-align:right' title='exactly {chance}'>"
                f"{numbers.chance(chance)}</td>") in explorer.part("table").value
    # the drawing shades the rooms and prints the same chances
    svg = ET.fromstring(explorer.part("drawing").value)
    labels = [t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")]
    assert {numbers.chance(expected[r]) for r in ("conservatory", "ballroom", "billiard-room")
            } <= set(labels)
    assert "58.3%" in labels and not any("/" in str(label) for label in labels)
    assert [c.findtext("{http://www.w3.org/2000/svg}title")
            for c in svg.iter("{http://www.w3.org/2000/svg}circle")] == ["peacock"]


def test_clicking_a_square_or_a_room():
    explorer = BoardExplorer.for_edition(CLASSIC)
    explorer.widget()
    board = explorer.board
    buttons = {id(explorer.square_button((row, col)))
               for row in range(board.rows) for col in range(board.cols)}
    assert len(buttons) == board.rows * board.cols      # a button of its own on every square
    explorer.square_button((7, 17)).click()
    assert explorer.position == (7, 17) and explorer.part("where").value is None
    assert {r: c for r, _, c in explorer.table()} == reach_chance(
        board, (7, 17), Dice.for_edition(CLASSIC))
    assert "From square (7, 17)" in explorer.part("table").value
    explorer.square_button((0, 0)).click()  # off the board: a message, the position is kept
    assert explorer.position == (7, 17)
    assert "Pick a corridor square or a room" in explorer.part("table").value
    kitchen = sorted(board.room_squares["kitchen"])[0]
    explorer.square_button(kitchen).click()  # any square of a room picks the room
    assert explorer.position == "kitchen" and explorer.part("where").value == "kitchen"
    assert "From the Kitchen" in explorer.part("table").value
    start = board.starts["peacock"]
    explorer.square_button(start).click()   # a start square is that suspect's start
    assert explorer.position == "peacock" and explorer.part("where").value == "peacock"
    assert explorer.square_button(start).tooltip == f"{start[0]}, {start[1]}"
    assert explorer.square_button(kitchen).tooltip.endswith(": Kitchen")
    explorer.pick_text("7, 17")
    assert explorer.position == (7, 17)
    with pytest.raises(ValueError):
        explorer.pick("cellar")


def test_the_board_has_its_coordinates_and_the_clickable_squares_lie_over_them():
    explorer = BoardExplorer.for_edition(CLASSIC)
    svg = ET.fromstring(explorer.svg())
    ns = "{http://www.w3.org/2000/svg}"
    group = next(g for g in svg.iter(f"{ns}g") if g.get("class") == "coordinates")
    numbers = [t.text for t in group.iter(f"{ns}text")]
    board = explorer.board
    assert numbers == [str(r) for r in range(board.rows)] + [str(c) for c in range(board.cols)]
    # The overlay grid starts where render_svg draws square (0, 0).
    explorer.widget()
    left, top = origin(explorer.CELL, coordinates=True)
    grid = explorer.square_button((0, 0))
    layout = next(w for w in explorer.widget().children[0].children[0].children
                  if grid in getattr(w, "children", ())).layout
    assert layout.padding == f"{top:g}px 0 0 {left:g}px"
    assert grid.layout.width == f"{explorer.CELL}px"
    first = next(r for r in svg.iter(f"{ns}rect") if r.get("stroke") is not None)
    assert (float(first.get("x")) - left) % explorer.CELL == 0
    assert (float(first.get("y")) - top) % explorer.CELL == 0


@pytest.mark.parametrize("edition, room, far, how", [
    ("cluedo-classic-1949", "kitchen", "study", "instead of rolling: no roll needed"),
    ("clue-mansion-2014", "kitchen", "observatory", "instead of rolling: no roll needed"),
    ("clue-classic-2023", "kitchen", "study", "roll first, then take the secret passage"),
])
def test_a_secret_passage_is_counted_as_the_rule_book_says(edition, room, far, how):
    """From the Kitchen the far room is certain this turn, by the passage: 1949 and 2014 take
    it instead of rolling, 2023 rolls first (the edition's turns.roll)."""
    ed = load_edition(edition)
    explorer = BoardExplorer.for_edition(ed, position=room, target=far, show_route=True)
    assert explorer.roll == ed.turns.roll
    rows = {r: (m, c) for r, m, c in explorer.table()}
    assert explorer.table()[0][0] == far and rows[far][1] == 1
    assert rows[far][0] == room_distances(explorer.board, room)[far]  # moves by dice, kept
    assert how in explorer.how(far)
    html = explorer.part("table").value
    assert (f"<td>{explorer.board.room_name(far)}</td><td style='text-align:right'>passage"
            f"</td><td style='text-align:right' title='exactly 1'>100.0%</td>") in html
    assert "'>100.0%</td>" in html.split(explorer.board.room_name(far))[1].split("</tr>")[0]
    assert how in repr(explorer) and f"Or {explorer.ROLLS[explorer.roll]}." in html
    # elsewhere the dice decide alone
    others = {r: c for r, _, c in explorer.table() if r != far}
    chances = reach_chance(explorer.board, room, Dice.for_edition(ed))
    assert others == {r: c for r, c in chances.items() if r != far}


@pytest.mark.parametrize("start", ["peacock", "scarlett", "kitchen", (7, 17)])
@pytest.mark.parametrize("room", ["billiard-room", "study", "lounge"])
def test_shortest_route_is_a_legal_walk_of_shortest_length(start, room):
    board = load_board("classic-24x25")
    route = shortest_route(board, start, room)
    assert route[0] == board.locate(start) and route[-1] == room
    assert len(route) - 1 == shortest_moves(board, start, room)
    for a, b in zip(route, route[1:], strict=False):
        assert board.graph.has_edge(a, b) and not board.graph[a][b]["passage"]
    assert all(isinstance(node, tuple) for node in route[1:-1])  # never through a room
    assert len(set(route)) == len(route)


def test_route_and_passage_toggles():
    explorer = BoardExplorer.for_edition(CLASSIC, position="peacock")
    explorer.widget()
    assert "cluedo-route" not in explorer.part("drawing").value
    explorer.part("target").value = "billiard-room"
    explorer.part("show_route").value = True
    assert explorer.part("drawing").value.count('class="cluedo-route"') == 1
    assert "Shortest route to the Billiard Room: 10 moves." in explorer.part("table").value
    explorer.part("show_passages").value = True
    assert explorer.part("drawing").value.count('class="cluedo-passage"') == len(
        explorer.board.passages)
    explorer.part("where").value = "kitchen"
    assert ("Kitchen &lt;-&gt; Study (from here: by the secret passage, instead of rolling: "
            "no roll needed)") in explorer.part("table").value
    explorer.part("show_route").value = False
    explorer.part("show_passages").value = False
    assert "cluedo-route" not in explorer.part("drawing").value
    assert "cluedo-passage" not in explorer.part("drawing").value
    assert 'class="passage"' not in explorer.part("drawing").value  # unticked: not drawn at all
    explorer.part("show_passages").value = True
    assert explorer.part("drawing").value.count('class="passage"') == len(explorer.board.passages)
    ET.fromstring(explorer.svg())


@pytest.mark.parametrize("edition", ["clue-mansion-2014", "clue-classic-2023"])
def test_explorer_on_every_board(edition):
    ed = load_edition(edition)
    explorer = BoardExplorer.for_edition(ed, show_route=True, show_passages=True)
    board = explorer.board
    for label, position in explorer.choices():
        explorer.pick(position)
        chances = reach_chance(board, position, Dice.for_edition(ed))
        for far in explorer.passage_rooms():
            chances[far] = 1
        assert {r: c for r, _, c in explorer.table()} == chances
        assert label in {f"{ed.card(position).name}'s start {board.starts[position]}"
                         if position in board.starts else board.room_name(position)}
        ET.fromstring(explorer.svg())


def test_explorer_static_rendering_is_deterministic():
    a = BoardExplorer.for_edition(CLASSIC, position="white", target="study", show_route=True)
    b = BoardExplorer.for_edition(CLASSIC, position="white", target="study", show_route=True)
    assert a._repr_html_() == b._repr_html_()
    assert repr(a) == repr(b)
    assert repr(a).startswith("From Mrs. White's start square (0, 9) with 2d6:")
    assert repr(a).splitlines()[-1] == (
        f"Shortest route to the Study: {shortest_moves(a.board, 'white', 'study')} moves.")


# -- Suggestion advisor -----------------------------------------------------------------------

def test_advisor_ranks_as_the_engine():
    ann = Knowledge.from_dict(SEVEN_EVENTS)  # 262 deals: quick to rank
    advisor = SuggestionAdvisor(ann, room="Ballroom", top=5)
    advisor.widget()
    engine = rank_questions(ann, fixed=["ballroom"])
    assert [(o.named, o.gain) for o in advisor.best()] == [(o.named, o.gain)
                                                           for o in engine[:5]]
    assert "36 questions naming the Ballroom" in advisor.part("ranking").value
    names = {c.id: c.name for c in CLASSIC.cards}
    assert escape(outcome_table(engine[0], names)) in advisor.part("answers").value
    advisor.part("question").value = 3
    assert advisor.chosen == 3
    assert escape(outcome_table(engine[3], names)) in advisor.part("answers").value
    assert "cluedo-advisor-chosen" in advisor.part("ranking").value


def test_advisor_room_dropdown():
    small = Knowledge.from_dict(SMALL)
    advisor = SuggestionAdvisor(small, top=30)
    advisor.widget()
    assert [(o.named, o.gain) for o in advisor.best()] == [
        (o.named, o.gain) for o in rank_questions(small)]
    advisor.part("room").value = "study"
    assert advisor.room == "study" and advisor.chosen == 0
    assert all("study" in o.named for o in advisor.best())
    assert [(o.named, o.gain) for o in advisor.best()] == [
        (o.named, o.gain) for o in rank_questions(small, fixed=["Study"])]
    assert len(advisor.part("question").options) == len(advisor.best()) == 9
    advisor.part("room").value = None
    assert len(advisor.best()) == 27
    assert repr(advisor).startswith("Best questions for Ann (27 questions of every kind)")


# -- Static renderings do not need ipywidgets -------------------------------------------------

def test_static_views_do_not_import_ipywidgets():
    code = ("import sys, json; from cluedo_lab.views import widgets as w; "
            "from cluedo_lab.knowledge.engine import Knowledge; "
            f"k = Knowledge.from_dict(json.loads({json.dumps(json.dumps(SMALL))})); "
            "[v._repr_html_() + repr(v) for v in (w.EngineNotepad(k), "
            "w.DeductionStepper.from_knowledge(k).go(3), w.SuggestionAdvisor(k, 'Hall'), "
            "w.BoardExplorer('classic-24x25'))]; "
            "print('ipywidgets' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


def test_advisor_follows_new_events():
    small = Knowledge.from_dict(SMALL)
    advisor = SuggestionAdvisor(small, room="Hall")
    before = [(o.named, o.gain) for o in advisor.best()]
    small.add({"suggest": ["White", "Pipe", "Hall"], "by": "Ann", "shown_by": "Bob",
               "card": "Hall"})
    after = [(o.named, o.gain) for o in advisor.best()]
    assert after != before
    assert after == [(o.named, o.gain) for o in rank_questions(small, fixed=["Hall"])][:8]


def test_a_live_view_carries_its_static_drawing(ann):
    """Displayed, a live widget brings the view's static HTML along, so a saved notebook shows
    the drawing before it is run; refresh_outputs.py keeps only that part."""
    from cluedo_lab.views.learner import LearnerNotepad

    views = [EngineNotepad(ann), DeductionStepper.from_knowledge(ann), SuggestionAdvisor(ann),
             LearnerNotepad(ann), BoardExplorer("classic-24x25")]
    for view in views:
        bundle = view.widget()._repr_mimebundle_()
        assert bundle["text/html"] == view._repr_html_()
        assert "application/vnd.jupyter.widget-view+json" in bundle
        assert type(view).__name__ in bundle["text/plain"]


# -- Exercises --------------------------------------------------------------------------------

def test_pick_many_is_a_checkbox_per_option_with_an_instruction(ann):
    """"Choose every one that applies" as ticks (no list box that needs Ctrl-click): ticking
    the engine's answer and pressing Check is right; one tick short is not."""
    import ipywidgets as w

    from cluedo_lab.lab.exercises import which_cards
    from cluedo_lab.views.exercises import ExerciseWidget

    exercise = which_cards(ann, "Cy")
    view = ExerciseWidget(exercise, spare=None)
    box = view.widget()
    assert not any(isinstance(c, w.SelectMultiple) for c in box.children)
    ticks = [c for c in box.children if isinstance(c, w.GridBox)][0].children
    assert [t.description for t in ticks] == list(exercise.options)
    assert all(isinstance(t, w.Checkbox) and not t.value for t in ticks)
    assert any("Choose every one that applies." in c.value for c in box.children
               if isinstance(c, w.HTML))
    check = next(b for b in box.children[-4].children if b.description == "Check")
    answer = set(exercise.answer)
    assert answer and len(answer) < len(ticks)
    for tick in ticks:
        tick.value = tick.description in answer
    check.click()
    assert view.solved and view.message.startswith("✓")
    view.solved = False
    ticks[[t.description for t in ticks].index(sorted(answer)[0])].value = False
    check.click()
    assert not view.solved and view.message.startswith("✗")
