"""Variants: a base edition with some rule options changed, set in a notebook cell.

``variant("cluedo-classic-1949", players=4, spares="face-up", drop={"weapon": ["rope"]})``
is a real :class:`~cluedo_lab.rules.edition.Edition` underneath: the options are written into the
base's data and built by the same checks as an edition file (:func:`edition_from_dict`), so
every engine (deals, records, knowledge, card and board games) takes it as it is. It is also
registered under its own id for this session, so games and records that name their edition by
id (saving, replaying, per-seat records) find it.

The options, each a rule on which the editions here differ or a house rule people play:

==========  ==================================================================================
players     one player count (the base allows a range)
spares      cards that do not divide evenly: ``"uneven"`` (dealt, the first seats get one more),
            ``"face-up"`` (left face up for all) or ``"face-down"`` (laid unseen in rooms)
face_down   with ``spares="face-down"``: how many cards to lay in rooms before the deal (2023
            two-player: 4); by default just the ones that would make hands uneven
items       how many cards a question names
form        ``"one-per-category"`` (one of each kind) or ``"any"`` (any cards at all)
answer      ``"first-who-can"`` (the asking stops at the first player who shows a card) or
            ``"every-who-can"`` (every player holding a named card shows one to the asker)
wrong       ``"stays-to-refute"`` (a wrong accuser still answers) or ``"leaves"`` (skipped)
drop        cards taken out of the deck, ``{category: [card, ...]}``
add         cards put in, ``{category: [name, ...]}`` (a table with the printed features
            where the category has some: ``{"name": "Dr. Orchid", "colour": "white"}``)
hands       the hand sizes in deal order (fixes the player count)
==========  ==================================================================================

Options that cannot go together raise :class:`VariantError` naming them, before anything is
built: e.g. ``items=2`` with one-per-category questions on three categories.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import TYPE_CHECKING, Any

from .edition import (
    ANSWERS,
    FORMS,
    WRONG,
    Assumption,
    Edition,
    TextTable,
    edition_data,
    edition_from_dict,
    file_of,
    is_shipped,
    load_edition,
    normalize,
    register_edition,
    shipped_ids,
)
from .errors import CluedoLabError, EditionError, InvalidArgument

if TYPE_CHECKING:
    from .deal import Deal

OPTIONS = ("players", "spares", "face_down", "items", "form", "answer", "wrong", "drop", "add",
           "hands")
SPARES = ("uneven", "face-up", "face-down")
ROOM = "room"


class VariantError(CluedoLabError, ValueError):
    """Options that cannot be used (together): ``options`` names the ones that clash."""

    def __init__(self, problem: str, options: Sequence[str] = ()):
        self.options = tuple(options)
        self.problem = problem
        super().__init__(problem)


# ---------------------------------------------------------------------------------------------
# The value
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Variant:
    """A base edition and the options changed against it; :attr:`edition` is the result.

    Build one with :func:`variant`. ``changes`` holds only options that differ from the base,
    in the order of :data:`OPTIONS`, so two variants with the same rules are equal."""

    base: Edition
    base_ref: str
    changes: tuple[tuple[str, Any], ...]
    edition: Edition

    @property
    def options(self) -> dict[str, Any]:
        return {k: _thaw(v) for k, v in self.changes}

    @property
    def players(self) -> int | None:
        """The player count, when the variant fixes one."""
        e = self.edition
        return e.min_players if e.min_players == e.max_players else None

    @property
    def id(self) -> str:
        return self.edition.id

    @cached_property
    def name(self) -> str:
        """A short name: the base's and what changed, e.g. ``Cluedo 1949 [4 players, -Rope]``."""
        return f"{_title(self.base)} [{', '.join(self.change_labels()) or 'as published'}]"

    def change_labels(self) -> list[str]:
        """One short phrase per change."""
        base, ed, opts = self.base, self.edition, self.options
        out = []
        if "players" in opts:
            out.append(f"{opts['players']} players")
        if "spares" in opts or "face_down" in opts:
            out.append("spares " + _spares_label(ed))
        if "items" in opts or "form" in opts:
            out.append("asks " + _question_label(ed))
        if "answer" in opts:
            out.append("every who can answers" if ed.question.answer == "every-who-can"
                       else "first who can answers")
        if "wrong" in opts:
            out.append("wrong accuser leaves" if ed.accusation.wrong == "leaves"
                       else "wrong accuser stays to refute")
        for names in opts.get("drop", {}).values():
            out += [f"-{base.card(n).name}" for n in names]
        for _category, cards in opts.get("add", {}).items():
            out += [f"+{c if isinstance(c, str) else c['name']}" for c in cards]
        if "hands" in opts:
            out.append("hands " + "-".join(str(h) for h in opts["hands"]))
        return out

    # -- using it ----------------------------------------------------------------------------
    def deal(self, seed: int | None = None, players: int | None = None) -> Deal:
        """A seeded deal of the variant (see :func:`cluedo_lab.rules.deal.deal`)."""
        from .deal import deal
        return deal(self.edition, self.player_count(players), seed)

    def player_count(self, players: int | None = None) -> int:
        """How many play a game or record of this variant: ``players`` (checked against the
        edition), else the variant's own number."""
        if players is None:
            if self.players is None:
                raise InvalidArgument(f"{self.name} is for {self.edition.min_players}-"
                                 f"{self.edition.max_players} players: say how many")
            return self.players
        self.edition.check_players(players)
        return players

    def to_dict(self) -> dict[str, Any]:
        """``{"base": <base id or path>, <option>: <value>, ...}``: JSON for records and
        files; :func:`variant_from_dict` reads it back."""
        return {"base": self.base_ref, **self.options}

    # -- display -----------------------------------------------------------------------------
    def table(self, players: int | None = None) -> TextTable:
        """Option by option: the base's rule and the variant's (hands for ``players``)."""
        count = players or self.players or self.base.min_players
        return TextTable(("option", "base", "variant"),
                     tuple(describe_changes(self.base, self.edition, count)), title=self.name)

    def __repr__(self) -> str:
        args = "".join(f", {k}={v!r}" for k, v in self.options.items())
        return f"variant({self.base_ref!r}{args})"

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Variant) and (self.base_ref, self.changes) == (
            other.base_ref, other.changes)

    def __hash__(self) -> int:
        return hash((self.base_ref, self.changes))


