"""Per-node CPU and network samples from the metrics plane while the experiment runs: every worker of
every topology publishes a document per period; a node's sample sums the CPU of its workers' freshest
documents and takes the node's interfaces' traffic from its freshest one. The reduction is pure
(node_samples); NodeSampler is the thread that reads ZooKeeper."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable

from pycontrol.bench.elastic.summary import NodeSample
from pycontrol.metrics.zk import MetricsZk
from pycontrol.wire.metrics_document import WorkerDoc


def node_samples(docs: Iterable[WorkerDoc], hosts: Iterable[str] = (), now_s: float = 0.0,
                 stale_after_s: float = 15.0) -> list[NodeSample]:
    """One sample per host from the workers' latest documents (all topologies); a worker whose document
    is older than stale_after_s behind the host's newest (a killed worker's leftover) is left out. A host
    of `hosts` with no document runs no worker: a sample at now_s with no worker CPU and no traffic
    (its supervisor's heartbeats are not counted), so a node the placement left empty counts as idle."""
    by_host: dict[str, list[WorkerDoc]] = {h: [] for h in hosts}
    for d in docs:
        by_host.setdefault(d.host, []).append(d)
    out = []
    for host, ds in sorted(by_host.items()):
        if not ds:
            out.append(NodeSample(now_s, host, 0.0, 0.0))
            continue
        newest = max(ds, key=lambda d: d.window_end_ms)
        fresh = [d for d in ds if newest.window_end_ms - d.window_end_ms <= stale_after_s * 1000]
        rx = sum(n.rx_bytes_per_s for n in newest.net)
        tx = sum(n.tx_bytes_per_s for n in newest.net)
        out.append(NodeSample(newest.window_end_ms / 1000, host, round(sum(d.cpu_cores or 0.0 for d in fresh), 4),
                              round(max(rx, tx), 2)))
    return out


class NodeSampler:
    """Reads every topology's documents every poll_s seconds; keeps one sample per host and window end."""

    def __init__(self, mz: MetricsZk, hosts: Iterable[str], poll_s: float = 2.5):
        self.mz, self.hosts, self.poll_s = mz, tuple(hosts), poll_s
        self.samples: list[NodeSample] = []
        self._seen: set[tuple[str, float]] = set()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="elastic-node-sampler", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)

    def _run(self) -> None:
        while not self._stop.wait(self.poll_s):
            docs = []
            for topo in self.mz.topology_ids():
                docs.extend(self.mz.read(topo).docs.values())
            for s in node_samples(docs, self.hosts, round(time.time(), 1)):
                if (s.host, s.at) not in self._seen:
                    self._seen.add((s.host, s.at))
                    self.samples.append(s)
