"""Killing a measurement topology: a failing REST call is retried, never taken for done."""

from pathlib import Path

from pycontrol.profiling.running import RunningTopology
from pycontrol.storm.rest import RestError


class FlakyRest:
    """Storm's REST API on a busy machine: the first `failures` calls time out; the topology is listed
    until `listed_for` lookups after the kill went through."""

    def __init__(self, failures: int, listed_for: int):
        self.failures, self.listed_for = failures, listed_for
        self.killed, self.calls = 0, 0

    def _call(self):
        self.calls += 1
        if self.calls <= self.failures:
            raise RestError("ReadTimeout")

    def topology_id(self, name):
        self._call()
        if self.killed:
            self.listed_for -= 1
            return None if self.listed_for < 0 else "t-1"
        return "t-1"

    def kill(self, topo_id, wait_s):
        self._call()
        self.killed += 1


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t

    def sleep(self, s):
        self.t += s


def test_a_kill_that_timed_out_is_asked_again_and_waited_for():
    rest, clock = FlakyRest(failures=3, listed_for=2), Clock()
    topo = RunningTopology(rest, Path("/tmp"), "profile-x", "t-1", sleep=clock.sleep)
    assert topo.kill(timeout_s=60, clock=clock) is True
    assert rest.killed == 1


def test_a_topology_that_stays_listed_is_reported_not_gone():
    rest, clock = FlakyRest(failures=0, listed_for=10_000), Clock()
    topo = RunningTopology(rest, Path("/tmp"), "profile-x", "t-1", sleep=clock.sleep)
    assert topo.kill(timeout_s=30, clock=clock) is False
    assert rest.killed == 1 and 29 <= clock.t <= 31


def test_rest_down_for_the_whole_wait_is_not_gone():
    rest, clock = FlakyRest(failures=10_000, listed_for=0), Clock()
    topo = RunningTopology(rest, Path("/tmp"), "profile-x", "t-1", sleep=clock.sleep)
    assert topo.kill(timeout_s=10, clock=clock) is False
    assert rest.killed == 0