def describe_changes(base: Edition, ed: Edition, players: int) -> list[tuple[str, str, str]]:
    def hands(e: Edition) -> str:
        if not e.min_players <= players <= e.max_players:
            return "–"
        text = "-".join(str(h) for h in e.hand_sizes(players))
        up = e.face_up_count(players)
        return text + (f" +{up} face up" if up else "") + (
            f" +{e.deal.face_down} face down" if e.deal.face_down else "")

    def count(e: Edition) -> str:
        return (str(e.min_players) if e.min_players == e.max_players
                else f"{e.min_players}-{e.max_players}")

    def deck(e: Edition) -> str:
        return "/".join(str(len(c.cards)) for c in e.categories) + f" ({len(e.cards)} cards)"

    return [
        ("players", count(base), count(ed)),
        ("deck", deck(base), deck(ed)),
        (f"hands ({players} players)", hands(base), hands(ed)),
        ("spares", _spares_label(base), _spares_label(ed)),
        ("a question names", _question_label(base), _question_label(ed)),
        ("who answers", _words(base.question.answer), _words(ed.question.answer)),
        ("a wrong accuser", _words(base.accusation.wrong), _words(ed.accusation.wrong)),
    ]


def _words(value: str) -> str:
    return value.replace("-", " ")


def _title(edition: Edition) -> str:
    return edition.name if str(edition.year) in edition.name else \
        f"{edition.name} {edition.year}"


def spares_of(edition: Edition) -> str:
    """How an edition handles spare cards, as a :func:`variant` ``spares`` value."""
    return "face-down" if edition.deal.face_down else edition.deal.spares


