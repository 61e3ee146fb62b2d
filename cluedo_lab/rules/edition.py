"""Editions as data: decks, features and rule options read from ``data/editions/*.toml``.

An edition file is the single source of what differs between games; the engine reads it and
never hard-codes a deck. Loading validates everything first and builds the edition last, so a
bad file raises one :class:`~cluedo_lab.rules.errors.EditionError` naming the file and the field,
and nothing is half-loaded. ``docs/editions.md`` describes the format field by field.
"""

from __future__ import annotations

import copy
import json
import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path
from typing import Any, NamedTuple

from .data import board_ids, editions_dir
from .dice import Dice
from .errors import EditionError, InvalidArgument, UnknownName, WrongType
from .files import parse_toml, read_text, shown
from .limits import MAX_EXTENDS, MAX_PLAYERS, check_sizes

SCHEMA_VERSION = 1


def normalize(name: str) -> str:
    """Key for matching card names typed by people: case, spaces, dots and hyphens don't count."""
    return re.sub(r"[^a-z0-9]", "", name.lower())


@dataclass(frozen=True, repr=False)
class Card:
    """One card of the deck. ``features`` maps a feature id (e.g. ``gender``) to its value."""

    id: str
    name: str
    category: str
    features: Mapping[str, str] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()

    def __hash__(self) -> int:
        return hash((self.category, self.id))

    def __repr__(self) -> str:
        """Evaluable: the fields, leaving out features and aliases when there are none."""
        extra = "".join(f", {name}={value!r}" for name, value in
                        (("features", dict(self.features)), ("aliases", self.aliases)) if value)
        return f"Card({self.id!r}, {self.name!r}, {self.category!r}{extra})"

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True, repr=False)
class Category:
    """One kind of card (suspects, weapons, rooms...): its cards in the file's order."""

    id: str
    name: str
    cards: tuple[Card, ...]

    def __repr__(self) -> str:
        return f"<Category {self.id}: {len(self.cards)} cards>"


@dataclass(frozen=True)
class Feature:
    """A printed marking that some actions ask about (2002: "a blue vehicle")."""

    id: str
    category: str
    values: tuple[str, ...]
    description: str = ""


@dataclass(frozen=True)
class DealRules:
    """How cards leave the deck: the envelope, face-down piles, then hands and spares.

    ``spares`` is ``"uneven"`` (all dealt, some hands one larger: the first seats after the
    dealer get the extra cards) or ``"face-up"`` (equal hands, the rest face up for all).
    ``face_down`` cards are set aside unseen before the deal (2023 two-player: one in each of
    four rooms) and named ``face_down_places``. ``hands`` fixes the hand sizes in deal order
    (a variant for one player count); empty, they follow from ``spares``. ``dealer``: the
    seat that deals, ``"last-seat"`` (the cards go round from seat 0, which gets the first
    extra card) or ``"first-seat"`` (seat 0 deals, so the cards go round from seat 1).
    """

    envelope: Mapping[str, int]
    spares: str
    face_down: int = 0
    face_down_places: tuple[str, ...] = ()
    hands: tuple[int, ...] = ()
    dealer: str = "last-seat"


@dataclass(frozen=True)
class QuestionRules:
    """What a question names and who answers it.

    ``form``: ``"one-per-category"`` (classic suggestion) or ``"any"`` (2018: any two items).
    ``place``: where the room/destination comes from: ``"current-room"``, ``"marker"`` or
    ``"free"``. ``answer``: ``"first-who-can"`` (every edition here) or ``"every-who-can"``.
    """

    items: int
    form: str
    place: str
    answer: str = "first-who-can"
    reenter_to_repeat: bool = False
    name_yourself: bool = True
    """Board games: may a suggestion call the suggester's own piece (2014 "yourself", 2023
    "any character")? 1949 calls "any other Person"."""


@dataclass(frozen=True)
class AccusationRules:
    """How accusations go: how many a player may make, when, who sees the cards of a wrong
    one, and what becomes of a wrong accuser (each option is described where it is set)."""

    limit: int = 1
    wrong: str = "stays-to-refute"
    anywhere: bool = False
    simultaneous: bool = False
    two_player_both_accuse: bool = False
    reveal: str = "everyone"
    """Who learns the cards of a wrong lone accusation: ``everyone`` (said aloud) or only the
    ``accuser`` (laid or written face down). The accuser always sees the solution."""
    when: str = "in-room"
    """Board games: when a player may accuse on their turn: ``after-suggestion`` (in the same
    turn, after their own suggestion), ``after-unanswered-suggestion`` (the same, and only
    when nobody showed a card: a shown card ends the turn), ``in-room`` (whenever their piece
    is in a room) or ``anywhere``. Card games accuse on their turn (``anywhere``). With
    ``turns.roll = "first"`` nothing, an accusation included, comes before the roll.
    ``wrong``: a wrong accuser ``stays-to-refute`` (no more turns, still answers),
    ``keeps-moving`` (board games: still takes turns to move and answers, but makes no
    suggestion or accusation) or ``leaves`` the game."""


@dataclass(frozen=True)
class TurnRules:
    """How a board turn begins: ``roll = "or-passage"`` (a secret passage, or staying in the
    room, replaces the roll) or ``"first"`` (everybody rolls; staying or a passage come after);
    ``must_move``: after rolling, a piece with somewhere to go must move. ``spare_pieces``:
    where the suspects nobody plays begin, on their ``start`` squares or in ``rooms``.
    ``movement``: a move that ends in a corridor uses the whole roll (``"exact"``, 1949 and
    2014: "that number of squares") or any part of it (``"up-to"``, 2023); a room may be
    entered with fewer either way."""

    roll: str = "or-passage"
    must_move: bool = True
    spare_pieces: str = "start"
    movement: str = "exact"


