"""Reading Nimbus's assignment znode (gzip'd thrift Assignment) into executor -> host:port."""

import gzip
from collections import Counter
from pathlib import Path

import pytest

from pycontrol.errors import UserError
from pycontrol.storm.assignment import decode_assignment
from pycontrol.wire.executor import ExecutorId

# /storm/assignments/<id> of the Java word count (8 workers on 2 nodes x 4 slots), taken from a local cluster.
FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "storm-assignment-wordcount.bin"


def test_a_real_assignment_places_every_executor_on_the_nodes_hosts():
    placement = decode_assignment(FIXTURE.read_bytes())
    # 8 ackers + 24 count + 1 spout + 12 split, one task each, tasks 1..45
    assert sorted(placement) == [ExecutorId(t, t) for t in range(1, 46)]
    per_slot = Counter(placement.values())
    assert len(per_slot) == 8 and sorted(per_slot.values()) == [5, 5, 5, 6, 6, 6, 6, 6]
    assert {slot.rsplit(":", 1)[0] for slot in per_slot} == {"127.0.0.11", "127.0.0.12"}
    assert all(slot.rsplit(":", 1)[1].isdigit() for slot in per_slot)


def test_damaged_data_is_a_clear_error():
    raw = gzip.decompress(FIXTURE.read_bytes())
    huge_map = b"\x0d\x00\x03\x0f\x0c\x7f\xff\xff\xff"   # field 3: a map claiming 2^31 entries
    for bad in [b"not gzip", gzip.compress(raw[: len(raw) // 2]), gzip.compress(huge_map)]:
        with pytest.raises(UserError, match="cannot read the topology's assignment"):
            decode_assignment(bad)
