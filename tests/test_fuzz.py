"""Property-based fuzzing of everything a user can hand the kit (issue 17).

Valid records, saved games and edition files of every edition are mutated at a random place
(a key dropped, a value replaced by another JSON value, a list element repeated, a value
wrapped in a list); whatever comes out, the kit either accepts it or raises one of its own
exceptions (``CluedoLabError``) — never another exception — and a knowledge engine built
before a refused event is unchanged. Seeded and bounded (``derandomize``, a few dozen
examples per property), so ``make test`` stays quick.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cluedo_lab import Knowledge
from cluedo_lab.bots.strategies import RandomBot
from cluedo_lab.games.factory import game_from_json, new_game
from cluedo_lab.records.record import Record
from cluedo_lab.rules.edition import all_editions, edition_data, edition_from_dict
from cluedo_lab.rules.errors import CluedoLabError
from cluedo_lab.rules.variant import variant_from_dict

EDITIONS = [e.id for e in all_editions()]
FUZZ = settings(max_examples=25, derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 12), st.sampled_from([10 ** 9, -1, 2 ** 63]),
    st.text(max_size=6), st.sampled_from(["", "Envelope", "../x.toml", "a\nb", "x" * 300]),
    st.lists(st.integers(0, 3), max_size=3), st.dictionaries(st.text(max_size=3),
                                                             st.integers(), max_size=2))


@cache
def finished_game(edition_id: str):
    game = new_game(edition_id, load_players(edition_id), 3)
    game.play([RandomBot(30 + s) for s in range(len(game.names))])
    return game


def load_players(edition_id: str) -> int:
    edition = next(e for e in all_editions() if e.id == edition_id)
    return min(max(edition.min_players, 3), edition.max_players)


def paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON value, as a path of keys and indexes."""
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:12]):
            out += paths(item, (*prefix, index))
    return out


def mutate(data: Any, draw: Any) -> Any:
    data = copy.deepcopy(data)
    where = draw(st.sampled_from(paths(data)[1:]))
    parent = data
    for step in where[:-1]:
        parent = parent[step]
    last = where[-1]
    how = draw(st.sampled_from(["drop", "replace", "repeat", "wrap"]))
    if how == "drop":
        del parent[last]
    elif how == "replace":
        parent[last] = draw(ODD_VALUES)
    elif how == "repeat" and isinstance(parent, list):
        parent.insert(last, copy.deepcopy(parent[last]))
    else:
        parent[last] = [parent[last]]
    return data


@pytest.mark.parametrize("edition_id", EDITIONS)
@FUZZ
@given(data=st.data())
def test_a_mutated_record_is_read_or_refused_by_the_kit(edition_id, data):
    game = finished_game(edition_id)
    seat = data.draw(st.sampled_from([None, *range(len(game.names))]))
    record = game.record_for(seat)
    bad = mutate(record, data.draw)
    try:
        parsed = Record.from_dict(bad)
    except CluedoLabError:
        return
    try:
        deals = Knowledge(parsed).consistent_deals
    except CluedoLabError:   # a contradiction, or a problem too large: both named
        return
    assert deals > 0


@pytest.mark.parametrize("edition_id", EDITIONS)
@FUZZ
@given(data=st.data())
def test_a_mutated_saved_game_loads_or_is_refused_by_the_kit(edition_id, data):
    saved = json.loads(finished_game(edition_id).to_json())
    saved["actions"] = saved["actions"][:40]
    bad = mutate(saved, data.draw)
    try:
        game = game_from_json(json.dumps(bad))
    except CluedoLabError:
        return
    assert len(game.history) == len(bad["actions"])


@pytest.mark.parametrize("edition_id", EDITIONS)
@FUZZ
@given(data=st.data())
def test_a_mutated_edition_file_loads_or_is_refused_naming_the_file(edition_id, data):
    bad = mutate(edition_data(edition_id), data.draw)
    try:
        edition_from_dict(bad, "fuzzed.toml")
    except CluedoLabError as error:
        assert "fuzzed.toml" in str(error) or "variant" in str(error).lower()


@pytest.mark.parametrize("edition_id", EDITIONS)
@FUZZ
@given(data=st.data())
def test_a_refused_event_leaves_the_knowledge_as_it_was(edition_id, data):
    game = finished_game(edition_id)
    record = game.record_for(0)
    events = record["events"]
    cut = data.draw(st.integers(0, max(0, len(events) - 1)))
    record["events"] = events[:cut]
    knowledge = Knowledge(Record.from_dict(record))
    before = knowledge.probabilities()
    event = mutate({"event": events[cut] if events else {"suggest": []}}, data.draw)
    try:
        knowledge.add(event.get("event", {}))
    except CluedoLabError:
        assert knowledge.probabilities() == before


VARIANT_BASES = ["cluedo-classic-1949", "cluedo-card-game-2018", "cluedo-the-card-game-2002"]


def valid_variant(base: str) -> dict:
    """A variant of ``base`` that builds: four players, a card dropped, one added (where the
    category has no printed features to give)."""
    data = edition_data(base)
    second = data["categories"][1]
    spec = {"base": base, "players": 4, "drop": {second["id"]: [second["cards"][0]["id"]]}}
    plain = [c for c in data["categories"]
             if not any(f["category"] == c["id"] for f in data.get("features", {}).values())]
    if plain:
        spec["add"] = {plain[0]["id"]: ["Poison Pen"]}
    return spec


def test_the_unmutated_variants_build():
    for base in VARIANT_BASES:
        assert variant_from_dict(valid_variant(base)).edition.id


@pytest.mark.parametrize("base", VARIANT_BASES)
@FUZZ
@given(data=st.data())
def test_a_mutated_variant_is_built_or_refused_by_the_kit(base, data):
    spec = valid_variant(base)
    bad = mutate(spec, data.draw)
    try:
        variant_from_dict(bad)
    except CluedoLabError:
        pass
