"""The variant explorer: change a base edition's rules with drop-downs and number boxes, and see
the variant's rules and figures next to the base's.

A thin view (as in :mod:`cluedo_lab.views.widgets`) over :func:`cluedo_lab.rules.variant.variant`
and :mod:`cluedo_lab.lab.variant_figures`: :meth:`VariantExplorer.set` changes options exactly as
the controls do, the comparison and the chart are computed by the library, and the static
rendering (``repr`` and ``_repr_html_``) shows the same table and chart without a kernel.
Options that clash are shown as the error :func:`~cluedo_lab.rules.variant.variant` raises; the
explorer keeps the last variant that worked.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Any

from ..lab import variant_figures as vf
from ..lab.charts import Chart, bar_chart
from ..rules.edition import TextTable, edition_ids, load_edition
from ..rules.variant import OPTIONS, Variant, VariantError, spares_of, variant
from .base import InteractiveView, live_box
from .charts_svg import chart_svg
from .reprs import table_html

if TYPE_CHECKING:
    import ipywidgets

__all__ = ["VariantExplorer"]

QUESTIONS: dict[str, dict[str, object]] = {
    "one of each category": {"form": "one-per-category", "items": None},
    "any 1 card": {"form": "any", "items": 1},
    "any 2 cards": {"form": "any", "items": 2},
    "any 3 cards": {"form": "any", "items": 3}}


class VariantExplorer(InteractiveView):
    """A variant of ``base`` for ``players`` players, compared with the base's rules for the
    same number of players (or the nearest number the base allows). ``simulate`` > 0 also
    plays that many seeded games of each between exact detectives."""

    def __init__(self, base: str = "cluedo-classic-1949", players: int | None = None, *,
                 simulate: int = 0, seed: int = 0, **options: Any):
        self.base_ref = base
        self.base = load_edition(base)
        self.simulate_games = simulate
        self.seed = seed
        self.options: dict[str, Any] = {}
        self.error: VariantError | None = None
        self.variant: Variant = variant(base)
        self._exact_figures: dict[tuple[object, ...], vf.Figures] = {}
        self._simulations: dict[tuple[object, ...], vf.Simulation | None] = {}
        start = players if players is not None else (
            self.base.min_players if self.base.min_players == self.base.max_players
            else min(max(3, self.base.min_players), self.base.max_players))
        self.set(players=start, **options)
        if self.error is not None:
            raise self.error

    # -- changing ------------------------------------------------------------------------------
    def set(self, **options: Any) -> VariantExplorer:
        """Change options (None: back to the base's rule). Clashing options are kept as
        :attr:`error` and the last working variant stays."""
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise VariantError(f"unknown option {unknown[0]!r}; options: {', '.join(OPTIONS)}",
                               unknown[:1])
        wanted = {**self.options, **options}
        wanted = {k: v for k, v in wanted.items() if v is not None}
        try:
            made = variant(self.base_ref, **wanted)
        except VariantError as error:
            self.error = error
        else:
            self.error, self.options, self.variant = None, wanted, made
        self._update()
        return self

    def set_question(self, label: str) -> VariantExplorer:
        """One of :data:`QUESTIONS`: what a question names."""
        if label not in QUESTIONS:
            return self
        return self.set(**QUESTIONS[label])

    def set_category_size(self, category: str, size: int) -> VariantExplorer:
        """Keep the first ``size`` cards of ``category`` (dropping the last ones), or add
        numbered extra cards past the base's."""
        cat = self.base.category(category)
        drop = {k: v for k, v in self.options.get("drop", {}).items() if k != category}
        add = {k: v for k, v in self.options.get("add", {}).items() if k != category}
        if size < len(cat.cards):
            drop[category] = [c.id for c in cat.cards[size:]]
        elif size > len(cat.cards):
            features = [f for f in self.base.features.values() if f.category == category]
            add[category] = [{"name": f"Extra {cat.name.lower()} {i + 1}",
                              **{f.id: f.values[0] for f in features}}
                             for i in range(size - len(cat.cards))]
        return self.set(drop=drop or None, add=add or None)

    # -- reading -------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.variant.players or self.options.get("players") or self.base.min_players

    def base_players(self) -> int:
        """The base's number of players to compare with: the variant's, if the base allows."""
        return min(max(self.players, self.base.min_players), self.base.max_players)

    def _exact(self, game: Any, players: int) -> vf.Figures:
        key = (getattr(game, "id", game), players)
        if key not in self._exact_figures:
            self._exact_figures[key] = vf.figures(game, players)
        return self._exact_figures[key]

    def _simulated(self, game: Any, players: int) -> vf.Simulation | None:
        if not self.simulate_games:
            return None
        key = (getattr(game, "id", game), players, self.simulate_games, self.seed)
        if key not in self._simulations:
            try:
                self._simulations[key] = vf.simulate(game, self.simulate_games, self.seed,
                                                     players)
            except VariantError:
                self._simulations[key] = None
        return self._simulations[key]

    def comparison(self) -> TextTable:
        """Rules, exact figures and (with ``simulate``) simulated figures: base and variant."""
        base = variant(self.base_ref)
        rules = {row[0]: row for row in self.variant.table(self.players).rows}
        rows = [(option, b, v) for option, b, v in rules.values()]
        ours = self._exact(self.variant, self.players)
        theirs = self._exact(base, self.base_players())
        for (label, b), (_, v) in zip(theirs.rows(), ours.rows(), strict=True):
            if label != "players":          # already a row of the rules
                rows.append((label, b, v))
        b_sim = self._simulated(base, self.base_players())
        v_sim = self._simulated(self.variant, self.players)
        if b_sim is not None and v_sim is not None:
            b_rows, v_rows = b_sim.rows(), v_sim.rows()
            labels = dict.fromkeys(k for k, _ in [*b_rows, *v_rows])
            b_map, v_map = dict(b_rows), dict(v_rows)
            rows += [(label, b_map.get(label, "-"), v_map.get(label, "-")) for label in labels]
        elif self.simulate_games:
            rows.append(("simulation", "-", "the board engine does not play this variant"))
        title = f"{self.variant.name} against the base rules"
        return TextTable(("", f"base ({self.base_players()} players)", "variant"), tuple(rows),
                     title=title)

    def chart(self) -> Chart:
        """Each figure of the variant as a share of the base's (100% = no change): possible
        envelopes, the chance of a first accusation, the best first question, and with
        ``simulate`` the turns to certainty."""
        base = self._exact(variant(self.base_ref), self.base_players())
        ours = self._exact(self.variant, self.players)
        pairs = [("envelopes", base.envelopes, ours.envelopes),
                 ("first accusation", float(base.accusation), float(ours.accusation)),
                 ("first question", base.first_question_bits, ours.first_question_bits)]
        b_sim = self._simulated(variant(self.base_ref), self.base_players())
        v_sim = self._simulated(self.variant, self.players)
        if b_sim is not None and v_sim is not None and b_sim.turns_to_solve \
                and v_sim.turns_to_solve:
            pairs.append(("turns to certainty", b_sim.turns_to_solve, v_sim.turns_to_solve))
        labels = [label for label, _, _ in pairs]
        shares = [round(v / b, 4) if b else 0.0 for _, b, v in pairs]
        return bar_chart(labels, shares, percent=True, ymin=0, ymax=max(2.0, *shares),
                         title="Each figure of the variant as a share of the base's",
                         ylabel="variant / base", width=600)

    def __repr__(self) -> str:
        text = repr(self.comparison())
        if self.error is not None:
            text = f"Not allowed: {self.error}\n(showing the last variant that worked)\n\n" + text
        return text

    def _repr_html_(self) -> str:
        error = (f"<p class='cluedo-variant-error' style='color:#b71c1c'><b>Not allowed:</b> "
                 f"{escape(str(self.error))} (showing the last variant that worked)</p>"
                 if self.error is not None else "")
        return error + table_html(self.comparison()) + chart_svg(self.chart())

    # -- live ----------------------------------------------------------------------------------
    def _build(self) -> ipywidgets.Widget:
        import ipywidgets as w

        v, base = self.variant.edition, self.base
        self._syncing = False
        controls: dict[str, Any] = {
            "base": w.Dropdown(options=edition_ids(), value=self.base_ref, description="base"),
            "players": w.BoundedIntText(value=self.players, min=2, max=8, description="players"),
            "spares": w.Dropdown(options=["uneven", "face-up", "face-down"],
                                 value=spares_of(v), description="spares"),
            "question": w.Dropdown(options=list(dict.fromkeys([*QUESTIONS,
                                                                _question_label(v)])),
                                   value=_question_label(v), description="asks"),
            "answer": w.Dropdown(options=[("first who can", "first-who-can"),
                                          ("every who can", "every-who-can")],
                                 value=v.question.answer, description="answers"),
            "wrong": w.Dropdown(options=[("stays to answer", "stays-to-refute"),
                                         ("leaves", "leaves")],
                                value=v.accusation.wrong, description="wrong accuser"),
        }
        for cat in base.categories:
            controls[f"size:{cat.id}"] = w.BoundedIntText(
                value=len(v.category(cat.id).cards), min=base.deal.envelope[cat.id] + 1,
                max=len(cat.cards) + 3, description=cat.name.lower())
        for name, control in controls.items():
            control.add_class(f"cluedo-variant-{name.replace(':', '-')}")
            control.observe(lambda change, name=name: self._changed(name, change["new"]),
                            names="value")
        self._controls = controls
        self._out = w.HTML()
        self._out.add_class("cluedo-variant-view")
        box = live_box(self, [w.HBox([w.VBox(list(controls.values())[:6]),
                                      w.VBox(list(controls.values())[6:])]), self._out])
        box.add_class("cluedo-variant-explorer")
        self._parts = {**controls, "view": self._out}
        return box

    def _changed(self, name: str, value: Any) -> None:
        if self._syncing:
            return
        if name == "base":
            fresh = VariantExplorer(value, simulate=self.simulate_games, seed=self.seed)
            self.base_ref, self.base = fresh.base_ref, fresh.base
            self.options, self.variant, self.error = fresh.options, fresh.variant, None
            self._ui_rebuild()
        elif name == "question":
            self.set_question(value)
        elif name.startswith("size:"):
            self.set_category_size(name.split(":", 1)[1], value)
        else:
            self.set(**{name: value})

    def _ui_rebuild(self) -> None:
        """A new base has other categories: rebuild the controls in place."""
        if self._ui is not None:
            fresh = self._build()
            self._ui.children = fresh.children
            self._refresh()

    def _refresh(self) -> None:
        self._syncing = True
        try:
            v = self.variant.edition
            c = self._controls
            c["players"].value = self.players
            c["spares"].value = spares_of(v)
            c["question"].value = _question_label(v)
            c["answer"].value = v.question.answer
            c["wrong"].value = v.accusation.wrong
        finally:
            self._syncing = False
        self._out.value = self._repr_html_()


def _question_label(edition: Any) -> str:
    q = edition.question
    if q.form == "one-per-category":
        return "one of each category"
    return f"any {q.items} card" + ("s" if q.items > 1 else "")
