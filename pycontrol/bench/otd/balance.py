"""The "ceiling" placement of the OTD A/B benchmark (pure): one component's executors spread evenly over
the nodes, each node's share split evenly over its workers. Run from the start (live moves before the
warm-up, then nothing moved), it measures what a balanced placement takes, the upper end against which
OTD's gain over its control is judged: (OTD - control) / (ceiling - control).

Nodes are weighted equally (the pinned set-up gives each node one CPU of its own)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pycontrol.storm.placement import ExecutorPlace
from pycontrol.wire.executor import ExecutorId


def balanced_moves(places: Sequence[ExecutorPlace], component: str) -> dict[ExecutorId, tuple[str, int]]:
    """Executor -> target worker (host, port): the fewest single moves after which the
    component's executors per node differ by at most one, and per worker within each node by at most one
    as far as those moves allow. Deterministic: ties go to the lowest host, port and executor. Workers are
    those the topology uses (every place given), so a node without one cannot receive."""
    workers = sorted({(p.host, p.port) for p in places})
    where = {p.executor: (p.host, p.port) for p in places if p.component == component}
    if not where:
        return {}
    hosts = sorted({h for h, _ in workers})
    moves: dict[ExecutorId, tuple[str, int]] = {}
    while True:
        per_worker = Counter(where.values())
        per_host = Counter({h: sum(per_worker[w] for w in workers if w[0] == h) for h in hosts})
        src_host = max(hosts, key=lambda h: (per_host[h], -hosts.index(h)))
        dst_host = min(hosts, key=lambda h: (per_host[h], hosts.index(h)))
        if per_host[src_host] - per_host[dst_host] <= 1:
            return moves
        src = max((w for w in workers if w[0] == src_host), key=lambda w: (per_worker[w], -workers.index(w)))
        dst = min((w for w in workers if w[0] == dst_host), key=lambda w: (per_worker[w], workers.index(w)))
        executor = min(e for e, w in where.items() if w == src)
        where[executor] = dst
        moves[executor] = dst
