"""Shipped editions with one field made wrong: loading one fails loudly, naming the file and the
field (the house rule for bad data), and the tests of each field's rule say only what is wrong."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cluedo_lab.rules.edition import edition_data, edition_from_dict
from cluedo_lab.rules.errors import EditionError

FILE = "mine.toml"
"""The file name the edited edition is loaded as (the error must name it)."""


def assert_refused(edition_id: str, field: str, value: Any, reason: str) -> None:
    """Load ``edition_id`` with ``field`` (dotted, as ``"deal.dealer"``) set to ``value``: it
    must fail with an EditionError naming the file, then the field, then matching ``reason`` (a
    regular expression)."""
    data = edition_data(edition_id)
    *sections, key = field.split(".")
    table = data
    for section in sections:
        table = table[section]
    table[key] = value
    with pytest.raises(EditionError, match=rf"^{re.escape(FILE)}: .*{re.escape(field)}.*{reason}"):
        edition_from_dict(data, FILE)