@dataclass(frozen=True)
class ActionCardKind:
    """One line of an action deck (2002): ``count`` copies of one kind of card."""

    kind: str
    count: int
    direction: str | None = None
    feature: str | None = None
    value: str | None = None
    category: str | None = None
    all: bool = False

    def label(self) -> str:
        if self.kind == "all-snoop":
            return f"All Snoop ({self.direction})"
        if self.kind == "super-sleuth":
            return f"Super Sleuth: one {self.value} {self.category}"
        if self.kind == "private-tip":
            if self.all:
                return f"Private Tip: all {self.category} cards"
            return f"Private Tip: one {self.value} {self.category}"
        return {
            "suggest-any": "Suggestion from any destination",
            "suggest-current": "Suggestion from present destination (or move)",
            "snoop": "Snoop",
        }[self.kind]


@dataclass(frozen=True)
class Assumption:
    """A fact the rule books do not give, chosen by the kit: what, the choice, why, and source."""

    about: str
    choice: str
    source: str
    why: str = ""


@dataclass(frozen=True, eq=False, repr=False)
class Edition:
    """One edition of the game as its file describes it: the deck, the deal, the rules of
    questions, accusations and turns, the dice and board. Build one with
    :func:`load_edition`; two loads of an unchanged file give the same object."""

    id: str
    name: str
    publisher: str
    year: int
    family: str
    rule_book: str
    categories: tuple[Category, ...]
    features: Mapping[str, Feature]
    min_players: int
    max_players: int
    deal: DealRules
    question: QuestionRules
    accusation: AccusationRules
    first_player: str
    dice: Dice | None
    board: str | None
    actions: tuple[ActionCardKind, ...]
    action_hand: int
    mode: str
    assumptions: tuple[Assumption, ...]
    extends: str | None
    source: str
    description: str = ""
    turns: TurnRules = TurnRules()

    # -- the deck ---------------------------------------------------------------------------
    @cached_property
    def cards(self) -> tuple[Card, ...]:
        return tuple(card for category in self.categories for card in category.cards)

    @cached_property
    def category_of(self) -> Mapping[str, str]:
        """Each card id's category (read, never changed: every count shares it)."""
        return {card.id: card.category for card in self.cards}

    def category(self, category_id: str) -> Category:
        for category in self.categories:
            if category.id == category_id:
                return category
        raise UnknownName(f"{self.id} has no category {category_id!r}")

    def card(self, name: str | Card) -> Card:
        """The card a person means by ``name``: its id, its name or an alias, any case."""
        if isinstance(name, Card):
            return name
        if not isinstance(name, str):
            raise UnknownName(f"{self.id} has no card {name!r}: a card is named by text")
        found = self._ids.get(name) or self._lookup.get(normalize(name))
        if found is None:
            raise UnknownName(f"{self.id} has no card {shown(repr(name))}")
        return found

    @cached_property
    def _ids(self) -> dict[str, Card]:
        """Exact ids, looked up first: games and records written by the kit use them."""
        return {card.id: card for card in self.cards}

    @cached_property
    def _lookup(self) -> dict[str, Card]:
        lookup: dict[str, Card] = {}
        for card in self.cards:
            for key in (card.id, card.name, *card.aliases):
                lookup[normalize(key)] = card
        return lookup

    def cards_with(self, feature: str, value: str) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.features.get(feature) == value)

    # -- dealing arithmetic -----------------------------------------------------------------
    @property
    def envelope_size(self) -> int:
        return sum(self.deal.envelope.values())

    @property
    def dealt_count(self) -> int:
        """Cards left for hands and face-up spares once the envelope and face-down piles are out."""
        return len(self.cards) - self.envelope_size - self.deal.face_down

    def dealer_seat(self, players: int) -> int:
        """The seat that deals (``deal.dealer``); the cards go round from the seat on its
        left, the next seat, so the seats nearest that left get any extra cards."""
        self.check_players(players)
        return 0 if self.deal.dealer == "first-seat" else players - 1

    def hand_sizes(self, players: int) -> tuple[int, ...]:
        """Hand sizes by seat: dealt one at a time from the dealer's left (``deal.hands``,
        if given, lists them in that order)."""
        first = (self.dealer_seat(players) + 1) % players
        in_order = self.deal.hands or _hand_sizes(self.dealt_count, players, self.deal.spares)
        return tuple(in_order[(seat - first) % players] for seat in range(players))

    def face_up_count(self, players: int) -> int:
        return self.dealt_count - sum(self.hand_sizes(players))

    def check_players(self, players: int) -> None:
        if type(players) is not int:
            raise WrongType(f"a number of players is a whole number, not {players!r}")
        if not self.min_players <= players <= self.max_players:
            raise InvalidArgument(
                f"{self.name} is for {self.min_players}-{self.max_players} players, not {players}"
            )

    def __repr__(self) -> str:
        return f"<Edition {self.id}>"

    # -- display ----------------------------------------------------------------------------
    def deck_table(self) -> TextTable:
        """The deck by category; each card shows its printed features, which some actions use."""
        rows = []
        for category in self.categories:
            names = []
            for card in category.cards:
                marks = ", ".join(card.features[f] for f in self.features if f in card.features)
                names.append(f"{card.name} ({marks})" if marks else card.name)
            rows.append((f"{category.name} ({len(category.cards)})", ", ".join(names)))
        return TextTable(("Category", "Cards"), tuple(rows),
                     title=f"The cards of {self.name} ({self.publisher} {self.year})")

    def assumptions_table(self) -> TextTable:
        """The facts this file chose because its rule book does not give them, with sources."""
        rows = tuple((a.about, a.choice, a.source) for a in self.assumptions)
        return TextTable(("about", "choice", "source"), rows, title=f"Assumptions of {self.id}")


def check_playable(edition: Edition, players: int) -> None:
    """Refuse a game of ``players`` that the edition's own pieces cannot seat, before it is
    dealt: with an action deck (2002), each detective holds a marker, one of the place cards."""
    if edition.family != "card" or not edition.actions:
        return
    places = edition.categories[-1]
    detectives = players - (edition.mode == "one-against-all")
    if detectives > len(places.cards):
        raise InvalidArgument(f"players: in {edition.name} each detective holds a marker, one "
                              f"of its {len(places.cards)} {places.name} cards, so at most "
                              f"{len(places.cards) + (edition.mode == 'one-against-all')} "
                              f"play, not {players}")


