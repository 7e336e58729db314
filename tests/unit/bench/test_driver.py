"""The random re-deployment driver: exactly M real moves, an even spread afterwards, the same moves for
the same seed, and clear refusals when no such re-deployment exists."""

import random
from collections import Counter

import pytest

from pycontrol.bench.migration.driver import apply_moves, is_even, redeploy
from pycontrol.errors import UserError

SLOTS = [f"127.0.0.{11 + n}:{p}" for n in range(2) for p in (22101, 22102, 22103, 22104)]


def word_count_placement():
    """Like Storm's even scheduler on the word count: 8 ackers, 24 count, 1 spout, 12 split executors
    dealt round-robin over 8 workers (45 executors: five workers with 6, three with 5)."""
    executors = ([f"acker-{i}" for i in range(8)] + [f"count-{i}" for i in range(24)] + ["spout"]
                 + [f"split-{i}" for i in range(12)])
    placement = {e: SLOTS[i % len(SLOTS)] for i, e in enumerate(executors)}
    movable = {e for e in executors if e.startswith(("count", "split"))}
    return placement, movable


@pytest.mark.parametrize("m", [1, 2, 4, 8, 16])
def test_exactly_m_movable_executors_move_to_other_workers_and_the_spread_stays_even(m):
    placement, movable = word_count_placement()
    rng = random.Random(7)
    for _ in range(10):  # a run re-deploys every period from the previous outcome
        moves = redeploy(placement, SLOTS, movable, m, rng)
        assert len(moves) == m
        assert len({mv.executor for mv in moves}) == m
        for mv in moves:
            assert mv.executor in movable
            assert mv.source == placement[mv.executor]
            assert mv.target != mv.source and mv.target in SLOTS
        after = apply_moves(placement, moves)
        assert {e for e in placement if after[e] != placement[e]} == {mv.executor for mv in moves}
        assert is_even(after, SLOTS), Counter(after.values())
        placement = after


def test_the_same_seed_gives_the_same_moves_and_another_seed_other_moves():
    placement, movable = word_count_placement()
    runs = [redeploy(placement, SLOTS, movable, 4, random.Random(seed)) for seed in (3, 3, 4)]
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]


def test_an_uneven_placement_is_evened_out_when_m_allows_it():
    placement = {f"e{i}": SLOTS[0] for i in range(7)} | {f"f{i}": SLOTS[1] for i in range(3)}
    moves = redeploy(placement, SLOTS[:2], set(placement), 2, random.Random(1))
    assert all(mv.source == SLOTS[0] for mv in moves)
    assert is_even(apply_moves(placement, moves), SLOTS[:2])


def test_one_move_cannot_keep_an_exactly_even_spread_and_says_so():
    # 8 executors on 2 workers, 4 each: moving one leaves 3 and 5.
    placement = {f"e{i}": SLOTS[i % 2] for i in range(8)}
    with pytest.raises(UserError, match="no even re-deployment moves exactly 1"):
        redeploy(placement, SLOTS[:2], set(placement), 1, random.Random(1), max_tries=50)
    assert len(redeploy(placement, SLOTS[:2], set(placement), 2, random.Random(1))) == 2


@pytest.mark.parametrize("kwargs, fragment", [
    ({"m": 0}, "M must be between 1 and the 36"),
    ({"m": 37}, "M must be between 1 and the 36"),
    ({"slots": SLOTS[:1]}, "at least 2 workers"),
    ({"slots": SLOTS[:4]}, "not among the topology's workers"),
    ({"movable": {"ghost"}}, "not in the placement"),
])
def test_bad_requests_are_refused_before_anything_moves(kwargs, fragment):
    placement, movable = word_count_placement()
    args = {"placement": placement, "slots": SLOTS, "movable": movable, "m": 1, "rng": random.Random(1)} | kwargs
    with pytest.raises(UserError, match=fragment):
        redeploy(**args)
