"""HTML drawings of engine objects for notebooks (registered by :mod:`.display`)."""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from ..knowledge.engine import cell_text, format_weight
from ..rules import numbers
from ..rules.variant import describe_changes
from .base import pre, shade

if TYPE_CHECKING:
    from ..knowledge.engine import Knowledge
    from ..rules.deal import Deal
    from ..rules.edition import Edition, TextTable
    from ..rules.variant import Variant


def table_html(table: TextTable) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in table.header)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>"
                   for row in table.rows)
    title = f"<b>{escape(table.title)}</b>" if table.title else ""
    return f"{title}<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def edition_html(edition: Edition) -> str:
    """An edition shows its deck."""
    return table_html(edition.deck_table())


def deal_html(deal: Deal) -> str:
    rows = [("Envelope", deal.envelope)]
    rows += [(f"Seat {seat}", hand) for seat, hand in enumerate(deal.hands)]
    if deal.face_up:
        rows.append(("Face up", deal.face_up))
    rows += [(f"Face down ({pile})", (card,)) for pile, card in deal.face_down]
    body = "".join(f"<tr><th>{escape(label)}</th>"
                   f"<td>{escape(', '.join(c.name for c in cards))}</td></tr>"
                   for label, cards in rows)
    return f"<table>{body}</table>"


def variant_html(variant: Variant) -> str:
    """Option by option, the rows where the variant differs in bold."""
    count = variant.players or variant.base.min_players
    rows = []
    for option, base, mine in describe_changes(variant.base, variant.edition, count):
        style = " style='font-weight:bold'" if base != mine else ""
        rows.append(f"<tr{style}><td>{escape(option)}</td><td>{escape(base)}</td>"
                    f"<td>{escape(mine)}</td></tr>")
    return (f"<b>{escape(variant.name)}</b><table><thead><tr><th>option</th><th>base</th>"
            f"<th>variant</th></tr></thead><tbody>{''.join(rows)}</tbody></table>")


def knowledge_html(knowledge: Knowledge) -> str:
    """The card × place table, each cell shaded by its chance, the exact fraction on hover, and
    a legend that says what the marks, the numbers and the shading mean."""
    places = knowledge.places
    head = "".join(f"<th>{escape(p)}</th>" for p in places)
    rows = []
    for category in knowledge.edition.categories:
        rows.append(f"<tr><th colspan='{len(places) + 1}' style='text-align:left'>"
                    f"{escape(category.name)}</th></tr>")
        for card in category.cards:
            cells = []
            for p in places:
                prob = knowledge.probability(card, p)
                cells.append(f"<td style='background:{shade(prob)};"
                             f"text-align:center' title='{escape(numbers.exact(prob))}'>"
                             f"{escape(cell_text(prob))}</td>")
            rows.append(f"<tr><td>{escape(card.name)}</td>{''.join(cells)}</tr>")
    return (f"<table><tr><th></th>{head}</tr>{''.join(rows)}</table>"
            f"<p>{format_weight(knowledge.consistent_deals)} consistent deals</p>"
            f"<p class='cluedo-legend'>{escape(legend())}</p>")


def legend() -> str:
    """What a notepad's marks and numbers mean, in the learner's chosen number style."""
    style = numbers.MEANINGS[numbers.chance_style()]
    return (f"✓ certainly there, · certainly not; other cells: {style}, darker blue for "
            "likelier (hover for the exact fraction). A consistent deal is one way the cards "
            "could lie that fits everything seen so far.")


def pre_html(obj: Any) -> str:
    """Text that reads best as it is (an explanation): preformatted."""
    return pre(str(obj))
