"""One collection round: the UI REST API (structure, placement) + ZooKeeper (measurements) -> LiveModel.

The collector remembers each topology's workers between rounds, so a worker whose document vanished
(it died) or came back under another pid (it was restarted) is reported lost for a while.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from pycontrol.metrics.cpuinfo import local_cpu_mhz
from pycontrol.metrics.zk import MetricsZk, ZkReading
from pycontrol.model.live import LiveModel, LostWorker, build_model
from pycontrol.storm import rest_info
from pycontrol.storm.rest import StormRest
from pycontrol.wire.metrics_document import DocumentError, Skipped, WorkerDoc, parse_document

log = logging.getLogger(__name__)


@dataclass
class _Seen:
    pid: int
    last_seen_ms: int


class WorkerTracker:
    """Which workers published last round; turns disappearances and pid changes into LostWorker events,
    kept for `retention_s`."""

    def __init__(self, retention_s: float = 300.0):
        self.retention_ms = int(retention_s * 1000)
        self._seen: dict[str, dict[str, _Seen]] = {}
        self._lost: dict[str, list[LostWorker]] = {}

    def update(self, topology_id: str, docs: dict[str, WorkerDoc], now_ms: int) -> list[LostWorker]:
        seen = self._seen.setdefault(topology_id, {})
        lost = self._lost.setdefault(topology_id, [])
        for w, s in list(seen.items()):
            d = docs.get(w)
            if d is None:
                lost.append(LostWorker(w, s.pid, s.last_seen_ms, "document gone"))
                log.warning("worker %s of %s (pid %d) stopped publishing: marked lost", w, topology_id, s.pid)
                del seen[w]
            elif d.pid != s.pid:
                lost.append(LostWorker(w, s.pid, s.last_seen_ms, f"replaced by pid {d.pid}"))
                log.warning("worker %s of %s: pid %d replaced by %d", w, topology_id, s.pid, d.pid)
        for w, d in docs.items():
            seen[w] = _Seen(d.pid, now_ms)
        lost[:] = [x for x in lost if now_ms - x.last_seen_ms <= self.retention_ms]
        return list(lost)

    def lost(self, topology_id: str) -> list[LostWorker]:
        return list(self._lost.get(topology_id, []))

    def forget(self, keep: set[str]) -> None:
        """Drop topologies no longer running."""
        for t in set(self._seen) - keep:
            self._seen.pop(t, None)
            self._lost.pop(t, None)


class Collector:
    def __init__(self, rest: StormRest, zk: MetricsZk, cpu_mhz: float | None = None,
                 clock_ms: Callable[[], int] = lambda: int(time.time() * 1000),
                 fallback_mhz: float | None = None):
        self.rest = rest
        self.zk = zk
        self.cpu_mhz = cpu_mhz
        self.fallback_mhz = fallback_mhz if fallback_mhz is not None else local_cpu_mhz()
        self.clock_ms = clock_ms
        self.tracker = WorkerTracker()

    def collect(self, topology: str) -> LiveModel:
        """Model of one topology, by name or id. Raises RestError/UserError if the REST API cannot say."""
        topo_id, _ = rest_info.resolve_topology(self.rest, topology)
        return self._collect(topo_id)

    def collect_all(self) -> list[LiveModel]:
        ids = [t["id"] for t in self.rest.topologies()]
        self.tracker.forget(set(ids))
        return [self._collect(i) for i in ids]

    def _collect(self, topo_id: str) -> LiveModel:
        inputs = rest_info.fetch(self.rest, topo_id)
        reading = self.zk.read(topo_id)
        now = self.clock_ms()
        # While ZooKeeper cannot be read, absent documents say nothing about the workers.
        lost = (self.tracker.update(topo_id, reading.docs, now) if reading.error is None
                else self.tracker.lost(topo_id))
        return build_model(rest_info.topology_info(inputs), reading.docs, now_ms=now, cpu_mhz=self.cpu_mhz,
                           fallback_mhz=self.fallback_mhz,
                           supervisors=rest_info.supervisors_info(inputs.supervisors), lost=lost,
                           skipped=reading.skipped, errors=[reading.error] if reading.error else [])


# --- recorded inputs (fixtures, offline debugging) ---------------------------------------------------

def record(rest: StormRest, zk: MetricsZk, topology: str) -> dict:
    """The raw inputs of one round, as JSON-able data: REST answers and the znodes' text."""
    topo_id, _ = rest_info.resolve_topology(rest, topology)
    inputs = rest_info.fetch(rest, topo_id)
    base = f"{zk.root}/{topo_id}"
    znodes = {}
    for name in sorted(zk.client.get_children(base)) if zk.client.exists(base) else []:
        data, _ = zk.client.get(f"{base}/{name}")
        znodes[name] = data.decode("utf-8", "replace")
    return {"topology_id": topo_id, "recorded_at_ms": int(time.time() * 1000),
            "rest": {"topology": inputs.topology, "components": inputs.components,
                     "supervisors": inputs.supervisors},
            "znodes": znodes}


def replay(recorded: dict) -> tuple[rest_info.RestInputs, ZkReading]:
    """Recorded inputs back into what a round works on (documents parsed and validated as live)."""
    r = recorded["rest"]
    reading = ZkReading(recorded["topology_id"])
    for name, text in sorted(recorded["znodes"].items()):
        try:
            d = parse_document(text)
        except DocumentError as e:
            reading.skipped.append(Skipped(name, str(e)))
            continue
        reading.docs[d.worker] = d
    return rest_info.RestInputs(r["topology"], r["components"], r["supervisors"]), reading


def model_from_recording(recorded: dict, **kw) -> LiveModel:
    inputs, reading = replay(recorded)
    kw.setdefault("now_ms", recorded["recorded_at_ms"])
    return build_model(rest_info.topology_info(inputs), reading.docs,
                       supervisors=rest_info.supervisors_info(inputs.supervisors), skipped=reading.skipped, **kw)
