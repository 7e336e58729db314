"""A malformed document in a decision znode: waited past (the scheduler overwrites it), reported once per
znode version, and named in the error if no decision comes."""

import json

import pytest

from pycontrol import zk
from pycontrol.errors import UserError
from pycontrol.migration.migrate import read_decision, wait_decision
from pycontrol.wire.decision_document import BadDocument
from tests.unit.controller.fakes import FakeKazoo

PATH = f"{zk.DECISIONS}/t1"
GOOD = {"status": "applied", "plan_version": 4, "topology_id": "t1-1-1", "decided_at_ms": 9}


def test_reading_a_decision_that_is_not_json_raises_bad_document_with_the_znode_version():
    client = FakeKazoo()
    client.create(PATH, b"{not json")
    with pytest.raises(BadDocument, match=r"/nonstop/decisions/t1 v0") as e:
        read_decision(client, "t1")
    assert e.value.version == 0
    assert read_decision(client, "t2") is None


def test_a_malformed_decision_is_reported_once_and_waited_past_until_the_real_one_comes():
    client = FakeKazoo()
    client.create(PATH, b'{"plan_version": "x"}')
    seen = []

    def on_bad(e):
        seen.append(e.version)
        if len(seen) == 1:
            client.set(PATH, b"\xff\xfe")                    # another bad version: reported too
        else:
            client.set(PATH, json.dumps(GOOD).encode())      # the scheduler's decision lands

    d = wait_decision(client, "t1", "t1-1-1", 4, timeout_s=5, poll_s=0.01, on_bad=on_bad)
    assert d.status == "applied" and seen == [0, 1]


def test_no_decision_but_a_malformed_one_ends_at_the_deadline_naming_it():
    client = FakeKazoo()
    client.create(PATH, b"[]")
    seen = []
    with pytest.raises(UserError, match="held a malformed document: .*must be a JSON object"):
        wait_decision(client, "t1", "t1-1-1", 4, timeout_s=0.2, poll_s=0.01, on_bad=seen.append)
    assert len(seen) == 1, "one report per znode version, not per poll"
