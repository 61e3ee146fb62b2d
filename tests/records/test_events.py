"""What each event kind makes known, on decks small enough to count by hand.

The standard table: a 9-card deck (suspects Plum, White, Green; weapons Rope, Knife, Pipe; rooms
Hall, Study, Den), three players Ann, Bob, Cy in seat order with two cards each, seen by Ann who
holds Plum and Rope. Before any event:

- the envelope is one of White/Green × Knife/Pipe × Hall/Study/Den: 2·2·3 = 12 ways;
- the 4 cards left go 2 to Bob and 2 to Cy: C(4, 2) = 6 ways;

so 72 deals. Every expectation below is counted in the comment above it.
"""

from __future__ import annotations

import copy
from fractions import Fraction as F
from pathlib import Path

import pytest

from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.records import Record

DECK3 = {"suspect": ["Plum", "White", "Green"],
         "weapon": ["Rope", "Knife", "Pipe"],
         "room": ["Hall", "Study", "Den"]}
PLAYERS3 = [{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2},
            {"name": "Cy", "hand_size": 2}]

# Same shape with a feature: suspects Plum (male), White and Peacock (female).
FEATURE_TOML = Path(__file__).parents[1] / "data" / "tiny-features.toml"


def know(*events, model: str = "uniform", **changes) -> Knowledge:
    data = {"deck": copy.deepcopy(DECK3), "players": copy.deepcopy(PLAYERS3),
            "observer": "Ann", "hand": ["Plum", "Rope"], "events": list(events)}
    data.update(changes)
    return Knowledge(Record.from_dict(data), model)


@pytest.fixture
def feature_know():
    path = FEATURE_TOML

    def build(*events, model: str = "uniform") -> Knowledge:
        data = {"edition": str(path), "players": copy.deepcopy(PLAYERS3), "observer": "Ann",
                "hand": ["Plum", "Rope"], "events": list(events)}
        return Knowledge(Record.from_dict(data), model)
    return build


def row(k: Knowledge, card: str) -> dict[str, bool | None]:
    return {place: k.status(card, place) for place in k.places}


BASE = know()


def test_the_set_up_alone():
    assert BASE.consistent_deals == 72
    assert row(BASE, "Plum") == {"Ann": True, "Bob": False, "Cy": False, "envelope": False}
    assert row(BASE, "Knife") == {"Ann": False, "Bob": None, "Cy": None, "envelope": None}
    # A weapon of two candidates: env 1/2; otherwise Bob or Cy alike: 1/4 each.
    assert BASE.probability("Knife", "envelope") == F(1, 2)
    assert BASE.probability("Knife", "Bob") == F(1, 4)
    # A room of three: env 1/3; Bob 2/3 · 1/2 = 1/3.
    assert BASE.probability("Hall", "envelope") == F(1, 3)
    assert BASE.probability("Hall", "Cy") == F(1, 3)


# -- suggestions --------------------------------------------------------------------------------
SEEN_KNIFE = {"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "shown_by": "Bob",
              "card": "Knife"}


def test_seen_refutation():
    # Bob holds Knife, so the envelope weapon is Pipe (Rope is Ann's). Envelope: 2 suspects ×
    # Pipe × 3 rooms = 6; the 3 cards left give Bob 1 more: 3 ways. 18 deals.
    k = know(SEEN_KNIFE)
    assert k.consistent_deals == 18
    assert row(k, "Knife") == {"Ann": False, "Bob": True, "Cy": False, "envelope": False}
    assert row(k, "Pipe") == {"Ann": False, "Bob": False, "Cy": False, "envelope": True}
    assert k.probability("Green", "envelope") == F(1, 2)
    # Hall is left over unless the envelope room (2/3), then Bob takes it 1 time in 3: 2/9.
    assert k.probability("Hall", "Bob") == F(2, 9)
    assert k.probability("Hall", "Cy") == F(4, 9)


