"""Reading documents from ZooKeeper, and collection rounds that remember workers between rounds."""

from __future__ import annotations

import json
import logging

import pytest
from kazoo.client import KazooState

from pycontrol.metrics.collect import Collector, WorkerTracker
from pycontrol.wire.metrics_document import document_from_dict
from pycontrol.model.live import STATUS_LOST, STATUS_OK
from tests.unit.metrics.fakes import RecordedRest, zk_from_recording
from tests.unit.metrics.helpers import recorded, variant


@pytest.fixture
def rec():
    return recorded()


def test_every_workers_document_is_read(rec):
    zk, _ = zk_from_recording(rec)
    r = zk.read(rec["topology_id"])
    assert r.error is None and r.skipped == []
    assert sorted(r.docs) == sorted("{}:{}".format(*n.rsplit("-", 1)) for n in rec["znodes"])
    assert zk.topology_ids() == [rec["topology_id"]]


def test_malformed_and_unknown_version_documents_are_skipped_and_logged_once(rec, caplog):
    zk, fake = zk_from_recording(rec)
    base = f"/nonstop/metrics/{rec['topology_id']}"
    fake.put(f"{base}/127.0.0.13-1", b"{not json")
    fake.put(f"{base}/127.0.0.13-2", json.dumps(variant(version=99)).encode())
    with caplog.at_level(logging.WARNING, logger="pycontrol.metrics.zk"):
        r1 = zk.read(rec["topology_id"])
        r2 = zk.read(rec["topology_id"])
    assert len(r1.docs) == len(rec["znodes"])  # the good ones are unaffected
    assert sorted(s.path.rsplit("/", 1)[1] for s in r1.skipped) == ["127.0.0.13-1", "127.0.0.13-2"]
    assert any("version: 99 is not supported" in s.reason for s in r1.skipped)
    assert len(r2.skipped) == 2
    assert sum("skipping metrics document" in m for m in caplog.messages) == 2  # not again in round 2
    fake.put(f"{base}/127.0.0.13-1", b"[]")  # a new version of the bad node is logged again
    with caplog.at_level(logging.WARNING, logger="pycontrol.metrics.zk"):
        zk.read(rec["topology_id"])
    assert sum("skipping metrics document" in m for m in caplog.messages) == 3


def test_a_document_under_the_wrong_znode_is_skipped(rec):
    zk, fake = zk_from_recording(rec)
    text = next(iter(rec["znodes"].values()))
    fake.put(f"/nonstop/metrics/{rec['topology_id']}/10.0.0.1-1", text.encode())
    r = zk.read(rec["topology_id"])
    assert [s.path.rsplit("/", 1)[1] for s in r.skipped] == ["10.0.0.1-1"]


def test_zookeeper_trouble_is_a_value_not_an_exception(rec):
    zk, fake = zk_from_recording(rec)
    assert zk.read("no-such-topology").docs == {}
    fake.fail = True
    r = zk.read(rec["topology_id"])
    assert r.error and "ConnectionLoss" in r.error and r.docs == {}
    fake.fail = False
    fake.set_state(KazooState.SUSPENDED)
    assert "not connected" in zk.read(rec["topology_id"]).error
    fake.set_state(KazooState.CONNECTED)  # kazoo reconnected by itself
    assert zk.read(rec["topology_id"]).error is None


def _doc(pid=1, host="h1", port=1):
    return document_from_dict(variant(worker={"pid": pid, "host": host, "port": port}))


def test_tracker_marks_vanished_and_replaced_workers_lost_for_a_while():
    t = WorkerTracker(retention_s=60)
    a, b = _doc(1, "h1", 1), _doc(2, "h2", 2)
    assert t.update("t", {a.worker: a, b.worker: b}, 1_000) == []
    lost = t.update("t", {a.worker: a}, 6_000)
    assert [(x.worker, x.pid, x.reason) for x in lost] == [("h2:2", 2, "document gone")]
    b2 = _doc(7, "h2", 2)
    a2 = _doc(9, "h1", 1)
    lost = t.update("t", {a2.worker: a2, b2.worker: b2}, 11_000)
    assert [(x.worker, x.pid, x.reason) for x in lost] == [("h2:2", 2, "document gone"),
                                                           ("h1:1", 1, "replaced by pid 9")]
    # h2:2 was last seen at 1 s, h1:1 (pid 1) at 6 s: at 65 s only the first is past the 60 s retention
    assert t.update("t", {a2.worker: a2, b2.worker: b2}, 65_000) == [x for x in lost if x.worker == "h1:1"]
    t.forget(set())
    assert t.lost("t") == []


def test_collector_marks_a_worker_lost_when_its_document_vanishes(rec):
    zk, fake = zk_from_recording(rec)
    now = [rec["recorded_at_ms"]]
    c = Collector(RecordedRest(rec), zk, clock_ms=lambda: now[0], fallback_mhz=None)
    first = c.collect("keyed")
    assert all(w.status == STATUS_OK for w in first.workers.values())
    victim = sorted(rec["znodes"])[0]
    fake.delete(f"/nonstop/metrics/{rec['topology_id']}/{victim}")
    now[0] += 5000
    second = c.collect(rec["topology_id"])
    worker = victim.rsplit("-", 1)[0] + ":" + victim.rsplit("-", 1)[1]
    assert second.workers[worker].status == STATUS_LOST
    assert [x.worker for x in second.lost] == [worker]


def test_an_unreadable_zookeeper_does_not_make_workers_lost(rec):
    zk, fake = zk_from_recording(rec)
    c = Collector(RecordedRest(rec), zk, clock_ms=lambda: rec["recorded_at_ms"], fallback_mhz=None)
    c.collect("keyed")
    fake.fail = True
    m = c.collect("keyed")
    assert m.lost == [] and m.errors and all(w.status != STATUS_LOST for w in m.workers.values())
    fake.fail = False
    assert all(w.status == STATUS_OK for w in c.collect("keyed").workers.values())


def test_collect_all_models_every_running_topology(rec):
    zk, _ = zk_from_recording(rec)
    models = Collector(RecordedRest(rec), zk, clock_ms=lambda: rec["recorded_at_ms"]).collect_all()
    assert [m.topology_id for m in models] == [rec["topology_id"]]
