"""When `cluster up` and `start_daemon` call the cluster ready: a Nimbus leads and every expected
supervisor is listed with all its slots."""

from pycontrol.cluster.manager import _cluster_ready, _not_ready
from pycontrol.cluster.spec import make_spec
from pycontrol.storm.rest import RestError


class FakeRest:
    def __init__(self, nimbuses, supervisors, fail=False):
        self._nimbuses, self._supervisors, self._fail = nimbuses, supervisors, fail

    def nimbuses(self):
        if self._fail:
            raise RestError("connection refused")
        return self._nimbuses

    def supervisors(self):
        return self._supervisors


SUPS = [{"host": "127.0.0.11", "slotsTotal": 4}, {"host": "127.0.0.12", "slotsTotal": 4}]


def test_ready_needs_a_leading_nimbus_besides_every_supervisor_and_slot(tmp_path):
    spec = make_spec(tmp_path, nodes=2, slots=4)
    leader = [{"host": "localhost", "port": 1, "status": "Leader"}]
    assert _cluster_ready(FakeRest(leader, SUPS), spec)
    # After a ZooKeeper outage Nimbus is back but not yet the leader: it refuses uploads, so not ready.
    assert not _cluster_ready(FakeRest([{"host": "localhost", "port": 1, "status": "Not a Leader"}], SUPS), spec)
    assert not _cluster_ready(FakeRest([{"host": "localhost", "port": 1, "status": "Offline"}], SUPS), spec)
    assert not _cluster_ready(FakeRest(leader, SUPS[:1]), spec)
    assert not _cluster_ready(FakeRest(leader, [SUPS[0], {"host": "127.0.0.12", "slotsTotal": 2}]), spec)
    assert not _cluster_ready(FakeRest(leader, SUPS, fail=True), spec)


def test_a_node_left_out_need_not_be_listed_but_every_other_must(tmp_path):
    """start_daemon leaves out a node whose supervisor is down: its entry vanishes once its ZooKeeper
    session expires, and the wait must not depend on whether that happened yet."""
    spec = make_spec(tmp_path, nodes=2, slots=4)
    leader = [{"host": "localhost", "port": 1, "status": "Leader"}]
    node1, node2 = spec.node_specs
    assert _cluster_ready(FakeRest(leader, SUPS[:1]), spec, [node1])
    assert _cluster_ready(FakeRest(leader, SUPS), spec, [node1])
    assert not _cluster_ready(FakeRest(leader, SUPS[1:]), spec, [node1])
    assert not _cluster_ready(FakeRest(leader, SUPS[:1]), spec, [node1, node2])


def test_what_is_missing_is_said(tmp_path):
    spec = make_spec(tmp_path, nodes=2, slots=4)
    why = _not_ready(FakeRest([{"status": "Not a Leader"}], SUPS[:1]), spec)
    assert "no Nimbus leads" in why and "['node2']" in why and "node1" not in why.split("listed:")[0]
    assert _not_ready(FakeRest([{"status": "Leader"}], SUPS), spec) == ""
    assert "REST API failed" in _not_ready(FakeRest([], SUPS, fail=True), spec)
