"""Resource acquisition (seed 002 §7.1): which VMs to rent for ρ slots.

VM sizes come in power-of-two slot counts priced per slot, so the mix does not change the price;
fewer VMs mean less network latency. Rule: take n = ⌊ρ/p̂⌋ VMs of the largest size p̂, then, if
r = ρ − n·p̂ > 0 slots remain, the smallest size with at least r slots. The list is in acquisition
order (largest first, the remainder VM last), which is the order v_1, v_2, … the mappers use.

Sizes are Azure's D series of the paper (D_i has 2^(i−1) slots; §7.1's "1, 2, 3 and 4 cores" is
contradicted by everything else in the paper). Its experiments rent up to D3.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pycontrol.sizing.errors import SizingError


@dataclass(frozen=True)
class VmSize:
    name: str
    slots: int
    price_per_hour: float  # US$, Azure Southeast Asia as quoted in the paper


AZURE_D_SERIES: tuple[VmSize, ...] = (
    VmSize("D1", 1, 0.098), VmSize("D2", 2, 0.196), VmSize("D3", 4, 0.392), VmSize("D4", 8, 0.784),
)
EXPERIMENT_SIZES: tuple[VmSize, ...] = AZURE_D_SERIES[:3]


def acquire_vms(slots: int, sizes: Sequence[VmSize] = EXPERIMENT_SIZES) -> list[VmSize]:
    """VMs for `slots` slots: as many of the largest size as fit, then the smallest that covers the rest."""
    if isinstance(slots, bool) or not isinstance(slots, int) or slots < 0:
        raise SizingError(f"slot count must be a whole number >= 0, got {slots!r}")
    if not sizes:
        raise SizingError("no VM sizes to choose from")
    by_slots = sorted(sizes, key=lambda s: (s.slots, s.price_per_hour))
    largest = by_slots[-1]
    n, rest = divmod(slots, largest.slots)
    vms = [largest] * n
    if rest:
        vms.append(next(s for s in by_slots if s.slots >= rest))
    return vms


def price_per_hour(vms: Sequence[VmSize]) -> float:
    return sum(v.price_per_hour for v in vms)
