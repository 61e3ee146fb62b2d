"""Variants: each option changes exactly what it should, clashes are refused by name, records
and games of a variant follow its rules, and the exact figures agree with brute force."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections import Counter
from fractions import Fraction

import pytest
from gamegen import edition_path, random_record
from oracle import ENVELOPE, FACE_UP, Table, brute_force, every_deal

from cluedo_lab.bots import make_bot
from cluedo_lab.bots.strategies import RandomBot
from cluedo_lab.games import game_from_json, new_game
from cluedo_lab.knowledge.advice import rank_questions
from cluedo_lab.knowledge.constraints import violated
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.lab import variant_figures as vf
from cluedo_lab.records import Record
from cluedo_lab.rules import edition as edition_module
from cluedo_lab.rules.edition import load_edition
from cluedo_lab.rules.errors import RecordError
from cluedo_lab.rules.variant import VariantError, variant, variant_from_dict
from cluedo_lab.views.display import to_html, to_svg

CLASSIC = "cluedo-classic-1949"
MINI = edition_path("mini-3x3x3")
TWO_ITEM = edition_path("mini-two-item")
FACE_DOWN = edition_path("mini-face-down")


def fingerprint(edition) -> dict:
    """Everything a variant option may change, one entry per option."""
    return {
        "players": (edition.min_players, edition.max_players),
        "spares": (edition.deal.spares, edition.deal.face_down, edition.deal.face_down_places),
        "hands": edition.deal.hands,
        "items": edition.question.items, "form": edition.question.form,
        "answer": edition.question.answer, "wrong": edition.accusation.wrong,
        "deck": tuple(c.id for c in edition.cards),
        "rest": (edition.deal.envelope, edition.question.place, edition.first_player,
                 edition.family, edition.board, edition.dice, edition.actions, edition.mode),
    }


def changed(v) -> set[str]:
    old, new = fingerprint(v.base), fingerprint(v.edition)
    return {k for k in old if old[k] != new[k]}


# ---------------------------------------------------------------------------------------------
# Each option changes exactly what it should
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("options", "expected"), [
    ({"players": 4}, {"players"}),
    ({"players": 4, "spares": "face-up"}, {"players", "spares"}),
    ({"players": 4, "spares": "face-down"}, {"players", "spares"}),
    ({"items": 2, "form": "any"}, {"items", "form"}),
    ({"form": "any"}, {"form"}),
    ({"answer": "every-who-can"}, {"answer"}),
    ({"wrong": "leaves"}, {"wrong"}),
    ({"drop": {"weapon": ["Rope"]}}, {"deck"}),
    ({"add": {"weapon": ["Poison"]}}, {"deck"}),
    ({"hands": [7, 6, 5]}, {"players", "hands"}),
])
def test_each_option_changes_only_its_own_rule(options, expected):
    v = variant(CLASSIC, **options)
    assert changed(v) == expected
    assert v.edition.name == v.name and v.edition.extends == CLASSIC


def test_options_equal_to_the_base_are_no_change():
    same = variant(CLASSIC, spares="uneven", answer="first-who-can", items=3)
    assert same.changes == () and changed(same) == set()
    assert same.name == "Cluedo 1949 [as published]"
    assert variant(CLASSIC, players=4) == variant(CLASSIC, players=4, wrong="stays-to-refute")


def deal_is_complete(v, seed: int) -> None:
    """Every card lies in exactly one place; the envelope holds one per category."""
    d = v.deal(seed, v.players or v.edition.min_players)
    places = [*d.envelope, *itertools.chain(*d.hands), *d.face_up,
              *(card for _, card in d.face_down)]
    assert sorted(c.id for c in places) == sorted(c.id for c in v.edition.cards)
    assert Counter(c.category for c in d.envelope) == Counter(
        {c.id: 1 for c in v.edition.categories})


@pytest.mark.parametrize("seed", range(5))
def test_spares_face_up_gives_equal_hands_and_the_rest_face_up(seed):
    v = variant(CLASSIC, players=4, spares="face-up")
    d = v.deal(seed)
    assert [len(h) for h in d.hands] == [4, 4, 4, 4] and len(d.face_up) == 18 - 16
    assert d.face_down == ()
    deal_is_complete(v, seed)


@pytest.mark.parametrize("seed", range(5))
def test_spares_face_down_lays_the_uneven_cards_in_rooms(seed):
    v = variant(CLASSIC, players=4, spares="face-down")
    d = v.deal(seed)
    assert [len(h) for h in d.hands] == [4, 4, 4, 4] and d.face_up == ()
    rooms = [c.name for c in v.edition.category("room").cards]
    assert [pile for pile, _ in d.face_down] == rooms[:2]
    deal_is_complete(v, seed)


def test_face_down_count_reproduces_the_2023_two_player_deal():
    # The 2023 two-player game sets four cards face down in rooms and deals 7 + 7.
    v = variant(CLASSIC, players=2, spares="face-down", face_down=4)
    published = load_edition("clue-classic-2023-two-player")
    assert v.edition.hand_sizes(2) == published.hand_sizes(2) == (7, 7)
    assert v.edition.deal.face_down == published.deal.face_down == 4
    back = variant("clue-classic-2023-two-player", spares="uneven")
    assert back.edition.hand_sizes(2) == (9, 9) and back.edition.deal.face_down == 0


@pytest.mark.parametrize("seed", range(3))
def test_hand_sizes_are_dealt_as_given(seed):
    v = variant(CLASSIC, hands=[8, 6, 4])
    assert [len(h) for h in v.deal(seed).hands] == [8, 6, 4]
    record = Record.for_variant(v, ["Ann", "Bob", "Cy"])
    assert [p.hand_size for p in record.players] == [8, 6, 4]
    up = variant(CLASSIC, hands=[5, 5, 5], spares="face-up")
    assert len(up.deal(seed).face_up) == 3
    deal_is_complete(v, seed)


def test_drop_and_add_change_the_deck():
    v = variant(CLASSIC, drop={"weapon": ["Rope", "Spanner"]},
                add={"room": ["Cellar"], "suspect": [{"name": "Dr. Orchid", "colour": "white"}]})
    names = {c.name for c in v.edition.cards}
    assert "Rope" not in names and "Spanner" not in names and {"Cellar", "Dr. Orchid"} <= names
    assert len(v.edition.cards) == 21 - 2 + 2
    assert v.edition.card("cellar").category == "room"
    assert "-Rope" in v.name and "+Cellar" in v.name
    for seed in range(3):
        deal_is_complete(v, seed)


def test_question_arity_follows_the_variant_in_records():
    v = variant(CLASSIC, items=2, form="any", players=3)
    ask = {"suggest": ["Plum", "Rope"], "by": "Ann", "passed": ["Bob", "Cy"]}
    assert len(Record.for_variant(v, ["Ann", "Bob", "Cy"], events=[ask]).events[0].named) == 2
    with pytest.raises(RecordError, match="names 2 items, not 3"):
        Record.for_variant(v, ["Ann", "Bob", "Cy"],
                           events=[{**ask, "suggest": ["Plum", "Rope", "Hall"]}])
    with pytest.raises(RecordError, match="names 3 items, not 2"):
        Record.from_dict({"edition": CLASSIC, "players": ["Ann", "Bob", "Cy"],
                          "events": [ask]})
    each = variant("cluedo-card-game-2018", form="one-per-category", players=3)
    with pytest.raises(RecordError, match="one card of each category"):
        Record.for_variant(each, ["Ann", "Bob", "Cy"], face_up=[],
                           events=[{"suggest": ["Plum", "Green", "Rope"], "by": "Ann",
                                    "passed": ["Bob", "Cy"]}])


# ---------------------------------------------------------------------------------------------
# Clashes
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("base", "options", "named", "words"), [
    (CLASSIC, {"items": 2}, {"items", "form"}, "one-per-category"),
    (CLASSIC, {"items": 2, "form": "one-per-category"}, {"items", "form"}, "names 3 cards"),
    (CLASSIC, {"hands": [6, 6, 5]}, {"hands"}, "17 cards, but 18 are dealt"),
    (CLASSIC, {"players": 4, "hands": [6, 6, 6]}, {"players", "hands"}, "3 hands"),
    (CLASSIC, {"players": 19}, {"players"}, "capacity"),
    (CLASSIC, {"players": 1}, {"players"}, "at least 2"),
    (CLASSIC, {"spares": "face-down"}, {"spares", "players"}, "number of players"),
    (CLASSIC, {"face_down": 2}, {"face_down"}, "spares='face-down'"),
    (CLASSIC, {"face_down": 2, "spares": "face-up"}, {"face_down", "spares"}, "face-up"),
    ("cluedo-card-game-2018", {"spares": "face-down", "players": 3}, {"spares"}, "no room"),
    ("cluedo-the-card-game-2002-one-against-all", {"answer": "every-who-can"}, {"answer"},
     "fugitive"),
    (CLASSIC, {"drop": {"weapon": ["Rope", "Dagger", "Lead Piping", "Revolver", "Spanner"]}},
     {"drop"}, "at least 2 must stay"),
    (CLASSIC, {"drop": {"weapon": ["Plum"]}}, {"drop"}, "not a weapon card"),
    (CLASSIC, {"drop": {"weapon": ["Knife"]}}, {"drop"}, "no card 'Knife'"),
    (CLASSIC, {"add": {"suspect": ["Orchid"]}}, {"add"}, "colour"),
    (CLASSIC, {"add": {"weapon": ["Rope"]}}, {"add"}, "already has"),
    (CLASSIC, {"spare": "face-up"}, {"spare"}, "unknown option"),
    (CLASSIC, {"answer": "everyone"}, {"answer"}, "every-who-can"),
])
def test_clashing_options_are_refused_by_name(base, options, named, words):
    before = dict(edition_module._REGISTERED)
    with pytest.raises(VariantError) as error:
        variant(base, **options)
    assert set(error.value.options) == named
    assert words in str(error.value)
    assert edition_module._REGISTERED == before      # nothing was made


# ---------------------------------------------------------------------------------------------
# The value: name, repr, table, JSON
# ---------------------------------------------------------------------------------------------

def test_a_variant_reads_well_and_round_trips():
    v = variant(CLASSIC, players=4, spares="face-up", drop={"weapon": ["rope"]})
    assert v.name == "Cluedo 1949 [4 players, spares face-up, -Rope]"
    assert repr(v) == ("variant('cluedo-classic-1949', players=4, spares='face-up', "
                       "drop={'weapon': ['rope']})")
    assert variant_from_dict(json.loads(json.dumps(v.to_dict()))) == v
    assert variant(CLASSIC, **v.options) == v
    html = to_html(v)
    assert "<th>base</th>" in html and "font-weight:bold" in html
    rows = {row[0]: row[1:] for row in v.table().rows}
    assert rows["spares"] == ("uneven", "face-up")
    assert rows["who answers"] == ("first who can", "first who can")
    assert variant(v, answer="every-who-can").options["answer"] == "every-who-can"
    assert variant(v, spares=None).options.get("spares") is None


def test_engines_find_a_variant_by_id_and_records_carry_it():
    v = variant(CLASSIC, players=3, answer="every-who-can")
    assert load_edition(v.id) is v.edition
    record = Record.for_variant(v, ["Ann", "Bob", "Cy"], observer="Ann",
                                hand=["Plum", "Rope", "Hall", "Study", "Dagger", "Kitchen"])
    again = Record.from_json(record.to_json())
    assert again.edition.question.answer == "every-who-can"
    assert json.loads(record.to_json())["edition"]["base"] == CLASSIC


# ---------------------------------------------------------------------------------------------
# Who answers, and wrong accusers who leave: records, knowledge, brute force
# ---------------------------------------------------------------------------------------------

def every_record(names=("Ann", "Bob", "Cy", "Dan")):
    v = variant(CLASSIC, players=4, answer="every-who-can", wrong="leaves")
    return v, {"edition": v.to_dict(), "players": list(names), "observer": "Ann",
               "hand": ["Plum", "Rope", "Hall", "Study", "Dagger"]}


def test_every_who_can_answers_shows_each_card_and_passes_in_order():
    v, setup = every_record()
    ask = {"suggest": ["Scarlett", "Spanner", "Kitchen"], "by": "Ann",
           "showed": {"Bob": "Scarlett", "Dan": "Kitchen"}, "passed": ["Cy"]}
    record = Record.from_dict({**setup, "events": [ask]})
    known = Knowledge(record)
    assert known.status("Scarlett", "Bob") and known.status("Kitchen", "Dan")
    assert known.status("Spanner", "Cy") is False
    for bad, words in [({**ask, "passed": []}, "either shows a card or passes"),
                       ({**ask, "shown_by": "Bob"}, "every player who can"),
                       ({**ask, "showed": {"Bob": "Rope", "Dan": None}}, "not one of")]:
        with pytest.raises(RecordError, match=words):
            Record.from_dict({**setup, "events": [bad]})
    with pytest.raises(RecordError, match="only the first player who can"):
        Record.from_dict({"edition": CLASSIC, "players": ["Ann", "Bob", "Cy"],
                          "events": [{**ask, "showed": {"Bob": None}, "passed": ["Cy"]}]})


def test_a_wrong_accuser_who_leaves_is_skipped_in_the_answer_order():
    v, setup = every_record()
    events = [{"accuse": ["White", "Spanner", "Lounge"], "by": "Cy", "correct": False},
              {"suggest": ["Mustard", "Spanner", "Lounge"], "by": "Bob", "showed": {},
               "passed": ["Dan", "Ann"]}]
    record = Record.from_dict({**setup, "events": events})
    assert record.answer_order("Bob") == ("Dan", "Ann") and record.departed() == ("Cy",)
    with pytest.raises(RecordError, match="Cy left the game"):
        Record.from_dict({**setup, "events": [events[0], {**events[1], "by": "Cy"}]})
    with pytest.raises(RecordError, match="either shows a card or passes"):
        Record.from_dict({**setup, "events": [events[0], {**events[1],
                                                          "passed": ["Cy", "Dan", "Ann"]}]})
    stays = variant(CLASSIC, players=4)
    kept = Record.from_dict({**setup, "edition": stays.to_dict(),
                             "events": [events[0], {"suggest": ["Mustard", "Spanner", "Lounge"],
                                                    "by": "Bob", "passed": ["Cy", "Dan", "Ann"]}]})
    assert kept.answer_order("Bob") == ("Cy", "Dan", "Ann")


@pytest.mark.parametrize("base", ["mini-3x3x3", "mini-two-item", "mini-features",
                                  "mini-face-down"])
@pytest.mark.parametrize("options", [{"answer": "every-who-can"}, {"wrong": "leaves"},
                                     {"answer": "every-who-can", "wrong": "leaves"}])
def test_knowledge_of_variant_records_matches_brute_force(base, options):
    v = variant(edition_path(base), **options)
    for seed in range(5):
        players = 2 if base == "mini-face-down" else 3 + seed % 2
        model = ("uniform", "refuter-uniform")[seed % 2]
        data, truth = random_record(v.id, players, seed, events=10, observer=seed % 3 != 0)
        record = Record.from_dict(data)
        assert not violated(record, truth, model)
        oracle = brute_force(data, model)
        known = Knowledge(record, model)
        assert known.consistent_deals == oracle.count
        assert known.probabilities() == oracle.probabilities()


# ---------------------------------------------------------------------------------------------
# Card games honour the answer and wrong-accuser rules
# ---------------------------------------------------------------------------------------------

def played(v, players, seed, bots):
    game = new_game(v, players, seed)
    game.play([bots(seed * 10 + s) for s in range(players)])
    return game


@pytest.mark.parametrize("base", ["cluedo-card-game-2018", "cluedo-the-card-game-2002"])
def test_card_games_show_every_card_a_player_can(base):
    v = variant(base, answer="every-who-can")
    for seed in range(4):
        game = played(v, 3, seed, lambda s: make_bot("quick-detective", s))
        where = game.true_places()
        asked = [e for e in game.events if "suggest" in e]
        assert asked and all("shown_by" not in e for e in asked)
        for e in asked:
            holders = {where[c] for c in e["suggest"]} - {"envelope", "face-up", e["by"]}
            assert set(e["showed"]) == holders
            assert all(where[card] == who for who, card in e["showed"].items())
            assert set(e["passed"]) == set(game.names) - holders - {e["by"]}
        for seat in range(3):
            assert not violated(game.record(seat), where)


@pytest.mark.parametrize("base", ["cluedo-card-game-2018", "cluedo-the-card-game-2002"])
def test_card_games_skip_a_wrong_accuser_who_leaves(base):
    v = variant(base, wrong="leaves", players=4)
    seen_leaver = 0
    for seed in range(6):
        game = played(v, 4, seed, lambda s: make_bot("explorer", s))
        gone: set[str] = set()
        for e in game.events:
            if "accuse" in e and not e["correct"]:
                gone.add(e["by"])
            answered = [*e.get("passed", []), *e.get("showed", {}), e.get("shown_by"),
                        *e.get("nothing", []), e.get("to"), e.get("snoop")]
            assert not gone & set(answered), (seed, e)
            seen_leaver += bool(gone)
        for seat in range(4):
            assert not violated(game.record(seat), game.true_places())
    assert seen_leaver   # the rule was exercised


def test_the_board_engine_says_which_options_it_does_not_play():
    # Who answers and wrong accusers leaving are played on the board
    # (tests/games/test_board_game_variants.py); questions naming any cards are not.
    v = variant(CLASSIC, players=3, form="any", answer="every-who-can", wrong="leaves")
    with pytest.raises(VariantError, match="board games support questions naming one card "
                                           "of each category") as e:
        new_game(v)
    assert set(e.value.options) == {"items"}
    with pytest.raises(VariantError, match="board games support"):
        vf.simulate(v, games=1)
    played_here = variant(CLASSIC, players=3, answer="every-who-can", wrong="leaves")
    assert new_game(played_here).edition.accusation.wrong == "leaves"


# ---------------------------------------------------------------------------------------------
# Exact figures against brute force
# ---------------------------------------------------------------------------------------------

def all_deals(edition, players: int) -> list[dict[str, str]]:
    """Every deal of a small edition as {card: place}, by the oracle's enumeration."""
    sizes = dict(zip([f"P{i}" for i in range(players)], edition.hand_sizes(players),
                     strict=True))
    sizes[ENVELOPE] = edition.envelope_size
    if edition.face_up_count(players):
        sizes[FACE_UP] = edition.face_up_count(players)
    for pile in edition.deal.face_down_places:
        sizes[pile] = 1
    cards = tuple(c.id for c in edition.cards)
    tab = Table(cards, {c.id: c.category for c in edition.cards},
                tuple((c.id, tuple(x.id for x in c.cards)) for c in edition.categories),
                {c: {} for c in cards}, dict(edition.deal.envelope),
                tuple(f"P{i}" for i in range(players)), tuple(sizes), sizes,
                {c: c for c in cards})
    return [tab.where(d) for d in every_deal(tab)]


