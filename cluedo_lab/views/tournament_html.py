"""A tournament's results as HTML tables, for Jupyter."""

from __future__ import annotations

from html import escape

from ..lab.tournament import Row, TournamentResult

__all__ = ["tournament_html"]


def tournament_html(result: TournamentResult) -> str:
    """The title, the table by bot, the tables by seat and by turn order, and the notes."""
    def rows(items: list[Row], bots: bool) -> str:
        out = []
        for r in items:
            low, high = r.interval
            cells = [escape(r.label)] + ([str(r.played)] if bots else [])
            cells += [str(r.wins), f"{r.rate:.1%}", f"{low:.1%}–{high:.1%}"]
            if bots:
                cells += ["–" if r.turns_to_win is None else f"{r.turns_to_win:.1f}",
                          f"{r.wrong:.2f}"]
            out.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        return "".join(out)
    bots_head = ("<tr><th>bot</th><th>seats</th><th>wins</th><th>win rate</th>"
                 "<th>95% interval</th><th>turns to win</th><th>wrong / game</th></tr>")
    seat_head = ("<tr><th></th><th>wins</th><th>win rate</th><th>95% interval</th></tr>")
    notes = "; ".join(escape(n) for n in result.notes())
    made = f"<br><code>{escape(result.command)}</code>" if result.command else ""
    return (f"<p><b>{escape(result.title())}</b></p>"
            f"<table>{bots_head}{rows(result.by_bot(), True)}</table>"
            f"<table>{seat_head}{rows(result.by_seat() + result.by_order(), False)}</table>"
            f"<p>{notes}{made}</p>")
