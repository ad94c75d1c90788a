"""random.Random.shuffle made faster, and the self-check that it shuffles as this Python does."""

from __future__ import annotations

import random
from collections.abc import Callable


def _shuffle(getrandbits: Callable[[int], int], cards: list) -> None:
    """random.Random.shuffle, with its _randbelow inlined: the same permutation, faster."""
    size = len(cards)
    plan = _PLANS.get(size)
    if plan is None:
        plan = _plan(size)
    for i, k in plan:  # swap position i with one of 0..i, drawn with k bits (until <= i)
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def _plan(size: int) -> tuple[tuple[int, int], ...]:
    """The steps of a shuffle of `size` items: (position i, bits drawn for a choice among the
    i + 1 first), as random.Random.shuffle takes them."""
    plan = tuple((i, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    if size < 1024:
        _PLANS[size] = plan
    return plan


_PLANS: dict[int, tuple[tuple[int, int], ...]] = {}


def _same_as_random_shuffle() -> bool:
    for size in (0, 1, 2, 7, 10, 33, 300):
        a, b = random.Random(size), random.Random(size)
        x, y = list(range(size)), list(range(size))
        a.shuffle(x)
        _shuffle(b.getrandbits, y)
        if x != y or a.random() != b.random():
            return False
    return True


_FAST_SHUFFLE = _same_as_random_shuffle()  # else this Python shuffles differently: use its own
