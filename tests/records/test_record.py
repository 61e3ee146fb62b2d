"""Record parsing and validation: every bad record names the event (from 1) and the field.

Each validation path in ``cluedo_lab/record.py`` gets its own test. A bad event is placed after
one or two valid events, so the test also checks that positions are counted from 1 over the
whole list (not "the first bad one is event 1").
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.records import (
    Accuse,
    AllSnoop,
    PrivateTip,
    Record,
    Reveal,
    RoomCard,
    Show,
    Snoop,
    Suggest,
    SuperSleuth,
)
from cluedo_lab.rules.errors import RecordError

# A 9-card deck: suspect, weapon, room; three players holding two cards each.
DECK3 = {"suspect": ["Plum", "White", "Green"],
         "weapon": ["Rope", "Knife", "Pipe"],
         "room": ["Hall", "Study", "Den"]}
# A 2-category deck: a question names two items.
DECK2 = {"suspect": ["Plum", "White", "Green"], "weapon": ["Rope", "Knife", "Pipe"]}

PLAYERS3 = [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2},
            {"name": "Cy", "hand_size": 2}]

# Two valid events to put in front of a bad one.
OK1 = {"accuse": ["White", "Knife", "Hall"], "by": "Cy", "correct": False}
OK2 = {"suggest": ["Green", "Knife", "Den"], "by": "Ann", "shown_by": "Bob", "card": "Knife"}

# A small edition with a feature, for super sleuth and private tips (2002-style actions).
FEATURE_TOML = Path(__file__).parents[1] / "data" / "tiny-features.toml"


def deck_record(**changes) -> dict:
    data = {"deck": copy.deepcopy(DECK3), "players": copy.deepcopy(PLAYERS3),
            "observer": "Ann", "hand": ["Plum", "Rope"], "events": []}
    data.update(copy.deepcopy(changes))
    return data


@pytest.fixture
def feature_edition() -> str:
    path = FEATURE_TOML
    return str(path)


def feature_record(edition: str, **changes) -> dict:
    data = {"edition": edition, "players": copy.deepcopy(PLAYERS3), "observer": "Ann",
            "hand": ["Plum", "Rope"], "events": []}
    data.update(copy.deepcopy(changes))
    return data


def fails(data, *, event: int | None, field: str | None, says: str = "") -> RecordError:
    """Parsing ``data`` raises a RecordError naming exactly this event and field."""
    with pytest.raises(RecordError) as info:
        Record.from_dict(data)
    error = info.value
    message = str(error)
    assert (error.event, error.field) == (event, field), message
    if event is not None:
        assert message.startswith(f"event {event}"), message
    else:
        assert not message.startswith("event"), message
    if field is not None:
        assert f"field '{field}'" in message, message
    assert says.lower() in message.lower(), message
    return error


def bad_event(event: dict, *, field: str | None, says: str = "", position: int = 3,
              **changes) -> RecordError:
    """The bad event comes after ``position - 1`` valid ones."""
    before = [OK1, OK2][: position - 1]
    return fails(deck_record(events=[*before, event], **changes), event=position,
                 field=field, says=says)


# -- the valid baseline ------------------------------------------------------------------------
def test_baseline_record_parses():
    record = Record.from_dict(deck_record(events=[OK1, OK2]))
    assert record.player_names == ("Ann", "Bob", "Cy")
    assert record.places == ("Ann", "Bob", "Cy", "envelope")
    assert [e.position for e in record.events] == [1, 2]
    assert isinstance(record.events[0], Accuse) and isinstance(record.events[1], Suggest)
    assert record.events[1].card.id == "knife"
    assert [c.id for c in record.hand] == ["plum", "rope"]


# -- set-up ------------------------------------------------------------------------------------
def test_unknown_top_level_key():
    fails(deck_record(colour="red"), event=None, field="colour", says="unknown key")


def test_record_must_be_an_object():
    with pytest.raises(RecordError, match="JSON object"):
        Record.from_dict(["not", "a", "record"])


def test_not_json():
    with pytest.raises(RecordError, match="not valid JSON"):
        Record.from_json("{ not json")


def test_load_missing_file(tmp_path):
    with pytest.raises(RecordError, match="cannot be read"):
        Record.load(tmp_path / "missing.json")


def test_both_edition_and_deck():
    fails(deck_record(edition="cluedo-classic-1949"), event=None, field="edition",
          says="either an edition or a custom deck")


def test_neither_edition_nor_deck():
    data = deck_record()
    del data["deck"]
    fails(data, event=None, field="edition", says="either an edition or a custom deck")


def test_unknown_edition():
    data = deck_record()
    del data["deck"]
    data["edition"] = "no-such-edition"
    fails(data, event=None, field="edition", says="no-such-edition")


def test_edition_not_a_string():
    data = deck_record()
    del data["deck"]
    data["edition"] = 1949
    fails(data, event=None, field="edition")


def test_an_edition_given_already_loaded_must_be_the_one_the_record_names():
    from cluedo_lab.rules.edition import load_edition

    classic = load_edition("cluedo-classic-1949")
    data = {"edition": "cluedo-classic-1949", "players": ["Ann", "Bob", "Cy"], "events": []}
    assert Record.from_dict(data, edition=classic).edition is classic
    wrong = dict(data, edition="clue-classic-2023")
    with pytest.raises(RecordError, match="not the edition given") as error:
        Record.from_dict(wrong, edition=classic)
    assert error.value.field == "edition"


@pytest.mark.parametrize("deck", [{}, {"suspect": ["Plum"]}, {"suspect": "Plum, White"},
                                  {"suspect": ["Plum", "White"], "weapon": ["Rope", "plum"]}])
def test_bad_custom_deck(deck):
    data = deck_record()
    data["deck"] = deck
    with pytest.raises(RecordError) as info:
        Record.from_dict(data)
    assert info.value.field == "deck"
    assert info.value.event is None


@pytest.mark.parametrize("players, says", [
    ([{"name": "Ann", "hand_size": 6}], "at least two players"),
    ("Ann, Bob", "at least two players"),
    ([{"name": "Ann", "hand_size": 2}, {"name": "Ann", "hand_size": 2},
      {"name": "Cy", "hand_size": 2}], "repeat"),
    ([{"name": "Ann", "hand_size": 2}, {"name": "envelope", "hand_size": 2},
      {"name": "Cy", "hand_size": 2}], "places, not player names"),
    ([{"name": "Ann", "hand_size": 2}, {"name": "face-up", "hand_size": 2},
      {"name": "Cy", "hand_size": 2}], "places, not player names"),
    ([{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": -1},
      {"name": "Cy", "hand_size": 5}], "whole number"),
    ([{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": True},
      {"name": "Cy", "hand_size": 3}], "whole number"),
    ([{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": "2"},
      {"name": "Cy", "hand_size": 2}], "whole number"),
    ([{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2.0},
      {"name": "Cy", "hand_size": 2}], "whole number"),
    ([{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2, "seat": 2},
      {"name": "Cy", "hand_size": 2}], "unknown key 'seat'"),
    ([{"name": "Ann", "hand_size": 2}, {"hand_size": 2}, {"name": "Cy", "hand_size": 2}],
     "each player is a name"),
    ([{"name": "Ann", "hand_size": 2}, 7, {"name": "Cy", "hand_size": 2}],
     "each player is a name"),
])
def test_bad_players(players, says):
    fails(deck_record(players=players), event=None, field="players", says=says)


def test_too_many_players_for_the_edition_when_hand_sizes_follow_it():
    data = {"edition": "cluedo-classic-1949", "players": [f"P{i}" for i in range(7)],
            "events": []}
    fails(data, event=None, field="players", says="2-6 players")


def test_observer_not_a_player():
    fails(deck_record(observer="Dan"), event=None, field="observer", says="'Dan'")


def test_hand_size_mismatch():
    fails(deck_record(hand=["Plum"]), event=None, field="hand", says="Ann holds 2 cards")


def test_hand_with_unknown_card():
    fails(deck_record(hand=["Plum", "Attic"]), event=None, field="hand", says="'Attic'")


def test_hand_with_a_card_twice():
    fails(deck_record(hand=["Plum", "plum"]), event=None, field="hand", says="twice")


def test_hand_without_observer():
    data = deck_record()
    del data["observer"]
    fails(data, event=None, field="hand", says="needs an observer")


def test_observer_without_hand():
    data = deck_record()
    del data["hand"]
    fails(data, event=None, field="hand", says="missing")


def test_face_up_overlaps_hand():
    players = [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2}]
    fails(deck_record(players=players, face_up=["Plum", "Knife"]), event=None,
          field="face_up", says="both in the hand and face up")


@pytest.mark.parametrize("changes", [
    {"players": [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2},
                 {"name": "Cy", "hand_size": 1}]},
    {"players": [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2},
                 {"name": "Cy", "hand_size": 3}]},
    {"face_up": ["Knife"]},
    {"face_down": ["Attic"]},
])
def test_cards_do_not_add_up_to_the_deck(changes):
    fails(deck_record(**changes), event=None, field="players",
          says="the deck leaves 6 outside the envelope")


@pytest.mark.parametrize("piles", ["Attic", [1, 2], ["Attic", "Attic"], ["Ann"],
                                   ["envelope"]])
def test_bad_face_down_piles(piles):
    players = [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2},
               {"name": "Cy", "hand_size": 0}]
    fails(deck_record(players=players, face_down=piles), event=None, field="face_down")


def test_unknown_fugitive():
    fails(deck_record(fugitive="Dan"), event=None, field="fugitive", says="'Dan'")


def test_events_not_a_list():
    fails(deck_record(events={"1": OK1}), event=None, field="events", says="list of events")


# -- event shape --------------------------------------------------------------------------------
def test_event_not_an_object():
    bad_event(["suggest", "Plum"], field=None, says="JSON object")


@pytest.mark.parametrize("event", [{"by": "Ann"}, {},
                                   {"snoop": "Bob", "reveal": "Knife", "by": "Ann"},
                                   {"suggest": ["Plum", "Rope", "Hall"],
                                    "accuse": ["Plum", "Rope", "Hall"], "by": "Ann"}])
def test_event_needs_exactly_one_kind(event):
    bad_event(event, field=None, says="exactly one of the keys")


def test_unknown_key_in_an_event():
    bad_event({"reveal": "Knife", "by": "Bob", "colour": "red"}, field="colour",
              says="unknown key for a reveal event")


def test_comment_is_allowed_in_an_event():
    record = Record.from_dict(deck_record(events=[{**OK1, "comment": "Bob is out"}]))
    assert record.events[0].raw["comment"] == "Bob is out"


def test_missing_by():
    bad_event({"reveal": "Knife"}, field="by", says="missing")


def test_by_not_a_player():
    bad_event({"reveal": "Knife", "by": "Dan"}, field="by", says="'Dan'")


@pytest.mark.parametrize("event, field", [
    ({"suggest": ["Plum", "Knife", "Attic"], "by": "Ann", "shown_by": "Bob"}, "suggest"),
    ({"accuse": ["Plum", "Dagger", "Hall"], "by": "Bob", "correct": False}, "accuse"),
    ({"reveal": "Attic", "by": "Bob"}, "reveal"),
    ({"snoop": "Bob", "by": "Ann", "card": "Attic"}, "card"),
    ({"show": "Bob", "to": "Ann", "card": "Attic"}, "card"),
])
def test_unknown_card(event, field):
    card = "Dagger" if field == "accuse" else "Attic"
    bad_event(event, field=field, says=f"unknown card '{card}'")


def test_card_names_are_matched_loosely():
    event = {"suggest": ["GREEN", "kni-fe", "den"], "by": "Ann", "shown_by": "Bob",
             "card": "Knife"}
    record = Record.from_dict(deck_record(events=[event]))
    assert [c.id for c in record.events[0].named] == ["green", "knife", "den"]


def test_card_listed_twice():
    bad_event({"suggest": ["Plum", "Knife", "Knife"], "by": "Ann", "shown_by": "Bob"},
              field="suggest", says="twice")


def test_three_items_in_a_two_item_edition():
    event = {"suggest": ["White", "Knife", "Rope"], "by": "Ann", "shown_by": "Bob"}
    players = [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2}]
    fails(deck_record(deck=DECK2, players=players, events=[event]), event=1,
          field="suggest", says="names 2 items, not 3")


def test_two_items_in_a_three_item_edition():
    bad_event({"suggest": ["White", "Knife"], "by": "Ann", "shown_by": "Bob"},
              field="suggest", says="names 3 items, not 2")


def test_accusation_with_wrong_arity():
    bad_event({"accuse": ["White", "Knife"], "by": "Bob", "correct": False}, field="accuse",
              says="names 3 items, not 2")


@pytest.mark.parametrize("kind, extra", [("suggest", {"shown_by": "Bob"}),
                                         ("accuse", {"correct": False})])
def test_not_one_card_per_category(kind, extra):
    event = {kind: ["Plum", "White", "Hall"], "by": "Ann", **extra}
    bad_event(event, field=kind, says="one card of each category")


# -- suggest ------------------------------------------------------------------------------------
def test_passed_out_of_seat_order():
    # Ann asks Bob first, then Cy: Cy cannot pass before Bob has answered.
    bad_event({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "passed": ["Cy"],
               "shown_by": "Bob"}, field="passed", says="seat order")


def test_asker_cannot_pass_own_question():
    bad_event({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "passed": ["Ann"],
               "shown_by": "Bob"}, field="passed")


def test_passed_not_a_list():
    bad_event({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "passed": "Bob",
               "shown_by": "Cy"}, field="passed", says="list of players")


def test_passed_by_a_stranger():
    bad_event({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "passed": ["Dan"],
               "shown_by": "Bob"}, field="passed", says="'Dan'")


def test_shown_by_not_the_next_player():
    # Nobody passed, so Bob (next after Ann) answered: Cy cannot have shown.
    bad_event({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "shown_by": "Cy"},
              field="shown_by", says="next to answer is Bob")


def test_shown_by_the_asker():
    bad_event({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "passed": ["Bob", "Cy"],
               "shown_by": "Ann"}, field="shown_by", says="nobody")


def test_nobody_showed_but_not_everyone_passed():
    bad_event({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "passed": ["Bob"]},
              field="passed", says="everyone else")


def test_card_the_observer_could_not_see():
    # Bob asked, Cy showed: Ann (the observer) did not see which card.
    bad_event({"suggest": ["Green", "Knife", "Hall"], "by": "Bob", "shown_by": "Cy",
               "card": "Knife"}, field="card", says="could not have seen")


def test_card_in_a_public_record():
    data = deck_record(events=[OK1, {"suggest": ["Green", "Knife", "Hall"], "by": "Bob",
                                     "shown_by": "Cy", "card": "Knife"}])
    del data["observer"], data["hand"]
    fails(data, event=2, field="card", says="public record")


def test_card_when_nobody_showed():
    bad_event({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "passed": ["Bob", "Cy"],
               "card": "Knife"}, field="card")


def test_card_not_among_the_named():
    bad_event({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "shown_by": "Bob",
               "card": "Pipe"}, field="card", says="Pipe was not one of the cards")


def test_observer_who_showed_may_name_the_card():
    event = {"suggest": ["Plum", "Knife", "Hall"], "by": "Cy", "shown_by": "Ann",
             "card": "Plum"}
    record = Record.from_dict(deck_record(events=[event]))
    assert record.events[0].card.id == "plum"


# -- accuse -------------------------------------------------------------------------------------
@pytest.mark.parametrize("correct", [None, "no", 0])
def test_accuse_without_boolean_correct(correct):
    event = {"accuse": ["White", "Knife", "Hall"], "by": "Bob"}
    if correct is not None:
        event["correct"] = correct
    bad_event(event, field="correct", says="true or false")


def test_accusation_made_face_down_is_read_as_no_constraint():
    from cluedo_lab.knowledge import Knowledge
    hidden = {"accuse": None, "by": "Bob", "correct": False}
    record = Record.from_dict(deck_record(events=[hidden]))
    event = record.events[0]
    assert isinstance(event, Accuse) and event.face_down and event.named == ()
    assert "face down" in event.describe()
    plain = Knowledge(Record.from_dict(deck_record()))
    assert Knowledge(record).probabilities() == plain.probabilities()
    # The same accusation said aloud moves the chances: the cards are not all in the envelope.
    aloud = Record.from_dict(deck_record(events=[{**hidden, "accuse": ["White", "Knife",
                                                                       "Hall"]}]))
    assert Knowledge(aloud).probabilities() != plain.probabilities()


def test_accuser_record_holds_the_solution_they_looked_at():
    from cluedo_lab.knowledge import Knowledge
    event = {"accuse": ["White", "Rope", "Hall"], "by": "Ann", "correct": False,
             "envelope": ["Green", "Knife", "Den"]}
    record = Record.from_dict(deck_record(hand=["Plum", "Pipe"], events=[event]))
    assert [c.id for c in record.events[0].envelope] == ["green", "knife", "den"]
    assert Knowledge(record).solution() == ("green", "knife", "den")


def test_face_down_accusation_refused_where_its_cards_were_seen():
    bad_event({"accuse": None, "by": "Bob", "correct": True}, field="accuse",
              says="shown to everybody")
    bad_event({"accuse": None, "by": "Ann", "correct": False}, field="accuse",
              says="Ann made this accusation")
    bad_event({"accuse": None, "by": "Bob", "correct": False, "envelope": ["Plum", "Rope",
                                                                          "Hall"]},
              field="envelope", says="only the accuser")


# -- snoop, all snoop ---------------------------------------------------------------------------
def test_snoop_on_yourself():
    bad_event({"snoop": "Ann", "by": "Ann", "card": "Plum"}, field="snoop",
              says="someone else")


def test_snoop_on_a_stranger():
    bad_event({"snoop": "Dan", "by": "Ann"}, field="snoop", says="'Dan'")


def test_snoop_card_seen_by_someone_else():
    bad_event({"snoop": "Cy", "by": "Bob", "card": "Knife"}, field="card",
              says="could not have seen")


def test_all_snoop_bad_direction():
    bad_event({"all_snoop": "up", "by": "Ann"}, field="all_snoop", says="'left' or 'right'")


def test_all_snoop_wrong_from():
    # Hands go left (to the next seat), so Ann receives Cy's hand (the previous seat).
    bad_event({"all_snoop": "left", "by": "Bob", "from": "Bob", "card": "Knife"},
              field="from", says="looks at Cy's hand, not Bob's")
    bad_event({"all_snoop": "right", "by": "Bob", "from": "Cy", "card": "Knife"},
              field="from", says="looks at Bob's hand, not Cy's")


def test_all_snoop_right_from_is_checked():
    record = Record.from_dict(deck_record(events=[
        {"all_snoop": "left", "by": "Bob", "from": "Cy", "card": "Knife"},
        {"all_snoop": "right", "by": "Cy", "from": "Bob", "card": "Pipe"}]))
    assert [e.seen_from for e in record.events] == ["Cy", "Bob"]
    assert isinstance(record.events[0], AllSnoop)


# -- super sleuth -------------------------------------------------------------------------------
def sleuth_fails(edition, event, *, field, says=""):
    ok = {"accuse": ["White", "Knife", "Hall"], "by": "Cy", "correct": False}
    return fails(feature_record(edition, events=[ok, event]), event=2, field=field, says=says)


def test_super_sleuth_valid(feature_edition):
    event = {"super_sleuth": {"feature": "gender", "value": "female"}, "by": "Ann",
             "showed": {"Bob": "White"}, "nothing": ["Cy"]}
    record = Record.from_dict(feature_record(feature_edition, events=[event]))
    sleuth = record.events[0]
    assert isinstance(sleuth, SuperSleuth)
    assert [(who, card.id) for who, card in sleuth.showed] == [("Bob", "white")]
    assert sleuth.nothing == ("Cy",)


def test_super_sleuth_unknown_feature(feature_edition):
    sleuth_fails(feature_edition, {"super_sleuth": {"feature": "hat", "value": "top"},
                                   "by": "Ann", "nothing": ["Bob", "Cy"]},
                 field="super_sleuth", says="unknown feature 'hat'")


def test_super_sleuth_unknown_value(feature_edition):
    sleuth_fails(feature_edition, {"super_sleuth": {"feature": "gender", "value": "purple"},
                                   "by": "Ann", "nothing": ["Bob", "Cy"]},
                 field="super_sleuth", says="not 'purple'")


def test_super_sleuth_in_a_deck_without_features():
    bad_event({"super_sleuth": {"feature": "gender", "value": "female"}, "by": "Ann",
               "nothing": ["Bob", "Cy"]}, field="super_sleuth", says="unknown feature")


@pytest.mark.parametrize("showed, nothing", [
    ({"Bob": None}, []),                   # Cy did not answer
    ({"Bob": None}, ["Bob", "Cy"]),        # Bob answered twice
    ({}, ["Ann", "Bob", "Cy"]),            # the asker answered her own card
    ({"Bob": None, "Cy": None, "Dan": None}, []),
])
def test_super_sleuth_every_opponent_answers_once(feature_edition, showed, nothing):
    says = "'Dan'" if "Dan" in showed else "exactly once"
    sleuth_fails(feature_edition, {"super_sleuth": {"feature": "gender", "value": "female"},
                                   "by": "Ann", "showed": showed, "nothing": nothing},
                 field="showed", says=says)


def test_super_sleuth_card_without_the_feature(feature_edition):
    sleuth_fails(feature_edition, {"super_sleuth": {"feature": "gender", "value": "female"},
                                   "by": "Ann", "showed": {"Bob": "Plum"}, "nothing": ["Cy"]},
                 field="showed", says="Plum is not a female card")


def test_super_sleuth_card_the_observer_could_not_see(feature_edition):
    # Bob asked; Cy showed Bob a card; Ann (the observer) cannot know which.
    sleuth_fails(feature_edition, {"super_sleuth": {"feature": "gender", "value": "female"},
                                   "by": "Bob", "showed": {"Cy": "White"}, "nothing": ["Ann"]},
                 field="showed", says="could not have seen")


def test_super_sleuth_card_the_observer_could_not_see_is_rejected(feature_edition):
    # The record is rejected, at the right event.
    event = {"super_sleuth": {"feature": "gender", "value": "female"}, "by": "Bob",
             "showed": {"Cy": "White"}, "nothing": ["Ann"]}
    with pytest.raises(RecordError, match="could not have seen") as info:
        Record.from_dict(feature_record(feature_edition, events=[event]))
    assert info.value.event == 1


# -- private tip --------------------------------------------------------------------------------
def test_private_tip_valid(feature_edition):
    events = [{"private_tip": {"category": "weapon", "all": True}, "by": "Ann", "to": "Bob",
               "cards": ["Knife"]},
              {"private_tip": {"feature": "gender", "value": "female"}, "by": "Cy",
               "to": "Ann", "cards": []},
              {"private_tip": {"feature": "gender", "value": "female"}, "by": "Bob",
               "to": "Cy"}]
    record = Record.from_dict(feature_record(feature_edition, events=events))
    tips = record.events
    assert all(isinstance(t, PrivateTip) for t in tips)
    assert (tips[0].all, tips[0].category, [c.id for c in tips[0].cards]) == (
        True, "weapon", ["knife"])
    assert (tips[1].all, tips[1].feature, tips[1].value, tips[1].cards) == (
        False, "gender", "female", ())
    assert tips[2].cards is None


def test_private_tip_unread_by_an_onlooker(feature_edition):
    from cluedo_lab.knowledge import Knowledge
    event = {"private_tip": None, "by": "Bob", "to": "Cy", "returned": 1}
    record = Record.from_dict(feature_record(feature_edition, events=[event]))
    tip = record.events[0]
    assert tip.unread and tip.returned == 1 and tip.cards is None
    assert "1 card came back" in tip.describe()
    assert Knowledge(record).constraints(record.events) == Knowledge(
        Record.from_dict(feature_record(feature_edition))).constraints([])
    sleuth_fails(feature_edition, {"private_tip": None, "by": "Ann", "to": "Cy"},
                 field="private_tip", says="read this tip")
    sleuth_fails(feature_edition, {"private_tip": None, "by": "Bob", "to": "Cy",
                                   "returned": -1}, field="returned", says="came back")


def test_private_tip_to_self(feature_edition):
    sleuth_fails(feature_edition, {"private_tip": {"category": "weapon", "all": True},
                                   "by": "Ann", "to": "Ann", "cards": ["Rope"]},
                 field="to", says="opponent")


def test_private_tip_without_to(feature_edition):
    sleuth_fails(feature_edition, {"private_tip": {"category": "weapon", "all": True},
                                   "by": "Ann", "cards": ["Knife"]}, field="to", says="missing")


def test_private_tip_cards_when_observer_is_neither_party(feature_edition):
    sleuth_fails(feature_edition, {"private_tip": {"category": "weapon", "all": True},
                                   "by": "Bob", "to": "Cy", "cards": []},
                 field="cards", says="secret")


@pytest.mark.parametrize("tip, cards", [({"category": "weapon", "all": True}, ["Hall"]),
                                        ({"feature": "gender", "value": "female"}, ["Plum"]),
                                        ({"feature": "gender", "value": "female"}, ["Knife"])])
def test_private_tip_card_not_answering_the_tip(feature_edition, tip, cards):
    sleuth_fails(feature_edition, {"private_tip": tip, "by": "Ann", "to": "Bob",
                                   "cards": cards},
                 field="cards", says=f"{cards[0]} does not answer this tip")


def test_private_tip_one_card_tip_with_two_cards(feature_edition):
    sleuth_fails(feature_edition, {"private_tip": {"feature": "gender", "value": "female"},
                                   "by": "Ann", "to": "Bob", "cards": ["White", "Peacock"]},
                 field="cards", says="one card at most")


@pytest.mark.parametrize("tip", [{"category": "vehicle", "all": True},
                                 {"category": "weapon", "all": True, "feature": "gender"}])
def test_private_tip_bad_category(feature_edition, tip):
    sleuth_fails(feature_edition, {"private_tip": tip, "by": "Ann", "to": "Bob"},
                 field="private_tip")


# -- room card, show, reveal --------------------------------------------------------------------
def pile_record(**changes) -> dict:
    players = [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2}]
    return deck_record(players=players, face_down=["North", "South"], **changes)


def test_room_card_valid():
    record = Record.from_dict(pile_record(events=[
        {"room_card": "North", "by": "Ann", "card": "Knife"},
        {"room_card": "South", "by": "Bob"}]))
    assert record.places == ("Ann", "Bob", "envelope", "North", "South")
    assert isinstance(record.events[0], RoomCard) and record.events[0].card.id == "knife"
    assert record.events[1].card is None


def test_room_card_unknown_pile():
    fails(pile_record(events=[{"room_card": "North", "by": "Ann"},
                              {"room_card": "Attic", "by": "Ann", "card": "Knife"}]),
          event=2, field="room_card", says="'Attic'")


def test_room_card_seen_by_someone_else():
    fails(pile_record(events=[{"room_card": "North", "by": "Bob", "card": "Knife"}]),
          event=1, field="card", says="could not have seen")


def test_show_to_self():
    bad_event({"show": "Bob", "to": "Bob"}, field="to", says="someone else")


def test_show_without_to():
    bad_event({"show": "Bob", "card": "Knife"}, field="to", says="missing")


def test_show_seen_only_by_the_two():
    bad_event({"show": "Bob", "to": "Cy", "card": "Knife"}, field="card",
              says="could not have seen")
    record = Record.from_dict(deck_record(events=[{"show": "Bob", "to": "Ann",
                                                   "card": "Knife"},
                                                  {"show": "Ann", "to": "Cy",
                                                   "card": "Rope"}]))
    assert isinstance(record.events[0], Show)
    assert [e.card.id for e in record.events] == ["knife", "rope"]


def test_reveal_and_snoop_parse():
    record = Record.from_dict(deck_record(events=[
        {"reveal": "pipe", "by": "Cy"}, {"snoop": "Bob", "by": "Ann", "card": "Knife"},
        {"snoop": "Cy", "by": "Bob"}]))
    assert isinstance(record.events[0], Reveal) and record.events[0].card.id == "pipe"
    assert isinstance(record.events[1], Snoop) and record.events[1].target == "Bob"
    assert record.events[2].card is None


# -- round trips and editing ---------------------------------------------------------------------
def content(record: Record) -> tuple:
    return (record.edition.id, [c.id for c in record.edition.cards], record.players,
            record.observer, record.hand, record.face_up, record.face_down, record.fugitive,
            record.events)


def test_round_trip_through_json():
    events = [OK1, OK2,
              {"suggest": ["White", "Rope", "Study"], "by": "Bob", "passed": ["Cy"],
               "shown_by": "Ann", "card": "Rope"},
              {"reveal": "Den", "by": "Cy", "comment": "found in Cy's hand"}]
    record = Record.from_dict(deck_record(events=events))
    again = Record.from_json(record.to_json())
    assert content(again) == content(record)
    assert again.to_dict() == record.to_dict() == json.loads(record.to_json(indent=None))
    assert [e.raw for e in again.events] == events


def test_round_trip_through_a_file(tmp_path):
    data = {"edition": "cluedo-classic-1949",
            "players": [{"name": "Ann", "hand_size": 6}, {"name": "Bob", "hand_size": 6},
                        {"name": "Cy", "hand_size": 6}],
            "observer": "Ann", "hand": ["Rope", "Hall", "Plum", "Study", "Dagger", "Kitchen"],
            "events": [{"suggest": ["Plum", "Rope", "Hall"], "by": "Ann", "passed": ["Bob"],
                        "shown_by": "Cy", "card": "Plum"}]}
    # Cy cannot show Plum: Ann holds it. Parsing accepts it (the engine finds the conflict).
    record = Record.from_dict(data)
    path = tmp_path / "game.json"
    record.save(path)
    assert path.read_text(encoding="utf-8").endswith("}\n")
    assert content(Record.load(path)) == content(record)


def test_with_events_replaces_the_events_and_keeps_the_original():
    record = Record.from_dict(deck_record(events=[OK1]))
    newer = record.with_events([OK2, OK1])
    assert [type(e) for e in newer.events] == [Suggest, Accuse]
    assert [e.position for e in newer.events] == [1, 2]
    assert newer.players == record.players and newer.hand == record.hand
    assert len(record.events) == 1 and record.to_dict()["events"] == [OK1]
    with pytest.raises(RecordError) as info:
        record.with_events([OK1, {"reveal": "Attic", "by": "Bob"}])
    assert info.value.event == 2
    assert len(record.events) == 1


def test_players_as_plain_strings_take_hand_sizes_from_the_edition():
    # 1949: 21 cards, 3 in the envelope, 18 dealt one at a time from the first seat listed.
    names = ["Ann", "Bob", "Cy", "Dan"]
    record = Record.from_dict({"edition": "cluedo-classic-1949", "players": names})
    assert [p.hand_size for p in record.players] == [5, 5, 4, 4]
    five = Record.from_dict({"edition": "cluedo-classic-1949", "players": names + ["Eve"]})
    assert [p.hand_size for p in five.players] == [4, 4, 4, 3, 3]
    three = Record.from_dict({"edition": "cluedo-classic-1949", "players": names[:3]})
    assert [p.hand_size for p in three.players] == [6, 6, 6]
    assert three.observer is None and three.places == ("Ann", "Bob", "Cy", "envelope")


def test_plain_string_players_mixed_with_sizes():
    record = Record.from_dict({"edition": "cluedo-classic-1949",
                               "players": ["Ann", {"name": "Bob", "hand_size": 5}, "Cy",
                                           "Dan"]})
    assert [p.hand_size for p in record.players] == [5, 5, 4, 4]


def test_plain_string_players_hand_checked_against_edition_size():
    data = {"edition": "cluedo-classic-1949", "players": ["Ann", "Bob", "Cy", "Dan"],
            "observer": "Dan", "hand": ["Rope", "Hall", "Plum", "Study", "Dagger"]}
    fails(data, event=None, field="hand", says="Dan holds 4 cards")


# -- one against all ----------------------------------------------------------------------------
def fugitive_record(**changes) -> dict:
    players = [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2},
               {"name": "Cy", "hand_size": 1}, {"name": "Dan", "hand_size": 1}]
    return deck_record(players=players, fugitive="Bob", **changes)


def test_fugitive_answers_last():
    record = Record.from_dict(fugitive_record())
    assert record.answer_order("Ann") == ("Cy", "Dan", "Bob")
    assert record.answer_order("Cy") == ("Dan", "Ann", "Bob")
    assert record.answer_order("Dan") == ("Ann", "Cy", "Bob")
    assert record.answer_order("Bob") == ("Cy", "Dan", "Ann")
    plain = Record.from_dict(deck_record())
    assert plain.answer_order("Bob") == ("Cy", "Ann")
    assert plain.answer_order("Cy") == ("Ann", "Bob")


def test_fugitive_order_is_used_to_check_suggestions():
    ok = {"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "passed": ["Cy", "Dan"],
          "shown_by": "Bob", "card": "Knife"}
    record = Record.from_dict(fugitive_record(events=[ok]))
    assert record.events[0].shown_by == "Bob"
    fails(fugitive_record(events=[{"suggest": ["Green", "Knife", "Hall"], "by": "Ann",
                                   "shown_by": "Bob"}]),
          event=1, field="shown_by", says="next to answer is Cy")
    fails(fugitive_record(events=[{"suggest": ["Green", "Knife", "Hall"], "by": "Ann",
                                   "passed": ["Bob"], "shown_by": "Cy"}]),
          event=1, field="passed")


def test_neighbours_wrap_around():
    record = Record.from_dict(deck_record())
    assert record.neighbour("Ann", "left") == "Bob"
    assert record.neighbour("Cy", "left") == "Ann"
    assert record.neighbour("Ann", "right") == "Cy"


# -- known defects ------------------------------------------------------------------------------
def test_record_does_not_share_the_callers_dict():
    data = deck_record(events=[OK1])
    record = Record.from_dict(data)
    data["events"].append({"reveal": "Den", "by": "Cy"})
    data["observer"] = "Bob"
    assert record.to_dict()["events"] == [OK1]
    assert record.to_dict()["observer"] == "Ann"


def test_all_snoop_from_a_stranger_in_a_public_record():
    data = deck_record(events=[{"all_snoop": "left", "by": "Bob", "from": "Zed"}])
    del data["observer"], data["hand"]
    fails(data, event=1, field="from", says="Zed")


def test_super_sleuth_stranger_in_nothing(feature_edition):
    sleuth_fails(feature_edition, {"super_sleuth": {"feature": "gender", "value": "female"},
                                   "by": "Ann", "showed": {"Bob": "White"},
                                   "nothing": ["Cy", "Dan"]},
                 field="nothing", says="'Dan'")


def test_public_view_drops_what_only_the_observer_saw():
    record = Record.from_dict({
        "deck": {"s": ["a", "b", "c"], "w": ["d", "e", "f"], "r": ["g", "h", "i"]},
        "players": [{"name": n, "hand_size": 2} for n in ("A", "B", "C")],
        "observer": "A", "hand": ["a", "d"],
        "events": [{"suggest": ["b", "e", "g"], "by": "A", "passed": [], "shown_by": "B",
                    "card": "g"},
                   {"accuse": ["c", "f", "h"], "by": "C", "correct": False}]})
    public = record.public()
    assert public.observer is None and public.hand == ()
    assert public.events[0].card is None and public.events[0].shown_by == "B"
    assert public.events[1].named == record.events[1].named
    assert record.events[0].card is not None  # the original is untouched


def test_a_record_reprs_in_brackets_and_prints_as_a_story():
    path = Path(__file__).parents[1] / "data" / "records" / "classic-3p-ann.json"
    record = Record.from_dict(json.loads(path.read_text()))
    assert repr(record) == "<Record cluedo-classic-1949: Ann, Bob, Cy; observer 'Ann'; 4 events>"
    assert repr(record.public()).endswith("; public; 4 events>")
    lines = str(record).splitlines()
    assert lines[0] == "Cluedo: Ann (6 cards), Bob (6 cards), Cy (6 cards)"
    assert lines[1].startswith("Seen by Ann, holding Rope, Hall")
    assert lines[2:] == [event.describe() for event in record.events]
    assert "Seen by everybody" in str(record.public())


@pytest.mark.parametrize("value", ["yes", 1, False])
def test_private_tip_all_is_true_or_left_out(feature_edition, value):
    sleuth_fails(feature_edition, {"private_tip": {"category": "weapon", "all": value},
                                   "by": "Ann", "to": "Bob", "cards": ["Knife"]},
                 field="private_tip", says="'all' is true or left out")


# -- the fugitive and the escape plan (issues 31 and 32) --------------------------------------
E02F_ID = "cluedo-the-card-game-2002-one-against-all"


def oaa_record(**changes) -> dict:
    data = {"edition": E02F_ID, "players": ["Ann", "Bob", "Cy"], "fugitive": "Cy",
            "events": []}
    data.update(changes)
    return data


@pytest.mark.parametrize("fugitive", ["Bob", None])
def test_a_fugitive_key_is_refused_where_the_game_has_no_fugitive(fugitive):
    """A 1949 record has no fugitive: the key (even null) neither reorders the answers nor
    switches off the player and hand-size checks."""
    data = {"edition": "cluedo-classic-1949", "players": ["Ann", "Bob", "Cy"],
            "fugitive": fugitive, "events": []}
    fails(data, event=None, field="fugitive", says="has no fugitive")
    hands = [{"name": n, "hand_size": s} for n, s in (("Ann", 18), ("Bob", 0), ("Cy", 0))]
    fails({"edition": "cluedo-classic-1949", "players": hands}, event=None, field="players")


def test_one_against_all_deals_as_the_standard_game_and_names_its_fugitive():
    assert Record.from_dict(oaa_record()).answer_order("Ann") == ("Bob", "Cy")
    uneven = [{"name": n, "hand_size": s} for n, s in (("Ann", 7), ("Bob", 5), ("Cy", 6))]
    fails(oaa_record(players=uneven), event=None, field="players", says="6, 6, 6")
    fails(oaa_record(players=["Ann", "Bob"], fugitive="Bob"), event=None, field="players")
    data = oaa_record()
    del data["fugitive"]
    fails(data, event=None, field="fugitive", says="name the player")
    fails(oaa_record(fugitive=None), event=None, field="fugitive")


def test_the_escape_plan_is_in_the_fugitive_s_own_record_only():
    hand = ["Miss Scarlett", "Train", "Loch Ness", "Mrs. White", "Car", "Stonehenge"]
    plan = ["Professor Plum", "Seaplane", "York Minster"]
    mine = oaa_record(observer="Cy", hand=hand, escape_plan=plan)
    record = Record.from_dict(mine)
    assert [c.name for c in record.escape_plan] == plan
    assert Knowledge(record).solution() == tuple(c.id for c in record.escape_plan)
    assert "escape_plan" not in record.public().to_dict()
    fails(oaa_record(observer="Ann", hand=hand, escape_plan=plan), event=None,
          field="escape_plan", says="fugitive's own record")
    fails(oaa_record(observer="Cy", hand=hand, escape_plan=plan[:2]), event=None,
          field="escape_plan", says="the solution")
    fails(oaa_record(observer="Cy", hand=hand, escape_plan=["Miss Scarlett", *plan[1:]]),
          event=None, field="escape_plan")
