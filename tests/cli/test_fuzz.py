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


# == round two (issue 32): families of input that must never be taken ==========================

def dict_paths(value: Any, prefix: tuple = (), skip: tuple = ("comment",)) -> list[tuple]:
    """Every place in a JSON value that holds a table, outside free-form ``skip`` keys."""
    out = [prefix] if isinstance(value, dict) else []
    if isinstance(value, dict):
        for key, item in value.items():
            if key not in skip:
                out += dict_paths(item, (*prefix, key), skip)
    elif isinstance(value, list):
        for index, item in enumerate(value[:12]):
            out += dict_paths(item, (*prefix, index), skip)
    return out


def at(data: Any, where: tuple) -> Any:
    for step in where:
        data = data[step]
    return data


STRAY = st.sampled_from(["zz_stray", "Fugitive ", "__proto__", "schema2", "id "])


@pytest.mark.parametrize("edition_id", EDITIONS)
@FUZZ
@given(data=st.data())
def test_a_key_that_should_not_be_there_is_refused(edition_id, data):
    """A key added to any table of a record or an edition file is refused, never ignored
    (free-form comments aside)."""
    record = finished_game(edition_id).record_for(data.draw(st.sampled_from([None, 0])))
    record["events"] = record["events"][:6]
    where = data.draw(st.sampled_from(dict_paths(record)))
    at(record, where)[data.draw(STRAY)] = data.draw(ODD_VALUES)
    with pytest.raises(CluedoLabError):
        Record.from_dict(record)
    edition = edition_data(edition_id)
    where = data.draw(st.sampled_from(dict_paths(edition)))
    at(edition, where)[data.draw(STRAY)] = data.draw(ODD_VALUES)
    with pytest.raises(CluedoLabError):
        edition_from_dict(edition, "stray.toml")


@pytest.mark.parametrize("edition_id", EDITIONS)
@FUZZ
@given(data=st.data())
def test_a_key_that_should_not_be_there_in_a_saved_game_is_refused(edition_id, data):
    """A key added to a saved game, at its top, in its options or inside any action, is
    refused: a game that loaded while ignoring it would replay something other than what was
    written."""
    saved = json.loads(finished_game(edition_id).to_json())
    saved["actions"] = saved["actions"][:12]
    where = data.draw(st.sampled_from(dict_paths(saved)))
    at(saved, where)[data.draw(STRAY)] = data.draw(ODD_VALUES)
    with pytest.raises(CluedoLabError):
        game_from_json(json.dumps(saved))


@FUZZ
@given(data=st.data())
def test_an_id_shared_with_a_shipped_edition_replaces_nothing(data):
    from cluedo_lab.rules.edition import load_edition, register_edition
    from cluedo_lab.rules.variant import spec_of, variant
    source, taken = data.draw(st.sampled_from(EDITIONS)), data.draw(st.sampled_from(EDITIONS))
    shipped = load_edition(taken)
    cards = [c.name for c in shipped.cards]
    shipped_variant = variant(VARIANT_BASES[0], players=4)
    raw = edition_data(source)
    raw["id"] = data.draw(st.sampled_from([taken, shipped_variant.id]))
    raw.pop("extends", None)
    try:
        impostor = edition_from_dict(raw, "impostor.toml")
    except CluedoLabError:
        impostor = None
    if impostor is not None:
        with pytest.raises(CluedoLabError):
            if impostor.id == taken:
                register_edition(impostor)
            else:
                variant(impostor, players=4)        # not shipped: its file must be named
    assert load_edition(taken) is shipped and [c.name for c in shipped.cards] == cards
    assert load_edition(shipped_variant.id) is shipped_variant.edition
    assert spec_of(shipped_variant.edition) == {"base": VARIANT_BASES[0], "players": 4}


CONTROL = st.sampled_from(["\x1b[2J", "\x1b]0;x\x07", "\n", "\r", "\u202e", "\u2066", "\x00",
                           "\x7f", "\u200f", "\x08"])


@pytest.mark.parametrize("edition_id", EDITIONS)
@FUZZ
@given(data=st.data())
def test_a_name_with_a_control_character_is_refused(edition_id, data):
    def spoil(text: str) -> str:
        cut = data.draw(st.integers(0, len(text)))
        return text[:cut] + data.draw(CONTROL) + text[cut:]

    edition = edition_data(edition_id)
    category = data.draw(st.sampled_from(edition["categories"]))
    card = data.draw(st.sampled_from(category["cards"]))
    which = data.draw(st.sampled_from(["edition", "category", "card", "alias"]))
    if which == "edition":
        edition["name"] = spoil(edition["name"])
    elif which == "category":
        category["name"] = spoil(category["name"])
    elif which == "card":
        card["name"] = spoil(card["name"])
    else:
        card["aliases"] = [*card.get("aliases", []), spoil(card["name"] + " alias")]
    with pytest.raises(CluedoLabError):
        edition_from_dict(edition, "names.toml")
    record = finished_game(edition_id).record_for(None)
    seat = data.draw(st.integers(0, len(record["players"]) - 1))
    players = [p if isinstance(p, str) else p["name"] for p in record["players"]]
    players[seat] = spoil(players[seat])
    with pytest.raises(CluedoLabError):
        Record.from_dict({**record, "players": players, "events": []})
    from cluedo_lab.games.factory import new_game as make
    with pytest.raises(CluedoLabError):
        make(edition_id, players)


