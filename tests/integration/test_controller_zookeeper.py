"""The controller's state and leadership on the cluster's real ZooKeeper."""

from __future__ import annotations

import uuid

import pytest

from pycontrol import zk
from pycontrol.controller.actions import Move
from pycontrol.controller.leader import Leadership
from pycontrol.controller.state_store import FencedOut, StateStore

pytestmark = pytest.mark.cluster


@pytest.fixture
def connect(cluster):
    """A client of the cluster's ZooKeeper with its credentials (its znodes get the cluster's ACL)."""
    return lambda: zk.connect(f"127.0.0.1:{cluster.spec.zk_port}", auth=cluster.zk_auth)


@pytest.fixture
def base():
    return f"/nonstop-test/{uuid.uuid4().hex}"


def test_a_restarted_controller_finds_the_pending_action_and_a_stale_one_is_fenced_out(connect, base):
    a = connect()
    b = connect()
    try:
        store_a = StateStore(a, f"{base}/state")
        state, version = store_a.load()
        mv = Move("wc", "[1,1]", "h1:1", "h2:1", "test")
        version = store_a.save(state.begin(1, [mv], 10.0), version)
        a.stop()  # the controller dies between write-ahead and completion

        store_b = StateStore(b, f"{base}/state")
        resumed, v2 = store_b.load()
        assert resumed.pending is not None and resumed.pending.moves == (mv,)
        v3 = store_b.save(resumed.complete(12.0, {"wc": 60}, "applied"), v2)
        # A controller still holding the old version cannot overwrite its successor.
        with pytest.raises(FencedOut):
            store_b.save(resumed, v2)
        final, _ = store_b.load()
        assert final.pending is None and final.log[-1]["cycle"] == 1
        assert v3 == v2 + 1
    finally:
        a.close()
        b.stop()
        b.close()


def test_only_one_controller_leads_and_the_other_takes_over_when_it_goes(connect, base):
    a = connect()
    b = connect()
    try:
        la = Leadership(a, "ctl-a", path=f"{base}/leader")
        lb = Leadership(b, "ctl-b", path=f"{base}/leader")
        assert la.acquire(timeout_s=5)
        assert not lb.acquire(timeout_s=1)
        assert la.is_leader() and not lb.is_leader()
        assert la.contenders()[0] == "ctl-a"
        a.stop()  # leader's session ends: its ephemeral lock node goes with it
        assert lb.acquire(timeout_s=10)
        assert lb.is_leader()
    finally:
        for c in (a, b):
            c.stop()
            c.close()