@dataclass(frozen=True, repr=False)
class TextTable:
    """A small table for notebooks: HTML in Jupyter and aligned text as its repr, so that a
    notebook's stored text output stays readable and stable under nbval."""

    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    title: str = ""

    def __repr__(self) -> str:
        lines = (self.header, *self.rows)
        widths = [max(len(row[i]) for row in lines) for i in range(len(self.header))]

        def fmt(row: tuple[str, ...]) -> str:
            return "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()

        out = [self.title] if self.title else []
        out += [fmt(self.header), fmt(tuple("-" * w for w in widths))]
        out += [fmt(row) for row in self.rows]
        return "\n".join(out)


def overview(editions: Iterable[Edition] | None = None) -> TextTable:
    """One row per edition: the deck's shape and the hands of every legal player count."""
    rows = []
    for edition in all_editions() if editions is None else editions:
        shape = "/".join(str(len(c.cards)) for c in edition.categories)
        deals = []
        for players in range(edition.min_players, edition.max_players + 1):
            text = f"{players}: " + "-".join(str(n) for n in edition.hand_sizes(players))
            if edition.face_up_count(players):
                text += f" +{edition.face_up_count(players)} up"
            if edition.deal.face_down:
                text += f" +{edition.deal.face_down} down"
            deals.append(text)
        rows.append((edition.id, str(edition.year), edition.family,
                     f"{edition.min_players}-{edition.max_players}", shape, "; ".join(deals)))
    return TextTable(("edition", "year", "family", "players", "deck", "hands by player count"),
                 tuple(rows))


def _hand_sizes(dealt: int, players: int, spares: str) -> tuple[int, ...]:
    """``dealt`` cards over ``players`` seats: extra cards to the first seats, or left face up."""
    base, extra = divmod(dealt, players)
    if spares == "uneven":
        return tuple(base + (1 if seat < extra else 0) for seat in range(players))
    return (base,) * players


# ---------------------------------------------------------------------------------------------
# Loading and validation
# ---------------------------------------------------------------------------------------------

FAMILIES = ("board", "card")
SPARES = ("uneven", "face-up")
DEALERS = ("last-seat", "first-seat")
FORMS = ("one-per-category", "any")
PLACES = ("current-room", "marker", "free")
ANSWERS = ("first-who-can", "every-who-can")
WRONG = ("stays-to-refute", "keeps-moving", "leaves")
REVEAL = ("everyone", "accuser")
ACCUSE_WHEN = ("after-suggestion", "after-unanswered-suggestion", "in-room", "anywhere")
ROLL = ("or-passage", "first")
MOVEMENTS = ("exact", "up-to")
"""How far a move that ends in a corridor goes: the whole roll, or any number up to it."""
SPARE_PIECES = ("start", "rooms")
FIRST = ("scarlett", "highest-roll", "dealer", "most-suspicious", "first-seat")
MODES = ("standard", "one-against-all")
ACTION_KINDS = ("suggest-any", "suggest-current", "snoop", "all-snoop", "super-sleuth",
                "private-tip")
ID_PATTERN = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
# Features become fields of each card, so they are named like the other fields (snake_case).
FEATURE_PATTERN = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")
CARD_FIELDS = frozenset({"id", "name", "aliases"})
BOARD_TURN_FIELDS = frozenset({"roll", "must_move", "spare_pieces", "movement"})

TOP_LEVEL = {"schema", "id", "name", "publisher", "year", "family", "rule_book", "extends",
             "description", "categories", "features", "players", "deal", "question",
             "accusation", "turns", "dice", "board", "actions", "assumptions", "mode"}


