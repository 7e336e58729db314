"""The Python side of the multilang state handoff: the pure reply, and a real bolt process spoken to over multilang."""

from __future__ import annotations

import json

import pytest

from topologies.common.handoff import OPT_IN_KEY, RESTORE_STREAM, SNAPSHOT_STREAM, handoff_reply
from tests.unit.workloads.multilang_peer import MultilangPeer, emits


class Counter:
    def __init__(self):
        self.state = {"a": 1}

    def snapshot_state(self):
        return self.state

    def restore_state(self, state):
        self.state = state


class Broken:
    def snapshot_state(self):
        return {1j}  # not JSON-able

    def restore_state(self, state):
        raise KeyError("counts")


def test_a_request_is_answered_and_anything_else_is_left_to_process():
    c = Counter()
    assert handoff_reply(c, SNAPSHOT_STREAM, -1, "n-1", []) == {"command": "nonstop_snapshot", "id": "n-1",
                                                                 "msg": '{"a": 1}'}
    assert handoff_reply(c, RESTORE_STREAM, -1, "n-2", ['{"b": 2}']) == {"command": "nonstop_restored", "id": "n-2"}
    assert c.state == {"b": 2}
    assert handoff_reply(c, "default", 3, "7", ["x"]) is None
    assert handoff_reply(c, SNAPSHOT_STREAM, 3, "7", []) is None  # only the system task's pseudo-tuple


def test_a_bolt_that_fails_answers_with_the_reason_and_keeps_its_state():
    c = Counter()
    bad = handoff_reply(c, RESTORE_STREAM, -1, "n-3", [])
    assert bad["command"] == "nonstop_failed" and "no state" in bad["msg"]
    assert handoff_reply(c, RESTORE_STREAM, -1, "n-4", ["{not json"])["command"] == "nonstop_failed"
    assert c.state == {"a": 1}
    b = Broken()
    assert handoff_reply(b, SNAPSHOT_STREAM, -1, "n-5", [])["msg"].startswith("TypeError")
    assert handoff_reply(b, RESTORE_STREAM, -1, "n-6", ["{}"]) == {"command": "nonstop_failed", "id": "n-6",
                                                                   "msg": "KeyError: 'counts'"}


def test_the_spec_opts_the_component_in():
    from topologies.handoff.topology import WordCountHandoff
    specs = {s.name: s for s in WordCountHandoff.specs}
    assert json.loads(specs["count"].config)[OPT_IN_KEY] is True
    assert OPT_IN_KEY not in json.loads(specs["plaincount"].config)
    assert json.loads(specs["refusecount"].config)[OPT_IN_KEY] is True


@pytest.fixture
def peer(tmp_path):
    peers = []

    def start(component, conf=None, **kw):
        p = MultilangPeer(component, conf or {}, tmp_path, **kw)
        peers.append(p)
        return p

    yield start
    for p in peers:
        if p.proc.poll() is None:
            p.close()


def _request(p: MultilangPeer, rid: str, stream: str, values: list) -> dict:
    p.send({"id": rid, "comp": None, "stream": stream, "task": -1, "tuple": values})
    while True:
        msg = p.read()
        if msg.get("command") != "log":
            return msg


def test_a_counting_bolt_hands_its_counts_to_another_process_between_two_tuples(peer):
    old = peer("topologies.handoff.bolts.HandoffCountBolt", task_id=9, component_id="count")
    assert [emits(old.tuple(str(i), [w], comp="split")) for i, w in enumerate("aba")] == [[["a", 1]], [["b", 1]],
                                                                                      [["a", 2]]]
    snap = _request(old, "nonstop-1", SNAPSHOT_STREAM, [])
    assert snap["command"] == "nonstop_snapshot" and snap["id"] == "nonstop-1"
    assert json.loads(snap["msg"]) == {"counts": {"a": 2, "b": 1}, "tuples": 3}
    assert old.heartbeat() == {"command": "sync"}  # the request was not a tuple: nothing acked, nothing emitted

    new = peer("topologies.handoff.bolts.HandoffCountBolt", task_id=9, component_id="count")
    assert _request(new, "nonstop-2", RESTORE_STREAM, [snap["msg"]]) == {"command": "nonstop_restored",
                                                                        "id": "nonstop-2"}
    out = new.tuple("4", ["a"], comp="split")
    assert emits(out) == [["a", 3]] and out[-1] == {"command": "ack", "id": "4"}
    refused = _request(new, "nonstop-3", RESTORE_STREAM, ['{"counts": 5, "tuples": 1}'])
    assert refused["command"] == "nonstop_failed" and "ValueError" in refused["msg"]
    assert emits(new.tuple("5", ["b"], comp="split")) == [["b", 2]]  # a refused restore changed nothing


def test_a_bolt_whose_snapshot_fails_says_why_and_keeps_counting(peer):
    p = peer("topologies.handoff.bolts.HandoffCountBolt", conf={"workload.handoff.refuse": True}, task_id=9,
             component_id="refusecount")
    assert emits(p.tuple("1", ["a"], comp="split")) == [["a", 1]]
    assert _request(p, "nonstop-1", SNAPSHOT_STREAM, []) == {"command": "nonstop_failed", "id": "nonstop-1",
                                                             "msg": "RuntimeError: workload.handoff.refuse is set"}
    assert emits(p.tuple("2", ["a"], comp="split")) == [["a", 2]]
