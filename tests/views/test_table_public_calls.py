"""The Table reaches the engine's notepad through its public ``follow``, and the chooser
offers the bots the registry names for students."""

from cluedo_lab.bots.registry import FOR_TESTS, bot_names
from cluedo_lab.knowledge.engine import Knowledge
from cluedo_lab.lab.lesson_records import ANN_EVENTS, ann_record
from cluedo_lab.views.table import Table, TableChooser
from cluedo_lab.views.widgets import EngineNotepad


def test_a_notepad_follows_a_longer_record() -> None:
    before = Knowledge.from_dict(ann_record(6))
    pad = EngineNotepad(before)
    pad.select("Scarlett", "Bob")
    after = Knowledge.from_dict(ann_record(8))
    assert pad.follow(after) is pad and pad.knowledge is after
    fresh = EngineNotepad(before)
    assert pad.cell("Billiard Room", "Bob") == "✓" != fresh.cell("Billiard Room", "Bob")
    assert pad.selected == ("scarlett", "Bob")
    assert len(after.record.events) == len(ANN_EVENTS)


def test_the_table_keeps_its_engine_notepad_on_the_game_as_it_goes() -> None:
    table = Table("cluedo-card-game-2018", 3, seed=2, notes="engine")
    pad, first = table.engine_notepad, table.knowledge()
    assert pad is not None and pad.knowledge is first
    assert table.game.current == table.seat
    assert table.act(table.game.legal_actions()[0])
    assert table.engine_notepad is pad                     # one notepad, following the game
    assert pad.knowledge is table.knowledge() is not first
    assert len(pad.knowledge.record.events) > len(first.record.events)


def test_the_chooser_offers_the_students_bots() -> None:
    chooser = TableChooser()
    assert chooser.bot_choices == bot_names(for_students=True)
    assert not FOR_TESTS & set(chooser.bot_choices)
    assert chooser.bots in chooser.bot_choices