class _Reader:
    """Typed access to one parsed TOML table, raising EditionError with the dotted field path."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, path: str, problem: str) -> EditionError:
        return EditionError(self.source, path, problem)

    def table(self, data: Any, path: str, allowed: Iterable[str]) -> dict[str, Any]:
        if not isinstance(data, dict):
            raise self.fail(path, f"expected a table, got {_kind(data)}")
        unknown = sorted(set(data) - set(allowed))
        if unknown:
            raise self.fail(f"{path}.{unknown[0]}" if path else unknown[0],
                            f"unknown field; expected one of {sorted(allowed)}")
        return data

    def get(self, data: dict[str, Any], key: str, path: str, kind: type | tuple[type, ...], *,
            required: bool = True, default: Any = None) -> Any:
        where = f"{path}.{key}" if path else key
        if key not in data:
            if required:
                raise self.fail(where, f"missing; expected {_expected(kind)}")
            return default
        value = data[key]
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            raise self.fail(where, f"expected {_expected(kind)}, got {_kind(value)} {value!r}")
        if isinstance(value, str):
            self.text(value, where, one_line=False)
        return value

    def text(self, value: str, where: str, one_line: bool = True) -> str:
        """``value`` if it is printable text (on one line if ``one_line``): names reach the
        terminal and the notepad, where a control or bidi character would forge output."""
        lines = [value] if one_line else value.split("\n")
        if not all(line.isprintable() for line in lines):
            raise self.fail(where, f"{value!r}: expected printable text"
                            + (" on one line" if one_line else "")
                            + ", without control or direction characters")
        return value

    def line(self, data: dict[str, Any], key: str, path: str) -> str:
        """A required name: printable text on one line."""
        value: str = self.get(data, key, path, str)
        return self.text(value, f"{path}.{key}" if path else key)

    def choice(self, data: dict[str, Any], key: str, path: str, options: Iterable[str], *,
               required: bool = True, default: str | None = None) -> str:
        value: str = self.get(data, key, path, str, required=required, default=default)
        options = tuple(options)
        if value not in options:
            where = f"{path}.{key}" if path else key
            raise self.fail(where, f"expected one of {list(options)}, got {value!r}")
        return value

    def positive(self, data: dict[str, Any], key: str, path: str, *, minimum: int = 1,
                 required: bool = True, default: int | None = None) -> int:
        value: int = self.get(data, key, path, int, required=required, default=default)
        if value < minimum:
            raise self.fail(f"{path}.{key}" if path else key,
                            f"expected an integer >= {minimum}, got {value}")
        return value

    def ident(self, data: dict[str, Any], key: str, path: str) -> str:
        value: str = self.get(data, key, path, str)
        if not ID_PATTERN.match(value):
            raise self.fail(f"{path}.{key}" if path else key,
                            f"expected a lower-case id like 'lead-piping', got {value!r}")
        return value


def _kind(value: Any) -> str:
    return {dict: "a table", list: "an array", str: "a string", bool: "a boolean",
            int: "an integer", float: "a float"}.get(type(value), type(value).__name__)


def _expected(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(_kind(k()) if k is not bool else "a boolean" for k in kinds)


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    """Variant files override their base table by table; arrays and values are replaced."""
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict) and key != "categories":
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _read_toml(path: Path) -> dict[str, Any]:
    name = shown(path.name)
    fail = _failing(name)
    text = read_text(path, fail)
    return _parsed_copy(path, text) or parse_toml(text, name, fail)


def _failing(name: str) -> Callable[[str], EditionError]:
    """How a problem with the whole file ``name`` is raised."""
    def fail(problem: str) -> EditionError:
        return EditionError(name, "(file)", problem.removeprefix(f"{name}: "))
    return fail


def _parsed_copy(path: Path, text: str) -> dict[str, Any] | None:
    """The data of a shipped edition file from its parsed copy (``<id>.json`` beside it,
    written by :func:`write_parsed_copies`) when the copy was made from exactly ``text``.
    Python's TOML reader is pure Python and most of the time ``cluedo-lab solve`` spends
    reading an edition; JSON is read in C. Any other file, or a copy of another text, is
    read as TOML; either way :func:`_build` checks every field."""
    if path.parent != _shipped_folder():
        return None
    try:
        parsed = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    made_from_text = isinstance(parsed, dict) and parsed.get("toml") == text
    data = parsed.get("data") if made_from_text else None
    return data if isinstance(data, dict) else None


def write_parsed_copies(folder: Path | None = None) -> list[Path]:
    """Write beside each edition file in ``folder`` (the shipped ones by default) its parsed
    copy, ``{"toml": the file's text, "data": what the TOML reader makes of it}``, and return
    their paths. ``make parsed-editions`` runs it after an edition file changes; a test
    checks that every shipped copy is up to date."""
    written = []
    for path in sorted((folder or editions_dir()).glob("*.toml")):
        name = shown(path.name)
        fail = _failing(name)
        text = read_text(path, fail)
        data = parse_toml(text, name, fail)
        try:
            carried = json.loads(json.dumps(data)) == data
        except TypeError:
            carried = False
        if not carried:
            raise fail("holds a value JSON cannot carry (a date or a time)")
        note = f"Made from {path.name} by `make parsed-editions`: edit that file, not this one."
        copy = path.with_suffix(".json")
        copy.write_text(json.dumps({"note": note, "toml": text, "data": data}, indent=1,
                                   ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(copy)
    return written


_REGISTERED: dict[str, Edition] = {}
"""Editions built in memory (variants), found by :func:`load_edition` under their id."""

Stamp = tuple[int, int, int]
"""A file's modification time (ns), size and inode: a file edited or replaced has another."""


class _Loaded(NamedTuple):
    """An edition read from a file, with its checked data and the stamp of every file of its
    ``extends`` chain (read again when one changes)."""

    stamps: tuple[tuple[Path, Stamp], ...]
    data: dict[str, Any]
    edition: Edition


_LOADED: dict[Path, _Loaded] = {}
"""Editions read in this process, by resolved path: each file is read and checked once, and
again only when it (or a file it extends) changed on disk."""

_MAX_LOADED = 64


def _stamp(path: Path) -> Stamp | None:
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def _load(path: Path) -> _Loaded:
    """The edition in the file at ``path`` (resolved), from the cache while no file of its
    chain changed. Shipped editions come from the kit's folder, so no other file can take
    their place under their id."""
    cached = _LOADED.get(path)
    if cached is not None and all(_stamp(p) == stamp for p, stamp in cached.stamps):
        return cached
    stamps: list[tuple[Path, Stamp]] = []
    data = _layered(path, (), stamps)
    name = shown(path.name)
    loaded = _Loaded(tuple(stamps), data, _build(data, name, _Reader(name)))
    if path.parent == _shipped_folder() and path.stem == loaded.edition.id:
        _SHIPPED[loaded.edition.id] = loaded.edition
    if len(_LOADED) >= _MAX_LOADED:
        _LOADED.pop(next(iter(_LOADED)))
    _LOADED[path] = loaded
    return loaded


def load_edition(ref: str | Path, *, directory: Path | None = None) -> Edition:
    """Load an edition by id (``"cluedo-classic-1949"``) or by the path of a TOML file; an id
    may also name an edition built in this session and :func:`register_edition`-ed. A file
    is read once per process, and again when it changes.

    >>> classic = load_edition("cluedo-classic-1949")
    >>> classic
    <Edition cluedo-classic-1949>
    >>> classic.card("ROPE")                 # any case; a name or an alias will do too
    Card('rope', 'Rope', 'weapon')
    >>> len(classic.cards), classic.hand_sizes(4)
    (21, (5, 5, 4, 4))
    """
    if directory is None and isinstance(ref, str) and ref in _REGISTERED:
        return _REGISTERED[ref]
    return _load(_resolve(ref, directory)).edition


def file_of(edition: Edition) -> Path | None:
    """The file ``edition`` was loaded from in this process (resolved), or None when it was
    built in Python. Saved games and records name a user's file by its path, since its id
    may be one a shipped edition also has."""
    for path, loaded in _LOADED.items():
        if loaded.edition is edition:
            return path
    return None


def edition_data(ref: str | Path, *, directory: Path | None = None) -> dict[str, Any]:
    """The checked data of an edition file (its ``extends`` chain laid over its base), as
    plain dicts and lists: a starting point for building a variant in Python."""
    return copy.deepcopy(_load(_resolve(ref, directory)).data)


_SHIPPED: dict[str, Edition] = {}
"""The shipped editions loaded so far, by id: only files of the kit's own folder get here."""


@cache
def _shipped_folder() -> Path:
    return editions_dir().resolve()


@cache
def shipped_ids() -> frozenset[str]:
    """The ids of the editions the kit ships (read once)."""
    return frozenset(edition_ids())


def is_shipped(edition: Edition) -> bool:
    """Whether ``edition`` is one of the kit's own files (not a user's file that took one of
    their ids, and not a variant)."""
    return _SHIPPED.get(edition.id) is edition


def edition_from_dict(data: Mapping[str, Any], source: str = "(dict)") -> Edition:
    """Build an edition from complete data shaped like a file (``docs/editions.md``), with
    the same checks as :func:`load_edition`; errors name ``source`` and the field. An
    ``extends`` here only records the base's id: nothing is inherited."""
    r = _Reader(source)
    raw = r.table(copy.deepcopy(dict(data)), "", TOP_LEVEL)
    if "extends" in raw:
        r.ident(raw, "extends", "")
    return _build(raw, source, r)


def register_edition(edition: Edition) -> Edition:
    """Let :func:`load_edition` find ``edition`` by its id for the rest of the session, so
    games and records that name it by id work. A shipped edition's id cannot be taken."""
    if edition.id in edition_ids():
        raise InvalidArgument(f"{edition.id!r} is a shipped edition's id")
    _REGISTERED[edition.id] = edition
    return edition


def _resolve(ref: str | Path, directory: Path | None) -> Path:
    """The resolved path of the file ``ref`` names (an id, or a path)."""
    if not isinstance(ref, str | Path):
        raise WrongType(f"an edition is named by its id or the path of its file, not {ref!r}")
    if isinstance(ref, str) and (len(ref) > 200 or "\0" in ref or not ref):
        raise EditionError(shown(ref[:40]) + ("..." if len(ref) > 40 else ""), "(file)",
                           "not an edition id or a file name")
    if directory is None and ref in _ID_PATHS:
        return _ID_PATHS[ref]                  # a shipped id: its file found once
    path = Path(ref)
    by_id = path.suffix != ".toml"
    if by_id and not (isinstance(ref, str) and ID_PATTERN.match(ref)):
        raise EditionError(shown(ref), "(file)", "not an edition id, nor the path of an "
                           "edition's .toml file")
    if by_id:
        folder = directory or editions_dir()
        path = folder / f"{ref}.toml"
        if not path.exists():
            known = ", ".join(edition_ids(folder))
            raise EditionError(str(ref), "(file)", f"no such edition; known editions: {known}")
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError):          # a loop of symbolic links
        raise EditionError(shown(path.name), "(file)", "cannot be read (a loop of symbolic "
                           "links)") from None
    if directory is None and by_id:           # an id of the kit's own folder
        _ID_PATHS[ref] = resolved
    return resolved