SMALL = [(MINI, {"players": 3}), (MINI, {"players": 3, "answer": "every-who-can"}),
         (MINI, {"players": 4, "spares": "face-up"}), (MINI, {"players": 4, "spares": "face-down"}),
         (TWO_ITEM, {"players": 3}), (TWO_ITEM, {"players": 3, "answer": "every-who-can"}),
         (FACE_DOWN, {}), (MINI, {"hands": [3, 2, 1]}),
         (MINI, {"drop": {"weapon": ["rope"]}, "players": 2, "items": 2, "form": "any"})]


@pytest.mark.parametrize(("base", "options"), SMALL)
def test_counts_and_first_accusation_match_brute_force(base, options):
    v = variant(base, **options)
    players = v.players or 3
    deals = all_deals(v.edition, players)
    assert vf.deals(v, players) == len(deals)
    envelopes = {tuple(sorted(c for c, p in d.items() if p == ENVELOPE)) for d in deals}
    assert vf.envelopes(v) == len(envelopes)
    # Seat 0 sees its hand and the face-up cards, then names an envelope it cannot rule out.
    chance = Fraction(0)
    for d in deals:
        seen = {c for c, p in d.items() if p in ("P0", FACE_UP)}
        left = sum(1 for e in envelopes if not seen & set(e))
        chance += Fraction(1, left)
    assert vf.first_accusation_chance(v, players) == chance / len(deals)


