"""The keeper starts a failed daemon again (as systemd's Restart=on-failure does), but reports a
start-up failure instead of looping on it, and never restarts a daemon that is being stopped."""

import os
import signal
import subprocess
import sys
import time

import psutil

from pycontrol.cluster.keeper import Policy, next_delay

P = Policy(armed_after_s=10, min_delay_s=1, max_delay_s=8)


# ------------------------------------------------------------------------------------------ next_delay

def test_a_clean_exit_is_not_restarted():
    assert next_delay(P, 0, 100, True, None) is None


def test_a_first_run_that_fails_early_is_a_start_up_failure():
    assert next_delay(P, 1, 3, False, None) is None


def test_a_failure_after_a_long_run_restarts_after_the_minimum_delay():
    assert next_delay(P, 20, 300, True, None) == 1
    assert next_delay(P, 20, 300, True, 8) == 1       # a long run resets the back-off


def test_quick_failures_once_armed_back_off_doubling_up_to_the_maximum():
    delays, d = [], None
    for _ in range(6):
        d = next_delay(P, 1, 0.5, True, d)
        delays.append(d)
    assert delays == [1, 2, 4, 8, 8, 8]


def test_a_daemon_killed_by_a_signal_counts_as_failed():
    assert next_delay(P, -9, 60, True, None) == 1


# ------------------------------------------------------------------------------- the keeper process

def _keeper(tmp_path, script: str, *opts: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pycontrol.cluster.keeper", "--name", "fake", *opts,
                             "--", "bash", "-c", script], stdout=subprocess.PIPE, text=True,
                            start_new_session=True)


def _wait_for_runs(k: subprocess.Popen, runs, count: int) -> None:
    """Until the daemon has been started `count` times; the keeper must stay up meanwhile."""
    deadline = time.monotonic() + 30
    while not (runs.exists() and runs.read_text().count("run") >= count):
        assert time.monotonic() < deadline, "the keeper did not start the failed daemon again"
        assert k.poll() is None, k.stdout.read()
        time.sleep(0.1)


def test_a_daemon_failing_at_start_up_ends_the_keeper_with_its_code(tmp_path):
    runs = tmp_path / "runs"
    k = _keeper(tmp_path, f"echo run >> {runs}; exit 7")
    out, _ = k.communicate(timeout=30)
    assert k.returncode == 7
    assert runs.read_text().count("run") == 1
    assert "run 1 exited with code 7" in out and "not restarting" in out


def test_a_daemon_failing_after_it_ran_is_started_again(tmp_path):
    runs = tmp_path / "runs"
    # Each run lasts 0.6 s (longer than armed-after) and fails; the third run stays up.
    script = f'echo run >> {runs}; [ $(wc -l < {runs}) -ge 3 ] && exec sleep 60; sleep 0.6; exit 3'
    k = _keeper(tmp_path, script, "--armed-after", "0.5", "--min-delay", "0.1")
    try:
        _wait_for_runs(k, runs, 3)
        assert k.poll() is None
    finally:
        k.send_signal(signal.SIGTERM)
        k.wait(10)


def test_a_daemon_that_was_seen_serving_is_started_again_even_after_a_short_first_run(tmp_path):
    """Nimbus started, served, and halted 19 s later on a ZooKeeper outage (armed-after 20 s): the
    manager had marked it ready, so this is no start-up failure and it must come back."""
    runs, ready = tmp_path / "runs", tmp_path / "nimbus.ready"
    # The first run marks itself ready (as the manager does once it sees the daemon serve) and fails
    # at once; the second stays up.
    script = f'echo run >> {runs}; [ $(wc -l < {runs}) -ge 2 ] && exec sleep 60; touch {ready}; exit 20'
    k = _keeper(tmp_path, script, "--armed-after", "60", "--min-delay", "0.1", "--ready-file", str(ready))
    try:
        _wait_for_runs(k, runs, 2)
    finally:
        k.send_signal(signal.SIGTERM)
        out, _ = k.communicate(timeout=10)
    assert "run 1 exited with code 20" in out and "starting it again" in out


def test_without_the_ready_file_a_short_first_run_is_still_a_start_up_failure(tmp_path):
    runs, ready = tmp_path / "runs", tmp_path / "never.ready"
    k = _keeper(tmp_path, f"echo run >> {runs}; exit 20", "--armed-after", "60", "--ready-file", str(ready))
    out, _ = k.communicate(timeout=30)
    assert k.returncode == 20 and runs.read_text().count("run") == 1
    assert "not restarting" in out


def test_a_stopped_group_ends_keeper_and_daemon_without_a_restart(tmp_path):
    runs = tmp_path / "runs"
    k = _keeper(tmp_path, f"echo run >> {runs}; exec sleep 60", "--armed-after", "0", "--min-delay", "0.1")
    deadline = time.monotonic() + 30
    while not runs.exists():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    daemon = psutil.Process(k.pid).children()[0]
    os.killpg(k.pid, signal.SIGTERM)   # what processes.stop does
    k.wait(10)
    assert k.returncode == 128 + signal.SIGTERM
    _, alive = psutil.wait_procs([daemon], timeout=5)
    assert not alive
    time.sleep(0.5)   # a restart (wrong) would have appended a second run by now
    assert runs.read_text().count("run") == 1


def test_a_pinned_daemon_and_its_children_run_on_the_given_cpus_only(tmp_path):
    """--node-cpus: the keeper pins itself before starting the daemon, so the daemon and whatever it
    starts (a supervisor's workers) inherit the CPUs."""
    cpu = min(os.sched_getaffinity(0))
    seen = tmp_path / "seen"
    k = _keeper(tmp_path, f"bash -c 'grep Cpus_allowed_list /proc/self/status > {seen}'; exit 0", "--cpus", str(cpu))
    k.communicate(timeout=30)
    assert k.returncode == 0
    assert seen.read_text().split(":")[1].strip() == str(cpu)


def test_kernel_cpu_lists_are_read_as_the_cpus_they_name():
    from pycontrol.cluster.processes import parse_cpu_list
    assert parse_cpu_list("0\n") == (0,)
    assert parse_cpu_list("0-2,5") == (0, 1, 2, 5)
    assert parse_cpu_list("7,1") == (1, 7)
