"""The lead's state machine, alone and driven over a fake kazoo client with a shared in-memory lock."""

from __future__ import annotations

from kazoo.client import KazooState

from pycontrol.controller.clock import ManualClock
from pycontrol.controller.leader import (CONTEND, EXPIRED, LEAD, LEADING, NEW_LOCK, RECONNECTED, STANDBY, SUSPENDED,
                                         VERIFY, WAIT, LeaderCore, Leadership)
from pycontrol.zk import Fence

# --- the pure core --------------------------------------------------------------------------------


def test_a_standby_contends_and_leads_once_it_holds_the_lock():
    core = LeaderCore(ManualClock(5))
    assert core.phase == STANDBY and core.next_step() == CONTEND and not core.leading()
    assert not core.acquired(False) and core.phase == STANDBY
    assert core.acquired(True) and core.leading() and core.next_step() == LEAD


def test_never_leads_while_suspended_and_checks_its_lock_node_once_reconnected():
    clock = ManualClock(0)
    core = LeaderCore(clock)
    core.acquired(True)
    clock.advance(3)
    core.connection(KazooState.SUSPENDED)
    assert core.phase == SUSPENDED and not core.leading() and core.next_step() == WAIT
    assert core.suspended_at == 3
    core.connection(KazooState.CONNECTED)
    assert core.phase == RECONNECTED and not core.leading() and core.next_step() == VERIFY
    core.verified(True)
    assert core.leading()


def test_a_lock_node_gone_after_reconnecting_means_a_new_lock_and_contending_anew():
    core = LeaderCore(ManualClock(0))
    core.acquired(True)
    core.connection(KazooState.SUSPENDED)
    core.connection(KazooState.CONNECTED)
    core.verified(False)
    assert core.phase == EXPIRED and core.next_step() == NEW_LOCK and not core.leading()
    core.new_lock()
    assert core.phase == STANDBY and core.next_step() == CONTEND


def test_a_lost_session_needs_a_new_lock_once_connected_again_whether_leading_or_not():
    for leading in (True, False):
        core = LeaderCore(ManualClock(0))
        core.acquired(leading)
        core.connection(KazooState.SUSPENDED)
        core.connection(KazooState.LOST)
        assert core.phase == EXPIRED and core.next_step() == WAIT
        core.connection(KazooState.CONNECTED)
        assert core.next_step() == NEW_LOCK and not core.leading()


def test_a_standby_suspended_waits_and_contends_again_when_connected():
    core = LeaderCore(ManualClock(0))
    core.connection(KazooState.SUSPENDED)
    assert core.phase == STANDBY and core.next_step() == WAIT
    core.connection(KazooState.CONNECTED)
    assert core.next_step() == CONTEND


def test_a_lock_won_while_the_connection_broke_is_checked_before_leading():
    core = LeaderCore(ManualClock(0))
    core.connection(KazooState.SUSPENDED)
    assert not core.acquired(True) and core.phase == SUSPENDED
    core.connection(KazooState.CONNECTED)
    assert core.next_step() == VERIFY


def test_the_phase_remembers_when_it_began():
    clock = ManualClock(10)
    core = LeaderCore(clock)
    clock.advance(4)
    core.acquired(True)
    assert core.since == 14
    clock.advance(1)
    core.connection(KazooState.CONNECTED)   # no change of phase, no new start
    assert core.since == 14


# --- over a fake kazoo client ---------------------------------------------------------------------

class Server:
    """One ZooKeeper: lock contenders in order, and znodes with versions."""

    def __init__(self):
        self.queue: list[FakeLock] = []
        self.nodes: dict[str, int] = {}
        self.seq = 0


class FakeLock:
    def __init__(self, client, path, ident):
        self.client, self.path, self.ident = client, path, ident
        self.node = None
        self.is_acquired = False

    def acquire(self, timeout=None):
        srv = self.client.server
        if self.node is None:
            srv.seq += 1
            self.node = f"lock-{srv.seq:010d}"
            srv.queue.append(self)
            srv.nodes[f"{self.path}/{self.node}"] = 0
        if srv.queue[0] is self:
            self.is_acquired = True
            return True
        srv.queue.remove(self)   # a timed-out contender removes its node (kazoo does so too)
        del srv.nodes[f"{self.path}/{self.node}"]
        self.node = None
        return False

    def release(self):
        srv = self.client.server
        if self in srv.queue:
            srv.queue.remove(self)
            srv.nodes.pop(f"{self.path}/{self.node}", None)
        self.is_acquired = False

    def contenders(self):
        return [lk.ident for lk in self.client.server.queue]


class FakeClient:
    def __init__(self, server):
        self.server = server
        self.listeners = []
        self.locks = []
        self.connected = True

    def Lock(self, path, ident):  # noqa: N802 - kazoo's spelling
        lk = FakeLock(self, path, ident)
        self.locks.append(lk)
        return lk

    def add_listener(self, fn):
        self.listeners.append(fn)

    def emit(self, state):
        self.connected = state == KazooState.CONNECTED
        for fn in self.listeners:
            fn(state)

    def expire(self):
        """The session ends: its ephemeral lock nodes go."""
        for lk in self.locks:
            lk.release()
        self.emit(KazooState.LOST)

    def exists(self, path):
        return object() if path in self.server.nodes else None

    def ensure_path(self, path):
        self.server.nodes.setdefault(path, 0)

    def set(self, path, data):
        self.server.nodes[path] += 1

        class Stat:
            version = self.server.nodes[path]
        return Stat


def pair():
    srv = Server()
    a, b = FakeClient(srv), FakeClient(srv)
    return srv, a, b, Leadership(a, "a", clock=ManualClock()), Leadership(b, "b", clock=ManualClock())


def test_gaining_the_lead_bumps_the_epoch_and_the_standby_takes_over_with_the_next_one():
    srv, a, b, la, lb = pair()
    assert la.acquire(1) and la.is_leader() and la.fence() == Fence(la.epoch_path, 1)
    assert not lb.acquire(1) and not lb.is_leader() and lb.fence() is None
    a.expire()                  # the leader's session ends
    assert not la.is_leader()
    assert lb.acquire(1) and lb.fence() == Fence(lb.epoch_path, 2)
    a.emit(KazooState.CONNECTED)   # kazoo reconnects with a new session: a new lock, and it stands by
    assert not la.acquire(1) and la.lock is not a.locks[0] and la.contenders() == ["b"]


def test_after_a_blip_with_the_session_intact_it_leads_again_with_the_same_epoch():
    srv, a, b, la, lb = pair()
    assert la.acquire(1)
    a.emit(KazooState.SUSPENDED)
    assert not la.is_leader() and not la.acquire(1)    # waits: no contending on a broken connection
    a.emit(KazooState.CONNECTED)
    assert not la.is_leader()                          # not before its lock node is confirmed
    assert la.acquire(1) and la.is_leader() and la.fence().version == 1
    assert not lb.acquire(1)
    assert srv.nodes[la.epoch_path] == 1, "no new epoch: nobody else could have led meanwhile"


def test_released_it_contends_anew_with_a_fresh_lock():
    srv, a, b, la, lb = pair()
    assert la.acquire(1)
    la.release()
    assert not la.is_leader()
    assert lb.acquire(1)
    lb.release()
    assert la.acquire(1) and la.fence().version == 3
