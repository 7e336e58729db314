"""When `cluster up` and `start_daemon` call the cluster ready: a Nimbus leads and every slot is listed."""

from pycontrol.cluster.manager import _cluster_ready
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
