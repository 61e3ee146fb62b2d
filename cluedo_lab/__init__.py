"""cluedo-lab: an exact teaching kit for Cluedo / Clue.

The names a notebook needs are importable from here (``from cluedo_lab import Knowledge,
new_game, Table``); each is loaded on first use, so ``import cluedo_lab`` stays light and pulls
in neither networkx, sympy nor ipywidgets. The subpackages are the architecture, lowest first:
``rules`` < ``records`` < ``knowledge`` | ``games`` < ``bots`` < ``lab`` < ``views``
(``docs/architecture.md``).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from .rules.lazy import lazy_names

__version__ = "0.1.0"

# name -> the module that defines it
_API: dict[str, str] = {
    # rules
    "load_edition": "cluedo_lab.rules.edition",
    "edition_ids": "cluedo_lab.rules.edition",
    "all_editions": "cluedo_lab.rules.edition",
    "Edition": "cluedo_lab.rules.edition",
    "Card": "cluedo_lab.rules.edition",
    "variant": "cluedo_lab.rules.variant",
    "Variant": "cluedo_lab.rules.variant",
    "deal": "cluedo_lab.rules.deal",
    "Deal": "cluedo_lab.rules.deal",
    "load_board": "cluedo_lab.rules.board",
    "Board": "cluedo_lab.rules.board",
    "Dice": "cluedo_lab.rules.dice",
    "CluedoLabError": "cluedo_lab.rules.errors",
    "EditionError": "cluedo_lab.rules.errors",
    "RecordError": "cluedo_lab.rules.errors",
    "Contradiction": "cluedo_lab.rules.errors",
    "IllegalAction": "cluedo_lab.rules.errors",
    # records
    "Record": "cluedo_lab.records",
    "ENVELOPE": "cluedo_lab.records",
    # knowledge
    "Knowledge": "cluedo_lab.knowledge",
    "rank_questions": "cluedo_lab.knowledge.advice",
    # games
    "new_game": "cluedo_lab.games",
    "Game": "cluedo_lab.games",
    "Action": "cluedo_lab.games",
    # bots and the lab
    "make_bot": "cluedo_lab.bots",
    "bot_names": "cluedo_lab.bots",
    "run_tournament": "cluedo_lab.lab.tournament",
    "LearnerMarks": "cluedo_lab.lab.learner",
    # views
    "Table": "cluedo_lab.views.table",
    "EngineNotepad": "cluedo_lab.views.widgets",
    "LearnerNotepad": "cluedo_lab.views.learner",
    "DeductionStepper": "cluedo_lab.views.widgets",
    "BoardExplorer": "cluedo_lab.views.widgets",
    "SuggestionAdvisor": "cluedo_lab.views.widgets",
    "VariantExplorer": "cluedo_lab.views.variant_explorer",
}

__all__ = [
    "Action", "all_editions", "Board", "BoardExplorer", "bot_names", "Card", "CluedoLabError",
    "Contradiction", "deal", "Deal", "DeductionStepper", "Dice", "Edition", "edition_ids",
    "EditionError", "EngineNotepad", "ENVELOPE", "Game", "IllegalAction", "Knowledge",
    "LearnerMarks", "LearnerNotepad", "load_board", "load_edition", "make_bot", "new_game",
    "rank_questions", "Record", "RecordError",
    "run_tournament", "SuggestionAdvisor", "Table", "variant", "Variant", "VariantExplorer",
]


__getattr__, __dir__ = lazy_names(__name__, _API)


if TYPE_CHECKING:
    from .bots import bot_names, make_bot
    from .games import Action, Game, new_game
    from .knowledge import Knowledge
    from .knowledge.advice import rank_questions
    from .lab.learner import LearnerMarks
    from .lab.tournament import run_tournament
    from .records import ENVELOPE, Record
    from .rules.board import Board, load_board
    from .rules.deal import Deal, deal
    from .rules.dice import Dice
    from .rules.edition import Card, Edition, all_editions, edition_ids, load_edition
    from .rules.errors import (
        CluedoLabError,
        Contradiction,
        EditionError,
        IllegalAction,
        RecordError,
    )
    from .rules.variant import Variant, variant
    from .views.learner import LearnerNotepad
    from .views.table import Table
    from .views.variant_explorer import VariantExplorer
    from .views.widgets import BoardExplorer, DeductionStepper, EngineNotepad, SuggestionAdvisor

if "IPython" in sys.modules:   # in a notebook: engine objects draw themselves
    from .views.display import install as _install_drawings

    _install_drawings()