def brute_information(v, deals, named) -> float:
    """I(envelope; answer) over ``deals`` (equally likely) for a first question by P0."""
    players = sorted({p for d in deals for p in d.values() if p.startswith("P")})
    order = players[1:]
    every = v.edition.question.answer == "every-who-can"
    joint: Counter = Counter()
    for d in deals:
        env = tuple(sorted(c for c, p in d.items() if p == ENVELOPE))
        held = [[c for c in named if d[c] == who] for who in order]
        showers = [i for i, h in enumerate(held) if h]
        if not every:
            showers = showers[:1]
        for shown in itertools.product(*(held[i] for i in showers)):
            weight = Fraction(1, math.prod(len(held[i]) for i in showers) * len(deals))
            joint[(env, tuple(zip(showers, shown, strict=True)))] += weight

    def entropy(counter) -> float:
        return -sum(float(p) * math.log2(p) for p in counter.values() if p)
    envelope, answer = Counter(), Counter()
    for (e, a), p in joint.items():
        envelope[e] += p
        answer[a] += p
    return entropy(envelope) + entropy(answer) - entropy(joint)


def questions(edition) -> list[tuple[str, ...]]:
    q = edition.question
    if q.form == "one-per-category":
        return list(itertools.product(*([c.id for c in cat.cards] for cat in edition.categories)))
    return list(itertools.combinations([c.id for c in edition.cards], q.items))


