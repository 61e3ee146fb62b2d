"""The test oracle: every deal, checked one by one against what the record says.

This is the ground truth the knowledge engine (``cluedo_lab.knowledge``) is checked against, so
it shares nothing with the engine but the edition loader: it reads the record's JSON itself and
takes each event by its plain meaning in ``docs/records.md``. It enumerates every deal of the
deck (each card in exactly one place, every place exactly its number of cards, the envelope its
number of cards per category), keeps those in which everything the record says is true, and
counts. It is written to be obviously right, not fast: keep the decks small (``tests/data``).

Under the ``"refuter-uniform"`` model each consistent deal is weighed by 1/k for every card a
refuter showed the observer, k being how many cards that refuter could have chosen from in that
deal: the named cards they held (a suggestion the observer made), every card in their hand (a
``show`` to the observer), their cards with the feature (the observer's super sleuth).

A deal is a tuple with one entry per place (in :attr:`Table.places` order): the set of cards in
that place, as a bit mask over the deck (bit ``i`` is ``Table.cards[i]``).

    oracle = brute_force(record)          # or brute_force(record, "refuter-uniform")
    oracle.count                          # consistent deals (refuter-uniform: a Fraction)
    oracle.probability("rope", "Bob")     # a Fraction
    oracle.probabilities(), oracle.envelope_distribution(), oracle.known()
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from cluedo_lab.rules.edition import load_edition, normalize

ENVELOPE = "envelope"
FACE_UP = "face-up"
MODELS = ("uniform", "refuter-uniform")

Deal = tuple[int, ...]          # one bit mask of cards per place
Check = Callable[[Deal], bool]  # one thing the record says, true or false of a deal
Choice = Callable[[Deal], int]  # how many cards a refuter could choose from in a deal


# ---------------------------------------------------------------------------------------------
# The deck and the places
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Table:
    """The deck and the places of one record: who holds how many cards, and the envelope."""

    cards: tuple[str, ...]                        # card ids in deck (category) order
    category: Mapping[str, str]                   # card id -> category id
    categories: tuple[tuple[str, tuple[str, ...]], ...]
    features: Mapping[str, Mapping[str, str]]     # card id -> {feature: value}
    envelope: Mapping[str, int]                   # category id -> cards in the envelope
    players: tuple[str, ...]                      # seat order
    places: tuple[str, ...]                       # players, envelope, [face-up], piles
    sizes: Mapping[str, int]                      # place -> number of cards
    names: Mapping[str, str]                      # normalized name/id/alias -> card id
    answer: str = "first-who-can"                 # or "every-who-can": who shows a card
    wrong: str = "stays-to-refute"                # or "leaves": a wrong accuser is skipped

    def card(self, name: str) -> str:
        """The id of the card a record means by ``name`` (id, printed name or alias)."""
        try:
            return self.names[normalize(name)]
        except KeyError:
            raise ValueError(f"no card {name!r} in this deck") from None

    def bit(self, name: str) -> int:
        return 1 << self.cards.index(self.card(name))

    def mask(self, names) -> int:
        out = 0
        for name in names:
            out |= self.bit(name)
        return out

    def index(self, place: str) -> int:
        if place not in self.places:
            raise ValueError(f"no place {place!r}; places are {list(self.places)}")
        return self.places.index(place)

    def ids(self, mask: int) -> tuple[str, ...]:
        """The card ids in ``mask``, in deck order."""
        return tuple(c for i, c in enumerate(self.cards) if mask >> i & 1)

    def with_feature(self, feature: str, value: str) -> int:
        return self.mask(c for c in self.cards if self.features[c].get(feature) == value)

    def of_category(self, category: str) -> int:
        return self.mask(c for c in self.cards if self.category[c] == category)

    def where(self, deal: Deal) -> dict[str, str]:
        """The deal as {card id: place}."""
        return {card: place for place, mask in zip(self.places, deal, strict=True)
                for card in self.ids(mask)}

    def deal_from(self, where: Mapping[str, str]) -> Deal:
        """The deal with each card where ``where`` ({card: place}) puts it."""
        masks = [0] * len(self.places)
        for card, place in where.items():
            masks[self.index(place)] |= self.bit(card)
        return tuple(masks)


def table(record: Mapping[str, Any]) -> Table:
    """The deck and places of ``record``: the edition's (or the custom ``deck``'s) cards; the
    players in seat order with their hand sizes (given, or the edition's for that many players,
    in seat order); the envelope; ``face-up`` if face-up cards are listed; the face-down piles."""
    if "deck" in record:
        # docs: a custom deck gets the classic rules, one card per category in the envelope.
        categories = tuple((cat, tuple(normalize(n) for n in names))
                           for cat, names in record["deck"].items())
        features: dict[str, dict[str, str]] = {c: {} for _, ids in categories for c in ids}
        envelope = {cat: 1 for cat, _ in categories}
        names = {normalize(n): normalize(n) for names in record["deck"].values() for n in names}
        default_sizes = None
        piles: tuple[str, ...] = ()
        rules = ("first-who-can", "stays-to-refute")
    else:
        edition = load_edition(record["edition"])
        categories = tuple((cat.id, tuple(c.id for c in cat.cards)) for cat in edition.categories)
        features = {c.id: dict(c.features) for c in edition.cards}
        envelope = dict(edition.deal.envelope)
        names = {}
        for c in edition.cards:
            for key in (c.id, c.name, *c.aliases):
                names[normalize(key)] = c.id
        default_sizes = edition
        piles = tuple(edition.deal.face_down_places)
        rules = (edition.question.answer, edition.accusation.wrong)
    cards = tuple(c for _, ids in categories for c in ids)
    category = {c: cat for cat, ids in categories for c in ids}

    players = [p if isinstance(p, Mapping) else {"name": p} for p in record["players"]]
    player_names = tuple(p["name"] for p in players)
    sizes: dict[str, int] = {}
    for seat, p in enumerate(players):
        if "hand_size" in p:
            sizes[p["name"]] = p["hand_size"]
        elif default_sizes is not None:
            sizes[p["name"]] = default_sizes.hand_sizes(len(players))[seat]
        else:
            # A custom deck deals everything, the first seats getting the extra cards.
            dealt = len(cards) - sum(envelope.values())
            base, extra = divmod(dealt, len(players))
            sizes[p["name"]] = base + (1 if seat < extra else 0)
    places = list(player_names) + [ENVELOPE]
    sizes[ENVELOPE] = sum(envelope.values())
    if record.get("face_up"):
        places.append(FACE_UP)
        sizes[FACE_UP] = len(record["face_up"])
    piles = tuple(record.get("face_down", piles))
    for pile in piles:
        places.append(pile)
        sizes[pile] = 1
    if len(set(places)) != len(places):
        raise ValueError(f"place names repeat: {places}")
    if sum(sizes.values()) != len(cards):
        raise ValueError(f"the places hold {sum(sizes.values())} cards, the deck has "
                         f"{len(cards)}")
    return Table(cards, category, categories, features, envelope, player_names, tuple(places),
                 sizes, names, *rules)


# ---------------------------------------------------------------------------------------------
# Every deal
# ---------------------------------------------------------------------------------------------

def all_deals(tab: Table) -> Iterator[Deal]:
    """Every deal of the deck over the places: the envelope takes the edition's number of cards
    from each category, then each other place in turn takes exactly its number of the rest."""
    envelope = tab.index(ENVELOPE)
    bits = [1 << i for i in range(len(tab.cards))]
    per_category = [[sum(combo) for combo in itertools.combinations(
        [bits[tab.cards.index(c)] for c in ids], tab.envelope[cat])]
        for cat, ids in tab.categories]
    # Partial deals: {place index: cards} so far, and the cards not yet placed.
    partial: list[tuple[dict[int, int], int]] = []
    for choice in itertools.product(*per_category):
        in_envelope = sum(choice)
        partial.append(({envelope: in_envelope}, sum(bits) & ~in_envelope))
    for place, name in enumerate(tab.places):
        if place == envelope:
            continue
        partial = [({**masks, place: taken}, rest & ~taken)
                   for masks, rest in partial
                   for taken in _subsets(rest, tab.sizes[name])]
    for masks, rest in partial:
        assert rest == 0
        yield tuple(masks[p] for p in range(len(tab.places)))


@lru_cache(maxsize=4096)
def _subsets(cards: int, size: int) -> tuple[int, ...]:
    """Every set of ``size`` cards out of ``cards`` (bit masks)."""
    members = [1 << i for i in range(cards.bit_length()) if cards >> i & 1]
    return tuple(sum(combo) for combo in itertools.combinations(members, size))


@lru_cache(maxsize=64)
def _deals_of(layout: tuple) -> tuple[Deal, ...]:
    cards, categories, envelope, places, sizes = layout
    category = {c: cat for cat, ids in categories for c in ids}
    tab = Table(cards, category, categories, {c: {} for c in cards}, dict(envelope), (),
                places, dict(zip(places, sizes, strict=True)), {c: c for c in cards})
    return tuple(all_deals(tab))


def every_deal(tab: Table) -> tuple[Deal, ...]:
    """:func:`all_deals`, remembered for each deck and set of places (many records share one)."""
    return _deals_of((tab.cards, tab.categories, tuple(sorted(tab.envelope.items())),
                      tab.places, tuple(tab.sizes[p] for p in tab.places)))


# ---------------------------------------------------------------------------------------------
# What the record says, one event at a time
# ---------------------------------------------------------------------------------------------

def holds(p: int, bit: int) -> Check:
    return lambda d: d[p] & bit != 0


def holds_none(p: int, mask: int) -> Check:
    return lambda d: d[p] & mask == 0


def holds_some(p: int, mask: int) -> Check:
    return lambda d: d[p] & mask != 0


def holds_all(p: int, mask: int) -> Check:
    return lambda d: d[p] & mask == mask


def holds_not_all(p: int, mask: int) -> Check:
    return lambda d: d[p] & mask != mask


def holds_a_card(p: int) -> Check:
    return lambda d: d[p] != 0


def holds_exactly(p: int, mask: int, within: int) -> Check:
    """Of the cards in ``within``, place ``p`` holds exactly those in ``mask``."""
    return lambda d: d[p] & within == mask


def held_count(p: int, mask: int) -> Choice:
    return lambda d: (d[p] & mask).bit_count()



@dataclass
class Meaning:
    """What one event says: checks every consistent deal passes, and (refuter-uniform) the
    choices a refuter made in front of the observer: each weighs a deal by 1/(cards to choose
    from)."""

    checks: list[Check]
    choices: list[Choice]


def departed(tab: Table, events: list[Mapping[str, Any]]) -> list[str]:
    """Who has left the game after these events: wrong accusers, when a wrong accuser leaves
    (``accusation.wrong = "leaves"``); they neither answer nor act any more."""
    if tab.wrong != "leaves":
        return []
    out: list[str] = []
    for event in events:
        if "accuse" in event and event.get("correct") is False and event["by"] not in out:
            out.append(event["by"])
    return out


def answer_order(record: Mapping[str, Any], tab: Table, asker: str,
                 out: list[str] = ()) -> list[str]:
    """Who is asked, in order: the players after ``asker`` in seat order, round the table,
    without those who left (``out``); a 2002 fugitive answers only when nobody else can, so
    is asked last."""
    seat = tab.players.index(asker)
    order = [p for p in tab.players[seat + 1:] + tab.players[:seat] if p not in out]
    fugitive = record.get("fugitive")
    if fugitive in order:
        order.remove(fugitive)
        order.append(fugitive)
    return order


def meaning(record: Mapping[str, Any], tab: Table, event: Mapping[str, Any],
            out: list[str] | None = None) -> Meaning:
    """The plain meaning of one event (docs/records.md), from the record's observer's view.
    ``out``: who had left the game before it (default: every wrong accuser in the record
    who left, for an event added at the end)."""
    observer = record.get("observer")
    checks: list[Check] = []
    choices: list[Choice] = []
    P = tab.index
    if out is None:
        out = departed(tab, record.get("events", []))
    present = [p for p in tab.players if p not in out]
    for key in ("by", "snoop", "to", "from"):
        if "reveal" not in event and isinstance(event.get(key), str) and event[key] in out:
            raise ValueError(f"{event}: {event[key]} has left the game")

    def seen(card_key: Any, viewers: list[str]) -> str | None:
        """The card the observer saw, or None; only the viewers can have seen it."""
        if card_key is None:
            return None
        if observer is None or observer not in viewers:
            raise ValueError(f"{event}: the observer ({observer}) cannot have seen the card")
        return tab.card(card_key)

    def answered(by: str, passed: list[str], showed: Mapping[str, Any], asked: int,
                 not_asked: str) -> None:
        """Each of ``passed`` holds none of the ``asked`` cards, each of ``showed`` holds one
        at least, and a shown card the observer saw is one of them (else ValueError: the card
        ``not_asked``); each shower chose among the asked cards they held."""
        for name in passed:
            checks.append(holds_none(P(name), asked))
        for name, shown in showed.items():
            checks.append(holds_some(P(name), asked))
            card = seen(shown, [by, name])
            if card is not None:
                if not tab.bit(card) & asked:
                    raise ValueError(f"{event}: {card} {not_asked}")
                checks.append(holds(P(name), tab.bit(card)))
                if observer == by:
                    choices.append(held_count(P(name), asked))

    if "suggest" in event:
        by = event["by"]
        named = tab.mask(event["suggest"])
        passed = list(event.get("passed", []))
        shown_by = event.get("shown_by")
        order = answer_order(record, tab, by, out)
        if tab.answer == "every-who-can":        # everyone asked shows a card or passes
            if "shown_by" in event or "card" in event:
                raise ValueError(f"{event}: every player who can shows: use 'showed'")
            showed = dict(event.get("showed", {}))
            if sorted([*passed, *showed]) != sorted(order) or \
                    passed != [p for p in order if p in passed]:
                raise ValueError(f"{event}: each of {order} shows a card or passes, in order")
            answered(by, passed, showed, named, "was not asked about")
            return Meaning(checks, choices)
        if "showed" in event:
            raise ValueError(f"{event}: only the first player who can shows a card")
        if passed != order[:len(passed)]:
            raise ValueError(f"{event}: players are asked in the order {order}")
        for name in passed:                      # "none of those"
            checks.append(holds_none(P(name), named))
        if shown_by is None:                     # nobody could show one: all others lack them
            if len(passed) != len(order):
                raise ValueError(f"{event}: with nobody showing, everyone else passed")
            for name in order:
                checks.append(holds_none(P(name), named))
        else:
            if len(passed) >= len(order) or order[len(passed)] != shown_by:
                raise ValueError(f"{event}: {shown_by} is not next after {passed}")
            checks.append(holds_some(P(shown_by), named))   # showed one of them
            card = seen(event.get("card"), [by, shown_by])
            if card is not None:
                if not tab.bit(card) & named:
                    raise ValueError(f"{event}: {card} was not asked about")
                checks.append(holds(P(shown_by), tab.bit(card)))
                if observer == by:               # the refuter chose among the named cards held
                    choices.append(held_count(P(shown_by), named))
    elif "accuse" in event:
        named = tab.mask(event["accuse"])
        if event["correct"] is True:
            checks.append(holds_all(P(ENVELOPE), named))
        elif event["correct"] is False:
            checks.append(holds_not_all(P(ENVELOPE), named))
        else:
            raise ValueError(f"{event}: 'correct' is true or false")
    elif "snoop" in event:
        target = event["snoop"]
        if target == event["by"]:
            raise ValueError(f"{event}: one snoops on somebody else")
        checks.append(holds_a_card(P(target)))   # there was a card to look at
        card = seen(event.get("card"), [event["by"]])
        if card is not None:
            checks.append(holds(P(target), tab.bit(card)))
    elif "all_snoop" in event:
        direction = event["all_snoop"]
        if direction not in ("left", "right"):
            raise ValueError(f"{event}: all_snoop is 'left' or 'right'")
        card = seen(event.get("card"), present)
        if observer in present:
            # Hands go towards `direction`: with "left" each player gets the hand of the
            # player on their right, the previous seat; with "right" the next seat's. Those
            # who left the game are not in the ring.
            seat = present.index(observer)
            step = -1 if direction == "left" else 1
            source = present[(seat + step) % len(present)]
            if event.get("from") not in (None, source):
                raise ValueError(f"{event}: the observer looked at {source}'s hand")
            if card is not None:
                checks.append(holds(P(source), tab.bit(card)))
        elif event.get("from") is not None:
            raise ValueError(f"{event}: 'from' needs an observer")
    elif "super_sleuth" in event:
        spec = event["super_sleuth"]
        by = event["by"]
        wanted = tab.with_feature(spec["feature"], spec["value"])
        showed = dict(event.get("showed", {}))
        nothing = list(event.get("nothing", []))
        opponents = [p for p in present if p != by]
        if sorted([*showed, *nothing]) != sorted(opponents):
            raise ValueError(f"{event}: every opponent of {by} answers once")
        answered(by, nothing, showed, wanted, "does not have the feature")
    elif "private_tip" in event:
        spec = event["private_tip"]
        to = event["to"]
        if to == event["by"]:
            raise ValueError(f"{event}: a tip comes from an opponent")
        cards = event.get("cards")
        if cards is not None:
            if observer not in (event["by"], to):
                raise ValueError(f"{event}: only the two players know a private tip")
            given = tab.mask(cards)
            if spec.get("all"):
                # `to` gave every card of the category: exactly these.
                kind = tab.of_category(spec["category"])
                if given & ~kind:
                    raise ValueError(f"{event}: a card is not a {spec['category']}")
                checks.append(holds_exactly(P(to), given, kind))
            else:
                wanted = tab.with_feature(spec["feature"], spec["value"])
                if given & ~wanted or len(cards) > 1:
                    raise ValueError(f"{event}: the tip is one card with the feature")
                if cards:                        # one card with the feature
                    checks.append(holds(P(to), given))
                else:                            # none: no card with the feature
                    checks.append(holds_none(P(to), wanted))
    elif "room_card" in event:
        card = seen(event.get("card"), [event["by"]])
        if card is not None:
            checks.append(holds(P(event["room_card"]), tab.bit(card)))
        else:
            P(event["room_card"])                # the pile must exist
    elif "show" in event:
        shower, to = event["show"], event["to"]
        if shower == to:
            raise ValueError(f"{event}: a card is shown to somebody else")
        checks.append(holds_a_card(P(shower)))   # there was a card to show
        card = seen(event.get("card"), [shower, to])
        if card is not None:
            # The shower picks any card of a hand whose size every deal shares: the weight
            # 1/hand size is the same in every deal, so the models leave it out.
            checks.append(holds(P(shower), tab.bit(card)))
    elif "reveal" in event:
        checks.append(holds(P(event["by"]), tab.bit(event["reveal"])))
    else:
        raise ValueError(f"unknown event {event}")
    return Meaning(checks, choices)


def setup_checks(record: Mapping[str, Any], tab: Table) -> list[Check]:
    """The set-up: the observer holds exactly the hand; the face-up cards lie face up."""
    checks: list[Check] = []
    everything = (1 << len(tab.cards)) - 1
    observer = record.get("observer")
    if observer is not None:
        hand = tab.mask(record.get("hand", []))
        if hand.bit_count() != len(record.get("hand", [])):
            raise ValueError("a card is listed twice in the hand")
        checks.append(holds_exactly(tab.index(observer), hand, everything))
    elif record.get("hand"):
        raise ValueError("a hand needs an observer")
    if record.get("face_up"):
        face_up = tab.mask(record["face_up"])
        checks.append(holds_exactly(tab.index(FACE_UP), face_up, everything))
    return checks


# ---------------------------------------------------------------------------------------------
# The answer
# ---------------------------------------------------------------------------------------------

class Oracle:
    """The consistent deals of a record and what follows from them, by brute force."""

    def __init__(self, record: Mapping[str, Any], model: str = "uniform"):
        if model not in MODELS:
            raise ValueError(f"unknown model {model!r}")
        self.record = record
        self.model = model
        self.table, self.meanings, kept = _consistent(json.dumps(record))
        tab = self.table
        self.places = tab.places
        self.cards = tab.cards
        choices = [c for m in self.meanings for c in m.choices] if model != "uniform" else []
        # The weight of a consistent deal is 1, or 1/(cards the refuter held to choose from)
        # for each choice the observer saw. Deals are grouped by that denominator so that
        # Fractions are made and added once per group, not once per deal.
        groups: dict[int, list[Deal]] = {}
        for deal in kept:
            denominator = 1
            for choice in choices:
                denominator *= choice(deal)
            groups.setdefault(denominator, []).append(deal)
        weights = {d: 1 if model == "uniform" else Fraction(1, d) for d in groups}
        self.deals: list[tuple[Deal, int | Fraction]] = [
            (deal, weights[d]) for d, deals in groups.items() for deal in deals]
        self.count: int | Fraction = (len(kept) if model == "uniform" else
                                      sum((len(g) * weights[d] for d, g in groups.items()),
                                          Fraction(0)))
        # The weight of each card in each place, and of each envelope.
        self._cell: dict[tuple[str, str], int | Fraction] = Counter()
        self._envelope: dict[tuple[str, ...], int | Fraction] = Counter()
        env = tab.index(ENVELOPE)
        for d, deals in groups.items():
            weight = weights[d]
            for p, place in enumerate(tab.places):
                for mask, n in Counter(deal[p] for deal in deals).items():
                    for card in tab.ids(mask):
                        self._cell[(card, place)] += weight * n
                    if p == env:
                        self._envelope[tab.ids(mask)] += weight * n

    def _need_deals(self) -> None:
        if not self.count:
            raise ValueError("no deal is consistent with the record")

    def probability(self, card: str, place: str) -> Fraction:
        self._need_deals()
        self.table.index(place)
        return Fraction(self._cell.get((self.table.card(card), place), 0)) / self.count

    def probabilities(self) -> dict[str, dict[str, Fraction]]:
        return {c: {p: self.probability(c, p) for p in self.places} for c in self.cards}

    def envelope_distribution(self) -> dict[tuple[str, ...], Fraction]:
        self._need_deals()
        return {k: Fraction(w) / self.count for k, w in sorted(self._envelope.items()) if w}

    def known(self) -> dict[tuple[str, str], bool]:
        """The cells that are the same in every consistent deal: True there, False not."""
        return {(c, p): prob == 1 for c, row in self.probabilities().items()
                for p, prob in row.items() if prob in (0, 1)}

    def where(self) -> list[tuple[dict[str, str], int | Fraction]]:
        """The consistent deals as ({card id: place}, weight)."""
        return [(self.table.where(d), w) for d, w in self.deals]

    def admits(self, deal: Mapping[str, str]) -> bool:
        """Is the deal ({card id: place}) one of the consistent deals?"""
        target = self.table.deal_from(deal)
        return any(d == target for d, _ in self.deals)

    def admits_event(self, event: Mapping[str, Any]) -> bool:
        """Would some consistent deal remain if ``event`` were added to the record?"""
        extra = meaning(self.record, self.table, event)
        return any(all(check(d) for check in extra.checks) for d, _ in self.deals)

    def __repr__(self) -> str:
        return f"Oracle(model={self.model!r}, count={self.count}, places={list(self.places)})"


@lru_cache(maxsize=16)
def _consistent(record_json: str) -> tuple[Table, list[Meaning], list[Deal]]:
    """The places, the events' meanings, and every deal of which everything the record says
    is true (checked one thing at a time over the deals left)."""
    record = json.loads(record_json)
    tab = table(record)
    events = record.get("events", [])
    meanings = [meaning(record, tab, e, departed(tab, events[:i]))
                for i, e in enumerate(events)]
    checks = setup_checks(record, tab) + [c for m in meanings for c in m.checks]
    kept = list(every_deal(tab))
    for check in checks:
        kept = [deal for deal in kept if check(deal)]
    return tab, meanings, kept


def brute_force(record: Mapping[str, Any], model: str = "uniform") -> Oracle:
    """Enumerate every deal and keep those consistent with ``record`` (see the module doc)."""
    return Oracle(record, model)
