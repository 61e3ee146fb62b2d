"""2002 action cards: which card to play, and with what.

The policy scores each action card in hand by what it may settle now: snoop on the player
with most unknown cards, a Private Tip where it settles most, a Super Sleuth whose cards are
still uncertain, a marker moved to the likeliest destination, a suggestion naming the
likeliest cards. It reads the seat's chances through :class:`CardOdds`, so exact knowledge and
paper notes both serve.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Protocol

from ..games.card_2002 import CardGame2002
from ..games.card_game import CardGame
from ..games.game import Action, required
from ..records import Record
from ..rules.edition import ActionCardKind, Card

__all__ = ["CardOdds", "ranked", "likeliest_suggestion", "action_card_play"]


class CardOdds(Protocol):
    """A seat's chances of each card in each place (a Knowledge, or PaperOdds)."""

    record: Record

    def probability(self, card: Card | str, place: str) -> Fraction: ...


def ranked(cards: Sequence[str], env: Mapping[str, Fraction], rng: random.Random) -> list[str]:
    """Cards by decreasing chance of being in the envelope; seeded ties."""
    keyed = [(env[c], rng.random(), c) for c in cards]
    return [c for _, _, c in sorted(keyed, reverse=True)]


def likeliest_suggestion(game: CardGame, env: Mapping[str, Fraction],
                         rng: random.Random) -> list[str]:
    """One card per non-place category: the likeliest in the envelope (the known envelope
    card when the category is solved, so answers speak of the others)."""
    return [ranked([c.id for c in category.cards], env, rng)[0]
            for category in game.edition.categories[:-1]]


def action_card_play(game: CardGame2002, seat: int, odds: CardOdds, env: Mapping[str, Fraction],
                     legal: Sequence[Action], rng: random.Random) -> Action:
    """The action card to play now, and its target or destination (see the module
    docstring); a random legal play when no card scores."""
    names = game.names
    me = names[seat]
    opponents = [n for n in names if n != me]
    hidden = {o: odds.record.hand_size(o) - sum(
        1 for c in game.edition.cards if odds.probability(c, o) == 1) for o in opponents}
    place_cat = game.edition.categories[-1]
    places = [c.id for c in place_cat.cards]
    uncertain = {c for c, p in env.items() if 0 < p < 1}
    best_place = ranked(places, env, rng)[0]
    options: list[tuple[float, float, Action]] = []

    def offer(score: float, action: Action) -> None:
        if action in legal:
            options.append((score, rng.random(), action))

    for label in dict.fromkeys(game.action_cards(seat)):
        kind = game.action_kind(label)
        if kind.kind == "suggest-any":
            offer(2.0 if best_place in uncertain else 0.5,
                  Action.make("play", seat, card=label, destination=best_place))
        elif kind.kind == "suggest-current":
            pair = likeliest_suggestion(game, env, rng)
            named = set(pair) | {game.markers[seat]}
            if named & uncertain:
                here = 2.5 + (game.markers[seat] in uncertain)
                offer(here, Action.make("play", seat, card=label, cards=pair))
            elif best_place != game.markers[seat]:
                offer(1.0, Action.make("play", seat, card=label, destination=best_place))
        elif kind.kind == "snoop":
            target = max(opponents, key=lambda o: (hidden[o], rng.random()))
            offer(1.5 if hidden[target] else 0.1,
                  Action.make("play", seat, card=label, target=target))
        elif kind.kind == "all-snoop":
            offer(1.2 if any(hidden.values()) else 0.1, Action.make("play", seat, card=label))
        elif kind.kind == "super-sleuth":
            cards = _featured(game, kind)
            offer(2.5 if cards & uncertain else 0.3, Action.make("play", seat, card=label))
        elif kind.kind == "private-tip":
            if kind.all:
                category = required(kind.category, "the private tip's category")
                cards = {c.id for c in game.edition.category(category).cards}
            else:
                cards = _featured(game, kind)

            def unsure(o: str, cards: set[str] = cards) -> int:
                return sum(1 for c in cards if 0 < odds.probability(c, o) < 1)
            target = max(opponents, key=lambda o: (unsure(o), rng.random()))
            score = (3.5 if kind.all else 2.2) if cards & uncertain else 0.4
            offer(score if unsure(target) else 0.2,
                  Action.make("play", seat, card=label, target=target))
    if not options:
        return rng.choice([a for a in legal if a.kind == "play"])
    return max(options, key=lambda o: (o[0], o[1]))[2]


def _featured(game: CardGame2002, kind: ActionCardKind) -> set[str]:
    """The cards a super sleuth or a private tip names by a feature (e.g. female suspects)."""
    feature = required(kind.feature, f"the {kind.kind} card's feature")
    value = required(kind.value, f"the {kind.kind} card's value")
    return {c.id for c in game.edition.cards_with(feature, value)}

