"""What every interactive view shares: a widget tree built on first use, and small HTML parts.

A view holds one engine object and asks it for everything it shows; :meth:`InteractiveView.widget`
builds the ipywidgets version once (ipywidgets is imported only then), and the static HTML of a
view is made of the parts below, so a view reads the same on GitHub as in a live notebook.

A live view names the parts a learner works or reads (its buttons, menus, boxes and ticks, and
the texts that show the answer), and :meth:`InteractiveView.part` hands one out by name: a
teacher's cell, or a test, presses, chooses and reads exactly what a learner's clicks do.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import cache
from html import escape
from types import MappingProxyType
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


class CellLooks:
    """The Layout and style models of a notepad's cells and labels, one per distinct look and
    shared by every cell that has it.

    Every widget model is a message to open it and one to close it, and each trait set after
    that is one more: a 6-player 1949 notepad with a Layout and a ButtonStyle of its own per cell,
    dressed after it was opened, sent about 1,600 messages (a border side per message). A New
    game in the classroom app sent them all in one burst, above the 1,000 messages the kernel's
    IOPub socket queues (ZMQ's default high-water mark): a server too busy to read them then
    lost the tail of the burst, and the page stayed on "Dealing…". Shared looks make a cell one
    Button model, opened already dressed (see :func:`cell_grid`), and a label one HTML model.
    """

    def __init__(self) -> None:
        self._layouts: dict[str, Any] = {}
        self._styles: dict[tuple[str, str], Any] = {}
        self._labels: dict[str, Any] = {}

    def layout(self, border: str) -> ipywidgets.Layout:
        if border not in self._layouts:
            import ipywidgets as w

            self._layouts[border] = w.Layout(width="auto", height="26px", padding="0 2px",
                                             border=border)
        return self._layouts[border]

    def style(self, color: str, weight: str = "normal") -> ipywidgets.ButtonStyle:
        if (color, weight) not in self._styles:
            import ipywidgets as w

            self._styles[(color, weight)] = w.ButtonStyle(button_color=color,
                                                          font_weight=weight)
        return self._styles[(color, weight)]

    def label(self, html: str, centred: bool = False) -> ipywidgets.HTML:
        """A grid label (a place, a category, a card): its layout and style are shared too."""
        import ipywidgets as w
        from ipywidgets.widgets.widget_string import HTMLStyle

        key = "centred" if centred else "label"
        if key not in self._labels:
            self._labels[key] = w.Layout(justify_content="center", width="auto") if centred \
                else w.Layout()
        if "style" not in self._labels:
            self._labels["style"] = HTMLStyle()
        return w.HTML(html, layout=self._labels[key], style=self._labels["style"])

    def models(self) -> list[Any]:
        """Every model made so far (for :func:`close_tree`: some may no longer be in use)."""
        return [*self._layouts.values(), *self._styles.values(), *self._labels.values()]


def cell_grid(edition: Any, places: Sequence[str], on_click: Callable[[str, str], Any],
              buttons: dict[tuple[str, str], Any], *, css: str, column: str,
              look: Callable[[str, str], dict[str, Any]], looks: CellLooks
              ) -> ipywidgets.GridBox:
    """A notepad's card × place grid of buttons, a row per card under its category's name.
    Each button is stored in ``buttons`` by (card id, place), calls ``on_click(card, place)`` and
    is opened with ``look(card, place)``: its traits (layout and style from ``looks``), so that
    drawing the grid sends no message per cell beyond its opening (see :func:`restyle`)."""
    import ipywidgets as w

    grid: list[Any] = [looks.label("")]
    grid += [looks.label(f"<b>{escape(p)}</b>", centred=True) for p in places]
    for category in edition.categories:
        # A full row (not one spanning cell: ipywidgets drops an initial grid_column).
        grid.append(looks.label(f"<b>{escape(category.name)}</b>"))
        grid += [looks.label("") for _ in places]
        for card in category.cards:
            grid.append(looks.label(escape(card.name)))
            for place in places:
                button = w.Button(**look(card.id, place),
                                  _dom_classes=(css, f"cluedo-cell-{card.id}-{slug(place)}"))
                button.on_click(lambda _b, c=card.id, p=place: on_click(c, p))
                buttons[(card.id, place)] = button
                grid.append(button)
    box = w.GridBox(grid, layout=w.Layout(
        grid_template_columns=f"max-content repeat({len(places)}, {column})",
        grid_gap="2px 4px", align_items="center"))
    box.shared_models = looks.models
    return box


def restyle(button: Any, look: dict[str, Any]) -> None:
    """Give a button the traits in ``look`` in one message (traits already so send nothing)."""
    with button.hold_sync():
        for name, value in look.items():
            setattr(button, name, value)


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
    """Shared plumbing of the views: a lazily built, cached widget tree whose parts have names.

    A view's ``_build`` puts the parts a learner works or reads in ``_parts`` by name;
    :meth:`part` is the one way to reach them from outside the view.
    """

    _ui: Any = None
    _parts: Mapping[str, Any] = MappingProxyType({})

    def part(self, name: str) -> Any:
        """The live view's part called ``name`` (the view is built if it was not): press a
        button (``stepper.part("forward").click()``), choose in a menu, tick a box or read
        what a text shows, as a learner would:

        >>> from cluedo_lab.views.widgets import BoardExplorer
        >>> explorer = BoardExplorer("classic-24x25")
        >>> explorer.part("where").value = "kitchen"      # the learner's pick in the menu
        >>> explorer.position, "From the Kitchen" in explorer.part("table").value
        ('kitchen', True)
        >>> explorer.part("dice")
        Traceback (most recent call last):
        KeyError: "BoardExplorer has no part 'dice'; its parts: where, target, show_route, ..."
        """
        self.widget()
        if name not in self._parts:
            raise KeyError(f"{type(self).__name__} has no part {name!r}; its parts: "
                           + (", ".join(self._parts) or "none"))
        return self._parts[name]

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
