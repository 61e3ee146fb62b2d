"""Dice: exact distributions against hand counts and against brute-force enumeration of every
face combination (a second, independent method)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from cluedo_lab.rules import edition as edition_module
from cluedo_lab.rules.dice import ONE_DIE, TWO_DICE, Dice, total_distribution
from cluedo_lab.rules.edition import load_edition


def enumerate_rolls(count: int, sides: int, icons: tuple[int, ...] = ()):
    """Every equally likely roll: (total, any icon) per combination of faces."""
    return [(sum(faces), any(f in icons for f in faces))
            for faces in itertools.product(range(1, sides + 1), repeat=count)]


def test_two_dice_by_hand():
    dist = TWO_DICE.total_distribution()
    assert dist[7] == Fraction(1, 6)            # (1,6) (2,5) (3,4) (4,3) (5,2) (6,1)
    assert dist[2] == dist[12] == Fraction(1, 36)
    assert list(dist) == list(range(2, 13))     # totals ascending
    assert sum(dist.values()) == 1
    assert all(isinstance(p, Fraction) for p in dist.values())
    assert TWO_DICE.chance_at_least(7) == Fraction(21, 36)
    assert TWO_DICE.chance_at_least(2) == 1 and TWO_DICE.chance_at_least(13) == 0
    assert TWO_DICE.mean() == 7


def test_one_die():
    assert ONE_DIE.total_distribution() == {face: Fraction(1, 6) for face in range(1, 7)}
    assert ONE_DIE.icon_chance() == 0
    assert str(ONE_DIE) == "1d6"


@pytest.mark.parametrize(("count", "sides", "icons"),
                         [(1, 6, ()), (2, 6, (1,)), (3, 4, (2,)), (2, 8, (1, 8)), (4, 3, ())])
def test_against_enumeration(count, sides, icons):
    rolls = enumerate_rolls(count, sides, icons)
    dice = Dice(count, sides, icons)
    share = Fraction(1, len(rolls))
    totals = {t: sum(share for r in rolls if r[0] == t) for t in sorted({r[0] for r in rolls})}
    assert dice.total_distribution() == totals
    joint = {}
    for roll in rolls:
        joint[roll] = joint.get(roll, 0) + share
    assert dice.joint_distribution() == joint
    assert dice.icon_chance() == sum(share for r in rolls if r[1])


def test_magnifying_glass_on_face_one():
    dice = Dice(2, 6, (1,))
    # At least one glass: 1 - (5/6)^2 = 11/36 (two glasses still draw a single card).
    assert dice.icon_chance() == Fraction(11, 36)
    joint = dice.joint_distribution()
    assert joint[(2, True)] == Fraction(1, 36)       # glass + glass: one card
    assert (2, False) not in joint
    assert joint[(3, True)] == Fraction(2, 36)       # glass+2, 2+glass
    assert (3, False) not in joint
    assert joint[(7, True)] == Fraction(2, 36)       # glass+6, 6+glass
    assert joint[(7, False)] == Fraction(4, 36)      # 2+5, 3+4, 4+3, 5+2
    assert (12, True) not in joint
    assert sum(joint.values()) == 1
    # The glass counts as 1, so the totals are those of plain dice.
    assert dice.total_distribution() == TWO_DICE.total_distribution()
    assert str(dice) == "2d6, glass on 1"


def test_edition_dice_are_accepted():
    clue_2023 = load_edition("clue-classic-2023")
    dice = Dice.of(clue_2023.dice)
    assert isinstance(clue_2023.dice, edition_module.Dice)
    assert (dice.count, dice.sides, dice.icon_faces) == (2, 6, (1,))
    assert dice.icon_chance() == Fraction(11, 36)
    assert total_distribution(clue_2023.dice)[7] == Fraction(1, 6)
    assert Dice.for_edition(clue_2023) == dice


def test_1949_one_die_or_two():
    classic = load_edition("cluedo-classic-1949")
    assert Dice.for_edition(classic) == TWO_DICE
    one = Dice.for_edition(classic, count=1)
    assert one == ONE_DIE
    assert one.total_distribution()[6] == Fraction(1, 6)
    assert one.chance_at_least(7) == 0     # Mrs Peacock's 7 moves: never on the first turn


def test_card_games_have_no_dice():
    with pytest.raises(ValueError, match="no dice"):
        Dice.for_edition(load_edition("cluedo-card-game-2018"))


def test_other_forms():
    assert total_distribution(2) == TWO_DICE.total_distribution()
    given = {1: Fraction(1, 2), 3: Fraction(1, 2)}
    assert total_distribution(given) == given
    with pytest.raises(ValueError, match="add up"):
        total_distribution({1: Fraction(1, 2)})
    with pytest.raises(ValueError, match="exact"):
        total_distribution({1: 0.5, 2: 0.5})
    with pytest.raises(ValueError, match="whole"):
        total_distribution({0: Fraction(1)})
    with pytest.raises(TypeError):
        Dice.of("two")


@pytest.mark.parametrize(("args", "match"), [((0,), "count"), ((2, 1), "sides"),
                                             ((2, 6, (7,)), "icon_faces"),
                                             ((2, 6, (1, 1)), "icon_faces")])
def test_bad_dice(args, match):
    with pytest.raises(ValueError, match=match):
        Dice(*args)


def test_icon_faces_are_sorted():
    assert Dice(2, 6, (6, 1)) == Dice(2, 6, (1, 6))
