from collections import Counter

from pycontrol.controller.drain_plan import Placed, plan_drain


def placed(topo, ex, slot):
    return Placed(topo, ex, slot, slot.split(":")[0])


def test_every_executor_leaves_the_node_for_its_own_topologys_least_filled_worker():
    pl = [placed("wc", "[1,1]", "n1:1"), placed("wc", "[2,2]", "n1:1"), placed("wc", "[3,3]", "n1:2"),
          placed("wc", "[4,4]", "n2:1"), placed("wc", "[5,5]", "n3:1"), placed("wc", "[6,6]", "n3:1")]
    plan = plan_drain("n1", pl, {"n2": ["n2:2"], "n3": []})
    assert plan.unplaceable == []
    assert sorted(m.executor for m in plan.moves) == ["[1,1]", "[2,2]", "[3,3]"]
    assert all(not m.to_slot.startswith("n1:") for m in plan.moves)
    # Balanced over the topology's existing workers elsewhere: n2:1 had 1, n3:1 had 2.
    after = Counter(p.slot for p in pl if p.node != "n1") + Counter(m.to_slot for m in plan.moves)
    assert after == Counter({"n2:1": 3, "n3:1": 3})


def test_a_topology_only_on_the_drained_node_gets_a_free_slot_elsewhere_or_is_reported():
    pl = [placed("a", "[1,1]", "n1:1"), placed("a", "[2,2]", "n1:1"), placed("b", "[1,1]", "n1:2")]
    plan = plan_drain("n1", pl, {"n1": ["n1:3"], "n2": ["n2:1"]})
    targets = {(m.topology, m.executor): m.to_slot for m in plan.moves}
    assert targets == {("a", "[1,1]"): "n2:1", ("a", "[2,2]"): "n2:1"}
    assert [(p.topology, why) for p, why in plan.unplaceable] == [
        ("b", "no worker of the topology on another node and no free slot elsewhere")]


def test_an_empty_node_needs_no_moves():
    assert plan_drain("n9", [placed("a", "[1,1]", "n1:1")], {}).moves == []