def _spares_label(edition: Edition) -> str:
    if edition.deal.face_down:
        return f"face-down ({edition.deal.face_down} in rooms)"
    return edition.deal.spares


def _question_label(edition: Edition) -> str:
    q = edition.question
    return "one per category" if q.form == "one-per-category" else f"any {q.items}"


# ---------------------------------------------------------------------------------------------
# Building
# ---------------------------------------------------------------------------------------------

def variant(base: str | Edition | Variant, **options: Any) -> Variant:
    """``base`` (an edition id or the path of an edition file, a shipped Edition, or a
    Variant to change further) with ``options`` changed; see the module docstring for the
    options. Raises :class:`VariantError` naming the options at fault."""
    if isinstance(base, Variant):
        merged = {**base.options, **options}
        return variant(base.base_ref, **{k: v for k, v in merged.items() if v is not None})
    if isinstance(base, Edition) and not is_shipped(base):
        raise VariantError(f"{base.id!r} is not a shipped edition: give the path of its file "
                           "as the base")
    if not isinstance(base, str | Edition) and not hasattr(base, "__fspath__"):
        raise VariantError(f"the base is an edition id, the path of an edition file or an "
                           f"Edition, not {base!r}")
    ref = base.id if isinstance(base, Edition) else str(base)
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise VariantError(f"unknown option {unknown[0]!r}; options: {', '.join(OPTIONS)}",
                           unknown[:1])
    try:
        data = edition_data(ref)      # read once per process, again when the file changes
        base_edition = load_edition(ref)
    except EditionError as error:
        raise VariantError(f"base edition: {error}") from None
    changes, rules = _normalize(base_edition, options)
    raw = _apply(data, base_edition, rules)
    # A shipped base is named by its id; any other file by its content too, so a variant of a
    # user's file that took a shipped id (or of a file edited since) has an id of its own.
    key: list[Any] = [base_edition.id, changes]
    if not is_shipped(base_edition):
        key.append(json.dumps(data, sort_keys=True))
    import hashlib  # here, not at the top: it loads OpenSSL, which reading a record never needs
    digest = hashlib.sha1(json.dumps(key).encode()).hexdigest()[:8]
    raw["id"] = f"{base_edition.id}-variant-{digest}"
    raw["extends"] = base_edition.id
    try:
        edition = edition_from_dict(raw, source=f"variant of {base_edition.id}")
    except EditionError as error:  # the checks above should catch every clash first
        raise VariantError(f"these options do not make a valid edition: {error.field}: "
                           f"{error.problem}", [k for k, _ in changes]) from None
    made = Variant(base_edition, ref, changes, edition)
    labels = made.change_labels()
    edition = replace(edition, name=made.name, description=(
        f"{base_edition.name} with {', '.join(labels)}." if labels else base_edition.description),
        assumptions=(*edition.assumptions, Assumption(
            about="variant", choice=", ".join(labels) or "no change",
            source=f"variant({ref!r}, ...) in Python",
            why="Rules changed from the base edition's, not from a rule book.")))
    register_edition(edition)
    made = Variant(base_edition, ref, changes, edition)
    _SPECS[edition.id] = made.to_dict()
    return made


_SPECS: dict[str, dict[str, Any]] = {}
"""The ``{"base": ..., <option>: ...}`` of every variant built in this session, by edition id."""


def spec_of(edition: Edition) -> dict[str, Any] | None:
    """How to write ``edition`` in a saved file: its variant spec if it is a variant built
    here (so the file opens in a new session), else None (write its id)."""
    spec = _SPECS.get(edition.id)
    return copy.deepcopy(spec) if spec is not None else None