def test_unseen_refutation_with_the_observers_cards():
    # Bob asks Plum, Rope, Hall; Cy shows Bob a card Ann does not see. Ann holds Plum and Rope,
    # so Cy showed Hall. Envelope: 2 × 2 × (Study|Den) = 8; Cy takes 1 of the 3 left: 24.
    k = know({"suggest": ["Plum", "Rope", "Hall"], "by": "Bob", "shown_by": "Cy"})
    assert k.consistent_deals == 24
    assert row(k, "Hall") == {"Ann": False, "Bob": False, "Cy": True, "envelope": False}
    assert k.probability("Study", "envelope") == F(1, 2)
    assert k.probability("Study", "Cy") == F(1, 6)


def test_unseen_refutation_is_at_least_one():
    # Bob asks White, Knife, Hall; Cy shows one, unseen. Count the deals where Cy holds none of
    # them and take them away from 72. With a = how many of the three are in the envelope, the
    # 4 cards left hold 3 - a of them and Cy picks 2 of the other 1 + a:
    #   a=0: 2 envelopes × C(1,2)=0; a=1: 5 × C(2,2)=1; a=2: 4 × C(3,2)=3; a=3: 1 × C(4,2)=6
    # = 0 + 5 + 12 + 6 = 23, so 72 - 23 = 49 deals. White in the envelope: 36 deals before,
    # of which Cy-holds-none: (W,P,S|D) 2·1 + (W,K,S|D) 2·3 + (W,P,H) 3 + (W,K,H) 6 = 17.
    k = know({"suggest": ["White", "Knife", "Hall"], "by": "Bob", "shown_by": "Cy"})
    assert k.consistent_deals == 49
    assert k.probability("White", "envelope") == F(19, 49)
    assert row(k, "White")["Ann"] is False
    assert all(k.status(card, "Cy") is None for card in ("White", "Knife", "Hall"))


def test_passes():
    # Bob asks Plum, Knife, Hall; Cy passes; Ann shows Plum. Cy lacks Knife and Hall (and
    # Plum, known). With b = how many of Knife, Hall are in the envelope, Cy picks 2 of the
    # 2 + b left that are neither: b=0: 4 env × 1; b=1: 6 env × 3; b=2: 2 env × 6 → 34.
    # Knife in the envelope: (K, S|D) 4 env × 3 + (K, H) 2 × 6 = 24 → 24/34.
    k = know({"suggest": ["Plum", "Knife", "Hall"], "by": "Bob", "passed": ["Cy"],
              "shown_by": "Ann", "card": "Plum"})
    assert k.consistent_deals == 34
    assert k.status("Knife", "Cy") is False and k.status("Hall", "Cy") is False
    assert k.status("Knife", "Bob") is None
    assert k.probability("Knife", "envelope") == F(12, 17)
    assert k.status("Pipe", "Cy") is None


