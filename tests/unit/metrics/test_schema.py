"""The Python reader of the worker metrics document, against the fixture the Java encoder must produce."""

from __future__ import annotations

import copy
import json

import pytest

from pycontrol.wire.executor import ExecutorId
from pycontrol.wire.metrics_document import SUPPORTED_VERSIONS, DocumentError, document_from_dict, parse_document
from tests.unit.metrics.helpers import DOCUMENT_FIXTURE, fixture_dict, variant


def test_the_shared_fixture_parses_with_every_value_in_place():
    d = parse_document(DOCUMENT_FIXTURE.read_bytes())
    assert d.version in SUPPORTED_VERSIONS
    assert (d.topology_id, d.worker, d.pid, d.cpu_cores) == ("keyed-3-1767225600", "127.0.0.11:27121", 41234, 0.4127)
    assert (d.window_s, d.seq, d.period_s, d.window_end_ms) == (5.0021, 11, 5, 1767225660000)
    assert (d.node_cpu_count, d.node_cpu_mhz, d.node_cpu_busy_cores) == (2, 2596.142, 1.1875)
    assert [n.interface for n in d.net] == ["lo", "eth0"]
    assert [str(e.id) for e in d.executors] == ["[1,1]", "[3,4]", "[5,5]", "[6,6]", "[7,7]"]
    idle = d.executors[1]
    assert (idle.component, idle.tasks, idle.queue_capacity) == ("idle", (3, 4), 32768)
    score = d.executors[3]
    assert (score.child_processes, score.child_cpu_cores, score.queue_length) == (1, 0.082, None)
    assert d.executors[4].cpu_cores is None  # unknown stays unknown
    assert [e.busy for e in d.executors] == [0.6002, 0.0401, 0.0, None, 0.0]
    assert [(p.src_task, p.dst_task, p.tuples) for p in d.traffic][:2] == [(5, 1, 600), (5, 2, 401)]
    busy = d.components[0]
    assert (busy.id, busy.type, busy.tasks) == ("busy", "bolt", (1, 2))
    assert (busy.inputs[0].grouping, busy.inputs[0].fields) == ("fields", ("key",))


def test_unknown_fields_are_ignored_so_additions_need_no_new_version():
    d = fixture_dict()
    d["future_section"] = {"x": 1}
    d["executors"][0]["gc_ms"] = 3
    assert document_from_dict(d).executors[0].component == "busy"


def test_a_measured_state_is_read_and_is_absent_unless_measured():
    d = fixture_dict()
    assert document_from_dict(d).executors[0].state is None
    d["executors"][0]["state"] = {"bytes": 17, "over_limit": True, "measured_at_ms": 1767225659000}
    s = document_from_dict(d).executors[0].state
    assert (s.bytes, s.over_limit, s.measured_at_ms) == (17, True, 1767225659000)


def test_busy_is_optional_as_documents_written_before_it_lack_it():
    d = fixture_dict()
    del d["executors"][0]["busy"]
    assert document_from_dict(d).executors[0].busy is None


@pytest.mark.parametrize("mutate, message", [
    (lambda d: d.pop("traffic"), r"\$\.traffic: missing"),
    (lambda d: d["worker"].pop("port"), r"\$\.worker\.port: missing"),
    (lambda d: d["worker"].update(port="27121"), r"\$\.worker\.port: expected an integer"),
    (lambda d: d["worker"].update(port=True), r"\$\.worker\.port: expected an integer"),
    (lambda d: d["executors"][2].update(emitted_per_s=None), r"executors\[2\]\.emitted_per_s: must not be null"),
    (lambda d: d["executors"][0].update(id=[4, 1]), r"executors\[0\]\.id: bad_span: executor \[4,1\]"),
    (lambda d: d["executors"][0].update(id=[4]), r"executors\[0\]\.id: expected \[start, end\]"),
    (lambda d: d["executors"][0].update(id=[1, 2**31 - 1]), r"executors\[0\]\.id: span_too_large"),
    (lambda d: d["traffic"][0].update(tuples_per_s=-1.0), r"traffic\[0\]\.tuples_per_s: expected a finite non-negative"),
    (lambda d: d["components"][0].update(type="state_spout"), r"components\[0\]\.type"),
    (lambda d: d["window"].update(seconds=0), r"window\.seconds: must be positive"),
    (lambda d: d.update(executors={}), r"\$\.executors: expected a list"),
    (lambda d: d.update(schema="something.else"), r"\$\.schema: expected 'nonstop\.metrics\.worker'"),
    (lambda d: d["executors"][0].update(state={"bytes": 5, "over_limit": "yes", "measured_at_ms": 1}),
     r"executors\[0\]\.state\.over_limit: expected true or false"),
    (lambda d: d["executors"][0].update(state={"bytes": -5, "over_limit": False, "measured_at_ms": 1}),
     r"executors\[0\]\.state: bytes and measured_at_ms must be >= 0"),
    (lambda d: d["executors"][0].update(state={"over_limit": False, "measured_at_ms": 1}),
     r"executors\[0\]\.state\.bytes: missing"),
])
def test_a_malformed_document_names_the_first_problem(mutate, message):
    d = copy.deepcopy(fixture_dict())
    mutate(d)
    with pytest.raises(DocumentError, match=message):
        document_from_dict(d)


def test_a_version_this_reader_does_not_know_is_refused_not_guessed():
    with pytest.raises(DocumentError, match=r"version: 2 is not supported"):
        document_from_dict(variant(version=2))


def test_not_json_and_not_an_object_are_document_errors():
    with pytest.raises(DocumentError, match="not JSON"):
        parse_document(b"{truncated")
    with pytest.raises(DocumentError, match="expected an object"):
        parse_document(json.dumps([1, 2]))
    with pytest.raises(DocumentError, match="not JSON"):
        parse_document(b"\xff\xfe")


def test_an_executors_id_is_its_span():
    doc = document_from_dict(fixture_dict())
    assert [m.id for m in doc.executors] == [ExecutorId(m.start, m.end) for m in doc.executors]
