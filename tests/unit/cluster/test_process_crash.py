"""A daemon's crash (kill_leader) ends the daemon's own process (and its keeper) only: what it started
(a supervisor's workers) runs on, while a stop ends the whole process group."""

import time

import psutil

from pycontrol.cluster import processes
from pycontrol.cluster.daemons import DaemonCommand


def _daemon_with_a_child(tmp_path):
    # A stand-in daemon that starts a long-running child, as a supervisor starts its workers.
    cmd = DaemonCommand("fake", "supervisor", ["bash", "-c", "sleep 60 & wait"])
    rec = processes.start(cmd, tmp_path / "fake.out")
    deadline = time.monotonic() + 10
    while not any(c.name() == "sleep" for c in psutil.Process(rec.pid).children(recursive=True)):
        assert time.monotonic() < deadline, "the stand-in daemon did not start its child"
        time.sleep(0.05)
    child = next(c for c in psutil.Process(rec.pid).children(recursive=True) if c.name() == "sleep")
    return rec, child


def test_a_crash_kills_the_daemon_and_leaves_its_children_running(tmp_path):
    rec, child = _daemon_with_a_child(tmp_path)
    daemon = processes.daemon_pid(rec)
    try:
        processes.kill_leader(rec)
        assert not processes.is_alive(rec)
        assert not psutil.pid_exists(daemon) or psutil.Process(daemon).status() == psutil.STATUS_ZOMBIE
        assert child.is_running() and child.status() != psutil.STATUS_ZOMBIE
    finally:
        child.kill()
        child.wait(5)


def test_a_stop_ends_the_whole_group(tmp_path):
    rec, child = _daemon_with_a_child(tmp_path)
    processes.stop([rec], grace_s=2)
    assert not processes.is_alive(rec)
    child.wait(5)  # psutil.TimeoutExpired here would mean the child outlived its group's stop
    assert not child.is_running()
