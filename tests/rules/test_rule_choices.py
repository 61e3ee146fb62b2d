"""Every rule the kit reads is written down (issue 31, item 9): each rule option a shipped edition
sets carries the rule book's words (a comment on its line) or an ``[[assumptions]]`` entry, and
each option the code reads is documented in ``docs/editions.md``.
"""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

import pytest

from cluedo_lab.rules.data import editions_dir
from cluedo_lab.rules.edition import AccusationRules, DealRules, QuestionRules, TurnRules

RULE_TABLES = ("players", "deal", "question", "accusation", "turns", "dice", "actions")
FILES = sorted(editions_dir().glob("*.toml"))
DOCS = Path(__file__).resolve().parents[2] / "docs" / "editions.md"


def unexplained(text: str) -> list[str]:
    """The rule keys of an edition file's text that have neither a comment (the book's words
    or a pointer to them) on their line, just above, or continued below, nor an
    ``[[assumptions]]`` entry about them (or about their table)."""
    abouts = {a["about"] for a in tomllib.loads(text).get("assumptions", [])}
    lines = text.splitlines()
    table = None
    missing = []
    for i, line in enumerate(lines):
        header = re.match(r"^\[([a-z_.]+)\]\s*$", line)
        if header or line.startswith("[["):
            table = header.group(1) if header else None
            continue
        key = re.match(r"^([a-z_]+)\s*=", line)
        if key is None or table not in RULE_TABLES:
            continue
        name = f"{table}.{key.group(1)}"
        commented = "#" in line.split("=", 1)[1] or lines[i - 1].startswith("#") or (
            i + 1 < len(lines) and lines[i + 1].startswith(" ")
            and lines[i + 1].lstrip().startswith("#"))
        if not (commented or name in abouts or table in abouts):
            missing.append(name)
    return missing


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_every_rule_an_edition_sets_quotes_its_book_or_is_an_assumption(path):
    assert unexplained(path.read_text(encoding="utf-8")) == [], path.name


def test_an_unexplained_rule_option_is_caught():
    text = '[accusation]\nlimit = 1\nwhen = "in-room"   # HOW TO WIN\n'
    assert unexplained(text) == ["accusation.limit"]
    explained = text + '\n[[assumptions]]\nabout = "accusation.limit"\nchoice = "one"\n' \
        'source = "kit"\n'
    assert unexplained(explained) == []


@pytest.mark.parametrize("rules, table", [
    (DealRules, "deal"), (QuestionRules, "question"), (AccusationRules, "accusation"),
    (TurnRules, "turns")])
def test_every_rule_option_the_code_reads_is_documented(rules, table):
    """An option added to the rule tables must be described for edition writers."""
    docs = DOCS.read_text(encoding="utf-8")
    for name in (f.name for f in dataclasses.fields(rules)):
        assert f"`{name}`" in docs, f"{table}.{name} is read in code but not in docs/editions.md"