def edition_ref(edition: Edition) -> str | dict[str, Any]:
    """How a saved game or record names ``edition`` so that loading it finds this very
    edition: a variant's spec, a shipped or registered edition's id, a user's file by its
    path. An edition built in Python under a shipped edition's id cannot be named at all
    (its id would load the shipped one): that is refused rather than saved wrongly."""
    spec = spec_of(edition)
    if spec is not None:
        return spec
    if edition.id not in shipped_ids() or is_shipped(edition) or \
            _same(edition, load_edition(edition.id)):   # a copy of it from another process
        return edition.id
    path = file_of(edition)
    if path is not None:
        return str(path)
    raise InvalidArgument(f"{edition.name} was built with the id {edition.id!r}, which a "
                          "shipped edition has: give it an id of its own to save games of it")


def _same(one: Edition, other: Edition) -> bool:
    """Field by field (an edition compares by identity, and a process pool's worker holds
    copies of the shipped editions, not the editions themselves)."""
    return all(getattr(one, f.name) == getattr(other, f.name) for f in fields(Edition))


def variant_from_dict(data: Mapping[str, Any]) -> Variant:
    """The variant written as ``{"base": <edition id or path>, <option>: <value>, ...}``."""
    if not isinstance(data, Mapping) or not isinstance(data.get("base"), str):
        raise VariantError("a variant is written {\"base\": <edition id>, <option>: ...}")
    return variant(data["base"], **{k: v for k, v in data.items() if k != "base"})


def _thaw(value: str) -> Any:
    """Option values are kept as JSON text, so variants hash and compare by value."""
    return json.loads(value)


