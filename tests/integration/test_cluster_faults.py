"""Start-up faults of `cluster up` on the real parts: nothing is left running after any of them."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from pycontrol import paths
from pycontrol.cluster import manager
from pycontrol.cluster.spec import make_spec
from pycontrol.errors import UserError
from tests.conftest import TEST_PORT_BASE, assert_nothing_left

pytestmark = pytest.mark.cluster


def test_a_busy_port_names_the_port_and_its_process_and_starts_nothing(tmp_path):
    spec = make_spec(tmp_path / "c", nodes=1, port_base=TEST_PORT_BASE + 2000)
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("0.0.0.0", spec.nimbus_port))
        s.listen()
        with pytest.raises(UserError, match=rf"port {spec.nimbus_port} is already in use by pid {os.getpid()}"):
            manager.up(spec)
    assert not (tmp_path / "c" / "state.json").exists()
    assert_nothing_left(spec)


def test_a_daemon_dying_at_start_up_shows_its_log_and_everything_is_stopped(tmp_path, monkeypatch):
    # A build whose UI jar lacks the UI's main class: the UI JVM exits at once.
    real = paths.require_dist()
    fake = tmp_path / "dist"
    (fake / "storm" / "lib-webapp").mkdir(parents=True)
    for sub in ("storm/lib", "storm/lib-worker", "zookeeper", "extlib"):
        os.symlink(real / sub, fake / sub)
    (fake / "storm" / "lib-webapp" / "README").write_text("no jar")
    broken = fake / "storm" / "lib-webapp" / "broken.jar"
    broken.write_bytes(Path(next((real / "storm" / "lib-worker").glob("*.jar"))).read_bytes())
    monkeypatch.setenv("PYCONTROL_DIST", str(fake))

    spec = make_spec(tmp_path / "c", nodes=1, port_base=TEST_PORT_BASE + 2000)
    with pytest.raises(UserError) as e:
        manager.up(spec, timeout_s=120)
    msg = str(e.value)
    assert msg.startswith("ui exited during start-up; last lines of its log")
    assert "io.nonstopstorm.ui.UiRestServer" in msg  # the tail says which class was missing
    assert not (tmp_path / "c" / "state.json").exists()
    assert_nothing_left(spec)