_ID_PATHS: dict[str | Path, Path] = {}
"""The file of each shipped id asked for so far."""


def _layered(path: Path, chain: tuple[Path, ...],
             stamps: list[tuple[Path, Stamp]]) -> dict[str, Any]:
    """The file's tables laid over those of the edition it ``extends`` (recursively, at most
    :data:`~cluedo_lab.rules.limits.MAX_EXTENDS` files deep); each file read is stamped into
    ``stamps``.

    The base must load on its own first, so a mistake in it is reported against the base file,
    not against every variant of it. ``chain`` holds the files that extend this one.
    """
    stamp = _stamp(path)
    raw = _read_toml(path)
    if stamp is not None:
        stamps.append((path, stamp))
    r = _Reader(shown(path.name))
    r.table(raw, "", TOP_LEVEL)
    if "extends" not in raw:
        return raw
    base_id = r.ident(raw, "extends", "")
    base_path = (path.parent / f"{base_id}.toml").resolve()
    if not base_path.is_file() and base_id in shipped_ids():
        # A variant copied away from its base (say, into a class folder) extends the kit's own.
        base_path = (_shipped_folder() / f"{base_id}.toml").resolve()
    if base_path == path or base_path in chain:
        loop = " -> ".join(shown(p.name) for p in (*chain, path, base_path))
        raise r.fail("extends", f"circular: {loop}")
    if len(chain) + 1 >= MAX_EXTENDS:
        raise r.fail("extends", f"a chain of more than {MAX_EXTENDS} files extending each "
                     "other; lay the changes into fewer files")
    if not base_path.is_file():
        known = ", ".join(edition_ids(path.parent))
        raise r.fail("extends", f"no edition {base_id!r} next to this file, nor shipped with "
                     f"the kit; known here: {known}")
    base = _layered(base_path, (*chain, path), stamps)
    _build(base, shown(base_path.name), _Reader(shown(base_path.name)))
    own_id = r.ident(raw, "id", "")
    if own_id == base.get("id"):
        raise r.fail("id", f"a variant needs its own id, not its base's {own_id!r}")
    own_assumptions = r.get(raw, "assumptions", "", list, required=False, default=[])
    merged = _merge({k: v for k, v in base.items() if k != "assumptions"}, raw)
    merged["assumptions"] = _merge_assumptions(base.get("assumptions", []), own_assumptions)
    return merged


def _merge_assumptions(base: list[Any], own: list[Any]) -> list[Any]:
    """Inherited assumptions, with any the variant restates (same ``about``) replaced by its own."""
    def about(a: Any) -> str | None:
        return a.get("about") if isinstance(a, dict) and isinstance(a.get("about"), str) \
            else None
    restated = {about(a): a for a in own if about(a) is not None}
    kept = [restated.pop(a["about"], a) for a in base]
    return kept + [a for a in own if about(a) is None or about(a) in restated]


