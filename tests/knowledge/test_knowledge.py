"""Knowledge as a whole: contradictions, undo, solutions, and counts against closed forms."""

from __future__ import annotations

import copy
import math
from fractions import Fraction as F

import pytest

from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.records import Record
from cluedo_lab.rules.errors import Contradiction, RecordError
from cluedo_lab.views.display import to_html

DECK3 = {"suspect": ["Plum", "White", "Green"],
         "weapon": ["Rope", "Knife", "Pipe"],
         "room": ["Hall", "Study", "Den"]}
PLAYERS3 = [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2},
            {"name": "Cy", "hand_size": 2}]


def deck_data(*events, **changes) -> dict:
    data = {"deck": copy.deepcopy(DECK3), "players": copy.deepcopy(PLAYERS3),
            "observer": "Ann", "hand": ["Plum", "Rope"], "events": list(events)}
    data.update(changes)
    return data


def know(*events, **changes) -> Knowledge:
    return Knowledge(Record.from_dict(deck_data(*events, **changes)))


def snapshot(k: Knowledge) -> tuple:
    return (k.consistent_deals, k.probabilities(), k.envelope_distribution(),
            [e.raw for e in k.record.events], k.record.to_json())


# Events that hold in every deal used below and take part in no conflict.
IRRELEVANT_SHOW = {"suggest": ["Plum", "Pipe", "Den"], "by": "Cy", "shown_by": "Ann",
                   "card": "Plum"}
IRRELEVANT_SNOOP = {"snoop": "Cy", "by": "Bob"}
BOB_SHOWS_WHITE = {"suggest": ["White", "Knife", "Hall"], "by": "Ann", "shown_by": "Bob",
                   "card": "White"}
BOB_HAS_HALL = {"snoop": "Bob", "by": "Ann", "card": "Hall"}
BOB_HAS_STUDY = {"reveal": "Study", "by": "Bob"}


# -- contradictions ------------------------------------------------------------------------------
def test_contradicting_pair_on_add():
    # Event 1: Bob showed Ann the Knife. Event 2 is irrelevant. Cy then reveals the Knife.
    k = know({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "shown_by": "Bob",
              "card": "Knife"}, IRRELEVANT_SHOW)
    before = snapshot(k)
    assert k.consistent_deals == 18
    with pytest.raises(Contradiction) as info:
        k.add({"reveal": "Knife", "by": "Cy"})
    assert info.value.conflict == (1, 3)
    message = str(info.value)
    assert "event 1" in message and "event 3" in message and "event 2" not in message
    assert snapshot(k) == before
    assert len(k.record.events) == 2
    with pytest.raises(IndexError):
        k.undo()  # the failed add left no history behind


def test_contradicting_triple_on_add():
    # Bob holds two cards. Events 1, 3 and 5 each put one card in his hand: any two of them
    # fit, all three do not. Events 2 and 4 are irrelevant.
    k = know(BOB_SHOWS_WHITE, IRRELEVANT_SHOW, BOB_HAS_HALL, IRRELEVANT_SNOOP)
    for pair in ([BOB_SHOWS_WHITE, BOB_HAS_STUDY], [BOB_HAS_HALL, BOB_HAS_STUDY]):
        assert know(*pair).consistent_deals > 0
    # White and Hall are Bob's: envelope Green × Knife|Pipe × Study|Den = 4; the last two
    # cards are Cy's: 4 deals.
    assert k.consistent_deals == 4
    before = snapshot(k)
    with pytest.raises(Contradiction) as info:
        k.add(BOB_HAS_STUDY)
    assert info.value.conflict == (1, 3, 5)
    message = str(info.value)
    for n in (1, 3, 5):
        assert f"event {n}" in message
    for n in (2, 4):
        assert f"event {n}" not in message
    assert snapshot(k) == before


def test_contradictory_record_at_construction():
    record = Record.from_dict(deck_data(IRRELEVANT_SNOOP, BOB_SHOWS_WHITE, BOB_HAS_HALL,
                                        IRRELEVANT_SHOW, BOB_HAS_STUDY))
    with pytest.raises(Contradiction) as info:
        Knowledge(record)
    assert info.value.conflict == (2, 3, 5)


def test_event_against_the_observers_hand():
    # Cy "shows" Ann the Plum she holds herself: one event against the set-up, so the
    # conflict is that event alone.
    with pytest.raises(Contradiction) as info:
        know(IRRELEVANT_SNOOP, {"suggest": ["Plum", "Knife", "Hall"], "by": "Ann",
                                "passed": ["Bob"], "shown_by": "Cy", "card": "Plum"})
    assert info.value.conflict == (2,)


def test_nobody_refutes_then_wrong_accusation_of_the_same_cards():
    with pytest.raises(Contradiction) as info:
        know({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "passed": ["Bob", "Cy"]},
             IRRELEVANT_SNOOP,
             {"accuse": ["Green", "Knife", "Hall"], "by": "Bob", "correct": False})
    assert info.value.conflict == (1, 3)


