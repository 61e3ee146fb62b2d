"""The review where a game ends: the classroom page's "Review this game", with the learner's
marks the table kept."""

from __future__ import annotations

import pytest

from cluedo_lab.bots.registry import make_bot

pytest.importorskip("ipywidgets")


def widgets_in(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from widgets_in(child)


def review_button(page):
    return next((w for w in widgets_in(page) if getattr(w, "description", None)
                 == "Review this game"), None)


def test_the_classroom_page_ends_with_review_this_game():
    from cluedo_lab.views.classroom import Classroom
    room = Classroom("cluedo-card-game-2018", 3, seed=4, bots="random")
    page = room.widget()
    table = room.table
    assert review_button(page).layout.display == "none"     # not while the game goes on
    notes = table.learner_notepad
    hand = table.session.record().hand[0].id
    notes.mark(hand, table.me, "holds")                      # the learner's first mark
    bot = make_bot("eliminator", 4)
    while not table.game.is_over:
        assert table.act(bot.choose(table.game, table.seat)), table.message
    button = review_button(page)
    assert button.layout.display == "flex"
    button.click()
    assert button.layout.display == "none"
    shown = "".join(getattr(w, "value", "") for w in widgets_in(page)
                    if isinstance(getattr(w, "value", None), str))
    assert f"Game review: {table.me}" in shown and "<svg" in shown
    assert "Your notes" in shown                             # the marks the table kept
    review = table.review().review
    assert review.learner and all((hand, table.me) not in s.missed for s in review.learner)