@pytest.mark.parametrize(("base", "options"), SMALL)
def test_the_best_first_question_matches_brute_force(base, options):
    v = variant(base, **options)
    players = v.players or 3
    deals = all_deals(v.edition, players)
    by_view: dict[tuple, list] = {}
    for d in deals:
        hand = tuple(sorted(c for c, p in d.items() if p == "P0"))
        up = tuple(sorted(c for c, p in d.items() if p == FACE_UP))
        by_view.setdefault((hand, up), []).append(d)
    total = 0.0
    for (hand, up), group in sorted(by_view.items())[::11]:  # every 11th view, and the mean
        best = max(brute_information(v, group, q) for q in questions(v.edition))
        assert vf.best_first_question(v, hand, players, face_up=up)[1] == pytest.approx(best)
    for (hand, up), group in by_view.items():
        total += len(group) / len(deals) * vf.best_first_question(v, hand, players,
                                                                   face_up=up)[1]
    assert vf.first_question_bits(v, players) == pytest.approx(total)


def test_the_best_first_question_matches_the_advice_engine_on_a_full_deck():
    rng = random.Random(3)
    for options in ({"players": 3}, {"players": 5}, {"players": 4, "spares": "face-up"}):
        v = variant(CLASSIC, **options)
        d = v.deal(rng.randrange(1000))
        hand, up = [c.id for c in d.hands[0]], [c.id for c in d.face_up]
        names = [f"P{i}" for i in range(v.players)]
        known = Knowledge(Record.from_dict({"edition": v.id, "players": names,
                                            "observer": "P0", "hand": hand, "face_up": up}))
        assert vf.best_first_question(v, hand, face_up=up)[1] == pytest.approx(
            rank_questions(known)[0].gain)


