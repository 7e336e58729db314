"""The client conf a submission to another cluster (--nimbus) uses."""

import stat
from pathlib import Path

import pytest
import yaml

from pycontrol.errors import UserError
from pycontrol.storm.submit import client_conf_dir
from pycontrol.zkauth import AUTH_ENV, TOPOLOGY_AUTH_PAYLOAD, TOPOLOGY_AUTH_SCHEME


def _conf(nimbus: str) -> tuple[dict, Path]:
    d, tmp = client_conf_dir(nimbus, None)
    try:
        assert stat.S_IMODE(d.stat().st_mode) == 0o700
        return yaml.safe_load((d / "storm.yaml").read_text()), d
    finally:
        tmp.cleanup()


def test_a_remote_nimbus_without_credentials_gets_nimbus_only(monkeypatch):
    monkeypatch.delenv(AUTH_ENV, raising=False)
    conf, _ = _conf("10.0.0.5:6627")
    assert conf == {"nimbus.seeds": ["10.0.0.5"], "nimbus.thrift.port": 6627}


def test_a_secured_cluster_gets_its_payload_as_the_topology_payload(monkeypatch):
    # Otherwise Storm's submitter gives the topology a payload of its own and its workers die with NoAuth.
    monkeypatch.setenv(AUTH_ENV, "nonstop:s3cret")
    conf, _ = _conf("10.0.0.5:6627")
    assert conf[TOPOLOGY_AUTH_SCHEME] == "digest"
    assert conf[TOPOLOGY_AUTH_PAYLOAD] == "nonstop:s3cret"


def test_a_malformed_nimbus_is_one_clear_error():
    with pytest.raises(UserError, match="--nimbus must be HOST:PORT"):
        client_conf_dir("nimbus-without-port", None)
