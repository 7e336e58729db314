"""Plan writes fenced by the leader epoch: a transaction of the fence's check and the write."""

import pytest

from pycontrol import zk
from pycontrol.controller.realize import StormClusterIO
from pycontrol.controller.state_store import FencedOut
from tests.unit.controller.fakes import FakeKazoo

EPOCH = "/ctl/epoch"


def test_a_fenced_write_lands_while_the_epoch_is_current_and_is_refused_after_a_new_one():
    client = FakeKazoo()
    mine = zk.Fence(EPOCH, zk.bump_epoch(client, EPOCH))
    assert zk.write_json_fenced(client, "/p/t", {"a": 1}, mine) == 0        # created
    assert zk.write_json_fenced(client, "/p/t", {"a": 2}, mine) == 1        # overwritten
    assert zk.bump_epoch(client, EPOCH) == mine.version + 1                 # a successor gains the lead
    with pytest.raises(zk.FencedWrite, match="another controller leads"):
        zk.write_json_fenced(client, "/p/t", {"a": 3}, mine)
    with pytest.raises(zk.FencedWrite):
        zk.write_json_fenced(client, "/p/new", {"a": 3}, mine)
    assert zk.read_json(client, "/p/t") == ({"a": 2}, 1) and zk.read_json(client, "/p/new") is None


def test_a_write_against_a_missing_epoch_znode_is_refused():
    client = FakeKazoo()
    with pytest.raises(zk.FencedWrite):
        zk.write_json_fenced(client, "/p/t", {}, zk.Fence(EPOCH, 0))


def test_the_cluster_io_turns_a_refused_plan_into_fenced_out_and_writes_nothing():
    client = FakeKazoo()
    fence = zk.Fence(EPOCH, zk.bump_epoch(client, EPOCH))
    io = StormClusterIO(client, rest=None, fence=lambda: fence)
    assert io.write_plan("wc", {"[2,2]": "h2:6700"}) == 0
    zk.bump_epoch(client, EPOCH)
    with pytest.raises(FencedOut, match="the plan for wc was refused"):
        io.write_plan("wc", {"[2,2]": "h1:6700"})
    assert zk.read_json(client, f"{zk.PLANS}/wc")[0]["placement"] == {"[2,2]": "h2:6700"}


def test_a_controller_that_never_led_writes_no_plan():
    client = FakeKazoo()
    with pytest.raises(FencedOut, match="no leader epoch"):
        StormClusterIO(client, rest=None, fence=lambda: None).write_plan("wc", {"[2,2]": "h2:6700"})
    assert zk.read_json(client, f"{zk.PLANS}/wc") is None


def test_removing_a_topologys_documents_deletes_its_plan_and_decisions_only():
    client = FakeKazoo()
    io = StormClusterIO(client, rest=None, decisions_path="/ctl/decisions")
    for path in (f"{zk.PLANS}/old", f"{zk.DECISIONS}/old", "/ctl/decisions/old", f"{zk.PLANS}/live"):
        zk.write_json(client, path, {})
    assert io.remove_documents("old") == [f"{zk.PLANS}/old", f"{zk.DECISIONS}/old", "/ctl/decisions/old"]
    assert io.remove_documents("old") == []
    assert zk.read_json(client, f"{zk.PLANS}/live") is not None


class _Rest:
    """The two UI REST answers StormClusterIO.placement reads."""

    def topology(self, topology_id, sys=False):
        return {"spouts": [{"spoutId": "s"}], "bolts": [{"boltId": "__acker"}, {"boltId": "__system"}]}

    def component(self, topology_id, component, sys=False):
        ids = {"s": ["[1-1]", "[2-3]"], "__acker": ["[4-4]"], "__system": ["[-1--1]"]}[component]
        return {"executorStats": [{"id": i, "host": "h1", "port": 6700} for i in ids]}


def test_placement_is_read_in_the_uis_spelling_and_kept_in_the_wire_spelling():
    io = StormClusterIO(FakeKazoo(), rest=_Rest())
    assert io.placement("wc-1-1", system=True) == {"[1,1]": "h1:6700", "[2,3]": "h1:6700", "[4,4]": "h1:6700"}
