"""ZooKeeper digest credentials and the ACLs of the suite's znodes."""

from __future__ import annotations

import pytest
from kazoo.exceptions import NoAuthError
from kazoo.security import ACL, Id, Permissions, make_digest_acl_credential

from pycontrol import zk
from pycontrol.errors import UserError
from pycontrol.zkauth import ZkAuth, from_env

# ZooKeeper's DigestAuthenticationProvider.generateDigest("nonstop:s3cret"); the Java tests check the same
# vector (storm-plugins/metrics ZkAuthTest).
VECTOR_PAYLOAD = "nonstop:s3cret"
VECTOR_ID = "nonstop:F6N1rtgBik8KxU2s1GFldtQv84c="


def test_the_digest_is_zookeepers_and_kazoos():
    auth = ZkAuth.parse(VECTOR_PAYLOAD)
    assert auth.acl_id == VECTOR_ID
    assert auth.acl_id == make_digest_acl_credential("nonstop", "s3cret")


def test_storm_conf_without_auth_keys_means_an_open_zookeeper():
    assert ZkAuth.from_storm_conf({"storm.zookeeper.servers": ["127.0.0.1"]}) is None


def test_storm_conf_with_digest_auth():
    auth = ZkAuth.from_storm_conf({"storm.zookeeper.auth.scheme": "digest",
                                   "storm.zookeeper.auth.payload": VECTOR_PAYLOAD,
                                   "nonstop.zookeeper.metrics.world.read": True})
    assert (auth.user, auth.password, auth.metrics_world_read) == ("nonstop", "s3cret", True)


@pytest.mark.parametrize("conf, message", [
    ({"storm.zookeeper.auth.scheme": "sasl", "storm.zookeeper.auth.payload": "a:b"}, "must be 'digest'"),
    ({"storm.zookeeper.auth.scheme": "digest"}, "storm.zookeeper.auth.payload is not set"),
    ({"storm.zookeeper.auth.scheme": "digest", "storm.zookeeper.auth.payload": "nopassword"}, "'user:password'"),
    ({"storm.zookeeper.auth.scheme": "digest", "storm.zookeeper.auth.payload": "u:"}, "password must be non-empty"),
    ({"storm.zookeeper.auth.scheme": "digest", "storm.zookeeper.auth.payload": "a b:c"}, "digest user must be"),
    ({"storm.zookeeper.auth.scheme": "digest", "storm.zookeeper.auth.payload": "a:b",
      "nonstop.zookeeper.metrics.world.read": "yes"}, "must be true or false"),
])
def test_bad_auth_conf_is_one_clear_error(conf, message):
    with pytest.raises(UserError, match=message):
        ZkAuth.from_storm_conf(conf)


def test_the_password_never_shows_in_repr():
    assert "s3cret" not in repr(ZkAuth.parse(VECTOR_PAYLOAD))


def test_env_payload_for_another_cluster():
    assert from_env({}) is None
    assert from_env({"PYCONTROL_ZK_AUTH": VECTOR_PAYLOAD}).acl_id == VECTOR_ID


def test_suite_znodes_are_for_the_digest_principal_only():
    auth = ZkAuth.parse(VECTOR_PAYLOAD, metrics_world_read=True)
    only = [ACL(Permissions.ALL, Id("digest", VECTOR_ID))]
    for path in ["/nonstop", "/nonstop/plans/wc", "/nonstop/controller/state", "/nonstop/metricsx"]:
        assert zk.znode_acl(auth, path) == only, path


def test_metrics_documents_are_world_readable_only_when_configured():
    world_read = ACL(Permissions.READ, Id("world", "anyone"))
    path = "/nonstop/metrics/wc-1-1/127.0.0.11-6701"
    assert world_read in zk.znode_acl(ZkAuth.parse(VECTOR_PAYLOAD, metrics_world_read=True), path)
    assert world_read not in zk.znode_acl(ZkAuth.parse(VECTOR_PAYLOAD), path)


def test_a_refusal_names_the_znode_and_the_credentials():
    none = zk.denied_message("127.0.0.1:2181", "write", "/nonstop/plans/wc", None)
    assert "refused to write /nonstop/plans/wc" in none and "no credentials were given" in none
    wrong = zk.denied_message("127.0.0.1:2181", "create", "/nonstop/plans/x", ZkAuth.parse("nonstop:bad"))
    assert "user 'nonstop' do not match its ACL" in wrong and "bad" not in wrong.split("ACL")[0]


def test_access_denied_is_both_a_user_error_and_kazoos_no_auth():
    e = zk.AccessDenied("m")
    assert isinstance(e, UserError) and isinstance(e, NoAuthError) and str(e) == "m"
