import pytest

from pycontrol import zk
from pycontrol.controller.actions import Move
from pycontrol.controller.clock import ManualClock
from pycontrol.controller.realize import Realizer, StormClusterIO
from pycontrol.controller.state_store import ControllerState, FencedOut, StateStore
from pycontrol.errors import UserError
from tests.unit.controller.fakes import FakeCluster, FakeKazoo

A, B = "h1:1", "h2:1"


def setup(**cluster_kw):
    cluster = FakeCluster({"wc": {"[1,1]": A, "[2,2]": A, "[3,3]": B}}, **cluster_kw)
    store = StateStore(FakeKazoo(), "/ctl/state")
    clock = ManualClock(100.0)
    return cluster, store, clock, Realizer(cluster, store, clock, verify_timeout_s=30, poll_s=1)


MOVE = Move("wc", "[2,2]", A, B, "test", 5.0)


def test_moves_are_written_ahead_then_applied_verified_and_remembered():
    cluster, store, clock, r = setup(lag_polls=3)
    seen = []
    cluster.on_write = lambda t, m: seen.append(store.load()[0].pending)   # what ZooKeeper holds at that moment
    state, version = store.load()
    state, version, (o,) = r.realize(state, version, 7, [MOVE], {"wc": 60})
    assert seen[0] is not None and seen[0].moves == (MOVE,) and seen[0].cycle == 7
    assert cluster.plans == [("wc", {"[2,2]": B})]
    assert o.status == "applied" and o.ok and cluster.placements["wc"]["[2,2]"] == B
    assert o.verify_s == 2.0 and o.converged_at == 102.0     # two polls of 1 s on the manual clock
    saved, v = store.load()
    assert saved == state and v == version and saved.pending is None
    assert saved.log[-1]["outcome"].startswith("wc: applied") and saved.safety_for("wc").recent["wc/[2,2]"].to_slot == B


@pytest.mark.parametrize("kw, status, fragment", [
    (dict(decision="rejected", reason="port 1 is not a worker slot"), "rejected", "port 1 is not a worker slot"),
    (dict(stuck=True), "not-converged", "placement not converged 30 s after plan v1 was applied"),
    (dict(no_decision=True), "error", "no decision on plan v1"),
])
def test_a_plan_that_fails_is_reported_and_still_completes_the_action(kw, status, fragment):
    _, store, _, r = setup(**kw)
    state, version = store.load()
    _, _, (o,) = r.realize(state, version, 1, [MOVE], {"wc": 60})
    assert o.status == status and fragment in o.detail and not o.ok
    assert store.load()[0].pending is None and store.load()[0].log[-1]["outcome"].startswith(f"wc: {status}")


def test_a_topology_gone_meanwhile_gets_no_plan():
    cluster, store, _, r = setup()
    state, version = store.load()
    _, _, (o,) = r.realize(state, version, 1, [Move("old", "[1,1]", A, B)], {})
    assert o.status == "gone" and cluster.plans == []


def test_a_fenced_out_controller_writes_no_plan():
    cluster, store, _, r = setup()
    state, version = store.load()
    store.save(ControllerState(paused=True), version)       # someone else wrote meanwhile
    with pytest.raises(FencedOut):
        r.realize(state, version, 1, [MOVE], {"wc": 60})
    assert cluster.plans == []


def test_recovery_finishes_a_pending_action_without_moving_twice():
    cluster, store, clock, r = setup()
    state, version = store.load()
    done = Move("wc", "[3,3]", A, B)                          # already where it was sent
    todo = Move("wc", "[1,1]", A, B)
    version = store.save(state.begin(4, [done], 90.0), version)
    state, version = store.load()
    _, _, (o,) = r.recover(state, version, {"wc": 60})
    assert o.status == "unchanged" and cluster.plans == []
    assert store.load()[0].log[-1]["outcome"].startswith("recovered: wc: unchanged")
    state, version = store.load()
    version = store.save(state.begin(5, [todo], 95.0), version)
    _, _, (o,) = r.recover(*store.load(), {"wc": 60})
    assert o.status == "applied" and cluster.plans == [("wc", {"[1,1]": B})]
    assert r.recover(*store.load(), {})[2] == []             # nothing pending: nothing to do


def test_the_lead_is_rechecked_before_each_topology_and_a_lost_lead_stops_the_action_there():
    cluster = FakeCluster({"a": {"[1,1]": A}, "b": {"[1,1]": A}})
    store = StateStore(FakeKazoo(), "/ctl/state")
    asked = []
    r = Realizer(cluster, store, ManualClock(100.0), verify_timeout_s=30, poll_s=1,
                 leading=lambda: (asked.append(1), len(asked) < 2)[1])   # lost after the first topology
    state, version = store.load()
    with pytest.raises(FencedOut, match="lost the lead before applying the moves of b"):
        r.realize(state, version, 1, [Move("a", "[1,1]", A, B), Move("b", "[1,1]", A, B)], {})
    assert [t for t, _ in cluster.plans] == ["a"]
    assert store.load()[0].pending is not None, "left for the next leader to recover"


def test_a_malformed_decision_is_an_error_of_its_topology_only():
    cluster = FakeCluster({"a": {"[1,1]": A}, "b": {"[1,1]": A}}, bad_decision={"a"})
    store = StateStore(FakeKazoo(), "/ctl/state")
    r = Realizer(cluster, store, ManualClock(100.0), verify_timeout_s=30, poll_s=1)
    _, _, (oa, ob) = r.realize(*store.load(), 1, [Move("a", "[1,1]", A, B), Move("b", "[1,1]", A, B)], {})
    assert oa.status == "error" and "malformed document" in oa.detail and "plan_version" in oa.detail
    assert ob.status == "applied" and store.load()[0].pending is None


def test_the_cluster_io_logs_a_malformed_decision_once_per_znode_version(caplog):
    client = FakeKazoo()
    client.create(f"{zk.DECISIONS}/wc", b"{oops")
    io = StormClusterIO(client, rest=None)
    for _ in range(2):   # two cycles waiting on the same bad document
        with pytest.raises(UserError, match="malformed"):
            io.wait_decision("wc", "wc-1", 3, timeout_s=0.05)
    assert sum("malformed decision document" in r.getMessage() for r in caplog.records) == 1
    client.set(f"{zk.DECISIONS}/wc", b"[]")
    with pytest.raises(UserError):
        io.wait_decision("wc", "wc-1", 3, timeout_s=0.05)
    assert sum("malformed decision document" in r.getMessage() for r in caplog.records) == 2