HUGE = st.sampled_from([10 ** 30, 10 ** 31, -(10 ** 31), 10 ** 4_301, 2 ** 63, 2 ** 62, 10 ** 9,
                        3 * 10 ** 8])


def number_paths(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON value that holds an integer (not a boolean)."""
    if type(value) is int:
        return [prefix]
    out: list[tuple] = []
    if isinstance(value, dict):
        for key, item in value.items():
            out += number_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value[:12]):
            out += number_paths(item, (*prefix, index))
    return out


def with_number(data: Any, where: tuple, number: int) -> str:
    """``data`` as JSON text with ``number`` at ``where`` (written as digits, however long)."""
    data = copy.deepcopy(data)
    at(data, where[:-1])[where[-1]] = "@@NUMBER@@"
    return json.dumps(data).replace('"@@NUMBER@@"', digits(number))


def digits(number: int) -> str:
    """``number`` in decimal; one past Python's 4,300-digit limit is written out by hand."""
    return str(number) if abs(number) < 10 ** 4000 else "1" + "0" * 4_301


def toml_text(data: Any) -> str:
    """A JSON-shaped value as TOML (inline tables under one top-level table per key)."""
    lines = []
    for key, value in data.items():
        lines.append(f"{key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(value) if not isinstance(value, int) else digits(value)


@pytest.mark.parametrize("edition_id", EDITIONS)
@FUZZ
@given(data=st.data())
def test_a_huge_number_in_any_numeric_field_is_refused_or_harmless(edition_id, data,
                                                                  tmp_path_factory):
    from cluedo_lab.rules.clue_cards import load_clue_deck
    from cluedo_lab.rules.data import clue_deck_path
    from cluedo_lab.rules.edition import load_edition
    from cluedo_lab.rules.files import parse_toml
    number = data.draw(HUGE)
    tmp_path = tmp_path_factory.mktemp("huge")
    game = finished_game(edition_id)
    record = game.record_for(0)
    record["events"] = record["events"][:8]
    for kind, value in (("record", record), ("saved", json.loads(game.to_json()))):
        if kind == "saved":
            value["actions"] = value["actions"][:8]
        where = data.draw(st.sampled_from(number_paths(value) or [("players",)]))
        text = with_number(value, where, number)
        try:
            if kind == "record":
                Record.from_json(text)
            else:
                game_from_json(text)
        except CluedoLabError:
            pass
    edition = edition_data(edition_id)
    where = data.draw(st.sampled_from(number_paths(edition)))
    path = tmp_path / f"{edition_id}-huge.toml"
    edition["id"] = f"{edition_id}-huge"
    edition.pop("extends", None)
    at(edition, where[:-1])[where[-1]] = number
    path.write_text(toml_text(edition), encoding="utf-8")
    try:
        loaded = load_edition(path)
    except CluedoLabError:
        loaded = None
    if loaded is not None:            # harmless: within every limit the games enumerate
        new_game(loaded, loaded.min_players)
    deck = parse_toml(clue_deck_path().read_text(encoding="utf-8"), "deck", ValueError)
    where = data.draw(st.sampled_from(number_paths(deck)))
    at(deck, where[:-1])[where[-1]] = number
    deck_path = tmp_path / "deck.toml"
    deck_path.write_text(toml_text(deck), encoding="utf-8")
    try:
        load_clue_deck(deck_path)
    except CluedoLabError:
        pass


LESSON_SLOTS = ["00_start_here.ipynb", "app", "app/classroom.ipynb", "app/share"]


@settings(max_examples=8, derandomize=True, deadline=None, database=None)
@given(data=st.data())
def test_a_symbolic_link_in_the_lessons_folder_is_never_written_through(data):
    import tempfile
    from pathlib import Path

    from cluedo_lab.lab.lessons import write_lessons
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        outside = root / "outside"
        outside.mkdir()
        (outside / "kept.txt").write_text("mine", encoding="utf-8")
        target = root / "lessons"
        (target / "app").mkdir(parents=True)
        slot = data.draw(st.sampled_from(LESSON_SLOTS))
        if slot == "app":
            (target / "app").rmdir()
        pointee = data.draw(st.sampled_from([outside / "kept.txt", outside / "new",
                                             outside]))
        (target / slot).symlink_to(pointee)
        force = data.draw(st.booleans())
        keep = not force and data.draw(st.booleans())
        try:
            write_lessons(target, force=force, keep=keep)
        except CluedoLabError:
            pass
        assert sorted(p.name for p in outside.iterdir()) == ["kept.txt"]
        assert (outside / "kept.txt").read_text(encoding="utf-8") == "mine"
