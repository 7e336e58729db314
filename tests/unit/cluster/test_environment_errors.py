"""The start-up faults a user can hit, each with a clear message (no cluster needed)."""

import os
import socket
import stat
from pathlib import Path

import pytest

from pycontrol import paths
from pycontrol.cluster import java, network, ports
from pycontrol.errors import UserError


def _fake_java(tmp_path: Path, version_line: str) -> Path:
    home = tmp_path / "jdk"
    (home / "bin").mkdir(parents=True)
    exe = home / "bin" / "java"
    exe.write_text(f"#!/bin/sh\necho '{version_line}' >&2\n")
    exe.chmod(exe.stat().st_mode | stat.S_IEXEC)
    return home


def test_java_older_than_17_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("JAVA_HOME", str(_fake_java(tmp_path, 'openjdk version "11.0.2" 2019-01-15')))
    with pytest.raises(UserError, match="is Java 11; Storm 2.8 needs Java 17"):
        java.find_java()


def test_java_1_8_style_version_is_read_as_8(tmp_path, monkeypatch):
    monkeypatch.setenv("JAVA_HOME", str(_fake_java(tmp_path, 'java version "1.8.0_392"')))
    with pytest.raises(UserError, match="is Java 8"):
        java.find_java()


def test_missing_java_is_named(tmp_path, monkeypatch):
    monkeypatch.setenv("JAVA_HOME", str(tmp_path / "nowhere"))
    with pytest.raises(UserError, match="no Java found"):
        java.find_java()


def test_this_machines_java_is_accepted():
    assert java.java_major(java.find_java()) >= 17


def test_missing_maven_artifacts_say_how_to_build_them(tmp_path, monkeypatch):
    monkeypatch.setenv("PYCONTROL_DIST", str(tmp_path))
    with pytest.raises(UserError, match=r"jars missing .*`mvn -q package`"):
        paths.require_dist()


def test_busy_port_is_reported_with_its_owner():
    with socket.socket() as s:
        s.bind(("0.0.0.0", 0))
        s.listen()
        port = s.getsockname()[1]
        assert ports.in_use(port)
        busy = ports.first_busy([port])
        assert busy is not None and busy[0] == port
        assert f"pid {os.getpid()}" in (busy[1] or "")
    assert not ports.in_use(port)


def test_netns_without_root_is_refused_before_anything_starts(monkeypatch):
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(UserError, match="need root"):
        network.check_rights()


@pytest.mark.parametrize("bw, delay, kind", [("100mbit", None, "tbf"), (None, 5.0, "netem"),
                                             ("1gbit", 2.0, "netem"), (None, None, None)])
def test_link_shaping_picks_the_qdisc(bw, delay, kind):
    q = network.link_qdisc(bw, delay)
    assert (q[0] if q else None) == kind
    if bw and q:
        assert bw in q


def test_auto_is_made_concrete_and_says_why():
    assert network.resolve("auto", lambda: None) == ("netns", "network: netns (auto: each node in its own network namespace)")
    assert network.resolve("auto", lambda: "no root") == ("loopback", "network: loopback (auto: no root)")
    assert network.resolve("loopback", lambda: None) == ("loopback", "network: loopback (as asked)")