def _build(raw: dict[str, Any], source: str, r: _Reader) -> Edition:
    """Check every field, then build the edition: an error leaves no half-made object behind."""
    schema = r.get(raw, "schema", "", int)
    if schema != SCHEMA_VERSION:
        raise r.fail("schema", f"expected {SCHEMA_VERSION}, got {schema}")
    edition_id = r.ident(raw, "id", "")
    name = r.line(raw, "name", "")
    publisher = r.line(raw, "publisher", "")
    year = r.get(raw, "year", "", int)
    family = r.choice(raw, "family", "", FAMILIES)
    rule_book = r.get(raw, "rule_book", "", str)
    description = r.get(raw, "description", "", str, required=False, default="")
    mode = r.choice(raw, "mode", "", MODES, required=False, default="standard")

    features = _features(raw, r)
    # Check features against the declared categories before reading cards, so a misspelt
    # feature category is reported there and not as an unknown field on every card.
    declared = [c.get("id") for c in r.get(raw, "categories", "", list) if isinstance(c, dict)]
    for feature in features.values():
        if feature.category not in declared:
            raise r.fail(f"features.{feature.id}.category",
                         f"expected one of the categories {declared}, got {feature.category!r}")
    categories = _categories(raw, r, features)
    category_ids = [c.id for c in categories]

    players = r.table(r.get(raw, "players", "", dict), "players", {"min", "max"})
    min_players = r.positive(players, "min", "players", minimum=2)
    max_players = r.positive(players, "max", "players", minimum=2)
    if max_players < min_players:
        raise r.fail("players.max", f"expected at least players.min ({min_players})")
    if max_players > MAX_PLAYERS:
        raise r.fail("players.max", f"at most {MAX_PLAYERS} players, got {max_players}")

    deal = _deal(raw, r, category_ids, categories)
    question = _question(raw, r, categories)
    accusation = _accusation(raw, r)
    turns = r.table(r.get(raw, "turns", "", dict), "turns", {"first", *BOARD_TURN_FIELDS})
    first = r.choice(turns, "first", "turns", FIRST)
    dice = _dice(raw, r)
    board = r.get(raw, "board", "", str, required=False)
    if board is not None:
        if not ID_PATTERN.match(board) or board not in board_ids():
            raise r.fail("board", f"no board {board!r}; known boards: {', '.join(board_ids())}")
    if family == "card":
        for key in ("board", "dice"):
            if key in raw:
                raise r.fail(key, "a card game (family = 'card') has no board and no dice")
        for key in sorted(BOARD_TURN_FIELDS & set(turns)):
            raise r.fail(f"turns.{key}", "a card game has no board: no rolls or pieces")
        if "when" in raw["accusation"]:
            raise r.fail("accusation.when", "card games accuse on their turn; use "
                         "accusation.anywhere")
        if accusation.wrong == "keeps-moving":
            raise r.fail("accusation.wrong", "'keeps-moving' is for board games: a card game "
                         "has no pieces to move")
        if "name_yourself" in raw["question"]:
            raise r.fail("question.name_yourself", "a card game has no pieces to call")
    elif board is None:
        raise r.fail("board", "missing; a board game (family = 'board') names its board")
    turn_rules = TurnRules(
        roll=r.choice(turns, "roll", "turns", ROLL, required=False, default="or-passage"),
        must_move=r.get(turns, "must_move", "turns", bool, required=False, default=True),
        spare_pieces=r.choice(turns, "spare_pieces", "turns", SPARE_PIECES, required=False,
                              default="start"),
        movement=r.choice(turns, "movement", "turns", MOVEMENTS, required=False,
                          default="exact"))
    actions, action_hand = _actions(raw, r, features, category_ids)
    if mode == "one-against-all" and deal.dealer != "last-seat":
        raise r.fail("deal.dealer", "in one-against-all the fugitive deals from the last seat "
                     "(the records ask the fugitive last)")
    if mode == "one-against-all" and not actions:
        raise r.fail("mode", "one-against-all needs an action deck: its end is the fugitive's "
                     "escape")
    assumptions = _assumptions(raw, r)

    check_sizes(source, players=max_players, sizes=[len(c.cards) for c in categories],
                items=question.items if question.form == "any" else None, dice=dice,
                action_cards=sum(kind.count for kind in actions), hand=action_hand)
    if deal.hands and not min_players == max_players == len(deal.hands):
        raise r.fail("deal.hands", f"{len(deal.hands)} hand sizes need players.min = "
                     f"players.max = {len(deal.hands)}")
    dealt = sum(len(c.cards) for c in categories) - sum(deal.envelope.values()) - deal.face_down
    for count in range(min_players, max_players + 1):
        if not deal.hands and min(_hand_sizes(dealt, count, deal.spares)) < 1:
            raise r.fail("players.max", f"with {count} players some hands would be empty: "
                         f"only {dealt} cards are dealt")

    return Edition(
        id=edition_id, name=name, publisher=publisher, year=year, family=family,
        rule_book=rule_book, categories=categories, features=features,
        min_players=min_players, max_players=max_players, deal=deal, question=question,
        accusation=accusation, first_player=first, dice=dice, board=board, actions=actions,
        action_hand=action_hand, mode=mode, assumptions=assumptions,
        extends=raw.get("extends"), source=source, description=description, turns=turn_rules,
    )


def _features(raw: dict[str, Any], r: _Reader) -> dict[str, Feature]:
    table = r.get(raw, "features", "", dict, required=False, default={})
    features: dict[str, Feature] = {}
    for feature_id, spec in table.items():
        path = f"features.{feature_id}"
        if not FEATURE_PATTERN.match(feature_id) or feature_id in CARD_FIELDS:
            raise r.fail(path, "expected a lower-case field name like 'north_south' (not "
                         f"{sorted(CARD_FIELDS)}) as the feature name")
        r.table(spec, path, {"category", "values", "description"})
        values = r.get(spec, "values", path, list)
        if not values or not all(isinstance(v, str) for v in values):
            raise r.fail(f"{path}.values", "expected a non-empty array of strings")
        if len(set(values)) != len(values):
            raise r.fail(f"{path}.values", "values repeat")
        for value in values:
            r.text(value, f"{path}.values")
        features[feature_id] = Feature(
            id=feature_id, category=r.get(spec, "category", path, str), values=tuple(values),
            description=r.get(spec, "description", path, str, required=False, default=""))
    return features


