"""Prometheus exposition of the live models (names and labels: pycontrol/metrics/PROMETHEUS.md).

A background thread runs one collection round every interval and keeps the latest snapshot; a scrape
only renders that snapshot, so scrapes are cheap and never touch Storm or ZooKeeper.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, start_http_server
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector as PromCollector

from pycontrol.errors import UserError
from pycontrol.model.live import STATUS_OK, LiveModel
from pycontrol.storm.rest_info import ClusterTotals

log = logging.getLogger(__name__)

EXECUTOR_LABELS = ["topology", "component", "executor", "worker", "node"]
EDGE_LABELS = ["topology", "src_component", "src_executor", "src_worker", "src_node",
               "dst_component", "dst_executor", "dst_worker", "dst_node"]
WORKER_LABELS = ["topology", "worker", "node"]


@dataclass
class Snapshot:
    models: list[LiveModel] = field(default_factory=list)
    cluster: ClusterTotals | None = None
    rest_up: bool = False
    zk_up: bool = False
    round_seconds: float | None = None
    taken_at_s: float | None = None


def _family(name: str, doc: str, labels: list[str]) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, doc, labels=labels)


def _add(f: GaugeMetricFamily, labels: list[str], value: float | int | None) -> None:
    if value is not None:
        f.add_metric([str(x) if x is not None else "" for x in labels], float(value))


def families(snap: Snapshot) -> Iterable[GaugeMetricFamily]:
    """Every metric family of one snapshot (a pure function, tested directly)."""
    ex = {k: _family(f"nonstop_executor_{k}", d, EXECUTOR_LABELS) for k, d in [
        ("cpu_cores", "CPU of the executor (thread + child processes), in cores"),
        ("cpu_hz", "CPU of the executor in Hz (cores x core frequency)"),
        ("child_cpu_cores", "CPU of the executor's child processes (multilang), in cores"),
        ("receive_queue_length", "Tuples waiting in the executor's receive queue"),
        ("receive_queue_capacity", "Capacity of the executor's receive queue"),
        ("emitted_tuples_per_second", "Emits on user streams per second"),
        ("executed_tuples_per_second", "User tuples executed per second"),
        ("capacity", "Storm's capacity estimate of the executor (bolts; from the UI REST API)"),
    ]}
    edge = _family("nonstop_edge_tuples_per_second", "Tuples per second from one executor to another", EDGE_LABELS)
    cedge = _family("nonstop_component_edge_tuples_per_second", "Tuples per second between two components",
                    ["topology", "src_component", "dst_component", "grouping"])
    wk = {k: _family(f"nonstop_worker_{k}", d, WORKER_LABELS) for k, d in [
        ("up", "1 if the worker published a fresh metrics document, else 0 (lost, stale or none)"),
        ("cpu_cores", "CPU of the worker JVM, in cores"),
        ("load_cores", "CPU of the worker JVM plus its executors' child processes, in cores"),
        ("load_hz", "Worker load in Hz"),
        ("executors", "Executors placed in the worker"),
        ("metrics_age_seconds", "Age of the worker's latest metrics document"),
    ]}
    nd = {k: _family(f"nonstop_node_{k}", d, ["node"]) for k, d in [
        ("cpu_count", "CPUs of the node"),
        ("cpu_mhz", "Core frequency used for Hz figures"),
        ("cpu_busy_cores", "CPU in use on the node by all processes, in cores"),
        ("cpu_utilization", "cpu_busy_cores / cpu_count"),
        ("network_receive_bytes_per_second", "Bytes received per second, all interfaces of the node's namespace"),
        ("network_transmit_bytes_per_second", "Bytes sent per second, all interfaces of the node's namespace"),
    ]}
    node_topo = _family("nonstop_node_topology_load_cores", "Load of one topology's workers on a node, in cores",
                        ["topology", "node"])
    tp = {k: _family(f"nonstop_topology_{k}", d, ["topology"]) for k, d in [
        ("tuples_per_second", "Tuples per second between the topology's executors"),
        ("inter_node_tuple_share", "Fraction of the topology's tuples that cross nodes"),
        ("inter_worker_tuple_share", "Fraction of the topology's tuples that cross workers"),
        ("lost_workers", "Worker instances lost recently (document vanished or pid replaced)"),
        ("skipped_documents", "Metrics documents skipped as malformed or of an unknown version, this round"),
    ]}
    info = _family("nonstop_topology_info", "Topology id and status (value 1)", ["topology", "topology_id", "status"])
    latency = {k: _family(f"nonstop_component_{k}_latency_ms", d, ["topology", "component"]) for k, d in [
        ("complete", "Spout: average ms from emit to fully acked, since the topology started"),
        ("process", "Bolt: average ms from execute to ack, since the topology started"),
    ]}
    cl = {k: GaugeMetricFamily(f"nonstop_cluster_{k}", d) for k, d in [
        ("supervisors", "Supervisors registered with Nimbus"),
        ("slots_total", "Worker slots of all supervisors"),
        ("slots_used", "Worker slots running a worker"),
    ]}
    if snap.cluster is not None:
        cl["supervisors"].add_metric([], snap.cluster.supervisors)
        cl["slots_total"].add_metric([], snap.cluster.slots_total)
        cl["slots_used"].add_metric([], snap.cluster.slots_used)
    seen_nodes: set[str] = set()
    for m in snap.models:
        t = m.name
        _add(info, [t, m.topology_id, m.status], 1)
        for e, a in m.executors.nodes(data=True):
            lv = [t, a.get("component"), e, a.get("worker"), a.get("node")]
            _add(ex["cpu_cores"], lv, a.get("cpu_cores"))
            _add(ex["cpu_hz"], lv, a.get("cpu_hz"))
            _add(ex["child_cpu_cores"], lv, a.get("child_cpu_cores"))
            _add(ex["receive_queue_length"], lv, a.get("queue_length"))
            _add(ex["receive_queue_capacity"], lv, a.get("queue_capacity"))
            _add(ex["emitted_tuples_per_second"], lv, a.get("emitted_per_s"))
            _add(ex["executed_tuples_per_second"], lv, a.get("executed_per_s"))
            _add(ex["capacity"], lv, a.get("capacity"))
        for u, v, d in m.executors.edges(data=True):
            a, b = m.executors.nodes[u], m.executors.nodes[v]
            _add(edge, [t, a.get("component"), u, a.get("worker"), a.get("node"),
                        b.get("component"), v, b.get("worker"), b.get("node")], d["tuples_per_s"])
        for u, v, d in m.components.edges(data=True):
            _add(cedge, [t, u, v, d.get("grouping")], d.get("tuples_per_s"))
        for c, a in m.components.nodes(data=True):
            _add(latency["complete"], [t, c], a.get("complete_latency_ms") if a.get("type") == "spout" else None)
            _add(latency["process"], [t, c], a.get("process_latency_ms") if a.get("type") == "bolt" else None)
        for w in m.workers.values():
            lv = [t, w.worker, w.host]
            _add(wk["up"], lv, 1 if w.status == STATUS_OK else 0)
            _add(wk["cpu_cores"], lv, w.cpu_cores)
            _add(wk["load_cores"], lv, w.load_cores)
            _add(wk["load_hz"], lv, w.load_hz)
            _add(wk["executors"], lv, len(w.executors))
            _add(wk["metrics_age_seconds"], lv, w.doc_age_s)
        for n in m.nodes.values():
            _add(node_topo, [t, n.node], n.topology_load_cores)
            if n.node in seen_nodes:
                continue  # machine-wide figures: once per node, whichever topology saw it first
            seen_nodes.add(n.node)
            _add(nd["cpu_count"], [n.node], n.cpu_count)
            _add(nd["cpu_mhz"], [n.node], n.cpu_mhz)
            _add(nd["cpu_busy_cores"], [n.node], n.busy_cores)
            _add(nd["cpu_utilization"], [n.node], n.utilization)
            _add(nd["network_receive_bytes_per_second"], [n.node], n.net_rx_bytes_per_s)
            _add(nd["network_transmit_bytes_per_second"], [n.node], n.net_tx_bytes_per_s)
        _add(tp["tuples_per_second"], [t], m.total_tuples_per_s())
        _add(tp["inter_node_tuple_share"], [t], m.inter_node_share())
        _add(tp["inter_worker_tuple_share"], [t], m.inter_worker_share())
        _add(tp["lost_workers"], [t], len(m.lost))
        _add(tp["skipped_documents"], [t], len(m.skipped))
    up = _family("nonstop_collector_up", "1 if the collector's last round could read the source", ["source"])
    _add(up, ["rest"], 1 if snap.rest_up else 0)
    _add(up, ["zookeeper"], 1 if snap.zk_up else 0)
    rs = GaugeMetricFamily("nonstop_collector_round_seconds", "Duration of the last collection round")
    if snap.round_seconds is not None:
        rs.add_metric([], snap.round_seconds)
    ts = GaugeMetricFamily("nonstop_collector_last_round_timestamp_seconds", "When the last round finished")
    if snap.taken_at_s is not None:
        ts.add_metric([], snap.taken_at_s)
    yield from [*ex.values(), edge, cedge, *latency.values(), *wk.values(), *nd.values(), node_topo, *tp.values(),
                info, *cl.values(), up, rs, ts]


class SnapshotCollector(PromCollector):
    def __init__(self, latest: Callable[[], Snapshot]):
        self.latest = latest

    def collect(self):
        yield from families(self.latest())


class Refresher:
    """Runs collection rounds every `interval_s` on a daemon thread and keeps the latest snapshot."""

    def __init__(self, round_fn: Callable[[], list[LiveModel]], zk_connected: Callable[[], bool],
                 interval_s: float = 5.0, cluster_fn: Callable[[], ClusterTotals] | None = None):
        self.round_fn = round_fn
        self.cluster_fn = cluster_fn
        self.zk_connected = zk_connected
        self.interval_s = interval_s
        self._snap = Snapshot()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="metrics-refresher", daemon=True)

    def latest(self) -> Snapshot:
        with self._lock:
            return self._snap

    def refresh(self) -> Snapshot:
        t0 = time.monotonic()
        snap = Snapshot(zk_up=self.zk_connected())
        try:
            snap.models = self.round_fn()
            snap.rest_up = True
        except UserError as e:  # REST down: keep the previous models, flag the source
            log.warning("metrics round failed: %s", e)
            snap.models = self.latest().models
        if self.cluster_fn is not None:
            try:
                snap.cluster = self.cluster_fn()
            except UserError as e:
                log.warning("cluster summary failed: %s", e)
                snap.cluster, snap.rest_up = self.latest().cluster, False
        snap.round_seconds = round(time.monotonic() - t0, 4)
        snap.taken_at_s = time.time()
        with self._lock:
            self._snap = snap
        return snap

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.refresh()
            except Exception:  # noqa: BLE001 - the exporter must outlive any one bad round
                log.exception("metrics round crashed")
            self._stop.wait(self.interval_s)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=self.interval_s + 5)


def serve(refresher: Refresher, host: str = "127.0.0.1", port: int = 9465):
    """Starts the HTTP endpoint (its own thread); returns (server, thread) from prometheus_client."""
    registry = CollectorRegistry()
    registry.register(SnapshotCollector(refresher.latest))
    try:
        return start_http_server(port, addr=host, registry=registry)
    except OSError as e:
        raise UserError(f"cannot listen on {host}:{port}: {e.strerror or e}") from e
