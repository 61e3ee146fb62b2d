"""How engine objects show themselves in Jupyter, kept out of the engine.

The lower layers hold no HTML or SVG: a :class:`~cluedo_lab.knowledge.Knowledge` or a
:class:`~cluedo_lab.rules.board.Board` has a text ``repr`` and ``str`` only. This module names,
for each engine class, the function in ``views`` that draws it, and :func:`install` registers
those functions with IPython's display formatters (by class *name*, so nothing is imported
until an object is shown). ``import cluedo_lab`` calls :func:`install` when it runs inside
IPython, so a notebook shows a notepad, a deal or a board as before; :func:`to_html` and
:func:`to_svg` give the same drawings anywhere.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# (module, class) -> (mime type, views module, function)
RENDERERS: dict[tuple[str, str], tuple[str, str, str]] = {
    ("cluedo_lab.rules.deal", "Deal"): ("text/html", "reprs", "deal_html"),
    ("cluedo_lab.rules.edition", "Edition"): ("text/html", "reprs", "edition_html"),
    ("cluedo_lab.rules.edition", "TextTable"): ("text/html", "reprs", "table_html"),
    ("cluedo_lab.rules.variant", "Variant"): ("text/html", "reprs", "variant_html"),
    ("cluedo_lab.rules.board", "Board"): ("image/svg+xml", "board_svg", "board_svg"),
    ("cluedo_lab.knowledge.engine", "Knowledge"): ("text/html", "reprs", "knowledge_html"),
    ("cluedo_lab.knowledge.explain", "Explanation"): ("text/html", "reprs", "pre_html"),
    ("cluedo_lab.games.board_game", "BoardGame"): ("image/svg+xml", "board_svg", "game_svg"),
    ("cluedo_lab.lab.charts", "Chart"): ("image/svg+xml", "charts_svg", "chart_svg"),
    ("cluedo_lab.lab.tournament", "TournamentResult"): ("text/html", "tournament_html",
                                                        "tournament_html"),
    ("cluedo_lab.lab.review", "GameReview"): ("text/html", "review", "review_html"),
}

def _function(module: str, function: str) -> Any:
    """A drawing function of a views module, imported when first needed."""
    return getattr(import_module(f"cluedo_lab.views.{module}"), function)


def _renderer(obj: Any, mime: str) -> Any:
    for cls in type(obj).__mro__:
        entry = RENDERERS.get((cls.__module__, cls.__qualname__))
        if entry is not None and entry[0] == mime:
            return _function(entry[1], entry[2])
    return None


def to_html(obj: Any) -> str:
    """The HTML a notebook shows for ``obj`` (an SVG drawing counts as HTML too)."""
    render = _renderer(obj, "text/html") or _renderer(obj, "image/svg+xml")
    if render is None:
        raise TypeError(f"no drawing for {type(obj).__name__}")
    return str(render(obj))


def to_svg(obj: Any) -> str:
    """The SVG a notebook shows for ``obj``."""
    render = _renderer(obj, "image/svg+xml")
    if render is None:
        raise TypeError(f"no SVG drawing for {type(obj).__name__}")
    return str(render(obj))


def _lazy(module: str, function: str) -> Any:
    def show(obj: Any) -> str:
        return str(_function(module, function)(obj))
    return show


def install(shell: Any = None) -> bool:
    """Register every drawing with IPython's formatters; False outside IPython."""
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        shell = get_ipython()
    if shell is None:
        return False
    formatters = shell.display_formatter.formatters
    for (module, name), (mime, views_module, function) in RENDERERS.items():
        formatters[mime].for_type_by_name(module, name, _lazy(views_module, function))
    return True
