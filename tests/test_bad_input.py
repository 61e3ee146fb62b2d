"""Bad input ends in the kit's own error, naming what is wrong, and changes nothing (issue 17).

A regression corpus of the cases a fuzzing pass found: files in other encodings, deep nesting,
huge sizes, ill-typed fields, records no game could produce, tampered saved games and paths
that climb out of their folder. Each case asserts the error type and a few words of the
message, so a refusal that says nothing useful fails too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cluedo_lab import Knowledge, load_edition
from cluedo_lab.cli import main
from cluedo_lab.games.factory import game_from_json, new_game
from cluedo_lab.records.record import Record
from cluedo_lab.rules.edition import edition_data
from cluedo_lab.rules.errors import (
    CluedoLabError,
    EditionError,
    RecordError,
    SavedGameError,
)
from cluedo_lab.rules.files import MAX_NESTING, nesting_depth

E49 = "cluedo-classic-1949"


def classic_record(**changes) -> dict:
    data = {"edition": E49, "players": ["Ann", "Bob", "Cy"], "observer": "Ann",
            "hand": ["Miss Scarlett", "Rope", "Kitchen", "Hall", "Study", "Lounge"],
            "events": [{"suggest": ["Green", "Dagger", "Library"], "by": "Ann",
                        "passed": ["Bob"], "shown_by": "Cy", "card": "Dagger"}]}
    data.update(changes)
    return data


# -- files: encodings, sizes, nesting ------------------------------------------------------

@pytest.mark.parametrize("encoding, words", [
    ("utf-16", "UTF-16"), ("latin-1", "not UTF-8 text (byte"),
])
def test_a_record_in_another_encoding_is_refused_by_name(tmp_path, encoding, words):
    path = tmp_path / "game.json"
    text = json.dumps(classic_record(players=["Zoë", "Bob", "Cy"], observer="Zoë"),
                      ensure_ascii=False)
    path.write_bytes(text.encode(encoding))
    with pytest.raises(RecordError, match=re.escape(words)):
        Record.load(path)


def test_a_utf8_byte_order_mark_is_fine(tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(classic_record()).encode())
    assert Record.load(path).observer == "Ann"


def test_an_edition_file_in_latin_1_is_refused_naming_the_file(tmp_path):
    source = Path(__file__).parent.parent / "data" / "editions" / f"{E49}.toml"
    path = tmp_path / "mine.toml"
    path.write_bytes(source.read_text(encoding="utf-8").replace(
        "Tudor Close", "Tudor Clos\u00e9").encode("latin-1"))
    with pytest.raises(EditionError, match=r"mine\.toml.*not UTF-8"):
        load_edition(path)


@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 1000, 100_000])
def test_deep_nesting_is_refused_before_parsing(depth):
    nested = "[" * depth + "]" * depth
    with pytest.raises(RecordError, match="nest"):
        Record.from_json('{"comment": ' + nested + "}")
    text = json.dumps(classic_record(comment={"a": 1}))
    assert Record.from_json(text).observer == "Ann"      # shallow comments are fine


def test_deep_toml_arrays_are_refused(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(EditionError, match="nest"):
        load_edition(path)


def test_nesting_ignores_brackets_in_strings_and_comments():
    assert nesting_depth('{"a": "[[[[[[", "b": [1]}') == 2
    assert nesting_depth("# [[[[[[[[ don't\nx = [1]\n", comments=True) == 1


def test_a_huge_file_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:
        handle.truncate(50_000_000)                   # sparse: no time or disk spent
    with pytest.raises(RecordError, match="bytes is more than"):
        Record.load(path)


def test_an_overlong_edition_id_is_refused_without_touching_the_disk():
    with pytest.raises(EditionError, match="not an edition id"):
        load_edition("x" * 300)
    with pytest.raises(RecordError, match="edition"):
        Record.from_dict(classic_record(edition="y" * 300))


# -- records no game could produce --------------------------------------------------------

def refused(data: dict, *words: str) -> RecordError:
    with pytest.raises(RecordError) as error:
        Record.from_dict(data)
    for word in words:
        assert word in str(error.value), (word, str(error.value))
    return error.value


def test_an_event_the_edition_does_not_have():
    refused(classic_record(events=[{"snoop": "Bob", "by": "Ann"}]), "event 1",
            "no snoop action card")
    refused(classic_record(events=[{"room_card": "study-pile", "by": "Ann"}]), "event 1",
            "face down")


def test_a_wrong_accuser_takes_no_more_turns_and_accuses_once():
    wrong = {"accuse": ["Green", "Dagger", "Library"], "by": "Bob", "correct": False}
    ask = {"suggest": ["Green", "Rope", "Library"], "by": "Bob", "passed": ["Cy"],
           "shown_by": "Ann", "card": "Rope"}
    refused(classic_record(events=[wrong, ask]), "event 2", "Bob accused wrongly at event 1",
            "takes no more turns")
    refused(classic_record(events=[wrong, dict(wrong, accuse=["Plum", "Rope", "Hall"])]),
            "event 2", "one accusation per player")
    # Answering is not a turn: a wrong accuser still shows cards.
    answer = {"suggest": ["Green", "Rope", "Library"], "by": "Ann", "passed": [],
              "shown_by": "Bob", "card": None}
    assert len(Record.from_dict(classic_record(events=[wrong, answer])).events) == 2


def test_nothing_happens_after_a_correct_accusation():
    right = {"accuse": ["Green", "Dagger", "Library"], "by": "Bob", "correct": True}
    ask = {"suggest": ["Green", "Rope", "Library"], "by": "Cy", "passed": ["Ann", "Bob"]}
    refused(classic_record(events=[right, ask]), "event 2", "game ended")


@pytest.mark.parametrize("name, words", [
    ("", "empty"), ("  ", "empty"), ("Envelope", "are places"), ("face up", "are places"),
    ("Ann\nevent 9", "one line"), ("Ann\tBob", "one line")])
def test_a_player_name_that_is_a_place_or_not_a_line(name, words):
    refused(classic_record(players=[name, "Bob", "Cy"], observer=None, hand=[]), "players",
            words)


@pytest.mark.parametrize("players", [7, 100])
def test_player_counts_and_hand_sizes_outside_the_edition(players):
    names = [{"name": f"P{i}", "hand_size": 1} for i in range(players)]
    refused({"edition": E49, "players": names}, "players", "2-6 players")
    sizes = [{"name": n, "hand_size": s} for n, s in zip("ABC", (5, 6, 7), strict=True)]
    refused({"edition": E49, "players": sizes}, "players", "hands of 6, 6, 6")


def test_a_record_may_not_climb_out_of_its_folder_for_its_edition(tmp_path):
    secret = tmp_path / "secret.toml"
    secret.write_text('password = "hunter2"\n', encoding="utf-8")
    error = refused(classic_record(edition=f"../{secret.name}"), "edition", "'..'")
    assert "hunter2" not in str(error)
    error = refused(classic_record(edition=str(secret)), "edition")
    assert "hunter2" not in str(error) and "password" in str(error)  # the field, not the value


@pytest.mark.parametrize("change, words", [
    ({"players": "Ann"}, "players"),
    ({"events": [{"suggest": ["Green", "Dagger", "Library"], "by": "Ann",
                  "passed": ["Bob"], "shown_by": "Cy", "card": ["colour"]}]}, "card"),
    ({"hand": [5, "Rope"]}, "hand"),
])
def test_ill_typed_fields_name_the_field(change, words):
    refused(classic_record(**change), words)


# -- saved games --------------------------------------------------------------------------

def saved(**changes) -> str:
    game = new_game(E49, 3, 7)
    game.play_until = None
    data = json.loads(game.to_json())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize("changes, words", [
    ({"edition": None}, "'edition'"),
    ({"players": [1, 2, 3]}, "'players'"),
    ({"players": 10 ** 8}, "'players'"),
    ({"players": [f"P{i}" for i in range(100)]}, "2-6 players"),
    ({"seed": "seven"}, "'seed'"),
    ({"seed": 8}, "no longer deal the cards"),
    ({"actions": {"kind": "roll"}}, "'actions'"),
    ({"options": ["dice"]}, "'options'"),
    ({"edition": "no-such-edition"}, "no such edition"),
    ({"game": "card"}, "'game'"),
    ({"extra": 1}, "unknown"),
])
def test_a_tampered_saved_game_names_the_field(changes, words):
    with pytest.raises(SavedGameError, match=re.escape(words)):
        game_from_json(saved(**changes))


def test_a_saved_game_without_a_fingerprint_still_loads():
    data = json.loads(saved())
    del data["deal"]
    assert game_from_json(json.dumps(data)).names == ("P1", "P2", "P3")


def test_a_saved_game_of_one_edition_checks_its_actions_by_position():
    game = new_game(E49, 3, 7)
    data = json.loads(game.to_json())
    data["actions"] = [{"kind": "dance", "seat": 0}]
    with pytest.raises(CluedoLabError, match="saved action 1"):
        game_from_json(json.dumps(data))


# -- the command line: a one-line message and a non-zero exit -----------------------------

@pytest.mark.parametrize("content, words", [
    (b"\xff\xfe{\x00}\x00", "UTF-16"),
    (b"{" * 5000, "nest"),
    (b'{"edition": "cluedo-classic-1949", "players": ["A", "B", "C"], "events": [1]}',
     "event 1"),
])
def test_the_cli_says_what_is_wrong_in_one_line(tmp_path, capsys, content, words):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert main(["solve", str(path)]) != 0
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err and err.count("\n") == 1


def test_a_refused_record_leaves_knowledge_unchanged():
    knowledge = Knowledge(Record.from_dict(classic_record()))
    before = knowledge.probabilities()
    with pytest.raises(CluedoLabError):
        knowledge.add({"snoop": "Bob", "by": "Ann"})
    assert knowledge.probabilities() == before


def test_edition_data_round_trip_is_untouched_by_a_failed_load(tmp_path):
    data = edition_data(E49)
    path = tmp_path / "bad.toml"
    path.write_text('schema = "one"\n', encoding="utf-8")
    with pytest.raises(EditionError):
        load_edition(path)
    assert edition_data(E49) == data


@pytest.mark.parametrize("spec, words", [
    ({"drop": {"weapon": [5]}}, "no card 5"),
    ({"add": {"weapon": [{"name": "Poison", "id": 5}]}}, "an id is a text"),
])
def test_ill_typed_variant_cards_are_refused(spec, words):
    from cluedo_lab.rules.variant import VariantError, variant_from_dict
    with pytest.raises(VariantError, match=words):
        variant_from_dict({"base": E49, **spec})


# -- the command line and the views: the rest of the fuzzing pass's findings --------------

def test_a_billion_players_are_refused_before_any_name_is_made(capsys):
    assert main(["play", "--edition", E49, "--players", "1000000000"]) == 2
    err = capsys.readouterr().err
    assert "2-6 players" in err and err.count("\n") == 1


def test_an_edition_naming_an_unknown_board_fails_on_loading(tmp_path):
    data = edition_data(E49)
    data["board"] = "../../etc/passwd"
    from cluedo_lab.rules.edition import edition_from_dict
    with pytest.raises(EditionError, match="board.*no board"):
        edition_from_dict(data, "mine.toml")


def test_names_in_the_notepad_html_are_escaped():
    from cluedo_lab.views.display import to_html
    record = classic_record(players=["<img src=x onerror=alert(1)>", "Bob", "Cy"],
                            observer="Bob", events=[])
    html = to_html(Knowledge(Record.from_dict(record)))
    assert "<img src=x" not in html and "&lt;img src=x" in html


def test_solve_into_a_closed_pipe_ends_quietly(tmp_path):
    import subprocess
    import sys
    path = tmp_path / "r.json"
    path.write_text(json.dumps(classic_record()), encoding="utf-8")
    # A reader that stops at once: the solver's output meets a closed pipe.
    solver = subprocess.Popen([sys.executable, "-m", "cluedo_lab.cli", "solve", str(path)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    solver.stdout.close()
    _, err = solver.communicate(timeout=120)
    assert solver.returncode == 0 and b"Traceback" not in err


def test_more_workers_than_cores_are_capped(monkeypatch, capsys):
    import os
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert main(["simulate", "--edition", "cluedo-card-game-2018", "--bots", "random,random",
                 "--games", "2", "--workers", "16"]) == 0
    assert "using 2" in capsys.readouterr().err
