"""Exact knowledge from a record: the consistent deals counted, every cell's chance, why a cell
is known, and which question to ask.

The sympy modules (:mod:`.logic`, :mod:`.closed_forms`) are left out so that importing the
engine does not load sympy; import them by their module names.
"""

from ..rules.errors import Contradiction
from .advice import information_gain, legal_questions, rank_questions
from .engine import Knowledge, cell_text, format_weight
from .explain import Deduction, Explanation, explain

__all__ = [
    "Contradiction",
    "Deduction",
    "Explanation",
    "Knowledge",
    "cell_text",
    "explain",
    "format_weight",
    "information_gain",
    "legal_questions",
    "rank_questions",
]
