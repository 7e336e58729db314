"""The micro-DAG tasks' per-slot limit: K flock tokens shared by separate processes (a Python bolt's
executors), released when a holder dies, keyed by the worker JVM found among the ancestors."""

import multiprocessing
import os
import signal
import time

import pytest

from topologies.microdag.slot_limit import SlotLimit, worker_pid

HOLD_S = 0.15


def _hold_once(directory, tokens, log_path):
    limit = SlotLimit(directory, tokens)
    with limit.held():
        start = time.monotonic()
        time.sleep(HOLD_S)
        end = time.monotonic()
    with open(log_path, "a") as f:
        f.write(f"{start} {end}\n")


def _most_at_once(intervals):
    events = sorted([(s, 1) for s, _ in intervals] + [(e, -1) for _, e in intervals])
    now = most = 0
    for _, step in events:
        now += step
        most = max(most, now)
    return most


@pytest.mark.parametrize("tokens", [1, 2, 3])
def test_no_more_than_k_processes_hold_a_token_at_once_and_all_k_are_used(tmp_path, tokens):
    log = tmp_path / "held.log"
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_hold_once, args=(tmp_path / "limit", tokens, log)) for _ in range(6)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(30)
        assert p.exitcode == 0
    intervals = [tuple(map(float, line.split())) for line in log.read_text().splitlines()]
    assert len(intervals) == 6
    # A tiny tolerance: one holder's end and the next one's start come from different clocks' reads.
    shrunk = [(s + 0.005, e - 0.005) for s, e in intervals]
    assert _most_at_once(shrunk) == tokens


def _hold_forever(directory, ready):
    limit = SlotLimit(directory, 1)
    with limit.held():
        ready.set()
        time.sleep(60)


def test_a_killed_holder_frees_its_token(tmp_path):
    ctx = multiprocessing.get_context("fork")
    ready = ctx.Event()
    holder = ctx.Process(target=_hold_forever, args=(tmp_path / "limit", ready))
    holder.start()
    assert ready.wait(10)
    waits = []
    limit = SlotLimit(tmp_path / "limit", 1, sleep=lambda s: (waits.append(s), os.kill(holder.pid, signal.SIGKILL)
                                                              if len(waits) == 1 else time.sleep(s)))
    with limit.held() as token:
        assert token == 0
    holder.join(10)
    assert waits, "the token was free although its holder was alive"
    assert all(w <= 0.008 for w in waits)


def _proc_tree(tmp_path, chain):
    """chain: [(pid, comm, ppid), ...] written as /proc/<pid>/stat files."""
    for pid, comm, ppid in chain:
        (tmp_path / str(pid)).mkdir()
        (tmp_path / str(pid) / "stat").write_text(f"{pid} ({comm}) S {ppid} 1 1 0 -1\n")
    return tmp_path


def test_the_worker_is_the_first_java_ancestor_even_through_a_shell(tmp_path):
    proc = _proc_tree(tmp_path, [(100, "python3 (bolt)", 50), (50, "sh", 10), (10, "java", 1), (1, "init", 0)])
    assert worker_pid(100, proc) == 10


def test_without_a_java_ancestor_the_parent_keys_the_limit(tmp_path):
    proc = _proc_tree(tmp_path, [(100, "python3", 50), (50, "bash", 1), (1, "init", 0)])
    assert worker_pid(100, proc) == 50


def test_zero_tokens_is_no_limit_and_a_limit_needs_a_token(tmp_path):
    assert SlotLimit.for_component("B", 0, root=tmp_path) is None
    with pytest.raises(ValueError, match="at least 1 token"):
        SlotLimit(tmp_path, 0)
