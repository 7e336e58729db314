"""Where a topology's executors run, as the UI REST API reports it."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from pycontrol.storm.rest import StormRest, executor_id
from pycontrol.wire.executor import ExecutorId


@dataclass(frozen=True)
class ExecutorPlace:
    component: str
    executor: ExecutorId
    host: str
    port: int


def placement(rest: StormRest, topo_id: str, sys: bool = False) -> list[ExecutorPlace]:
    """Executors of the topology's spouts and bolts (with sys, also Storm's own, e.g. __acker) with their
    worker (host:port). Only executors with recent heartbeats are listed."""
    topo = rest.topology(topo_id, sys=sys)
    comps = [s["spoutId"] for s in topo.get("spouts", [])] + [b["boltId"] for b in topo.get("bolts", [])]
    out = []
    for c in comps:
        for e in rest.component(topo_id, c, sys=sys).get("executorStats", []):
            out.append(ExecutorPlace(c, executor_id(e), e["host"], int(e["port"])))
    return out


def by_host(places: list[ExecutorPlace]) -> dict[str, list[ExecutorPlace]]:
    grouped: dict[str, list[ExecutorPlace]] = defaultdict(list)
    for p in places:
        grouped[p.host].append(p)
    return dict(sorted(grouped.items()))


def acked(rest: StormRest, topo_id: str, window: str = ":all-time") -> int:
    """Tuples acked at the spouts, per the topology's stats in the given window."""
    for s in rest.topology(topo_id, window=window).get("topologyStats", []):
        if s.get("window") == window:
            return int(s.get("acked") or 0)
    return 0