def _normalize(base: Edition, options: Mapping[str, Any]
               ) -> tuple[tuple[tuple[str, str], ...], dict[str, Any]]:
    """Check every option on its own and together. Returns the options that change the base
    (as JSON text, in :data:`OPTIONS` order) and the rules in effect, for :func:`_apply`."""
    o = {k: v for k, v in options.items() if v is not None}
    q, deal, acc = base.question, base.deal, base.accusation
    _check_type(o, "players", int, "a number of players")
    _check_type(o, "items", int, "a number of cards")
    _check_type(o, "face_down", int, "a number of cards")
    _check_choice(o, "spares", SPARES)
    _check_choice(o, "form", FORMS)
    _check_choice(o, "answer", ANSWERS)
    _check_choice(o, "wrong", WRONG)

    # -- the deck ------------------------------------------------------------------------------
    drop = _drop(base, o.get("drop", {}))
    add = _add(base, o.get("add", {}))
    sizes = {}
    for category in base.categories:
        sizes[category.id] = (len(category.cards) - len(drop.get(category.id, ()))
                              + len(add.get(category.id, ())))
        need = deal.envelope[category.id] + 1
        if sizes[category.id] < need:
            raise VariantError(
                f"drop leaves {sizes[category.id]} {category.name} card(s): the envelope takes "
                f"{deal.envelope[category.id]}, so at least {need} must stay", ["drop"])
    deck = sum(sizes.values())
    outside = deck - base.envelope_size

    # -- players and hands ---------------------------------------------------------------------
    hands = o.get("hands")
    if hands is not None:
        if not isinstance(hands, list | tuple) or not hands or not all(
                type(h) is int and h >= 1 for h in hands):
            raise VariantError(f"hands: expected hand sizes of at least 1 card each, got "
                               f"{hands!r}", ["hands"])
        hands = tuple(hands)
        if "players" in o and o["players"] != len(hands):
            raise VariantError(f"players={o['players']} clashes with hands={list(hands)}: "
                               f"that is {len(hands)} hands", ["players", "hands"])
    players = o.get("players", len(hands) if hands else None)
    if players is not None and players < 2:
        raise VariantError(f"players={players}: a game needs at least 2 players", ["players"])
    if players is None and base.min_players == base.max_players:
        players = base.min_players
    counts = [players] if players is not None else list(
        range(base.min_players, base.max_players + 1))

    # -- spares: (how the rest is dealt, cards laid face down first) ---------------------------
    asked = o.get("spares")
    face_down = o.get("face_down")
    if face_down is not None and (asked or spares_of(base)) != "face-down":
        named = ["face_down", "spares"] if asked else ["face_down"]
        rule = f"spares={asked!r}" if asked else f"the base's spares ({spares_of(base)})"
        raise VariantError(f"face_down={face_down} clashes with {rule}: cards laid face down "
                           "in rooms are a way of handling spares; use spares='face-down'",
                           named)
    if asked in ("uneven", "face-up"):
        rest, face_down = asked, 0
    elif asked == "face-down" or face_down is not None or (hands and deal.face_down):
        rest = "uneven"
        rooms = sizes.get(ROOM)
        if rooms is None:
            kinds = ", ".join(c.id for c in base.categories)
            raise VariantError(f"spares='face-down' lays cards in rooms, and {_title(base)} has "
                               f"no room category (it has {kinds})", ["spares"])
        if face_down is None:
            if hands:
                face_down = outside - sum(hands)
            elif deal.face_down:
                face_down = deal.face_down
            elif players is None:
                raise VariantError("spares='face-down' lays face down the cards that would "
                                   "make hands uneven, and that depends on the number of "
                                   "players: set players too", ["spares", "players"])
            else:
                face_down = outside % players
        if face_down < 0:
            raise VariantError(f"hands={list(hands or ())} hold {sum(hands or ())} cards, but "
                               f"only {outside} are left after the envelope", ["hands"])
        if face_down > rooms:
            raise VariantError(f"spares='face-down' needs {face_down} rooms to lay its cards "
                               f"in, the deck has {rooms}",
                               ["spares", "face_down"] if "face_down" in o else ["spares"])
    else:
        rest, face_down = deal.spares, deal.face_down
    dealt = outside - face_down
    if face_down >= outside:
        raise VariantError(f"face_down={face_down} leaves no card to deal", ["face_down"])

    if hands:
        total = sum(hands)
        named = ["hands", "spares"] if asked or "face_down" in o else ["hands"]
        if rest == "uneven" and total != dealt:
            rule = (f"{face_down} lie face down and the rest are all dealt" if face_down
                    else "spares='uneven' deals them all")
            raise VariantError(f"hands={list(hands)} hold {total} cards, but {dealt} are dealt "
                               f"({rule})", named)
        if rest == "face-up" and total > dealt:
            raise VariantError(f"hands={list(hands)} hold {total} cards, but only {dealt} are "
                               "dealt", named)
    else:
        for count in counts:
            if dealt // count < 1:
                named = ["players"] if "players" in o else ["drop"] if drop else []
                raise VariantError(f"{count} players is beyond the deck's capacity: only "
                                   f"{dealt} cards are dealt, so some hands would be empty",
                                   named)

    # -- questions and answers --------------------------------------------------------------------
    form = o.get("form", q.form)
    categories = len(base.categories)
    if "items" in o:
        items = o["items"]
    elif form == q.form:
        items = q.items
    else:
        items = categories if form == "one-per-category" else q.items
    if items < 1 or items > deck:
        raise VariantError(f"items={items}: a question names 1 to {deck} cards", ["items"])
    if form == "one-per-category" and items != categories:
        clash = (f"items={items} clashes with form='one-per-category'" if "form" in o else
                 f"items={items} clashes with the base's form 'one-per-category'")
        raise VariantError(f"{clash}: such a question names {categories} cards, one of each "
                           f"category; add form='any' to name any {items}", ["items", "form"])
    answer = o.get("answer", q.answer)
    if answer == "every-who-can" and base.mode == "one-against-all":
        raise VariantError("answer='every-who-can' clashes with the base's one-against-all "
                           "mode, whose fugitive answers only when nobody else can",
                           ["answer"])
    wrong = o.get("wrong", acc.wrong)

    # -- what changed ----------------------------------------------------------------------------
    out: dict[str, Any] = {}
    if players is not None and not base.min_players == base.max_players == players:
        out["players"] = players
    if (rest, face_down) != (deal.spares, deal.face_down):
        out["spares"] = "face-down" if face_down else rest
        if face_down and "face_down" in o:
            out["face_down"] = face_down
    for key, value, was in (("items", items, q.items), ("form", form, q.form),
                            ("answer", answer, q.answer), ("wrong", wrong, acc.wrong)):
        if value != was:
            out[key] = value
    order = [c.id for c in base.categories]
    if drop:
        out["drop"] = {c: [card.id for card in drop[c]] for c in order if c in drop}
    if add:
        out["add"] = {c: add[c] for c in order if c in add}
    if hands:
        assert players is not None  # the hand sizes fix the player count
        if hands != _default_hands(players, rest, dealt):
            out["hands"] = list(hands)
    changes = tuple((k, json.dumps(out[k])) for k in OPTIONS if k in out)
    rules = {"players": players, "rest": rest, "face_down": face_down,
             "hands": list(out["hands"]) if "hands" in out else None, "items": items, "form": form,
             "answer": answer, "wrong": wrong, "drop": out.get("drop", {}),
             "add": out.get("add", {})}
    return changes, rules


