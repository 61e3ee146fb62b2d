"""Exact knowledge from a record: the consistent deals counted, every cell's chance, why a cell
is known, and which question to ask.

Each name loads its module on first use, so that counting a record (``cluedo-lab solve``) does
not load the question ranking or the explanations. The sympy modules (:mod:`.logic`,
:mod:`.closed_forms`) are not named here: import them by their module names.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..rules.lazy import lazy_names

if TYPE_CHECKING:
    from ..rules.errors import Contradiction
    from .advice import information_gain, legal_questions, rank_questions
    from .engine import Knowledge, cell_text, format_weight
    from .explain import Deduction, Explanation, explain

# name -> the module that defines it
_NAMES: dict[str, str] = {
    "Contradiction": "cluedo_lab.rules.errors",
    "Deduction": "cluedo_lab.knowledge.explain",
    "Explanation": "cluedo_lab.knowledge.explain",
    "Knowledge": "cluedo_lab.knowledge.engine",
    "cell_text": "cluedo_lab.knowledge.engine",
    "explain": "cluedo_lab.knowledge.explain",
    "format_weight": "cluedo_lab.knowledge.engine",
    "information_gain": "cluedo_lab.knowledge.advice",
    "legal_questions": "cluedo_lab.knowledge.advice",
    "rank_questions": "cluedo_lab.knowledge.advice",
}

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


__getattr__, __dir__ = lazy_names(__name__, _NAMES)
