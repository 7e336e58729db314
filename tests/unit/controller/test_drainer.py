from dataclasses import replace

import pytest

from pycontrol.controller.actions import Move
from pycontrol.controller.clock import ManualClock
from pycontrol.controller.drainer import Drainer, resolve_node
from pycontrol.controller.realize import Realizer
from pycontrol.controller.state_store import StateStore
from pycontrol.errors import UserError
from tests.unit.controller.fakes import FakeCluster, FakeKazoo

SUPERVISORS = {"sup-1": "h1", "sup-2": "h2", "sup-3": "h3"}


def rig(**kw):
    cluster = FakeCluster({"wc": {"[1,1]": "h1:1", "[2,2]": "h2:1", "[3,3]": "h2:1"},
                           "solo": {"[1,1]": "h2:2"}},
                          system={"wc": {"[9,9]": "h2:1"}}, hosts=dict(SUPERVISORS), **kw)
    store = StateStore(FakeKazoo(), "/ctl/state")
    clock = ManualClock(0)
    return cluster, store, clock, Drainer(cluster, store, Realizer(cluster, store, clock, 30), clock)


def test_nodes_are_named_by_host_supervisor_id_or_local_name_and_unknown_ones_are_refused():
    sups = [{"id": i, "host": h} for i, h in SUPERVISORS.items()]
    assert resolve_node("h2", sups) == "h2"
    assert resolve_node("sup-3", sups) == "h3"
    assert resolve_node("node1", sups, {"node1": "h1"}) == "h1"
    with pytest.raises(UserError, match=r"unknown node 'node9': no live supervisor has that host or id "
                                        r"\(hosts: h1, h2, h3; local node names: node1\)"):
        resolve_node("node9", sups, {"node1": "h1"})


def test_the_plan_moves_user_and_system_executors_and_uses_known_free_slots():
    cluster, _, _, d = rig()
    report, chosen = d.plan("h2", slot_ports={"h1": [1, 2], "h3": [1]})
    assert chosen == {"solo": "solo-id", "wc": "wc-id"}
    assert {(m.topology, m.executor, m.to_slot) for m in report.moves} == {
        ("wc", "[2,2]", "h1:1"), ("wc", "[3,3]", "h1:1"), ("wc", "[9,9]", "h1:1"),
        ("solo", "[1,1]", "h3:1")}   # h1:2 is free too, but h3 runs nothing yet
    assert report.unplaceable == []
    no_ports, _ = d.plan("h2")
    assert [(p.topology, p.executor) for p, _ in no_ports.unplaceable] == [("solo", "[1,1]")]
    with pytest.raises(UserError, match="no running topology named nope"):
        d.plan("h2", topologies=["nope"])


def test_a_drain_pauses_the_controller_applies_through_the_realize_path_and_reports_the_node_empty():
    cluster, store, clock, d = rig()
    paused_while_writing = []
    cluster.on_write = lambda t, m: paused_while_writing.append(store.load()[0].paused)
    report, chosen = d.plan("h2", topologies=["wc"])
    report = d.run(report, chosen, timeout_s=60)
    assert report.empty and report.remaining == {} and report.empty_after_s is not None
    assert [o.status for o in report.outcomes] == ["applied"] and paused_while_writing == [True]
    assert cluster.plans == [("wc", {"[2,2]": "h1:1", "[3,3]": "h1:1", "[9,9]": "h1:1"})]
    state = store.load()[0]
    assert not state.paused and state.log[-1]["outcome"].startswith("drain h2: wc: applied")


def test_an_operator_pause_survives_the_drain_and_a_stuck_node_is_reported():
    cluster, store, clock, d = rig(stuck=True)
    store.update(lambda s: replace(s, paused=True))
    report, chosen = d.plan("h2", topologies=["wc"])
    report = d.run(report, chosen, timeout_s=20)
    assert not report.empty and report.remaining == {"wc": ["[2,2]", "[3,3]", "[9,9]"]}
    assert store.load()[0].paused


def test_a_pending_action_is_finished_before_the_drain():
    cluster, store, clock, d = rig()
    state, version = store.load()
    store.save(state.begin(4, [Move("wc", "[1,1]", "h1:1", "h2:1")], 0.0), version)
    report, chosen = d.plan("h1", topologies=["wc"])
    d.run(report, chosen, timeout_s=120)
    assert cluster.plans[0] == ("wc", {"[1,1]": "h2:1"})            # the pending action, recovered first
    assert clock.now() >= 30                                         # after waiting for a daemon to do it
    assert store.load()[0].log[0]["outcome"].startswith("recovered")
