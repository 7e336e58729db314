"""Per-cluster secrets: generated once per home, kept owner-only, rendered into every storm.yaml."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest
import yaml

from pycontrol.cluster import secrets, storm_conf, storm_home
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import make_spec, spec_from_dict
from pycontrol.errors import UserError
from pycontrol.zkauth import ZkAuth

FIXED = secrets.ClusterSecrets(zk_password="pw-" + "a" * 20, ui_token="t" * 43)


def _mode(p: Path) -> int:
    return stat.S_IMODE(p.stat().st_mode)


def test_generated_secrets_are_random_and_long_enough():
    a, b = secrets.generate(), secrets.generate()
    assert a.zk_password != b.zk_password and a.ui_token != b.ui_token
    assert a.zk_user == "nonstop" and len(a.ui_token) >= 32
    assert ":" not in a.zk_password and ZkAuth.parse(a.zk_auth.payload) == a.zk_auth


def test_generation_uses_the_injected_randomness():
    s = secrets.generate(token=lambda n: "x" * (2 * n))
    assert s.zk_password == "x" * 48 and s.ui_token == "x" * 64


def test_secrets_are_created_once_owner_only_and_reused(tmp_path):
    path = tmp_path / "secrets.json"
    first = secrets.load_or_create(path)
    assert _mode(path) == 0o600
    assert secrets.load_or_create(path) == first
    path.chmod(0o644)
    secrets.load_or_create(path)
    assert _mode(path) == 0o600


def test_an_unreadable_secrets_file_is_one_clear_error(tmp_path):
    path = tmp_path / "secrets.json"
    path.write_text("{not json")
    with pytest.raises(UserError, match="unreadable secrets file"):
        secrets.load_or_create(path)
    path.write_text(json.dumps({"zk_password": "p", "ui_token": "short"}))
    with pytest.raises(UserError, match="at least 32"):
        secrets.load(path)


def test_the_repr_shows_no_secret():
    assert FIXED.zk_password not in repr(FIXED) and FIXED.ui_token not in repr(FIXED)


def test_every_storm_yaml_authenticates_and_only_the_control_conf_has_the_ui_token():
    spec = make_spec(Path("/tmp/home"), nodes=2, slots=2)
    layout = Layout(spec.home)
    control = storm_conf.control_conf(spec, layout, FIXED)
    nodes = [storm_conf.node_conf(spec, layout, n, FIXED) for n in spec.node_specs]
    auth = FIXED.zk_auth
    for conf in [control, *nodes]:
        assert ZkAuth.from_storm_conf(conf) == auth
        assert conf["storm.zookeeper.superACL"] == f"digest:{auth.acl_id}"
        assert conf["storm.zookeeper.topology.auth.scheme"] == "digest"
        assert conf["storm.zookeeper.topology.auth.payload"] == auth.payload
    assert control["nonstop.ui.token"] == FIXED.ui_token
    assert all("nonstop.ui.token" not in c for c in nodes)


def test_no_zk_acl_renders_a_stock_open_zookeeper_but_keeps_the_ui_token():
    spec = make_spec(Path("/tmp/home"), nodes=1, slots=1, zk_acl=False)
    control = storm_conf.control_conf(spec, Layout(spec.home), FIXED)
    assert not [k for k in control if k.startswith("storm.zookeeper.") and "auth" in k or k.endswith("superACL")]
    assert control["nonstop.ui.token"] == FIXED.ui_token


def test_the_choice_survives_the_state_file():
    spec = make_spec(Path("/tmp/home"), nodes=1, slots=1, zk_acl=False)
    assert spec_from_dict(spec.to_dict()).zk_acl is False
    assert make_spec(Path("/tmp/home")).zk_acl is True


def test_assembled_storm_yamls_are_owner_only_and_hold_the_secrets(tmp_path):
    dist = tmp_path / "dist"
    for d in ("storm/lib", "storm/lib-worker", "storm/lib-webapp", "extlib"):
        (dist / d).mkdir(parents=True)
    spec = make_spec(tmp_path / "home", nodes=2, slots=1, migration=False)
    layout = Layout(spec.home)
    storm_home.assemble(spec, layout, dist, FIXED)
    files = [layout.control_conf_dir / "storm.yaml", *(layout.node_conf_dir(n.name) / "storm.yaml"
                                                        for n in spec.node_specs)]
    for f in files:
        assert _mode(f) == 0o600, f
        assert ZkAuth.from_storm_conf(yaml.safe_load(f.read_text())) == FIXED.zk_auth
    assert secrets.cluster_zk_auth(spec.home) == FIXED.zk_auth


def test_no_cluster_conf_means_no_credentials(tmp_path):
    assert secrets.cluster_zk_auth(tmp_path) is None


def test_commands_take_the_env_payload_before_the_local_clusters(tmp_path, monkeypatch):
    from pycontrol.cli.common import zk_auth

    spec = make_spec(tmp_path / "home", nodes=1, slots=1)
    storm_home._write_yaml(Layout(spec.home).control_conf_dir / "storm.yaml",
                           storm_conf.control_conf(spec, Layout(spec.home), FIXED))
    monkeypatch.delenv("PYCONTROL_ZK_AUTH", raising=False)
    assert zk_auth(spec.home) == FIXED.zk_auth
    monkeypatch.setenv("PYCONTROL_ZK_AUTH", "other:pw")
    assert zk_auth(spec.home) == ZkAuth("other", "pw")
    monkeypatch.setenv("PYCONTROL_ZK_AUTH", "")
    assert zk_auth(tmp_path / "nowhere") is None