def test_figures_table_and_simulation_are_seeded():
    games = [variant("cluedo-card-game-2018", players=3),
             variant("cluedo-card-game-2018", players=3, answer="every-who-can")]
    table = vf.compare(games)
    assert table.header[1:] == tuple(g.name for g in games)
    first = vf.simulate(games[1], games=4, seed=5)
    again = vf.simulate(games[1], games=4, seed=5)
    assert first.result.games == again.result.games
    assert sum(first.seat_rates()) + first.nobody / 4 == pytest.approx(1)
    assert first.turns_to_solve is None or first.turns_to_solve >= 1
    assert "<svg" in to_svg(first.chart())


def test_random_play_of_a_variant_stays_legal():
    v = variant("cluedo-card-game-2018", items=3, answer="every-who-can", wrong="leaves",
                players=4)
    for seed in range(3):
        game = played(v, 4, seed, RandomBot)
        assert game.is_over
        for seat in range(4):
            assert not violated(game.record(seat), game.true_places())


# ---------------------------------------------------------------------------------------------
# The explorer: a thin view
# ---------------------------------------------------------------------------------------------

def test_the_explorer_shows_the_kits_figures_and_keeps_the_last_working_variant():
    from cluedo_lab.views.variant_explorer import VariantExplorer

    explorer = VariantExplorer(CLASSIC, players=4, spares="face-up")
    rows = {row[0]: row[1:] for row in explorer.comparison().rows}
    ours = vf.figures(variant(CLASSIC, players=4, spares="face-up"))
    theirs = vf.figures(variant(CLASSIC, players=4))
    assert rows["spares"] == ("uneven", "face-up")
    assert rows["best first question (seat 0), bits"] == (
        f"{theirs.first_question_bits:.3f}", f"{ours.first_question_bits:.3f}")
    kept = explorer.variant
    explorer.set(items=2)
    assert explorer.variant is kept and set(explorer.error.options) == {"items", "form"}
    assert repr(explorer).startswith("Not allowed: items=2")
    explorer.set(items=None, answer="every-who-can")
    assert explorer.error is None and explorer.variant.options == {
        "players": 4, "spares": "face-up", "answer": "every-who-can"}
    explorer.set_category_size("weapon", 4)
    assert len(explorer.variant.edition.category("weapon").cards) == 4
    explorer.set_category_size("suspect", 7)           # an added suspect gets a colour
    assert len(explorer.variant.edition.category("suspect").cards) == 7
    ui = explorer.widget()
    explorer.part("wrong").value = "leaves"            # a control calls set()
    assert explorer.variant.edition.accusation.wrong == "leaves"
    assert "Each figure of the variant" in explorer.part("view").value and ui is explorer.widget()


