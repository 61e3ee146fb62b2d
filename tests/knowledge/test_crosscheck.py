"""The knowledge engine against the brute-force oracle (tests/oracle.py), exactly, on many
random games played truthfully by tests/gamegen.py.

Every comparison is exact: the number (or total weight) of consistent deals, every card ×
place probability, the envelope distribution and the set of known cells, under both
observation models, for observers and for public knowledge, on six small test editions
(9 to 11 cards, 2 to 5 players) and every kind of event. A failure prints the record as JSON,
so it can be replayed with ``cluedo-lab solve``.
"""

from __future__ import annotations

import json
import zlib

import pytest
from gamegen import KINDS, contradictory_record, edition_path, kinds_for, random_record
from oracle import MODELS, brute_force

from cluedo_lab.rules.edition import load_edition

# (test edition, players, games). About 60 games for each deck and player count; fewer where
# public records of the biggest decks make the brute force slow.
CASES = [
    ("mini-3x3x3", 2, 60), ("mini-3x3x3", 3, 60), ("mini-3x3x3", 4, 60), ("mini-3x3x3", 5, 40),
    ("mini-2x3x4", 2, 40), ("mini-2x3x4", 3, 60), ("mini-2x3x4", 5, 40),
    ("mini-3x3x5", 2, 60), ("mini-3x3x5", 3, 40),
    ("mini-features", 3, 60), ("mini-features", 4, 40), ("mini-features", 5, 20),
    ("mini-two-item", 2, 60), ("mini-two-item", 3, 60), ("mini-two-item", 4, 60),
    ("mini-face-down", 2, 60),
]


def knowledge(record: dict, model: str):
    pytest.importorskip("cluedo_lab.knowledge.engine")
    from cluedo_lab.knowledge.engine import Knowledge
    from cluedo_lab.records import Record
    return Knowledge(Record.from_dict(record), model=model)


def differences(record: dict, model: str) -> list[str]:
    """Where the engine and the oracle disagree about ``record`` (nothing, if they agree)."""
    oracle = brute_force(record, model)
    k = knowledge(record, model)
    out = []
    if k.consistent_deals != oracle.count:
        out.append(f"consistent deals: engine {k.consistent_deals}, oracle {oracle.count}")
    mine, theirs = oracle.probabilities(), k.probabilities()
    if set(theirs) != set(mine):
        out.append(f"cards: engine {sorted(theirs)}, oracle {sorted(mine)}")
    for card, row in mine.items():
        for place, p in row.items():
            q = theirs.get(card, {}).get(place)
            if q != p:
                out.append(f"P({card} in {place}): engine {q}, oracle {p}")
        extra = set(theirs.get(card, {})) - set(row)
        if extra:
            out.append(f"{card}: engine has places {sorted(extra)} the oracle does not")
    dist, theirs_dist = oracle.envelope_distribution(), k.envelope_distribution()
    if theirs_dist != dist:
        wrong = sorted(set(dist) ^ set(theirs_dist)) or sorted(
            key for key in dist if theirs_dist.get(key) != dist[key])
        out.append(f"envelope distribution differs, e.g. at {wrong[:3]}")
    if k.known() != oracle.known():
        diff = set(k.known().items()) ^ set(oracle.known().items())
        out.append(f"known cells differ: {sorted(diff)[:5]}")
    return out


def check_games(records: list[dict], model: str) -> None:
    """Compare every record; on failure report how many failed and the first few in full."""
    failures = []
    for record in records:
        diffs = differences(record, model)
        if diffs:
            failures.append(f"{'; '.join(diffs[:6])}\n  record: {json.dumps(record)}")
    assert not failures, (f"{len(failures)} of {len(records)} records disagree "
                          f"({model}):\n" + "\n".join(failures[:3]))


def seed_of(*parts) -> int:
    return zlib.crc32(repr(parts).encode())


def games(deck: str, players: int, count: int, **options) -> list[dict]:
    """``count`` random records: two in three seen by a player, one in three public; 0 to 12
    events of every kind the edition allows."""
    out = []
    for i in range(count):
        record, _ = random_record(edition_path(deck), players, seed_of(deck, players, i),
                                  events=i % 13, observer=i % 3 != 2, **options)
        out.append(record)
    return out


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(("deck", "players", "count"), CASES)
def test_engine_matches_brute_force(deck, players, count, model):
    check_games(games(deck, players, count), model)


