"""The parsed copies of the shipped edition files (``data/editions/*.json``): each made from
its TOML file as it is now, and read only while made from the very same text."""

from __future__ import annotations

import json
import shutil

import pytest

import cluedo_lab.rules.edition as edition_module
from cluedo_lab.rules.data import editions_dir
from cluedo_lab.rules.edition import write_parsed_copies
from cluedo_lab.rules.files import parse_toml

FILES = sorted(editions_dir().glob("*.toml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_shipped_copy_is_made_from_its_file_as_it_is(path):
    copy = path.with_suffix(".json")
    stale = f"{copy.name} is not made from {path.name} as it is: run `make parsed-editions`"
    assert copy.is_file(), stale
    parsed = json.loads(copy.read_text(encoding="utf-8"))
    text = path.read_text(encoding="utf-8")
    assert parsed["toml"] == text, stale
    assert parsed["data"] == parse_toml(text, path.name, ValueError), stale


def test_no_copy_without_its_edition_file():
    assert {p.stem for p in editions_dir().glob("*.json")} == {p.stem for p in FILES}


@pytest.fixture
def shipped(tmp_path, monkeypatch):
    """A folder the loader takes for the kit's own, holding the 1949 file and its copy."""
    monkeypatch.setattr(edition_module, "_shipped_folder", lambda: tmp_path.resolve())
    shutil.copy(editions_dir() / "cluedo-classic-1949.toml", tmp_path)
    (copy,) = write_parsed_copies(tmp_path)
    parsed = json.loads(copy.read_text(encoding="utf-8"))
    parsed["data"]["name"] = "Read from the copy"
    copy.write_text(json.dumps(parsed), encoding="utf-8")
    return tmp_path.resolve() / "cluedo-classic-1949.toml"


def test_a_copy_made_from_the_same_text_is_read_instead(shipped):
    assert edition_module._read_toml(shipped)["name"] == "Read from the copy"


def test_a_copy_of_another_text_is_not_read(shipped):
    shipped.write_text(shipped.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert edition_module._read_toml(shipped)["name"] == "Cluedo"


def test_a_broken_copy_is_not_read(shipped):
    for broken in ("{", "[]", '{"toml": 1}'):
        shipped.with_suffix(".json").write_text(broken, encoding="utf-8")
        assert edition_module._read_toml(shipped)["name"] == "Cluedo"


def test_a_copy_outside_the_kit_folder_is_not_read(shipped, monkeypatch):
    monkeypatch.undo()
    assert edition_module._read_toml(shipped)["name"] == "Cluedo"


def test_a_file_json_cannot_carry_gets_no_copy(tmp_path):
    text = (editions_dir() / "cluedo-classic-1949.toml").read_text(encoding="utf-8")
    (tmp_path / "dated.toml").write_text("made = 1949-01-01\n" + text, encoding="utf-8")
    with pytest.raises(Exception, match="dated.toml.*JSON cannot carry"):
        write_parsed_copies(tmp_path)
    assert not (tmp_path / "dated.json").exists()
