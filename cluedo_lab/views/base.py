"""What every interactive view shares: a widget tree built on first use, and small HTML parts.

A view holds one engine object and asks it for everything it shows; :meth:`InteractiveView.widget`
builds the ipywidgets version once (ipywidgets is imported only then), and the static HTML of a
view is made of the parts below, so a view reads the same on GitHub as in a live notebook.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import cache
from html import escape
from typing import TYPE_CHECKING, Any

from ..records import ENVELOPE

if TYPE_CHECKING:
    import ipywidgets


def slug(text: str) -> str:
    """A CSS-safe fragment of a name: "Lead Piping" -> "lead-piping"."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def place_phrase(place: str) -> str:
    return "the envelope" if place == ENVELOPE else place


def shade(p: Fraction) -> str:
    """The notepad's colour for a chance: white at 0, blue at 1."""
    level = int(255 - 155 * float(p))
    return f"rgb({level},{level},255)"


def pre(text: str) -> str:
    """Text shown as it is, escaped."""
    return f"<pre>{escape(text)}</pre>"


def cell_grid(edition: Any, places: Sequence[str], on_click: Callable[[str, str], Any],
              buttons: dict[tuple[str, str], Any], *, css: str,
              column: str) -> ipywidgets.GridBox:
    """A notepad's card × place grid of buttons, a row per card under its category's name.
    Each button is stored in ``buttons`` by (card id, place) and calls ``on_click(card, place)``."""
    import ipywidgets as w

    grid: list[Any] = [w.HTML("")]
    grid += [w.HTML(f"<b>{escape(p)}</b>", layout=w.Layout(justify_content="center",
                                                           width="auto"))
             for p in places]
    for category in edition.categories:
        # A full row (not one spanning cell: ipywidgets drops an initial grid_column).
        grid.append(w.HTML(f"<b>{escape(category.name)}</b>"))
        grid += [w.HTML("") for _ in places]
        for card in category.cards:
            grid.append(w.HTML(escape(card.name)))
            for place in places:
                button = w.Button(layout=w.Layout(width="auto", height="26px",
                                                  padding="0 2px"))
                button.add_class(css)
                button.add_class(f"cluedo-cell-{card.id}-{slug(place)}")
                button.on_click(lambda _b, c=card.id, p=place: on_click(c, p))
                buttons[(card.id, place)] = button
                grid.append(button)
    return w.GridBox(grid, layout=w.Layout(
        grid_template_columns=f"max-content repeat({len(places)}, {column})",
        grid_gap="2px 4px", align_items="center"))


def beside(widget: Any) -> Any:
    """Let a text widget in a column wrap to the column's width instead of widening it (width
    0, at least the whole column): a long message never pushes a notepad off the screen."""
    widget.layout.width, widget.layout.min_width = "0", "100%"
    return widget


def live_box(view: Any, children: list[Any], **kwargs: Any) -> ipywidgets.VBox:
    """The top box of a view's live widget. Displayed, it carries the view's static drawing
    beside the widget, so a saved notebook shows the drawing before it is run (the widget
    itself needs a running kernel); :file:`notebooks/refresh_outputs.py` keeps only that."""
    box = _live_vbox()(children, **kwargs)
    box.view = view
    return box


@cache
def _live_vbox() -> type:
    import ipywidgets

    class LiveVBox(ipywidgets.VBox):  # type: ignore[misc]
        view: Any = None

        def _repr_mimebundle_(self, **kwargs: Any) -> dict[str, Any]:
            data: dict[str, Any] = super()._repr_mimebundle_(**kwargs)
            data["text/html"] = self.view._repr_html_()
            data["text/plain"] = (f"{type(self.view).__name__} (a live view: run the "
                                  "notebook to use it)")
            return data

    return LiveVBox


class InteractiveView:
    """Shared plumbing of the views: a lazily built, cached widget tree."""

    _ui: Any = None

    def widget(self) -> ipywidgets.Widget:
        """The live view (built on first call, then the same object: displaying it twice shows
        two synchronised copies)."""
        if self._ui is None:
            self._ui = self._build()
            self._refresh()
        return self._ui

    def _build(self) -> ipywidgets.Widget:
        raise NotImplementedError

    def _refresh(self) -> None:
        raise NotImplementedError

    def _update(self) -> None:
        if self._ui is not None:
            self._refresh()
