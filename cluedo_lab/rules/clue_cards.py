"""The Clue cards of Clue (Hasbro 2023): the kit's own documented deck, not the printed one.

A roll showing the magnifying glass draws one Clue card (2023 rule book, ON YOUR TURN). The 29
printed texts are not public, so ``data/clue-cards-2023.toml`` holds a deck designed by the kit
in the spirit of what the rule book says: cards make players show or reveal cards from their
hands ("name cards they want revealed", "if a character, weapon or room card is revealed"), or
move a piece. Each effect is an event the record format already has (``show``, ``reveal``), so
the knowledge engine reads every consequence of a Clue card without new rules.

:func:`load_clue_deck` validates the whole file before building anything: a bad file raises one
:class:`~cluedo_lab.rules.errors.EditionError` naming the file and the field.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .data import clue_deck_path
from .errors import EditionError, WrongType
from .files import parse_toml, read_text, shown

KINDS: dict[str, str] = {
    "show-me": "the drawer picks another player, who secretly shows them a card of their choice",
    "left-shows": "the player on the drawer's left secretly shows them a card of their choice",
    "reveal": "the drawer picks another player, who reveals a card of their choice to everyone",
    "all-show-left": "every player, from the drawer on, secretly shows their left neighbour a "
                     "card of their choice",
    "any-room": "the drawer may go straight into any room instead of moving by the dice",
}
"""Every kind of Clue card the board game implements, with what it does."""

TOP_FIELDS = {"name", "designed_by", "total", "cards"}
CARD_FIELDS = {"kind", "count", "title", "text"}


@dataclass(frozen=True)
class ClueCard:
    """One kind of Clue card (``count`` copies of it are in the deck)."""

    kind: str
    count: int
    title: str
    text: str

    def __str__(self) -> str:
        return f"{self.title}: {self.text}"


@dataclass(frozen=True)
class ClueDeck:
    """A validated deck. :attr:`cards` lists one entry per physical card, in file order."""

    name: str
    designed_by: str
    kinds: tuple[ClueCard, ...]
    source: str

    @property
    def cards(self) -> tuple[ClueCard, ...]:
        return tuple(card for card in self.kinds for _ in range(card.count))

    def __len__(self) -> int:
        return sum(card.count for card in self.kinds)

    def counts(self) -> dict[str, int]:
        """Copies per kind, e.g. ``{"show-me": 9, ...}``."""
        out: dict[str, int] = {}
        for card in self.kinds:
            out[card.kind] = out.get(card.kind, 0) + card.count
        return out

    def __repr__(self) -> str:
        return f"<ClueDeck {self.name}: {len(self)} cards>"


MAX_CLUE_CARDS = 500
"""The most Clue cards in a deck (the 2023 deck has 34): the game shuffles them all."""


def load_clue_deck(path: str | Path | None = None) -> ClueDeck:
    """Load and check a Clue-card deck (default: the kit's 2023 deck)."""
    if path is not None and not isinstance(path, str | Path):
        raise WrongType(f"a Clue-card deck is the path of its file, not {path!r}")
    path = Path(path) if path is not None else clue_deck_path()
    source = shown(path.name)
    def fail(problem: str) -> EditionError:
        return EditionError(source, "(file)", problem.removeprefix(f"{source}: "))
    return parse_clue_deck(parse_toml(read_text(path, fail), source, fail), source)


def parse_clue_deck(raw: dict[str, Any], source: str = "(deck)") -> ClueDeck:
    """Check a parsed deck table field by field, then build the deck."""
    def fail(field: str, problem: str) -> EditionError:
        return EditionError(source, field, problem)

    if not isinstance(raw, dict):
        raise fail("(file)", "expected a table")
    unknown = sorted(set(raw) - TOP_FIELDS)
    if unknown:
        raise fail(unknown[0], f"unknown field; expected some of {sorted(TOP_FIELDS)}")
    texts = {}
    for key in ("name", "designed_by"):
        value = raw.get(key)
        if not isinstance(value, str) or not value.strip():
            raise fail(key, "missing or empty: expected a string")
        texts[key] = value
    total = raw.get("total")
    if type(total) is not int or not 1 <= total <= MAX_CLUE_CARDS:
        raise fail("total", f"expected a whole number of cards >= 1 and <= {MAX_CLUE_CARDS}, "
                   f"got {total!r}")
    items = raw.get("cards")
    if not isinstance(items, list) or not items:
        raise fail("cards", "expected at least one [[cards]] entry")
    kinds: list[ClueCard] = []
    for index, item in enumerate(items):
        where = f"cards[{index}]"
        if not isinstance(item, dict):
            raise fail(where, "expected a table")
        stray = sorted(set(item) - CARD_FIELDS)
        if stray:
            raise fail(f"{where}.{stray[0]}", f"unknown field; expected {sorted(CARD_FIELDS)}")
        kind = item.get("kind")
        if kind not in KINDS:
            raise fail(f"{where}.kind", f"expected one of {list(KINDS)}, got {kind!r}")
        count = item.get("count")
        if type(count) is not int or not 1 <= count <= MAX_CLUE_CARDS:
            raise fail(f"{where}.count", f"expected a whole number >= 1 and <= "
                       f"{MAX_CLUE_CARDS}, got {count!r}")
        for key in ("title", "text"):
            if not isinstance(item.get(key), str) or not item[key].strip():
                raise fail(f"{where}.{key}", "missing or empty: expected a string")
            if not all(line.isprintable() for line in item[key].split("\n")):
                raise fail(f"{where}.{key}", "expected printable text, without control or "
                           "direction characters")
        if any(k.title == item["title"] for k in kinds):
            raise fail(f"{where}.title", f"{item['title']!r} is used twice")
        kinds.append(ClueCard(kind, count, item["title"], item["text"]))
    counted = sum(k.count for k in kinds)
    if counted != total:
        raise fail("total", f"the counts add up to {counted} cards, not {total}")
    return ClueDeck(texts["name"], texts["designed_by"], tuple(kinds), source)