def _default_hands(players: int, spares: str, dealt: int) -> tuple[int, ...]:
    base_size, extra = divmod(dealt, players)
    if spares == "face-up":
        return (base_size,) * players
    return tuple(base_size + (1 if s < extra else 0) for s in range(players))


def _check_type(o: Mapping[str, Any], key: str, kind: type, what: str) -> None:
    if key in o and (type(o[key]) is not kind):
        raise VariantError(f"{key}: expected {what}, got {o[key]!r}", [key])


def _check_choice(o: Mapping[str, Any], key: str, choices: Sequence[str]) -> None:
    if key in o and o[key] not in choices:
        raise VariantError(f"{key}: expected one of {list(choices)}, got {o[key]!r}", [key])


def _category_table(base: Edition, value: Any, option: str) -> dict[str, list[Any]]:
    if not isinstance(value, Mapping):
        raise VariantError(f"{option}: expected {{category: [cards]}}, e.g. "
                           f"{{{base.categories[1].id!r}: [...]}}", [option])
    out = {}
    for category, cards in value.items():
        if category not in [c.id for c in base.categories]:
            raise VariantError(f"{option}: {_title(base)} has no category {category!r}; "
                               f"categories: {', '.join(c.id for c in base.categories)}",
                               [option])
        if isinstance(cards, str | Mapping) or not isinstance(cards, Sequence):
            raise VariantError(f"{option}: expected a list of cards for {category!r}",
                               [option])
        out[category] = list(cards)
    return out


def _drop(base: Edition, value: Any) -> dict[str, list[Any]]:
    table = _category_table(base, value, "drop")
    out: dict[str, list[Any]] = {}
    for category, names in table.items():
        cards = []
        for name in names:
            try:
                if not isinstance(name, str):
                    raise TypeError(name)
                card = base.card(name)
            except (KeyError, TypeError):
                raise VariantError(f"drop: {_title(base)} has no card {name!r}", ["drop"]) from None
            if card.category != category:
                raise VariantError(f"drop: {card.name} is a {card.category} card, not a "
                                   f"{category} card", ["drop"])
            if card in cards:
                raise VariantError(f"drop: {card.name} is named twice", ["drop"])
            cards.append(card)
        if cards:
            out[category] = sorted(cards, key=base.cards.index)
    return out