def test_nobody_refutes_puts_the_cards_in_the_envelope():
    # Ann asks Green, Knife, Hall; Bob and Cy pass; Ann holds none of them: all three in the
    # envelope. White, Pipe, Study, Den split 2/2: 6 deals.
    k = know({"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "passed": ["Bob", "Cy"]})
    assert k.consistent_deals == 6
    assert k.solution() == ("green", "knife", "hall")
    assert row(k, "Hall") == {"Ann": False, "Bob": False, "Cy": False, "envelope": True}
    assert k.probability("White", "Bob") == F(1, 2)


def test_nobody_refutes_with_the_askers_own_card():
    # Ann asks her own Plum with Knife and Hall: nobody shows, so Knife and Hall are in the
    # envelope but the suspect is still White or Green: 2 × C(4,2) = 12 deals.
    k = know({"suggest": ["Plum", "Knife", "Hall"], "by": "Ann", "passed": ["Bob", "Cy"]})
    assert k.consistent_deals == 12
    assert k.solution() is None
    assert k.status("Knife", "envelope") is True and k.status("Hall", "envelope") is True
    assert k.probability("White", "envelope") == F(1, 2)
    assert k.envelope_distribution() == {("white", "knife", "hall"): F(1, 2),
                                         ("green", "knife", "hall"): F(1, 2)}


def test_nobody_refutes_someone_elses_question():
    # Bob asks White, Knife, Hall; Cy and Ann pass. Each is in Bob's hand or the envelope; Bob
    # holds the 3 - a not in the envelope plus a - 1 of the 1 + a others left:
    #   a=1: 5 env × C(2,0)=1; a=2: 4 × C(3,1)=3; a=3: 1 × C(4,2)=6 → 5 + 12 + 6 = 23.
    # Hall in the envelope: (G,P,H) 1 + (W,P,H),(G,K,H) 2·3 + (W,K,H) 6 = 13.
    k = know({"suggest": ["White", "Knife", "Hall"], "by": "Bob", "passed": ["Cy", "Ann"]})
    assert k.consistent_deals == 23
    assert k.probability("Hall", "envelope") == F(13, 23)
    assert k.probability("Hall", "Bob") == F(10, 23)
    assert row(k, "Hall")["Cy"] is False


# -- accusations --------------------------------------------------------------------------------
WRONG = {"accuse": ["White", "Knife", "Hall"], "by": "Cy", "correct": False}


def test_wrong_accusation_is_not_all():
    # Only the envelope (White, Knife, Hall) goes: 11 envelopes × 6 = 66 deals; Hall is in
    # 4 envelopes, one of them gone: 3/11.
    k = know(WRONG)
    assert k.consistent_deals == 66
    assert k.probability("Hall", "envelope") == F(3, 11)
    assert k.probability("White", "envelope") == F(5, 11)
    assert ("white", "knife", "hall") not in k.envelope_distribution()
    assert all(k.status(c, "envelope") is None for c in ("White", "Knife", "Hall"))


def test_wrong_accusation_completes_a_solution():
    # Nobody can show Knife or Hall to Ann: both in the envelope. Cy's wrong accusation then
    # rules out White: the envelope is Green, Knife, Hall; 6 deals.
    k = know({"suggest": ["Plum", "Knife", "Hall"], "by": "Ann", "passed": ["Bob", "Cy"]},
             WRONG)
    assert k.consistent_deals == 6
    assert k.solution() == ("green", "knife", "hall")
    assert k.status("White", "envelope") is False


def test_correct_accusation():
    k = know({"accuse": ["White", "Knife", "Hall"], "by": "Bob", "correct": True})
    assert k.consistent_deals == 6
    assert k.solution() == ("white", "knife", "hall")
    assert k.probability("Green", "Bob") == F(1, 2)


# -- 2002 actions -------------------------------------------------------------------------------
def test_snoop_seen():
    k = know({"snoop": "Bob", "by": "Ann", "card": "Knife"})
    assert k.consistent_deals == 18
    assert row(k, "Knife") == {"Ann": False, "Bob": True, "Cy": False, "envelope": False}
    assert k.status("Pipe", "envelope") is True


def test_snoop_not_seen_tells_nothing():
    k = know({"snoop": "Cy", "by": "Bob"})
    assert k.consistent_deals == 72
    assert k.probabilities() == BASE.probabilities()


@pytest.mark.parametrize("direction, seen", [("left", "Cy"), ("right", "Bob")])
def test_all_snoop(direction, seen):
    # Seats Ann, Bob, Cy. Hands go left (to the next seat): Ann gets Cy's hand. Hands go right:
    # Ann gets Bob's. Either way the card pins the weapon: 18 deals as for Bob showing Knife.
    k = know({"all_snoop": direction, "by": "Bob", "card": "Knife"})
    other = {"Bob": "Cy", "Cy": "Bob"}[seen]
    assert k.consistent_deals == 18
    assert k.status("Knife", seen) is True
    assert k.status("Knife", other) is False
    assert k.status("Pipe", "envelope") is True


def test_all_snoop_without_a_card_tells_nothing():
    k = know({"all_snoop": "left", "by": "Bob"})
    assert k.consistent_deals == 72


def test_super_sleuth_nothing_lacks_every_feature_card(feature_know):
    # Bob asks for a female suspect; Ann and Cy have none. Cy lacks White and Peacock, so the
    # envelope takes one (2 ways) and Bob the other plus 1 of the 3 cards left:
    # 2 × 2 × 3 × 3 = 36 deals.
    k = feature_know({"super_sleuth": {"feature": "gender", "value": "female"}, "by": "Bob",
                      "nothing": ["Ann", "Cy"]})
    assert k.consistent_deals == 36
    assert k.status("White", "Cy") is False and k.status("Peacock", "Cy") is False
    assert k.probability("White", "Bob") == F(1, 2)
    assert k.probability("Knife", "Bob") == F(1, 6)
    assert k.status("Plum", "Cy") is False  # Ann's anyway


def test_super_sleuth_unseen_show_is_at_least_one(feature_know):
    # Bob asks; Cy shows an unseen female card; Ann has none. One female is in the envelope;
    # the other is in Cy's hand rather than Bob's: half of the 72 deals.
    k = feature_know({"super_sleuth": {"feature": "gender", "value": "female"}, "by": "Bob",
                      "showed": {"Cy": None}, "nothing": ["Ann"]})
    assert k.consistent_deals == 36
    assert k.probability("White", "Cy") == F(1, 2)
    assert k.status("White", "Bob") is False and k.status("Peacock", "Bob") is False


def test_super_sleuth_seen(feature_know):
    # Ann asks; Bob shows White, Cy has none. The envelope suspect is Peacock (Plum is Ann's).
    k = feature_know({"super_sleuth": {"feature": "gender", "value": "female"}, "by": "Ann",
                      "showed": {"Bob": "White"}, "nothing": ["Cy"]})
    assert k.consistent_deals == 18
    assert k.solution() is None
    assert k.status("Peacock", "envelope") is True
    assert k.probability("Knife", "envelope") == F(1, 2)


def test_private_tip_all_of_a_category_fixes_the_row(feature_know):
    # Bob gives Ann all his weapons: none. Bob's whole weapon row is known; Knife and Pipe are
    # one in the envelope, one with Cy: 2 × 2 × 3 envelopes, Cy's other card 1 of 3: 36.
    k = feature_know({"private_tip": {"category": "weapon", "all": True}, "by": "Ann",
                      "to": "Bob", "cards": []})
    assert k.consistent_deals == 36
    assert {w: k.status(w, "Bob") for w in ("Rope", "Knife", "Pipe")} == {
        "Rope": False, "Knife": False, "Pipe": False}
    assert k.probability("Knife", "Cy") == F(1, 2)


def test_private_tip_all_with_a_card(feature_know):
    # Bob's weapons are exactly Knife: the envelope weapon is Pipe.
    k = feature_know({"private_tip": {"category": "weapon", "all": True}, "by": "Ann",
                      "to": "Bob", "cards": ["Knife"]})
    assert {w: k.status(w, "Bob") for w in ("Rope", "Knife", "Pipe")} == {
        "Rope": False, "Knife": True, "Pipe": False}
    assert k.status("Pipe", "envelope") is True
    assert k.consistent_deals == 18


def test_private_tip_one_card(feature_know):
    # Bob gives Ann one female card, White. Peacock is then the envelope suspect; Bob may still
    # hold another card: 18 deals.
    k = feature_know({"private_tip": {"feature": "gender", "value": "female"}, "by": "Ann",
                      "to": "Bob", "cards": ["White"]})
    assert k.consistent_deals == 18
    assert k.status("White", "Bob") is True
    assert k.status("Peacock", "envelope") is True
    assert k.probability("Hall", "Bob") == F(2, 9)


def test_private_tip_none(feature_know):
    # Bob has no female card: one in the envelope, the other with Cy. 36 deals.
    k = feature_know({"private_tip": {"feature": "gender", "value": "female"}, "by": "Ann",
                      "to": "Bob", "cards": []})
    assert k.consistent_deals == 36
    assert k.status("White", "Bob") is False and k.status("Peacock", "Bob") is False
    assert k.probability("Peacock", "Cy") == F(1, 2)


def test_private_tip_between_others_tells_nothing(feature_know):
    k = feature_know({"private_tip": {"feature": "gender", "value": "female"}, "by": "Bob",
                      "to": "Cy"})
    assert k.consistent_deals == 72


# -- piles, shows, reveals ----------------------------------------------------------------------
PILES = dict(players=[{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2}],
             face_down=["North", "South"])


def test_room_card():
    # Ann, Bob 2 cards each, two face-down piles of one. Before: 12 envelopes × 4!/(2!1!1!) =
    # 144. Ann sees Knife in North: envelope weapon Pipe, 6 envelopes; the 3 cards left go
    # 2 to Bob, 1 to South: 18. South holds Hall when the envelope room is not Hall (4 of 6
    # envelopes) and Hall is the one of 3 left for South: 4/18.
    before = know(**PILES)
    assert before.consistent_deals == 144
    assert before.places == ("Ann", "Bob", "envelope", "North", "South")
    k = know({"room_card": "North", "by": "Ann", "card": "Knife"}, **PILES)
    assert k.consistent_deals == 18
    assert row(k, "Knife") == {"Ann": False, "Bob": False, "envelope": False, "North": True,
                               "South": False}
    assert k.probability("Hall", "South") == F(2, 9)
    assert k.status("Pipe", "envelope") is True


def test_room_card_unseen_tells_nothing():
    k = know({"room_card": "South", "by": "Bob"}, **PILES)
    assert k.consistent_deals == 144


def test_show():
    k = know({"show": "Bob", "to": "Ann", "card": "Knife"})
    assert k.consistent_deals == 18
    assert k.status("Knife", "Bob") is True
    unseen = know({"show": "Bob", "to": "Cy"})
    assert unseen.consistent_deals == 72


def test_reveal():
    k = know({"reveal": "Knife", "by": "Cy"})
    assert k.consistent_deals == 18
    assert row(k, "Knife") == {"Ann": False, "Bob": False, "Cy": True, "envelope": False}
    assert k.probability("Hall", "Bob") == F(4, 9)


def test_face_up_cards():
    # Ann and Bob 2 each, Knife and Hall face up. Envelope: 2 suspects × Pipe × (Study|Den) = 4;
    # Bob takes the last 2 cards: 4 deals.
    k = know(players=[{"name": "Ann", "hand_size": 2}, {"name": "Bob", "hand_size": 2}],
             face_up=["Knife", "Hall"])
    assert k.places == ("Ann", "Bob", "envelope", "face-up")
    assert k.consistent_deals == 4
    assert row(k, "Knife") == {"Ann": False, "Bob": False, "envelope": False, "face-up": True}
    assert k.status("Pipe", "envelope") is True
    assert k.probability("White", "envelope") == F(1, 2)
    assert k.probability("Den", "Bob") == F(1, 2)


def test_public_view():
    # No observer: 27 envelopes × 6!/(2!2!2!) = 2430 deals, every card in the envelope 1/3.
    data = {"deck": DECK3, "players": PLAYERS3, "events": []}
    k0 = Knowledge(Record.from_dict(data))
    assert k0.consistent_deals == 2430
    assert k0.probability("Plum", "envelope") == F(1, 3)
    assert k0.probability("Plum", "Ann") == F(2, 9)
    assert k0.known() == {}
    # Bob asks Plum, Rope, Hall; Cy and Ann pass. Each named card is Bob's or the envelope's.
    # a = how many are in the envelope (≥ 1: Bob holds at most 2); Bob takes the 3 - a others
    # plus a - 1 of the 3 + a unnamed cards left; Ann and Cy split the last 4: C(4,2) = 6.
    #   a=1: 12 env × 1 × 6 = 72; a=2: 6 env × 5 × 6 = 180; a=3: 1 × 15 × 6 = 90 → 342.
    # Hall in the envelope: 90 + 4·30 + 4·6 = 234 → 13/19.
    k = Knowledge(Record.from_dict({**data, "events": [
        {"suggest": ["Plum", "Rope", "Hall"], "by": "Bob", "passed": ["Cy", "Ann"]}]}))
    assert k.consistent_deals == 342
    assert k.probability("Hall", "envelope") == F(13, 19)
    assert k.probability("Hall", "Bob") == F(6, 19)
    assert row(k, "Hall") == {"Ann": False, "Bob": None, "Cy": False, "envelope": None}


# -- the refuter-uniform model ------------------------------------------------------------------
def test_refuter_uniform_weighs_the_refuters_choice():
    # Ann asks Green, Knife, Hall; Bob shows Knife. Bob's other card r is one of the 3 left
    # after the envelope (suspect s, room e); a refuter holding k of the named cards shows
    # Knife with chance 1/k, k = 1 + [r is Green or Hall]. Weights by envelope (s, e):
    #   (White, Hall):  r ∈ {Green ½, Study 1, Den 1}    = 5/2
    #   (White, Study): r ∈ {Green ½, Hall ½, Den 1}     = 2
    #   (White, Den):   r ∈ {Green ½, Hall ½, Study 1}   = 2
    #   (Green, Hall):  r ∈ {White 1, Study 1, Den 1}    = 3
    #   (Green, Study): r ∈ {White 1, Hall ½, Den 1}     = 5/2
    #   (Green, Den):   r ∈ {White 1, Hall ½, Study 1}   = 5/2
    # Total 29/2. Green in the envelope: 8 / (29/2) = 16/29 (uniform: 1/2); Hall in the
    # envelope: (5/2 + 3) / (29/2) = 11/29 (uniform: 1/3); Green with Bob: 3·½ → 3/29 (uniform:
    # 1/6). Showing Knife when Green or Hall was also possible is less likely, so deals where
    # Bob had no other choice gain weight.
    uniform = know(SEEN_KNIFE)
    k = know(SEEN_KNIFE, model="refuter-uniform")
    assert k.consistent_deals == F(29, 2)
    assert k.probability("Green", "envelope") == F(16, 29)
    assert uniform.probability("Green", "envelope") == F(1, 2)
    assert k.probability("Hall", "envelope") == F(11, 29)
    assert uniform.probability("Hall", "envelope") == F(1, 3)
    assert k.probability("Green", "Bob") == F(3, 29)
    assert uniform.probability("Green", "Bob") == F(1, 6)
    # What is certain does not depend on the model.
    assert k.known() == uniform.known()


def test_refuter_uniform_only_for_cards_shown_to_the_observer():
    # Bob asks, Cy shows Bob an unseen card: nothing to weigh, the models agree.
    event = {"suggest": ["White", "Knife", "Hall"], "by": "Bob", "shown_by": "Cy"}
    assert (know(event, model="refuter-uniform").probabilities()
            == know(event).probabilities())


def test_refuter_uniform_super_sleuth(feature_know):
    # Ann asks for a female card; Bob shows White. The envelope suspect is Peacock, so Bob
    # holds no other female card: k = 1 in every deal and the models agree (18 deals, weight
    # 18).
    event = {"super_sleuth": {"feature": "gender", "value": "female"}, "by": "Ann",
             "showed": {"Bob": "White"}, "nothing": ["Cy"]}
    k = feature_know(event, model="refuter-uniform")
    assert k.consistent_deals == 18
    assert k.probabilities() == feature_know(event).probabilities()


def test_unknown_model():
    with pytest.raises(ValueError, match="observation model"):
        know(model="bayes")


def test_violated_lists_what_a_deal_breaks():
    from cluedo_lab.knowledge.constraints import violated
    from cluedo_lab.records import Record

    record = Record.from_dict({"deck": DECK3, "players": PLAYERS3, "observer": "Ann",
                               "hand": ["Plum", "Rope"], "events": [
        {"suggest": ["Green", "Knife", "Hall"], "by": "Ann", "passed": ["Bob"],
         "shown_by": "Cy", "card": "Knife"}]})
    deal = {"plum": "Ann", "rope": "Ann", "knife": "Cy", "green": "Cy", "white": "Bob",
            "pipe": "Bob", "hall": "envelope", "study": "envelope", "den": "envelope"}
    assert [c.kind for c in violated(record, deal)] == ["size"]  # three rooms in the envelope
    deal.update({"study": "Cy", "green": "envelope", "den": "Bob", "white": "envelope"})
    broken = violated(record, deal)
    assert {c.kind for c in broken} >= {"size"}
    good = {"plum": "Ann", "rope": "Ann", "knife": "Cy", "study": "Cy", "white": "Bob",
            "den": "Bob", "green": "envelope", "pipe": "envelope", "hall": "envelope"}
    assert violated(record, good) == []
    good_but_bob_has_hall = dict(good, hall="Bob", den="envelope")
    assert [c.reason for c in violated(record, good_but_bob_has_hall)] == [
        "Bob could not answer"]
