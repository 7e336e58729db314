"""The order of one repetition's runs: every arm once, rotated by the repetition's number, so that no
arm always runs first (on a cold machine) or last (after the others). One home for every benchmark that
repeats its arms. Pure."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def rotated(items: Sequence[T], i: int) -> list[T]:
    """items started at position i (mod their number): repetition i's order."""
    if not items:
        return []
    k = i % len(items)
    return [*items[k:], *items[:k]]
