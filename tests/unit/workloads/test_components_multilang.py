"""Every Python component, run as Storm runs it (python -m streamparse.run) and spoken to over multilang."""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.unit.workloads.multilang_peer import MultilangPeer, emits


@pytest.fixture
def peer(tmp_path):
    peers = []

    def start(component, conf=None, **kw):
        p = MultilangPeer(component, {"nonstop.measure.dir": str(tmp_path / "measure"), **(conf or {})}, tmp_path, **kw)
        peers.append(p)
        return p

    (tmp_path / "measure").mkdir()
    yield start
    for p in peers:
        if p.proc.poll() is None:
            p.close()


def test_split_emits_each_word_anchored_then_acks(peer):
    p = peer("topologies.wordcount.bolts.SplitSentenceBolt")
    out = p.tuple("11", ["The jury  said\tFriday"])
    assert emits(out) == [["the"], ["jury"], ["said"], ["friday"]]
    assert all(m["anchors"] == ["11"] for m in out if m["command"] == "emit")
    assert out[-1] == {"command": "ack", "id": "11"}
    assert p.heartbeat() == {"command": "sync"}


def test_component_exits_when_storm_goes_away(peer):
    p = peer("topologies.wordcount.bolts.SplitSentenceBolt")
    assert p.close() != 0  # pystorm exits non-zero on EOF ("parent went away")


def test_count_counts_emits_and_snapshots_on_tick(peer, tmp_path):
    p = peer("topologies.wordcount.bolts.WordCountBolt", task_id=9, component_id="count")
    got = [emits(p.tuple(str(i), [w], comp="split")) for i, w in enumerate(["a", "b", "a"])]
    assert got == [[["a", 1]], [["b", 1]], [["a", 2]]]
    assert p.tick()[-1] == {"command": "ack", "id": "tick-1"}
    snap = json.loads((tmp_path / "measure" / "counts-count-9.json").read_text())
    assert (snap["component"], snap["task"], snap["tuples"], snap["counts"]) == ("count", 9, 3, {"a": 2, "b": 1})


def test_heavy_split_emits_the_same_words(peer):
    p = peer("topologies.wordcount.bolts.HeavySplitSentenceBolt", {"workload.heavy.base": 10})
    assert emits(p.tuple("1", ["Atlanta's  over-all jury"])) == [["atlanta's"], ["over-all"], ["jury"]]


def test_a_tuple_a_component_cannot_handle_is_failed_not_lost(peer):
    p = peer("topologies.wordcount.bolts.SplitSentenceBolt")
    out = p.tuple("5", [42])  # not a sentence
    assert {"command": "fail", "id": "5"} in out
    assert any(m.get("command") == "error" and "AttributeError" in m.get("msg", "") for m in out)


def test_linear_stages_pass_key_and_sized_payload(peer):
    p1 = peer("topologies.linear.bolts.Stage1Bolt", {"workload.cost1.us": 50, "workload.tuple.bytes": 64})
    out = emits(p1.tuple("1", ["k3", "0123456789"]))
    assert len(out) == 1 and out[0][0] == "k3" and len(out[0][1]) == 64
    p2 = peer("topologies.linear.bolts.Stage2Bolt", {"workload.cost2.us": 10})
    out = p2.tuple("2", ["k3", out[0][1]], comp="bolt1")
    assert emits(out) == [] and out[-1] == {"command": "ack", "id": "2"}


@pytest.mark.parametrize("component,conf", [
    ("XmlParseBolt", {"workload.xml.records": 5}),
    ("PiBolt", {"workload.pi.digits": 50}),
    ("BlobDownloadBolt", {"workload.blob.bytes": 65536, "workload.blob.latency.ms": 1}),
    ("TableLookupBolt", {"workload.table.rows": 100, "workload.table.latency.ms": 1}),
    ("FileWriteBolt", {"workload.filewrite.batch": 2}),
])
def test_micro_dag_tasks_pass_the_payload_on(peer, component, conf):
    p = peer(f"topologies.microdag.bolts.{component}", conf)
    out = p.tuple("1", ["0123456789"])
    assert emits(out) == [["0123456789"]]
    assert out[-1] == {"command": "ack", "id": "1"}


def test_file_write_writes_a_file_per_batch(peer, tmp_path):
    p = peer("topologies.microdag.bolts.FileWriteBolt", {"workload.filewrite.batch": 2}, task_id=4, component_id="F")
    for i in range(5):
        p.tuple(str(i), [f"payload-{i}"])
    files = sorted((tmp_path / "measure" / "filewrite-F-4").glob("batch-*.txt"))
    assert [f.read_text().count("\n") for f in files] == [2, 2]


def test_sink_only_acks(peer):
    p = peer("topologies.microdag.bolts.SinkBolt")
    assert p.tuple("1", ["x"], comp="F") == [{"command": "ack", "id": "1"}]



def test_python_spout_partitions_paces_and_replays_failed_sentences(peer, tmp_path):
    lines = tmp_path / "s.txt"
    lines.write_text("zero\none\ntwo\nthree\nfour\n")
    conf = {"workload.input": str(lines), "workload.total": 7, "workload.rate": 100000}
    # task 8 is the second of two spout tasks (7, 8): it emits global indices 1, 3, 5
    p = peer("topologies.wordcount.spout.SentenceSpout", conf, task_id=8, component_id="sentences")
    emitted = []
    for _ in range(5):
        emitted += [(m["id"], m["tuple"]) for m in p.command({"command": "next"}) if m["command"] == "emit"]
    assert emitted == [(1, ["one"]), (3, ["three"]), (5, ["zero"])]
    assert p.command({"command": "fail", "id": 3}) == []
    assert [m["tuple"] for m in p.command({"command": "next"})] == [["three"]]
    assert p.command({"command": "ack", "id": 3}) == []
    assert p.command({"command": "next"}) == []  # all of this task's share is out


def test_blob_executors_of_one_worker_share_its_connections(peer, tmp_path):
    """Two executors of one task under one parent (as under one worker JVM) with one connection: the second
    download waits for the first, so the pair takes at least twice the latency."""
    conf = {"workload.blob.bytes": 4096, "workload.blob.latency.ms": 400, "workload.blob.slot.connections": 1}
    executors = [peer("topologies.microdag.bolts.BlobDownloadBolt", conf, task_id=t, component_id=f"B-{tmp_path.name}")
                 for t in (3, 5)]
    began = time.monotonic()
    with ThreadPoolExecutor(2) as pool:
        outs = list(pool.map(lambda p: p.tuple("1", ["x"]), executors))
    assert time.monotonic() - began >= 0.8
    assert all(out[-1] == {"command": "ack", "id": "1"} for out in outs)
