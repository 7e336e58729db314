"""The metrics plane on the real cluster: a topology with a known traffic pattern, measured by the
hook in every worker, published to ZooKeeper and read back into the model; then faults."""

from __future__ import annotations

import os
import signal
import time
from collections import defaultdict
from dataclasses import dataclass

import pytest

from pycontrol.cluster import manager
from pycontrol.metrics.collect import Collector
from pycontrol.metrics.zk import MetricsZk
from pycontrol.model.live import STATUS_LOST, STATUS_OK
from pycontrol.storm import submit
from pycontrol.storm.rest import RestError
from tests.conftest import wait_for

# The module restarts the shared cluster's ZooKeeper and kills a worker: it runs last (conftest).
pytestmark = [pytest.mark.cluster, pytest.mark.disruptive]

NAME = "it-metrics"
RATE = 100.0          # tuples/s of the one spout task
KEYS = 8              # keys k0..k7, key i weighted i+1 (KeyCycle)
WORK_US = 3000        # CPU time per tuple in "busy"; "idle" does nothing


def java_string_hash(s: str) -> int:
    h = 0
    for ch in s:
        h = (31 * h + ord(ch)) & 0xFFFFFFFF
    return h


def fields_grouping_task(key: str, tasks: list[int]) -> int:
    """Storm's fields grouping of a one-field key: floorMod(Arrays.deepHashCode([key]), n) over the
    sorted target tasks (GrouperFactory.FieldsGrouper / TupleUtils.chooseTaskIndex)."""
    h = (31 + java_string_hash(key)) & 0xFFFFFFFF
    h = h - (1 << 32) if h >= (1 << 31) else h
    return sorted(tasks)[h % len(tasks)]


def expected_pair_rates(doc) -> dict[tuple[int, int], float]:
    comps = {c.id: c for c in doc.components}
    (spout,) = comps["keys"].tasks
    total = KEYS * (KEYS + 1) / 2
    out: dict[tuple[int, int], float] = defaultdict(float)
    for bolt in ("busy", "idle"):
        for i in range(KEYS):
            out[(spout, fields_grouping_task(f"k{i}", list(comps[bolt].tasks)))] += RATE * (i + 1) / total
    return dict(out)


@dataclass
class Keyed:
    topology_id: str
    zk: MetricsZk
    collector: Collector


@pytest.fixture(scope="module")
def keyed(cluster):
    submit.submit_java("keyed", NAME, [f"workload.rate={RATE}", f"workload.keys={KEYS}", "workload.busy=2",
                                       "workload.idle=2", f"workload.busy.work.us={WORK_US}", "topology.workers=2"],
                       cluster.conf_dir)
    topo_id = wait_for(f"{NAME} listed", lambda: cluster.rest.topology_id(NAME), 60)
    zk = MetricsZk(cluster.zk_hosts, auth=cluster.zk_auth)
    assert zk.start(30), "collector cannot reach ZooKeeper"
    try:
        # Both workers past their first full window (a crowded machine can take minutes to start them).
        wait_for("both workers publishing", lambda: len(docs := zk.read(topo_id).docs) >= 2
                 and all(d.seq >= 2 for d in docs.values()), 240, poll_s=2)
        yield Keyed(topo_id, zk, Collector(cluster.rest, zk))
    finally:
        zk.stop()
        cluster.rest.kill(topo_id, 0)
        wait_for(f"{NAME} gone", lambda: cluster.rest.topology_id(NAME) is None, 90)


def windows(zk: MetricsZk, topo_id: str, per_worker: int, timeout_s: float = 60) -> list:
    """The next `per_worker` new documents (distinct windows) of every worker."""
    seen: dict[str, dict[int, object]] = defaultdict(dict)
    start = {w: d.seq for w, d in zk.read(topo_id).docs.items()}
    deadline = time.monotonic() + timeout_s
    while not start or any(len(seen[w]) < per_worker for w in start):
        assert time.monotonic() < deadline, f"no {per_worker} new windows within {timeout_s} s: {dict(seen)}"
        for w, d in zk.read(topo_id).docs.items():
            if d.seq > start.get(w, 0):
                seen[w][d.seq] = d
        time.sleep(1)
    return [d for docs in seen.values() for d in docs.values()]


def spout_rate(zk: MetricsZk, topo_id: str) -> float | None:
    for d in zk.read(topo_id).docs.values():
        for e in d.executors:
            if e.component == "keys":
                return e.emitted_per_s
    return None