def _add(base: Edition, value: Any) -> dict[str, list[Any]]:
    """New cards as the data file would write them: ``{"id", "name", <features>}``."""
    table = _category_table(base, value, "add")
    taken = {normalize(k) for c in base.cards for k in (c.id, c.name, *c.aliases)}
    out: dict[str, list[Any]] = {}
    for category, specs in table.items():
        features = [f for f in base.features.values() if f.category == category]
        cards = []
        for spec in specs:
            if isinstance(spec, str):
                if features:
                    example = {"name": spec, **{f.id: f.values[0] for f in features}}
                    raise VariantError(
                        f"add: {category} cards carry printed features "
                        f"({', '.join(f.id for f in features)}); give them, e.g. {example}",
                        ["add"])
                spec = {"name": spec}
            if not isinstance(spec, Mapping) or not isinstance(spec.get("name"), str) \
                    or not spec["name"].strip():
                raise VariantError(f"add: expected a card name or {{'name': ...}}, got "
                                   f"{spec!r}", ["add"])
            if "id" in spec and not isinstance(spec["id"], str):
                raise VariantError(f"add: {spec['name']}: an id is a text like "
                                   f"{_slug(spec['name'])!r}, not {spec['id']!r}", ["add"])
            card = {"id": spec.get("id") or _slug(spec["name"]), "name": spec["name"]}
            for feature in features:
                if spec.get(feature.id) not in feature.values:
                    raise VariantError(f"add: {spec['name']} needs {feature.id} = one of "
                                       f"{list(feature.values)}", ["add"])
                card[feature.id] = spec[feature.id]
            stray = set(spec) - {"id", "name", *(f.id for f in features)}
            if stray:
                raise VariantError(f"add: {category} cards have no field {sorted(stray)[0]!r}",
                                   ["add"])
            keys = {normalize(card["id"]), normalize(card["name"])}
            if keys & taken:
                raise VariantError(f"add: the deck already has a card called {spec['name']!r}",
                                   ["add"])
            taken |= keys
            cards.append(card)
        if cards:
            out[category] = cards
    return out


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "card"


def _apply(data: dict[str, Any], base: Edition, rules: Mapping[str, Any]) -> dict[str, Any]:
    """The base's data with the rules in effect written in."""
    raw = copy.deepcopy(data)
    for category in raw["categories"]:
        gone = set(rules["drop"].get(category["id"], ()))
        category["cards"] = [c for c in category["cards"] if c["id"] not in gone]
        category["cards"] += [dict(c) for c in rules["add"].get(category["id"], ())]
    if rules["players"] is not None:
        raw["players"] = {"min": rules["players"], "max": rules["players"]}
    deal = raw["deal"]
    deal["spares"] = rules["rest"]
    deal.pop("hands", None)
    if rules["face_down"] != base.deal.face_down:
        room = next(c for c in raw["categories"] if c["id"] == ROOM) if rules["face_down"] \
            else {"cards": []}
        deal["face_down"] = rules["face_down"]
        deal["face_down_places"] = [c["name"] for c in room["cards"][:rules["face_down"]]]
    if rules["hands"]:
        deal["hands"] = rules["hands"]
    question = raw["question"]
    for key in ("items", "form", "answer"):
        question[key] = rules[key]
    raw.setdefault("accusation", {})["wrong"] = rules["wrong"]
    return raw


# ---------------------------------------------------------------------------------------------
# What each engine supports
# ---------------------------------------------------------------------------------------------

def board_support(v: Variant) -> list[tuple[str, str]]:
    """The options of a board variant that the board game engine does not play, as (option,
    what the engine supports) pairs; empty when the engine plays the variant as set. Who
    answers (``answer``) and whether a wrong accuser leaves (``wrong``) are played; the rest
    refused here is fixed by the board: its rooms, one piece per suspect, a question naming
    the room you stand in with one suspect and one weapon."""
    ed, base = v.edition, v.base
    out = []
    if ed.question.form != "one-per-category" or ed.question.items != len(ed.categories):
        out.append(("items", "questions naming one card of each category (form="
                             "'one-per-category')"))
    opts = v.options
    for option in ("drop", "add"):
        changed = [c for c in opts.get(option, {})
                   if c == ROOM or (option == "add" and c == base.categories[0].id)]
        if changed:
            out.append((option, "the board's own rooms and one piece per suspect (no "
                                f"{option} in {', '.join(changed)})"))
    suspects = len(ed.categories[0].cards)
    if v.players is not None and v.players > suspects:
        out.append(("players", f"at most {suspects} players (one suspect's piece each)"))
    return out
