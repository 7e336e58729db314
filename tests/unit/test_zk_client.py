"""One kazoo configuration: the control plane's client and the metrics reader's are built by one function,
and a daemon's metrics reader can share its session instead of opening a second one."""

from __future__ import annotations

from kazoo.client import KazooState
from kazoo.security import ACL

from pycontrol import zk
from pycontrol.metrics.zk import MetricsZk
from pycontrol.zkauth import ZkAuth
from tests.unit.metrics.fakes import FakeKazoo

AUTH = ZkAuth("nonstop", "pw")


def test_the_one_client_reconnects_forever_retries_operations_and_authenticates():
    c = zk.new_client("127.0.0.1:1,127.0.0.2:2", 7, AUTH)
    assert c._conn_retry.max_tries == -1 and c._retry.max_tries == 5
    assert c.auth_data == {("digest", AUTH.payload)}
    assert all(isinstance(a, ACL) and a.id.scheme == "digest" for a in c.default_acl)
    assert zk.hosts_text(c) == "127.0.0.1:1,127.0.0.2:2" and c._session_timeout == 7000
    open_client = zk.new_client("127.0.0.1:1")
    assert not open_client.auth_data and open_client.default_acl is None


def test_the_metrics_reader_builds_the_same_client_with_quick_reads():
    mz = MetricsZk("127.0.0.1:1", timeout_s=7, auth=AUTH)
    assert type(mz.client) is type(zk.new_client("127.0.0.1:1"))
    assert mz.client._conn_retry.max_tries == -1 and mz.client.auth_data == {("digest", AUTH.payload)}
    assert mz._retry.max_tries == 2 and mz.owned


class LentSession(FakeKazoo):
    """A started session its owner keeps: the reader must neither start nor stop it."""
    hosts = [("127.0.0.1", 2181)]
    connected = True

    def start_async(self):
        raise AssertionError("a lent session is started by its owner")

    def stop(self):
        raise AssertionError("a lent session is stopped by its owner")

    def remove_listener(self, fn):
        self.listeners.remove(fn)


def test_a_shared_session_is_read_but_left_to_its_owner():
    session = LentSession({"/nonstop/metrics/wc-1-1/h-1": b"not json"})
    mz = MetricsZk.sharing(session)
    assert mz.hosts == "127.0.0.1:2181" and not mz.owned
    assert mz.start(0)   # already connected: no CONNECTED event will come
    assert [s.path for s in mz.read("wc-1-1").skipped] == ["/nonstop/metrics/wc-1-1/h-1"]
    session.set_state(KazooState.SUSPENDED)
    assert mz.read("wc-1-1").error.startswith("not connected")
    mz.stop()
    assert session.listeners == []