def test_measured_pair_rates_match_the_known_traffic_pattern_within_5_percent(keyed):
    # The spout paces against its start time, so after a stall (a crowded machine) it catches up above
    # RATE for a while. Measure once it is back on pace: two windows in a row at RATE.
    steady: list[float] = []

    def on_pace():
        r = spout_rate(keyed.zk, keyed.topology_id)
        if r is not None and (not steady or steady[-1] != r):
            steady.append(r)
        return len(steady) >= 2 and all(abs(x - RATE) <= 0.02 * RATE for x in steady[-2:])
    wait_for("the spout emitting at its pace", on_pace, 150, poll_s=1)
    docs = windows(keyed.zk, keyed.topology_id, per_worker=3)
    tuples: dict[tuple[int, int], int] = defaultdict(int)
    seconds: dict[tuple[int, int], float] = defaultdict(float)
    spout_worker_docs = [d for d in docs if any(e.component == "keys" for e in d.executors)]
    for d in spout_worker_docs:
        for p in d.traffic:
            tuples[(p.src_task, p.dst_task)] += p.tuples
        for pair in expected_pair_rates(d):
            seconds[pair] += d.window_s
    expected = expected_pair_rates(docs[0])
    assert set(tuples) == set(expected), "only user traffic is counted, to exactly the routed tasks"
    for pair, rate in expected.items():
        measured = tuples[pair] / seconds[pair]
        assert measured == pytest.approx(rate, rel=0.05), f"pair {pair}: {measured:.1f} t/s vs {rate:.1f}"
    # The model aggregates the same numbers onto its executor graph.
    model = keyed.collector.collect(NAME)
    assert {(u, v) for u, v in model.executors.edges} == {(f"[{s},{s}]", f"[{t},{t}]") for s, t in expected}


def test_a_busy_bolt_and_an_idle_bolt_are_told_apart_by_cpu(keyed):
    docs = windows(keyed.zk, keyed.topology_id, per_worker=2)
    cpu: dict[str, list[float]] = defaultdict(list)
    executed: dict[str, list[float]] = defaultdict(list)
    for d in docs:
        for e in d.executors:
            if e.cpu_cores is not None:
                cpu[e.component].append(e.cpu_cores)
                executed[e.component].append(e.executed_per_s)
    busy, idle = sum(cpu["busy"]) / len(cpu["busy"]), sum(cpu["idle"]) / len(cpu["idle"])
    # Both receive the same tuples (busy may lag and catch up); busy spends WORK_US of CPU time on each
    # tuple it executes, which its thread's CPU must show on top of what an idle executor costs.
    work = sum(executed["busy"]) / len(executed["busy"]) * WORK_US / 1e6
    assert work > 0.05
    assert busy >= 0.9 * work, f"busy {busy:.3f} cores for {work:.3f} cores of work"
    assert busy - idle >= 0.5 * work, f"busy {busy:.3f} vs idle {idle:.3f} cores ({work:.3f} of work)"
    assert busy > 1.5 * idle


def test_a_malformed_document_is_skipped_and_the_rest_still_read(keyed):
    base = f"{keyed.zk.root}/{keyed.topology_id}"
    bad = f"{base}/127.0.0.99-1"
    old = f"{base}/127.0.0.99-2"
    keyed.zk.client.create(bad, b'{"schema": "nonstop.metrics.worker", "version": 1, "topo', ephemeral=True)
    keyed.zk.client.create(old, b'{"schema": "nonstop.metrics.worker", "version": 0}', ephemeral=True)
    try:
        model = keyed.collector.collect(NAME)
        assert sorted(s.path for s in model.skipped) == [bad, old]
        assert sum(w.status == STATUS_OK for w in model.workers.values()) == 2
        assert model.total_tuples_per_s() > 0
    finally:
        keyed.zk.client.delete(bad)
        keyed.zk.client.delete(old)


def test_publishers_and_collector_reconnect_after_zookeeper_restarts(cluster, keyed):
    before = {w: d.pid for w, d in keyed.zk.read(keyed.topology_id).docs.items()}
    cluster.state = manager.restart_daemon(cluster.spec.home, "zookeeper")
    restarted_ms = int(time.time() * 1000)
    assert keyed.zk.wait_connected(60), "the collector did not reconnect"

    def fresh():
        # Every worker Storm now places has published a window that ended after the restart. (Storm
        # itself may replace a worker whose ZooKeeper calls failed during the outage, and Nimbus, hence
        # the REST API, may take a while to answer again.)
        try:
            m = keyed.collector.collect(NAME)
        except RestError:
            return False
        docs = keyed.zk.read(keyed.topology_id).docs
        placed = {a["worker"] for _, a in m.executors.nodes(data=True) if a["worker"]}
        return (not m.errors and placed and all(w in docs and docs[w].window_end_ms > restarted_ms for w in placed)
                and docs)
    docs = wait_for("new documents from every worker after the restart", fresh, 90, poll_s=2)
    survivors = [w for w, d in docs.items() if before.get(w) == d.pid]
    print(f"workers that kept publishing through the restart: {survivors} of {sorted(before)}")


def test_a_killed_workers_document_disappears_and_the_model_marks_it(keyed):
    model = keyed.collector.collect(NAME)
    victim = min((w for w in model.workers.values() if w.status == STATUS_OK), key=lambda w: w.worker)
    # (A worker whose node briefly vanished in the ZooKeeper restart may already have an entry.)
    earlier = sum(x.pid == victim.pid for x in model.lost)
    os.kill(victim.pid, signal.SIGKILL)

    def marked():
        m = keyed.collector.collect(NAME)
        return sum(x.pid == victim.pid for x in m.lost) > earlier and m
    m = wait_for(f"worker {victim.worker} (pid {victim.pid}) marked lost", marked, 60, poll_s=1)
    lost = [x for x in m.lost if x.pid == victim.pid][-1]
    assert lost.worker == victim.worker
    # Marked in the worker table too, unless its slot already runs a new worker instance.
    assert m.workers[victim.worker].status == STATUS_LOST or m.workers[victim.worker].pid != victim.pid
