"""Lesson 01's game for the tests: Ann's record, kept once in ``cluedo_lab.lab.lesson_records``
(the notebooks read the same copy)."""

from cluedo_lab.lab.lesson_records import ANN_EVENTS as EVENTS
from cluedo_lab.lab.lesson_records import ANN_HAND as HAND
from cluedo_lab.lab.lesson_records import ann_record

__all__ = ["EVENTS", "HAND", "ann_record"]
