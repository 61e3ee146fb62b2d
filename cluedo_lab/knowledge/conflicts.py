"""Irreducible conflicts by divide and conquer (QuickXplain, Junker 2004).

Given items that together admit no deal, find a subset that still admits none and from which
no item can be dropped. The deletion filter (drop each item in turn, keep it if the rest
become consistent) needs one count per item: quadratic work on a long record. QuickXplain
splits the items in halves and recurses only where the conflict lies, so a conflict of k
items among n takes about 2k log2(n / k) counts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def irreducible_conflict(items: Sequence[T], consistent: Callable[[list[T]], bool]
                         ) -> list[T]:
    """A subset of ``items`` (in their order) that ``consistent`` rejects, minimal: every
    proper subset is consistent. ``items`` together must be inconsistent; if even the empty
    set is, the answer is empty. ``consistent`` must be monotone (a subset of a consistent
    set is consistent), as adding observations can only remove deals.

    Of the irreducible subsets it gives the one that keeps the latest items (QuickXplain run
    over the items last first), the same one as the deletion filter that tries to drop the
    earliest item first: the most recent events explain a fact."""
    if not consistent([]):
        return []
    latest_first = list(reversed(items))

    def explain(background: list[T], added: bool, candidates: list[T]) -> list[T]:
        """The preferred conflict among ``candidates`` given ``background`` (``added``:
        whether the background grew since it was last known consistent)."""
        if added and not consistent(background):
            return []
        if len(candidates) == 1:
            return list(candidates)
        half = len(candidates) // 2
        first, second = candidates[:half], candidates[half:]
        in_second = explain(background + first, bool(first), second)
        in_first = explain(background + in_second, bool(in_second), first)
        return in_first + in_second

    found = explain([], False, latest_first)
    found.reverse()
    return found