def _categories(raw: dict[str, Any], r: _Reader,
                features: dict[str, Feature]) -> tuple[Category, ...]:
    items = r.get(raw, "categories", "", list)
    if len(items) < 1:
        raise r.fail("categories", "expected at least one category")
    categories: list[Category] = []
    seen_ids: dict[str, str] = {}
    seen_names: dict[str, str] = {}
    for index, spec in enumerate(items):
        path = f"categories[{index}]"
        r.table(spec, path, {"id", "name", "cards"})
        category_id = r.ident(spec, "id", path)
        if any(c.id == category_id for c in categories):
            raise r.fail(f"{path}.id", f"duplicate category {category_id!r}")
        category_name = r.line(spec, "name", path)
        own_features = {f.id: f for f in features.values() if f.category == category_id}
        cards_spec = r.get(spec, "cards", path, list)
        if not cards_spec:
            raise r.fail(f"{path}.cards", "expected at least one card")
        cards = []
        for position, card_spec in enumerate(cards_spec):
            card_path = f"{path}.cards[{position}]"
            card = _card(card_spec, card_path, category_id, own_features, r)
            if card.id in seen_ids:
                raise r.fail(f"{card_path}.id",
                             f"duplicate card {card.id!r} (also at {seen_ids[card.id]})")
            seen_ids[card.id] = card_path
            labels = [("id", card.id), ("name", card.name)]
            labels += [("aliases", alias) for alias in card.aliases]
            for label, key in labels:
                k = normalize(key)
                if not k:
                    raise r.fail(f"{card_path}.{label}", f"{key!r} has no letters or digits")
                if k in seen_names and seen_names[k] != card_path:
                    raise r.fail(f"{card_path}.{label}", f"duplicate card name {key!r} "
                                 f"(also at {seen_names[k]})")
                seen_names[k] = card_path
            cards.append(card)
        categories.append(Category(category_id, category_name, tuple(cards)))
    return tuple(categories)


def _card(spec: Any, path: str, category: str, features: dict[str, Feature],
          r: _Reader) -> Card:
    r.table(spec, path, {*CARD_FIELDS, *features})
    card_id = r.ident(spec, "id", path)
    name = r.line(spec, "name", path)
    aliases = r.get(spec, "aliases", path, list, required=False, default=[])
    if not all(isinstance(a, str) for a in aliases):
        raise r.fail(f"{path}.aliases", "expected an array of strings")
    for alias in aliases:
        r.text(alias, f"{path}.aliases")
    values = {}
    for feature in features.values():
        value = r.get(spec, feature.id, path, str)
        if value not in feature.values:
            raise r.fail(f"{path}.{feature.id}",
                         f"expected one of {list(feature.values)}, got {value!r}")
        values[feature.id] = value
    return Card(card_id, name, category, values, tuple(aliases))


def _deal(raw: dict[str, Any], r: _Reader, category_ids: list[str],
          categories: tuple[Category, ...]) -> DealRules:
    spec = r.table(r.get(raw, "deal", "", dict), "deal",
                   {"envelope", "spares", "face_down", "face_down_places", "hands", "dealer"})
    envelope = r.get(spec, "envelope", "deal", dict)
    if set(envelope) != set(category_ids):
        raise r.fail("deal.envelope", f"expected a count for each category {category_ids}, "
                     f"got {sorted(envelope)}")
    for category in categories:
        count = r.get(envelope, category.id, "deal.envelope", int)
        if not 1 <= count < len(category.cards):
            raise r.fail(f"deal.envelope.{category.id}",
                         f"expected 1 to {len(category.cards) - 1}, got {count}")
    spares = r.choice(spec, "spares", "deal", SPARES)
    face_down = r.positive(spec, "face_down", "deal", minimum=0, required=False, default=0)
    outside = sum(len(c.cards) for c in categories) - sum(envelope.values())
    if face_down >= outside:
        raise r.fail("deal.face_down", f"expected fewer than the {outside} cards left once the "
                     f"envelope is filled, got {face_down}")
    places = r.get(spec, "face_down_places", "deal", list, required=False, default=[])
    if len(places) != face_down or not all(isinstance(p, str) and p for p in places):
        raise r.fail("deal.face_down_places",
                     f"expected {face_down} place names, one per face-down card")
    if len(set(places)) != len(places):
        raise r.fail("deal.face_down_places", "place names repeat; each pile needs its own")
    for place in places:
        r.text(place, "deal.face_down_places")
    hands = r.get(spec, "hands", "deal", list, required=False, default=[])
    if not all(type(h) is int and h >= 1 for h in hands):
        raise r.fail("deal.hands", f"expected hand sizes of at least 1 card, got {hands}")
    dealt = outside - face_down
    if hands and (sum(hands) > dealt or spares == "uneven" and sum(hands) != dealt):
        rest = "the rest lie face up" if spares == "face-up" else "spares = 'uneven' deals all"
        raise r.fail("deal.hands", f"the hands {hands} hold {sum(hands)} cards, but {dealt} "
                     f"are dealt ({rest})")
    return DealRules({c: envelope[c] for c in category_ids}, spares, face_down, tuple(places),
                     tuple(hands), r.choice(spec, "dealer", "deal", DEALERS, required=False,
                                            default="last-seat"))


