"""Per-tuple costs: the heavy word count's drifting key cost and a CPU spin.

KeyCost mirrors io.nonstopstorm.workloads.wordcount.KeyCost exactly (same hash, same numbers), so
the Python and Java variants do the same work; tests/vectors/workloads.json holds shared vectors.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


def fnv1a(s: str) -> int:
    """32-bit FNV-1a of the UTF-8 bytes."""
    h = 0x811C9DC5
    for b in s.encode("utf-8"):
        h ^= b
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def harmonic(n: int) -> float:
    """H(n) = 1 + 1/2 + ... + 1/n, summed in the same order as the Java version."""
    h = 0.0
    for i in range(1, n + 1):
        h += 1.0 / i
    return h


@dataclass(frozen=True)
class KeyCost:
    """A key's harmonic-number cost, whose distribution over the key domain changes every drift_ms.

    Keys fall into `classes` classes by hash; in epoch e = now_ms // drift_ms each class weighs
    1 + fnv1a(f"{seed}:{e}:{class}") % spread, and a key costs H(base * weight).
    """

    base: int = 2000
    classes: int = 16
    spread: int = 8
    drift_ms: int = 30_000
    seed: int = 0

    def __post_init__(self):
        if self.base < 0 or self.classes < 1 or self.spread < 1 or self.drift_ms < 1:
            raise ValueError("heavy cost needs base >= 0, classes >= 1, spread >= 1, drift >= 1 ms")

    @classmethod
    def from_conf(cls, conf: dict) -> "KeyCost":
        return cls(base=int(conf.get("workload.heavy.base", 2000)),
                   classes=int(conf.get("workload.heavy.classes", 16)),
                   spread=int(conf.get("workload.heavy.spread", 8)),
                   drift_ms=int(float(conf.get("workload.heavy.drift.secs", 30.0)) * 1000),
                   seed=int(conf.get("workload.heavy.seed", 0)))

    def epoch(self, now_ms: int) -> int:
        return now_ms // self.drift_ms

    def weight(self, key: str, epoch: int) -> int:
        cls = fnv1a(key) % self.classes
        return 1 + fnv1a(f"{self.seed}:{epoch}:{cls}") % self.spread

    def iterations(self, key: str, now_ms: int) -> int:
        return self.base * self.weight(key, self.epoch(now_ms))


def spin_micros(micros: float, clock=time.perf_counter) -> int:
    """Keeps the CPU busy for `micros` microseconds (the linear template's per-tuple cost)."""
    if micros <= 0:
        return 0
    end = clock() + micros / 1e6
    x = 0
    while clock() < end:
        for _ in range(16):
            x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
    return x
