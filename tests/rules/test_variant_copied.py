"""A variant file copied on its own (into a class folder, say) still finds its base: the file
beside it if there is one, else the edition the kit ships under that id."""

from __future__ import annotations

import shutil

import pytest

from cluedo_lab.rules.data import editions_dir
from cluedo_lab.rules.edition import is_shipped, load_edition
from cluedo_lab.rules.errors import EditionError

VARIANTS = ("cluedo-card-game-2018-advanced", "cluedo-the-card-game-2002-one-against-all",
            "clue-classic-2023-two-player")


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_variant_copied_alone_extends_the_shipped_base(tmp_path, variant):
    copy = tmp_path / f"{variant}.toml"
    shutil.copy(editions_dir() / f"{variant}.toml", copy)
    alone, shipped = load_edition(copy), load_edition(variant)
    assert not is_shipped(alone) and alone.extends == shipped.extends
    assert alone.cards == shipped.cards and alone.deal == shipped.deal
    assert (alone.mode, alone.min_players, alone.max_players, alone.accusation,
            alone.question) == (shipped.mode, shipped.min_players, shipped.max_players,
                                shipped.accusation, shipped.question)
    assert [a.about for a in alone.assumptions] == [a.about for a in shipped.assumptions]


def test_a_base_beside_the_copy_comes_first(tmp_path):
    variant = "cluedo-card-game-2018-advanced"
    base = load_edition(variant).extends
    shutil.copy(editions_dir() / f"{variant}.toml", tmp_path)
    text = (editions_dir() / f"{base}.toml").read_text()
    # The copy beside it is the one read: an error in it is reported against it.
    (tmp_path / f"{base}.toml").write_text(text.replace("schema = 1", "schema = 9", 1))
    with pytest.raises(EditionError, match=f"{base}.toml.*schema"):
        load_edition(tmp_path / f"{variant}.toml")


def test_an_unknown_base_still_fails_naming_the_field(tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('schema = 1\nid = "mine"\nextends = "no-such-edition"\n')
    with pytest.raises(EditionError, match="extends.*nor shipped with the kit"):
        load_edition(path)