def _question(raw: dict[str, Any], r: _Reader, categories: tuple[Category, ...]) -> QuestionRules:
    spec = r.table(r.get(raw, "question", "", dict), "question",
                   {"items", "form", "place", "answer", "reenter_to_repeat", "name_yourself"})
    items = r.positive(spec, "items", "question")
    form = r.choice(spec, "form", "question", FORMS)
    if form == "one-per-category" and items != len(categories):
        raise r.fail("question.items",
                     f"a one-per-category question names {len(categories)} items, not {items}")
    deck = sum(len(c.cards) for c in categories)
    if items > deck:
        raise r.fail("question.items", f"the deck has only {deck} cards, not {items}")
    return QuestionRules(
        items=items, form=form, place=r.choice(spec, "place", "question", PLACES),
        answer=r.choice(spec, "answer", "question", ANSWERS, required=False,
                        default="first-who-can"),
        reenter_to_repeat=r.get(spec, "reenter_to_repeat", "question", bool, required=False,
                                default=False),
        name_yourself=r.get(spec, "name_yourself", "question", bool, required=False,
                            default=True))


def _accusation(raw: dict[str, Any], r: _Reader) -> AccusationRules:
    spec = r.table(r.get(raw, "accusation", "", dict), "accusation",
                   {"limit", "wrong", "anywhere", "simultaneous", "two_player_both_accuse",
                    "reveal", "when"})
    anywhere = r.get(spec, "anywhere", "accusation", bool, required=False, default=False)
    when = r.choice(spec, "when", "accusation", ACCUSE_WHEN, required=False,
                    default="anywhere" if anywhere else "in-room")
    if anywhere != (when == "anywhere"):
        raise r.fail("accusation.when", f"{when!r} contradicts accusation.anywhere = "
                     f"{str(anywhere).lower()}")
    return AccusationRules(
        limit=r.positive(spec, "limit", "accusation", required=False, default=1),
        wrong=r.choice(spec, "wrong", "accusation", WRONG, required=False,
                       default="stays-to-refute"),
        anywhere=anywhere,
        simultaneous=r.get(spec, "simultaneous", "accusation", bool, required=False,
                           default=False),
        two_player_both_accuse=r.get(spec, "two_player_both_accuse", "accusation", bool,
                                     required=False, default=False),
        reveal=r.choice(spec, "reveal", "accusation", REVEAL, required=False,
                        default="everyone"),
        when=when)


def _dice(raw: dict[str, Any], r: _Reader) -> Dice | None:
    if "dice" not in raw:
        return None
    spec = r.table(r.get(raw, "dice", "", dict), "dice", {"count", "sides", "icon_faces"})
    count = r.positive(spec, "count", "dice")
    sides = r.positive(spec, "sides", "dice", minimum=2, required=False, default=6)
    icons = r.get(spec, "icon_faces", "dice", list, required=False, default=[])
    if not all(type(f) is int and 1 <= f <= sides for f in icons) or len(set(icons)) < len(icons):
        raise r.fail("dice.icon_faces", f"expected distinct face numbers from 1 to {sides}")
    return Dice(count, sides, tuple(icons))


ACTION_FIELDS: dict[str, set[str]] = {
    "suggest-any": set(), "suggest-current": set(), "snoop": set(),
    "all-snoop": {"direction"},
    "super-sleuth": {"feature", "value"},
    "private-tip": {"feature", "value", "all", "category"},
}


def _actions(raw: dict[str, Any], r: _Reader, features: dict[str, Feature],
             category_ids: list[str]) -> tuple[tuple[ActionCardKind, ...], int]:
    if "actions" not in raw:
        return (), 0
    spec = r.table(r.get(raw, "actions", "", dict), "actions", {"hand", "cards"})
    hand = r.positive(spec, "hand", "actions")
    kinds = []
    items = r.get(spec, "cards", "actions", list)
    if not items:
        raise r.fail("actions.cards", "expected at least one kind of action card")
    for index, item in enumerate(items):
        path = f"actions.cards[{index}]"
        r.table(item, path, {"kind", "count", *set().union(*ACTION_FIELDS.values())})
        kind = r.choice(item, "kind", path, ACTION_KINDS)
        count = r.positive(item, "count", path)
        every = False
        allowed = ACTION_FIELDS[kind]
        if kind == "private-tip":
            every = r.get(item, "all", path, bool, required=False, default=False)
            allowed = {"all", "category"} if every else {"all", "feature", "value"}
        # A field the kind does not use is a mistake, not something to ignore silently.
        stray = sorted(set(item) - {"kind", "count"} - allowed)
        if stray:
            raise r.fail(f"{path}.{stray[0]}", f"not used by a {kind} card"
                         + (" with all = true" if every else ""))
        direction = feature = value = category = None
        if kind == "all-snoop":
            direction = r.choice(item, "direction", path, ("left", "right"))
        elif every:
            category = r.choice(item, "category", path, category_ids)
        elif kind in ("super-sleuth", "private-tip"):
            feature = r.choice(item, "feature", path, list(features))
            value = r.choice(item, "value", path, features[feature].values)
            category = features[feature].category
        kinds.append(ActionCardKind(kind, count, direction, feature, value, category, every))
    return tuple(kinds), hand


def _assumptions(raw: dict[str, Any], r: _Reader) -> tuple[Assumption, ...]:
    items = r.get(raw, "assumptions", "", list, required=False, default=[])
    out = []
    for index, item in enumerate(items):
        path = f"assumptions[{index}]"
        r.table(item, path, {"about", "choice", "why", "source"})
        out.append(Assumption(about=r.get(item, "about", path, str),
                              choice=r.get(item, "choice", path, str),
                              source=r.get(item, "source", path, str),
                              why=r.get(item, "why", path, str, required=False, default="")))
    return tuple(out)


def edition_ids(directory: Path | None = None) -> list[str]:
    """Ids of the editions shipped in ``data/editions`` (or another folder), sorted."""
    folder = directory or editions_dir()
    return sorted(p.stem for p in folder.glob("*.toml"))


def all_editions() -> list[Edition]:
    """Every shipped edition, in id order."""
    return [load_edition(edition_id) for edition_id in edition_ids()]
