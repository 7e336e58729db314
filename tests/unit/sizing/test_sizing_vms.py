"""VM acquisition (seed 002 §7.1)."""

from __future__ import annotations

import pytest

from pycontrol.errors import UserError
from pycontrol.sizing.vms import AZURE_D_SERIES, EXPERIMENT_SIZES, acquire_vms, price_per_hour


def names(vms):
    return [v.name for v in vms]


@pytest.mark.parametrize("slots, expected", [
    (0, []), (1, ["D1"]), (2, ["D2"]), (3, ["D3"]), (4, ["D3"]), (6, ["D3", "D2"]),
    (7, ["D3", "D3"]), (13, ["D3", "D3", "D3", "D1"]), (25, ["D3"] * 6 + ["D1"]),
])
def test_largest_vms_first_then_the_smallest_that_covers_the_rest(slots, expected):
    assert names(acquire_vms(slots)) == expected


def test_with_d4_available():
    assert names(acquire_vms(13, AZURE_D_SERIES)) == ["D4", "D4"]
    assert names(acquire_vms(10, AZURE_D_SERIES)) == ["D4", "D2"]


@pytest.mark.parametrize("sizes", [EXPERIMENT_SIZES, AZURE_D_SERIES])
def test_enough_slots_and_less_than_one_largest_vm_wasted(sizes):
    largest = max(s.slots for s in sizes)
    for slots in range(0, 60):
        got = sum(v.slots for v in acquire_vms(slots, sizes))
        assert slots <= got < slots + largest


def test_price_is_proportional_to_slots():
    for slots in range(1, 30):
        vms = acquire_vms(slots)
        assert price_per_hour(vms) == pytest.approx(0.098 * sum(v.slots for v in vms))


@pytest.mark.parametrize("bad", [-1, 2.5, True])
def test_bad_slot_counts(bad):
    with pytest.raises(UserError):
        acquire_vms(bad)