def kind_cases():
    for kind in KINDS:
        for deck in ("mini-3x3x3", "mini-features", "mini-two-item", "mini-face-down"):
            if kind in kinds_for(load_edition(edition_path(deck))):
                yield kind, deck


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(("kind", "deck"), list(kind_cases()))
def test_each_kind_of_event(kind, deck, model):
    """Games of one kind of event only (and of that kind mixed with suggestions)."""
    players = {"mini-face-down": 2}.get(deck, 3)
    records = []
    for i in range(24):
        kinds = [kind] if i % 2 else [kind, "suggest"]
        record, _ = random_record(edition_path(deck), players, seed_of(kind, deck, i),
                                  events=1 + i % 8, observer=i % 4 != 3, kinds=kinds)
        records.append(record)
    check_games(records, model)


@pytest.mark.parametrize("model", MODELS)
def test_custom_decks(model):
    records = []
    for deck, players in (("mini-3x3x3", 3), ("mini-2x3x4", 4), ("mini-3x3x5", 2)):
        records += games(deck, players, 15, as_deck=True)
    check_games(records, model)


@pytest.mark.parametrize("model", MODELS)
def test_a_fugitive_answers_last(model):
    check_games(games("mini-features-fugitive", 4, 30, fugitive=True)
                + games("mini-3x3x3", 4, 30, fugitive=True, as_deck=True), model)


def test_probabilities_by_card_name_and_every_place():
    for deck, players in (("mini-two-item", 3), ("mini-face-down", 2), ("mini-features", 3)):
        edition = load_edition(edition_path(deck))
        for i in range(5):
            record, truth = random_record(edition_path(deck), players, seed_of("names", i),
                                          events=4)
            k, oracle = knowledge(record, "uniform"), brute_force(record)
            assert set(k.places) == set(oracle.places)
            for card in edition.cards:
                for place in oracle.places:
                    expected = oracle.probability(card.id, place)
                    assert k.probability(card.name, place) == expected
                    assert k.probability(card.id, place) == expected
            for card, place in truth.items():
                assert k.probability(card, place) > 0


def test_contradictions_are_refused():
    from cluedo_lab.rules.errors import Contradiction

    for deck, players in (("mini-3x3x3", 3), ("mini-features", 4), ("mini-face-down", 2),
                          ("mini-two-item", 3)):
        for i in range(8):
            record, extra = contradictory_record(edition_path(deck), players,
                                                 seed_of("contradiction", deck, i),
                                                 events=i, observer=i % 2 == 0)
            assert brute_force(dict(record, events=[*record["events"], extra])).count == 0
            k = knowledge(record, "uniform")
            before = k.consistent_deals
            assert before == brute_force(record).count
            with pytest.raises(Contradiction):
                k.add(extra)
            assert k.consistent_deals == before   # the knowledge stays as it was
            with pytest.raises(Contradiction):
                knowledge(dict(record, events=[*record["events"], extra]), "uniform")


@pytest.mark.parametrize("engine", ["sweep", "capacity", "listing"])
@pytest.mark.parametrize("model", MODELS)
def test_each_counting_engine_on_every_kind_of_event(engine, model, monkeypatch):
    """Both DPs and the listing, forced in turn, on records of every event kind, public ones
    included (half the records): the automatic choice between them must never change an
    answer, the envelope distribution (read from the DP that counted) included."""
    from cluedo_lab.knowledge.counting import routes as counting
    monkeypatch.setattr(counting, "_try_listing", lambda prep: None)
    monkeypatch.setattr(counting, "choose_engine", lambda prep: engine)
    records = []
    for kind, deck in kind_cases():
        players = {"mini-face-down": 2}.get(deck, 3)
        for i in range(6):
            record, _ = random_record(edition_path(deck), players,
                                      seed_of("engine", kind, deck, i), events=2 + i * 2,
                                      observer=i % 2 == 0, kinds=[kind, "suggest"])
            records.append(record)
    records += games("mini-3x3x3", 4, 12) + games("mini-features", 4, 8)
    check_games(records, model)


def test_conflicts_are_irreducible_against_brute_force():
    """The events a Contradiction names admit no deal together (by brute force), and every
    one of them is needed: leaving any out leaves a deal. Public records included."""
    from cluedo_lab.rules.errors import Contradiction

    for deck, players in (("mini-3x3x3", 3), ("mini-features", 4), ("mini-two-item", 3)):
        for i in range(10):
            record, extra = contradictory_record(edition_path(deck), players,
                                                 seed_of("irreducible", deck, i),
                                                 events=4 + i, observer=i % 2 == 0)
            events = [*record["events"], extra]
            with pytest.raises(Contradiction) as caught:
                knowledge(dict(record, events=events), "uniform")
            chosen = [events[p - 1] for p in caught.value.conflict]
            assert chosen and brute_force(dict(record, events=chosen)).count == 0
            for left_out in range(len(chosen)):
                rest = chosen[:left_out] + chosen[left_out + 1:]
                assert brute_force(dict(record, events=rest)).count > 0