def test_set_up_contradiction_has_an_empty_conflict():
    # Ann holds Plum, the two other suspects lie face up: no suspect is left for the envelope.
    data = deck_data(BOB_HAS_HALL,
                     players=[{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2}],
                     face_up=["White", "Green"])
    record = Record.from_dict(data)  # the record itself is well formed
    with pytest.raises(Contradiction) as info:
        Knowledge(record)
    assert info.value.conflict == ()
    assert "set-up" in str(info.value)


# -- undo and malformed events --------------------------------------------------------------------
def test_undo_restores_the_previous_state():
    k = know()
    states = [snapshot(k)]
    k.add({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "shown_by": "Bob",
           "card": "Knife"})
    states.append(snapshot(k))
    k.add({"reveal": "Den", "by": "Cy"})
    # Knife Bob, Den Cy: envelope Pipe × White|Green × Hall|Study = 4, and the last two cards
    # one each to Bob and Cy: 8 deals.
    assert k.consistent_deals == 8
    assert k.undo() is k
    assert snapshot(k) == states[1]
    k.undo()
    assert snapshot(k) == states[0]
    assert k.consistent_deals == 72
    with pytest.raises(IndexError):
        k.undo()


def test_envelope_read_first_after_an_undo():
    """The envelope comes from the DP that counted the table; an add lets the earlier DP go,
    so after an undo it is counted again, to the same answer."""
    shown = {"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "shown_by": "Bob"}
    k = know(shown)
    k.add({"reveal": "Den", "by": "Cy"})
    assert k.envelope_distribution() == know(shown, {"reveal": "Den", "by": "Cy"}
                                             ).envelope_distribution()
    k.undo()
    assert k.envelope_distribution() == know(shown).envelope_distribution()
    assert sum(k.envelope_distribution().values()) == 1


def test_add_returns_the_knowledge_and_keeps_positions():
    k = know(IRRELEVANT_SNOOP)
    assert k.add(BOB_HAS_HALL) is k
    assert [e.position for e in k.record.events] == [1, 2]
    assert k.status("Hall", "Bob") is True


@pytest.mark.parametrize("event, field", [
    ({"reveal": "Attic", "by": "Bob"}, "reveal"),
    ({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "shown_by": "Cy"}, "shown_by"),
    ({"snoop": "Bob", "by": "Bob"}, "snoop"),
    ("reveal Knife", None),
])
def test_add_of_a_malformed_event_changes_nothing(event, field):
    k = know(IRRELEVANT_SNOOP)
    k.add(BOB_HAS_HALL)
    before = snapshot(k)
    with pytest.raises(RecordError) as info:
        k.add(event)
    assert info.value.event == 3 and info.value.field == field
    assert snapshot(k) == before
    k.undo()  # the history still holds exactly the one good add
    assert len(k.record.events) == 1
    with pytest.raises(IndexError):
        k.undo()


# -- reading --------------------------------------------------------------------------------------
def test_solution_only_when_certain():
    k = know()
    assert k.solution() is None
    k.add({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "passed": ["Bob", "Cy"]})
    assert k.solution() == ("green", "knife", "hall")
    assert k.envelope_distribution() == {("green", "knife", "hall"): 1}
    k.undo()
    assert k.solution() is None
    assert len(k.envelope_distribution()) == 12
    assert sum(k.envelope_distribution().values()) == 1


def test_known_matches_status():
    k = know({"suggest": ["Plum", "Knife", "Hall"], "by": "Bob", "passed": ["Cy"],
              "shown_by": "Ann", "card": "Plum"}, BOB_HAS_STUDY)
    known = k.known()
    for card in k.edition.cards:
        for place in k.places:
            status = k.status(card, place)
            if status is None:
                assert (card.id, place) not in known
            else:
                assert known[(card.id, place)] is status
    # Spot checks: Ann's hand, Study revealed by Bob, Cy passed on Knife and Hall.
    assert known[("plum", "Ann")] is True and known[("study", "Bob")] is True
    assert known[("knife", "Cy")] is False and known[("hall", "Cy")] is False
    assert ("knife", "Bob") not in known


def test_entails():
    k = know({"suggest": ["Plum", "Rope", "Hall"], "by": "Bob", "shown_by": "Cy"},
             IRRELEVANT_SNOOP)
    # Cy showed one of Plum, Rope, Hall; Ann holds Plum and Rope: Cy holds Hall.
    assert k.entails("Hall", "Cy", True)
    assert not k.entails("Hall", "Cy", False)
    assert not k.entails("Hall", "Cy", True, events=[])
    assert not k.entails("Study", "Cy", True)


def test_unknown_card_and_place():
    k = know()
    with pytest.raises(KeyError):
        k.probability("Attic", "Bob")
    with pytest.raises(KeyError):
        k.probability("Knife", "Dan")
    with pytest.raises(KeyError):
        k.status("Knife", "face-up")  # no face-up cards in this record


def test_from_dict():
    k = Knowledge.from_dict(deck_data(BOB_HAS_HALL))
    assert k.status("Hall", "Bob") is True
    assert "Hall" in k.notepad() and "✓" in k.notepad()


# -- counts with no events against closed forms ---------------------------------------------------
def classic(players, observer=None, hand=()):
    data = {"edition": "cluedo-classic-1949", "players": players}
    if observer:
        data.update(observer=observer, hand=list(hand))
    return Knowledge(Record.from_dict(data))


def multinomial(*parts: int) -> int:
    out, left = 1, sum(parts)
    for part in parts:
        out *= math.comb(left, part)
        left -= part
    return out


def test_small_deck_public_count():
    # 27 envelopes, then 6 cards 2/2/2.
    k = Knowledge(Record.from_dict({"deck": DECK3, "players": PLAYERS3}))
    assert k.consistent_deals == 3 * 3 * 3 * multinomial(2, 2, 2) == 2430


def test_classic_three_players_public():
    # 21 cards: 6 suspects, 6 weapons, 9 rooms; the envelope 6·6·9; 18 cards 6/6/6.
    k = classic(["Ann", "Bob", "Cy"])
    assert k.consistent_deals == 6 * 6 * 9 * multinomial(6, 6, 6)
    assert k.probability("Scarlett", "envelope") == F(1, 6)
    assert k.probability("Kitchen", "envelope") == F(1, 9)
    # Out of the envelope (5/6), a third of the time with Ann.
    assert k.probability("Scarlett", "Ann") == F(5, 18)


def test_classic_three_players_from_an_observer():
    # Ann holds 1 suspect, 2 weapons, 3 rooms: the envelope 5·4·6; Bob takes 6 of the 12 left.
    k = classic(["Ann", "Bob", "Cy"], "Ann",
                ["Rope", "Hall", "Plum", "Study", "Dagger", "Kitchen"])
    assert k.consistent_deals == 5 * 4 * 6 * math.comb(12, 6) == 110_880
    assert k.probability("Green", "envelope") == F(1, 5)
    assert k.probability("Spanner", "envelope") == F(1, 4)
    assert k.probability("Lounge", "envelope") == F(1, 6)
    # Green is out of the envelope 4/5 of the time, then Bob's half the time.
    assert k.probability("Green", "Bob") == F(2, 5)
    assert k.status("Rope", "Bob") is False


def test_classic_four_players_uneven_deal():
    # Plain names: hands 5, 5, 4, 4. Dan (4 cards: Plum, Rope, Hall, Study) sees 5·5·7
    # envelopes and 14 cards dealt 5/5/4.
    k = classic(["Ann", "Bob", "Cy", "Dan"], "Dan", ["Plum", "Rope", "Hall", "Study"])
    assert k.consistent_deals == 5 * 5 * 7 * multinomial(5, 5, 4)
    # Out of the envelope (4/5), Mustard lands with Ann in 5 of the 14 places left.
    assert k.probability("Mustard", "Ann") == F(4, 5) * F(5, 14)
    assert k.probability("Mustard", "Cy") == F(4, 5) * F(4, 14)
    public = classic(["Ann", "Bob", "Cy", "Dan"])
    assert public.consistent_deals == 6 * 6 * 9 * multinomial(5, 5, 4, 4)


def test_classic_six_players_first_turn():
    # research: observer holds White, Library, Study. Envelope 5·6·7 = 210; the other 15
    # cards go 3 each to 5 players: 15!/(3!)^5 = 168,168,000. 3.53·10^10 deals.
    players = ["Ann", "Bob", "Cy", "Dan", "Eve", "Fay"]
    k = classic(players, "Ann", ["White", "Library", "Study"])
    expected = 5 * 6 * 7 * math.factorial(15) // math.factorial(3) ** 5
    assert expected == 35_315_280_000
    assert k.consistent_deals == expected
    assert k.probability("Library", "envelope") == 0
    assert k.probability("Kitchen", "envelope") == F(1, 7)
    assert k.probability("Kitchen", "Fay") == F(6, 7) * F(1, 5)


def test_html_under_the_refuter_uniform_model():
    record = Record.from_dict(deck_data({"suggest": ["Green", "Knife", "Hall"], "by": "Ann",
                                         "shown_by": "Bob", "card": "Knife"}))
    html = to_html(Knowledge(record, model="refuter-uniform"))
    assert "<table>" in html and "consistent deals" in html


def test_html_under_the_uniform_model():
    # Hall is Bob's: 2 × 2 × (Study|Den) envelopes, Bob's other card 1 of the 3 left: 24.
    html = to_html(know(BOB_HAS_HALL))
    assert "<table>" in html and "24 consistent deals" in html
