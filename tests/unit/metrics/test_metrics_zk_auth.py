"""A metrics reader that ZooKeeper refuses says which znode and which credentials, instead of an error name."""

from __future__ import annotations

from kazoo.exceptions import NoAuthError

from pycontrol.metrics.zk import MetricsZk
from pycontrol.zkauth import ZkAuth
from tests.unit.metrics.fakes import FakeKazoo


def _refusing() -> FakeKazoo:
    fake = FakeKazoo()

    def refuse(path):
        raise NoAuthError()
    fake.get_children = refuse
    return fake


def test_a_refused_read_names_the_znode_and_the_missing_credentials():
    mz = MetricsZk("127.0.0.1:2181", client=_refusing())
    mz.start(0)
    r = mz.read("wc-1-1")
    assert r.error == ("ZooKeeper at 127.0.0.1:2181 refused to list /nonstop/metrics/wc-1-1: no credentials were "
                       "given (the cluster's storm.yaml has no storm.zookeeper.auth.payload, or set "
                       "PYCONTROL_ZK_AUTH=user:password for --zk)")


def test_a_refused_read_with_credentials_names_the_user_but_not_the_password():
    mz = MetricsZk("127.0.0.1:2181", client=_refusing(), auth=ZkAuth("nonstop", "wrong-pw"))
    mz.start(0)
    r = mz.read("wc-1-1")
    assert "credentials of user 'nonstop' do not match" in r.error and "wrong-pw" not in r.error