def test_the_every_who_can_example_in_the_docs_reads_as_it_says():
    from pathlib import Path
    text = (Path(__file__).parents[2] / "docs" / "records.md").read_text()
    section = text.split("#### When every player who can answers")[1]
    example = json.loads(section.split("```json")[1].split("```")[0])
    known = Knowledge.from_dict(example)
    assert known.status("Scarlett", "Bob") and known.status("Kitchen", "Dan")
    assert all(known.status(card, "Cy") is False for card in ("Scarlett", "Spanner", "Kitchen"))
    assert known.status("Candlestick", "Dan") is False    # Dan passed on event 2
    cy = known.probability("Candlestick", "Cy") + known.probability("Lounge", "Cy")
    assert cy >= 1                                          # Cy showed one of the two
    second = known.record.events[1]
    assert second.showed[0][0] == "Cy" and second.showed[0][1] is None   # in asking order


def test_a_variant_game_saves_and_replays_and_a_bad_variant_record_is_refused():
    v = variant("cluedo-card-game-2018", players=3, answer="every-who-can")
    game = played(v, 3, 1, lambda s: make_bot("quick-detective", s))
    again = game_from_json(game.to_json())
    assert again.events == game.events and again.winner == game.winner
    with pytest.raises(RecordError, match="field 'edition'.*items=2 clashes"):
        Record.from_dict({"edition": {"base": CLASSIC, "items": 2}, "players": ["A", "B"]})


