"""The controller's commands refuse bad input before contacting any cluster."""

from click.testing import CliRunner

from pycontrol.cli import main
from pycontrol.errors import UserError


def invoke(*args, env=None):
    return CliRunner().invoke(main, list(args), standalone_mode=False, env=env)


def test_a_bad_config_is_named_before_anything_is_contacted(tmp_path):
    cfg = tmp_path / "controller.yml"
    cfg.write_text("defaults: {policy: otd, params: {hihg_cpu: 0.9}}\n")
    r = invoke("run", "--config", str(cfg), "--ui", "http://127.0.0.1:9", "--zk", "127.0.0.1:9")
    assert isinstance(r.exception, UserError)
    assert "defaults.params (policy otd): unknown key(s) ['hihg_cpu']" in str(r.exception)


def test_without_a_local_cluster_the_cluster_must_be_named(tmp_path):
    cfg = tmp_path / "controller.yml"
    cfg.write_text("cycle_s: 5\n")
    env = {"PYCONTROL_HOME": str(tmp_path / "no-cluster")}
    r = invoke("run", "--config", str(cfg), "--once", env=env)
    assert isinstance(r.exception, UserError) and "pass --ui URL and --zk HOST:PORT" in str(r.exception)
    for args in (["controller", "pause"], ["drain", "node1"]):
        r = invoke(*args, env=env)
        assert isinstance(r.exception, UserError) and "no local cluster running" in str(r.exception), args
