"""The pure parts of the Python components: words, costs, snapshots, the micro-DAG tasks."""

from __future__ import annotations

import json
import math
from decimal import Decimal
from pathlib import Path

import pytest

from pycontrol.workloads.outputs import read_counts
from topologies.common.cost import KeyCost, fnv1a, harmonic, spin_micros
from topologies.common.snapshot import write_counts
from topologies.common.words import split_words
from topologies.linear.bolts import make_payload
from topologies.microdag import tasks

VECTORS = json.loads((Path(__file__).resolve().parents[2] / "vectors" / "workloads.json").read_text())


def test_words_split_like_the_java_bolt():
    for v in VECTORS["words"]:
        assert split_words(v["sentence"]) == v["words"], v


def test_fnv1a_matches_the_published_values():
    for v in VECTORS["fnv1a"]:
        assert fnv1a(v["text"]) == v["hash"]


def test_key_cost_matches_the_shared_vectors():
    kc = VECTORS["keycost"]
    cost = KeyCost(base=kc["base"], classes=kc["classes"], spread=kc["spread"], drift_ms=kc["drift_ms"], seed=kc["seed"])
    for c in kc["cases"]:
        assert cost.epoch(c["now_ms"]) == c["epoch"]
        assert cost.weight(c["key"], c["epoch"]) == c["weight"]
        assert cost.iterations(c["key"], c["now_ms"]) == c["iterations"]


def test_key_cost_drifts_between_epochs_and_stays_within_its_range():
    cost = KeyCost(base=100, classes=16, spread=8, drift_ms=1000, seed=3)
    words = [f"w{i}" for i in range(200)]
    per_epoch = [[cost.weight(w, e) for w in words] for e in range(5)]
    assert all(1 <= x <= 8 for row in per_epoch for x in row)
    assert len({tuple(r) for r in per_epoch}) > 1  # the distribution over keys changes over time
    assert len(set(per_epoch[0])) > 1  # and cost depends on the key


def test_key_cost_rejects_nonsense():
    with pytest.raises(ValueError):
        KeyCost(base=-1)
    with pytest.raises(ValueError):
        KeyCost(drift_ms=0)


def test_harmonic_and_spin():
    assert harmonic(0) == 0.0
    assert harmonic(4) == pytest.approx(25 / 12)
    ticks = iter(i * 1e-4 for i in range(1000))
    spin_micros(500, clock=lambda: next(ticks))
    assert next(ticks) == pytest.approx(6e-4)  # stopped as soon as 500 us had passed


def test_payload_has_the_requested_size():
    assert len(make_payload(123, 40)) == 40 and make_payload(123, 40).startswith("123:")
    assert make_payload(123456, 3) == "123"


def test_snapshots_round_trip_and_the_newest_per_task_wins(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    write_counts(a, "count", 3, {"x": 1}, 1)
    write_counts(a, "count", 4, {"y": 2}, 2)
    newer = write_counts(b, "count", 3, {"x": 5}, 5)  # task 3 again, after a worker restart
    doc = json.loads(newer.read_text())
    doc["written_ms"] += 1
    newer.write_text(json.dumps(doc))
    (a / "counts-garbage-1.json").write_text("{not json")
    c = read_counts([a, b], "count")
    assert (dict(c.words), c.tuples, c.tasks) == ({"x": 5, "y": 2}, 7, 2)


def test_xml_parse_counts_every_element():
    doc = tasks.make_xml_document(10)
    assert tasks.parse_xml(doc) == 1 + 10 * 6  # <records> + per record: record, name, value, tags, 2 x tag


def test_viete_converges_to_pi():
    assert abs(tasks.viete_pi(15, 50) - Decimal(math.pi)) < Decimal("1e-8")
    assert abs(tasks.viete_pi(40, 60) - tasks.viete_pi(41, 60)) < Decimal("1e-20")
    with pytest.raises(ValueError):
        tasks.viete_pi(0, 10)


def test_batched_file_writer_flushes_every_batch_and_keeps_the_newest(tmp_path):
    w = tasks.BatchedFileWriter(tmp_path / "fw", batch=3, line_bytes=10, keep=2)
    written = [w.add(f"t{i}") for i in range(12)]
    assert [p is not None for p in written].count(True) == 4
    files = sorted((tmp_path / "fw").glob("*.txt"))
    assert [f.name for f in files] == ["batch-00000002.txt", "batch-00000003.txt"]
    assert files[0].read_text().splitlines() == ["t6.......", "t7.......", "t8......."]


def test_blob_and_table_stand_ins_wait_their_latency_and_hold_their_data():
    waited = []
    assert tasks.blob_download(3 * 4096 + 1, 0.25, sleep=waited.append) == 3 * 4096 + 1
    table = tasks.TableStandIn(rows=50, row_bytes=20, latency_s=0.1, sleep=waited.append)
    row = table.lookup("k1")
    assert row == table.lookup("k1") and len(row) == 20 and row.startswith("row-")
    assert waited == [0.25, 0.1, 0.1]
