"""Self-tests of the brute-force oracle (tests/oracle.py) and the game generator
(tests/gamegen.py). They need no part of the knowledge engine, only the edition loader."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from gamegen import (
    KINDS,
    contradictory_record,
    edition_path,
    kinds_for,
    random_record,
)
from oracle import ENVELOPE, FACE_UP, MODELS, brute_force, every_deal, table

from cluedo_lab.rules.edition import load_edition

DECKS = {  # test edition -> player counts it is dealt for
    "mini-3x3x3": (2, 3, 4, 5),
    "mini-2x3x4": (2, 3, 4, 5),
    "mini-3x3x5": (2, 3),
    "mini-features": (2, 3, 4, 5),
    "mini-features-fugitive": (3, 4),
    "mini-two-item": (2, 3, 4),
    "mini-face-down": (2,),
}
SETUPS = [(deck, n) for deck, counts in DECKS.items() for n in counts]


def closed_form(record: dict) -> int:
    """Deals with the observer's hand and the face-up cards as recorded, by formula: choose
    the envelope in each category from the cards not already placed, then share the rest
    over the other places (a multinomial)."""
    tab = table(record)
    fixed = {c: record["observer"] for c in record.get("hand", [])}
    fixed.update({c: FACE_UP for c in record.get("face_up", [])})
    fixed = {tab.card(c): p for c, p in fixed.items()}
    count = 1
    for cat, ids in tab.categories:
        count *= math.comb(len(ids) - sum(1 for c in ids if c in fixed), tab.envelope[cat])
    left = len(tab.cards) - len(fixed) - sum(tab.envelope.values())
    count *= math.factorial(left)
    for place in tab.places:
        if place != ENVELOPE:
            free = tab.sizes[place] - sum(1 for p in fixed.values() if p == place)
            count //= math.factorial(free)
    return count


# ---------------------------------------------------------------------------------------------
# The deck and every deal
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("deck", sorted(DECKS))
def test_test_editions_load_and_stay_small(deck):
    edition = load_edition(edition_path(deck))
    assert (edition.min_players, edition.max_players) == (min(DECKS[deck]), max(DECKS[deck]))
    for n in DECKS[deck]:
        record, _ = random_record(edition_path(deck), n, seed=0, events=0, observer=False)
        assert len(every_deal(table(record))) <= 50_000


@pytest.mark.parametrize(("deck", "players"), SETUPS)
def test_no_events_count_is_the_closed_form(deck, players):
    for seed in range(4):
        for observer in (True, False):
            record, _ = random_record(edition_path(deck), players, seed, events=0,
                                      observer=observer)
            oracle = brute_force(record)
            assert oracle.count == closed_form(record)
            assert brute_force(record, "refuter-uniform").count == oracle.count
    # With nothing fixed: every deal of the deck, by formula.
    tab = table(record)
    deals = every_deal(tab)
    formula = math.factorial(len(tab.cards) - sum(tab.envelope.values()))
    for place in tab.places:
        if place != ENVELOPE:
            formula //= math.factorial(tab.sizes[place])
    for cat, ids in tab.categories:
        formula *= math.comb(len(ids), tab.envelope[cat])
    assert len(deals) == formula
    assert len(set(deals)) == len(deals)
    for deal in deals[:500]:
        where = tab.where(deal)
        assert len(where) == len(tab.cards)
        for place in tab.places:
            assert sum(1 for p in where.values() if p == place) == tab.sizes[place]
        for cat, ids in tab.categories:
            assert sum(1 for c in ids if where[c] == ENVELOPE) == tab.envelope[cat]


def test_counts_over_every_possible_hand_add_up_to_all_deals():
    record, _ = random_record(edition_path("mini-3x3x3"), 3, seed=1, events=0, observer=False)
    total = brute_force(record).count
    assert total == 27 * 90
    tab = table(record)
    observer = tab.players[1]
    by_hand = 0
    for hand in itertools.combinations(tab.cards, tab.sizes[observer]):
        by_hand += brute_force(dict(record, observer=observer, hand=list(hand))).count
    assert by_hand == total


def test_the_same_count_for_a_custom_deck():
    record, truth = random_record(edition_path("mini-2x3x4"), 3, seed=5, events=0,
                                  observer=True, as_deck=True)
    assert "deck" in record and "edition" not in record
    oracle = brute_force(record)
    assert oracle.count == closed_form(record)
    assert oracle.admits(truth)
    assert "mrspeacock" in oracle.cards  # custom-deck ids are the normalized names
    # The categories keep the record's order (suspect, weapon, room), not an alphabetical one.
    assert [cat for cat, _ in oracle.table.categories] == list(record["deck"])
    assert all(key[0] in ("mrspeacock", "reverendgreen") for key in
               oracle.envelope_distribution())


def test_the_oracle_reads_records_itself():
    """Independence: the oracle uses the edition loader and nothing else of the kit."""
    source = (Path(__file__).parents[1] / "oracle.py").read_text()
    imports = [line for line in source.splitlines() if "cluedo_lab" in line
               and line.lstrip().startswith(("import", "from"))]
    assert imports == ["from cluedo_lab.rules.edition import load_edition, normalize"]


# ---------------------------------------------------------------------------------------------
# The generator tells the truth; the oracle's answers are well formed
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("deck", "players"), SETUPS)
def test_the_true_deal_is_always_consistent(deck, players):
    for seed in range(25):
        observer = seed % 3 != 0
        record, truth = random_record(edition_path(deck), players, seed, events=seed % 12,
                                      observer=observer,
                                      fugitive=seed % 5 == 0 and deck.endswith("fugitive"))
        json.loads(json.dumps(record))  # a record is plain JSON
        for model in MODELS:
            oracle = brute_force(record, model)
            assert oracle.count > 0
            assert oracle.admits(truth), (model, record, truth)
            for card, place in truth.items():
                assert oracle.probability(card, place) > 0


@pytest.mark.parametrize(("deck", "players"), SETUPS)
def test_every_prefix_of_a_record_admits_the_true_deal(deck, players):
    record, truth = random_record(edition_path(deck), players, seed=players, events=12)
    for k in range(len(record["events"]) + 1):
        assert brute_force(dict(record, events=record["events"][:k])).admits(truth)


@pytest.mark.parametrize(("deck", "players"), SETUPS)
def test_probabilities_and_envelope_distribution_add_up(deck, players):
    for seed in range(6):
        record, _ = random_record(edition_path(deck), players, seed, events=2 * seed,
                                  observer=seed % 2 == 0)
        for model in MODELS:
            oracle = brute_force(record, model)
            tab = oracle.table
            table_ = oracle.probabilities()
            assert set(table_) == set(tab.cards)
            for card, row in table_.items():
                assert set(row) == set(tab.places)
                assert sum(row.values()) == 1, (card, row)
                assert all(0 <= p <= 1 for p in row.values())
            for place in tab.places:   # the expected number of cards in a place is its size
                assert sum(table_[c][place] for c in tab.cards) == tab.sizes[place]
            dist = oracle.envelope_distribution()
            assert sum(dist.values()) == 1
            assert all(p > 0 for p in dist.values())
            for card in tab.cards:     # the envelope marginals agree with the distribution
                assert sum(p for k, p in dist.items() if card in k) == table_[card][ENVELOPE]
            for key in dist:           # keys: card ids in category (deck) order
                assert list(key) == sorted(key, key=tab.cards.index)
            known = oracle.known()
            for (card, place), value in known.items():
                assert table_[card][place] == (1 if value else 0)
            assert len(known) == sum(1 for c in tab.cards for p in tab.places
                                     if table_[c][p] in (0, 1))


def test_both_models_agree_on_what_is_possible():
    for seed in range(30):
        record, _ = random_record(edition_path("mini-features"), 3, seed, events=6)
        uniform, weighted = brute_force(record), brute_force(record, "refuter-uniform")
        assert uniform.known() == weighted.known()
        assert set(uniform.envelope_distribution()) == set(weighted.envelope_distribution())
        assert isinstance(weighted.count, Fraction)
        assert weighted.count <= uniform.count


def test_the_generator_makes_every_kind_of_event():
    seen = set()
    for deck in DECKS:
        for seed in range(10):
            record, _ = random_record(edition_path(deck), max(DECKS[deck]), seed, events=10)
            seen |= {next(k for k in KINDS if k in e) for e in record["events"]}
    assert seen == set(KINDS)
    assert "room_card" not in kinds_for(load_edition(edition_path("mini-3x3x3")))
    assert "super_sleuth" in kinds_for(load_edition(edition_path("mini-features")))
    record, _ = random_record(edition_path("mini-features"), 3, 1, events=5, kinds=["snoop"])
    assert all("snoop" in e for e in record["events"])


def test_the_generator_writes_cards_only_where_the_observer_saw_them():
    for seed in range(40):
        record, _ = random_record(edition_path("mini-features"), 4, seed, events=10,
                                  observer=seed % 2 == 0)
        me = record.get("observer")
        for e in record["events"]:
            if "suggest" in e and "card" in e:
                assert me in (e["by"], e["shown_by"])
            if "snoop" in e or "room_card" in e:
                assert ("card" in e) == (me == e["by"])
            if "show" in e and "card" in e:
                assert me in (e["show"], e["to"])
            if "private_tip" in e:
                assert ("cards" in e) == (me in (e["by"], e["to"]))
            if "super_sleuth" in e:
                for who, card in e["showed"].items():
                    assert (card is not None) == (me in (e["by"], who))
            if "all_snoop" in e:
                assert ("card" in e) == (me is not None)


def test_the_same_seed_makes_the_same_record():
    a = random_record(edition_path("mini-two-item"), 3, seed=11, events=9)
    b = random_record(edition_path("mini-two-item"), 3, seed=11, events=9)
    assert a == b


@pytest.mark.parametrize(("deck", "players"), SETUPS)
def test_contradictory_records(deck, players):
    for seed in range(4):
        record, extra = contradictory_record(edition_path(deck), players, seed, events=seed * 3,
                                             observer=seed % 2 == 0)
        assert brute_force(record).count > 0
        assert brute_force(dict(record, events=[*record["events"], extra])).count == 0


# ---------------------------------------------------------------------------------------------
# Each kind of event, on examples small enough to count by hand
# ---------------------------------------------------------------------------------------------

def three_players() -> dict:
    """3x3x3 for Ann, Bob, Cy (2 cards each); Ann holds Scarlett and the Rope. Left: Mustard,
    Plum; Knife, Lead Piping; Kitchen, Hall, Study: 2*2*3 envelopes, then 2 of the other 4
    cards to Bob: 72 deals."""
    return {"edition": edition_path("mini-3x3x3"), "players": ["Ann", "Bob", "Cy"],
            "observer": "Ann", "hand": ["scarlett", "rope"], "events": []}


def count(record: dict, *events: dict, model: str = "uniform"):
    return brute_force(dict(record, events=list(events)), model).count


def count_where(record: dict, test) -> int:
    """Deals of the record with no events in which ``test(where)`` holds: the same question
    asked directly of {card: place}."""
    return sum(1 for where, _ in brute_force(dict(record, events=[])).where() if test(where))


def test_setup_and_no_events():
    assert count(three_players()) == 72


def test_suggest():
    r = three_players()
    ask = {"suggest": ["mustard", "knife", "kitchen"], "by": "Ann", "passed": ["Bob"],
           "shown_by": "Cy", "card": "kitchen"}
    # Bob has none of the three, Cy has the Kitchen: by hand, per envelope room (hall, study):
    # envelope Mustard+Knife: Bob any 2 of the other 3 (3); Mustard+Lead Piping: Bob must
    # take Plum and the room (1); Plum+Knife: 1; Plum+Lead Piping: impossible (0).
    assert count(r, ask) == 2 * (3 + 1 + 1 + 0) == 10
    assert count(r, ask) == count_where(r, lambda w: w["kitchen"] == "Cy" and all(
        w[c] != "Bob" for c in ("mustard", "knife", "kitchen")))
    # Refuter-uniform: Cy held 1 named card in the 3 deals of the first case, 2 otherwise.
    assert count(r, ask, model="refuter-uniform") == 2 * (3 + Fraction(1, 2) + Fraction(1, 2))
    # Unseen card: Cy holds at least one of them.
    unseen = {k: v for k, v in ask.items() if k != "card"}
    named = ("mustard", "knife", "kitchen")
    assert count(r, unseen) == count_where(r, lambda w: any(w[c] == "Cy" for c in named)
                                           and all(w[c] != "Bob" for c in named))
    # Nobody could show: neither Bob nor Cy holds any of them.
    none = {"suggest": ["plum", "knife", "hall"], "by": "Ann", "passed": ["Bob", "Cy"]}
    assert count(r, none) == 1 * 1 * 1 * 6
    # Another player's question: Ann (who answers first after Cy) passes, Bob shows.
    other = {"suggest": ["scarlett", "lead-piping", "study"], "by": "Cy", "passed": [],
             "shown_by": "Ann", "card": "scarlett"}
    assert count(r, other) == 72
    with pytest.raises(ValueError):   # Bob is not the first one Cy asks
        count(r, {"suggest": ["plum", "knife", "hall"], "by": "Cy", "shown_by": "Bob"})
    with pytest.raises(ValueError):   # Ann cannot see what Cy showed Bob
        count(r, {"suggest": ["plum", "knife", "hall"], "by": "Bob", "shown_by": "Cy",
                  "card": "plum"})


def test_suggest_two_items_with_face_up_cards():
    r = {"edition": edition_path("mini-two-item"), "players": ["Ann", "Bob"],
         "observer": "Ann", "hand": ["scarlett", "knife", "kitchen"], "face_up": ["hall"],
         "events": []}
    # Left: Mustard, Green, Peacock; Rope, Candlestick; Dining Room: 3*2*1 envelopes.
    assert count(r) == 6
    ask = {"suggest": ["mustard", "green"], "by": "Ann", "shown_by": "Bob", "card": "green"}
    assert count(r, ask) == 4    # the envelope's suspect is Mustard or Peacock
    assert count(r, ask, model="refuter-uniform") == Fraction(1, 2) * 2 + 1 * 2
    assert brute_force(r).probability("hall", FACE_UP) == 1


def test_accuse():
    r = three_players()
    wrong = {"accuse": ["mustard", "knife", "hall"], "by": "Bob", "correct": False}
    right = dict(wrong, correct=True)
    assert count(r, right) == 6            # the envelope is known; Bob takes 2 of the other 4
    assert count(r, wrong) == 72 - 6
    assert count(r, right, wrong) == 0


def test_snoop():
    r = three_players()
    assert count(r, {"snoop": "Bob", "by": "Ann", "card": "mustard"}) == 18
    assert count(r, {"snoop": "Bob", "by": "Cy"}) == 72      # Ann did not see the card
    with pytest.raises(ValueError):
        count(r, {"snoop": "Bob", "by": "Cy", "card": "mustard"})


def test_all_snoop():
    r = three_players()
    # Hands go left (to the next seat): Ann gets Cy's hand, the seat before her.
    left = {"all_snoop": "left", "by": "Bob", "card": "mustard"}
    assert count(r, left) == count_where(r, lambda w: w["mustard"] == "Cy") == 18
    right = {"all_snoop": "right", "by": "Bob", "card": "mustard", "from": "Bob"}
    assert brute_force(dict(r, events=[right])).probability("mustard", "Bob") == 1
    with pytest.raises(ValueError):
        count(r, dict(left, **{"from": "Bob"}))
    public = dict(r, events=[{"all_snoop": "left", "by": "Bob"}])
    del public["observer"], public["hand"]
    assert brute_force(public).count == 27 * 90


def test_show_and_reveal():
    r = three_players()
    show = {"show": "Bob", "to": "Ann", "card": "knife"}
    assert count(r, show) == 18
    assert count(r, show, model="refuter-uniform") == 18  # a constant choice weight: left out
    assert count(r, {"show": "Bob", "to": "Cy"}) == 72
    assert count(r, {"reveal": "plum", "by": "Cy"}) == 18
    assert count(r, {"reveal": "plum", "by": "Cy"}, {"reveal": "plum", "by": "Bob"}) == 0


def test_private_tip():
    r = three_players()
    none = {"private_tip": {"category": "suspect", "all": True}, "by": "Ann", "to": "Bob",
            "cards": []}
    # Bob holds no suspect: the suspect not in the envelope is Cy's; Bob takes 2 of the 3
    # other cards.
    assert count(r, none) == 12 * 3
    one = dict(none, cards=["plum"])
    assert count(r, one) == count_where(r, lambda w: w["plum"] == "Bob"
                                        and w["mustard"] != "Bob")
    secret = {k: v for k, v in none.items() if k != "cards"}
    assert count(r, dict(secret, by="Bob", to="Cy")) == 72
    f = {"edition": edition_path("mini-features"), "players": ["Ann", "Bob", "Cy"],
         "observer": "Ann", "hand": ["plum", "hot-air-balloon", "stonehenge"], "events": []}
    red = {"private_tip": {"feature": "colour", "value": "red"}, "by": "Ann", "to": "Cy"}
    assert count(f, dict(red, cards=["car"])) == count_where(f, lambda w: w["car"] == "Cy")
    assert count(f, dict(red, cards=[])) == count_where(
        f, lambda w: w["car"] != "Cy" and w["train"] != "Cy")


def test_super_sleuth():
    f = {"edition": edition_path("mini-features"), "players": ["Ann", "Bob", "Cy"],
         "observer": "Ann", "hand": ["plum", "hot-air-balloon", "stonehenge"], "events": []}
    # Left: Scarlett, White, Mustard; Train, Car; Loch Ness, York: 12 envelopes, then 2 of
    # the other 4 to Bob: 72 deals.
    assert count(f) == 72
    female = {"feature": "gender", "value": "female"}
    sleuth = {"super_sleuth": female, "by": "Ann", "showed": {"Bob": "scarlett"},
              "nothing": ["Cy"]}
    # White in the envelope: Bob has Scarlett and 1 of the 3 others (3 ways); Mustard in the
    # envelope: Bob has both women (1 way); per vehicle and destination (4).
    assert count(f, sleuth) == 4 * (3 + 1) == 16
    assert count(f, sleuth, model="refuter-uniform") == 4 * (3 + Fraction(1, 2))
    unseen = {"super_sleuth": female, "by": "Bob", "showed": {"Cy": None}, "nothing": ["Ann"]}
    assert count(f, unseen) == count_where(f, lambda w: "Cy" in (w["scarlett"], w["white"]))
    with pytest.raises(ValueError):   # Ann did not answer
        count(f, {"super_sleuth": female, "by": "Bob", "showed": {"Cy": None}})


def test_room_card():
    r = {"edition": edition_path("mini-face-down"), "players": ["Ann", "Bob"],
         "observer": "Ann", "hand": ["scarlet", "rope"], "events": []}
    # Left 7 cards: 2*2*3 envelopes, then 4 cards to the two piles (1 each) and Bob (2).
    assert count(r) == 12 * 12
    look = {"room_card": "Conservatory", "by": "Ann", "card": "kitchen"}
    assert count(r, look) == 24
    assert brute_force(dict(r, events=[look])).probability("kitchen", "Conservatory") == 1
    assert count(r, {"room_card": "Billiard Room", "by": "Bob"}) == 144
    renamed = dict(r, face_down=["Attic", "Cellar"], events=[
        {"room_card": "Attic", "by": "Ann", "card": "kitchen"}])
    assert brute_force(renamed).count == 24