@pytest.mark.parametrize("base", ["cluedo-card-game-2018", "cluedo-the-card-game-2002",
                                  "clue-mansion-2014"])
def test_a_saved_variant_game_opens_in_a_new_session(base, tmp_path):
    """The saved game writes the variant's options, not only its session id, so a fresh
    Python process (where the variant was never built) replays it exactly."""
    import subprocess
    import sys

    game = new_game(variant(base, answer="every-who-can").edition, 3, 2)
    game.play([RandomBot(s) for s in range(3)])
    saved = game.to_json()
    assert json.loads(saved)["edition"] == {"base": base, "answer": "every-who-can"}
    path = tmp_path / "game.json"
    path.write_text(saved)
    script = ("from cluedo_lab.games import game_from_json\n"
              "import pathlib, sys\n"
              "text = pathlib.Path(sys.argv[1]).read_text()\n"
              "print(game_from_json(text).to_json() == text)\n")
    out = subprocess.run([sys.executable, "-c", script, str(path)], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "True"


@pytest.mark.parametrize("spec, says", [
    ({"base": "no-such-edition"}, "no such edition"),
    ({"base": "cluedo-card-game-2018", "colour": "red"}, "unknown option 'colour'"),
    ({"nobase": 1}, "a variant is written"),
])
def test_a_saved_game_naming_a_bad_variant_is_refused_clearly(spec, says):
    saved = {"game": "card", "edition": spec, "players": ["A", "B", "C"], "seed": 0,
             "actions": []}
    with pytest.raises(VariantError, match=says):
        game_from_json(json.dumps(saved))
