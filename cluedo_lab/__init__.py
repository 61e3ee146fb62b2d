"""cluedo-lab: an exact teaching kit for Cluedo / Clue."""

from __future__ import annotations

import sys

if "IPython" in sys.modules:   # in a notebook: engine objects draw themselves
    from .views.display import install as _install

    _install()
