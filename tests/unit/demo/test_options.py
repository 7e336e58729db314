import socket
import subprocess
import sys

import pytest
from click.testing import CliRunner

from pycontrol.cli.demo_cmd import demo
from pycontrol.cluster import manager
from pycontrol.demo import move_part, options
from pycontrol.errors import UserError
from pycontrol.paths import REPO_ROOT

GOOD = dict(part="all", rate=300, before_s=5, after_s=30, moves="1,4", rebalance=True, warmup_s=30, phase_s=90,
            port_base=17000, network="loopback")


def make(**kw):
    return options.make_options(**(GOOD | kw))


def test_the_defaults_run_both_parts():
    opts = make()
    assert opts.runs_move and opts.runs_controller and opts.moves == (1, 4)
    assert make(part="move").runs_controller is False
    assert make(part="controller").runs_move is False


@pytest.mark.parametrize("kw, flag", [
    ({"phase_s": 0}, "--duration"), ({"phase_s": -30}, "--duration"), ({"phase_s": float("nan")}, "--duration"),
    ({"after_s": 0}, "--after"), ({"before_s": -1}, "--before"), ({"warmup_s": -5}, "--warmup"),
    ({"warmup_s": 5}, "--warmup"), ({"phase_s": 20}, "--duration"),
    ({"rate": 0}, "--rate"), ({"moves": "1,x"}, "--moves"), ({"moves": "0"}, "--moves"), ({"moves": "4,4"}, "--moves"),
    ({"moves": ""}, "--moves"), ({"part": "both"}, "--part")])
def test_bad_choices_name_their_flag(kw, flag):
    with pytest.raises(UserError, match=flag):
        make(**kw)


def test_a_zero_duration_is_one_line_and_a_non_zero_exit_from_the_command_line():
    p = subprocess.run([sys.executable, "-m", "pycontrol", "demo", "--duration", "0"], cwd=REPO_ROOT,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2
    assert p.stderr.strip().splitlines() == ["error: --duration must be at least 30 s, got 0"]


@pytest.fixture
def nothing_starts(monkeypatch):
    def refuse(*a, **k):
        raise AssertionError("a cluster was started")
    monkeypatch.setattr(manager, "up", refuse)
    monkeypatch.setattr(move_part, "run_way", refuse)


def test_a_busy_port_base_is_refused_before_anything_starts(tmp_path, nothing_starts):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = CliRunner().invoke(demo, ["--part", "move", "--port-base", str(port), "--home", str(tmp_path),
                                      "--out", str(tmp_path / "out")])
    assert r.exit_code != 0 and isinstance(r.exception, UserError), r.output
    assert str(r.exception).startswith(f"port {port} (port base {port}) is already in use")
    assert not (tmp_path / "out").exists()


def test_netns_without_root_is_refused_before_anything_starts(tmp_path, nothing_starts, monkeypatch):
    from pycontrol.cluster import network
    monkeypatch.setattr(network.os, "geteuid", lambda: 1000)
    r = CliRunner().invoke(demo, ["--network", "netns", "--home", str(tmp_path), "--out", str(tmp_path / "out"),
                                  "--port-base", "31000"])
    assert isinstance(r.exception, UserError) and "--network netns: network namespaces need root" in str(r.exception)
    assert not (tmp_path / "out").exists()


def test_an_unknown_network_is_refused(tmp_path, nothing_starts):
    r = CliRunner().invoke(demo, ["--network", "wifi", "--home", str(tmp_path), "--port-base", "31000"])
    assert isinstance(r.exception, UserError) and "--network must be one of" in str(r.exception)
