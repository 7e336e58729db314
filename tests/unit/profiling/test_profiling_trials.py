"""TrialRunner against a simulated topology: a single queue with a known capacity, seen through the
per-second series the FeedSpout writes (fake clock and sleep, no cluster)."""

from __future__ import annotations

import pytest

from pycontrol.profiling.sweep import SearchSettings, find_peak_rate
from pycontrol.profiling.trials import ProfilingError, RateFile, TrialRunner, TrialSettings
from pycontrol.profiling.usage import UsageSample
from pycontrol.workloads.series import Second


class QueueTopology:
    """Arrivals at the target rate, `capacity` tuples/s served FIFO, `base_ms` of latency on top of
    the queueing delay; one series row per second (written when the second is over)."""

    def __init__(self, capacity: float, base_ms: float = 50.0, start: float = 1_000_000.0):
        self.capacity, self.base_ms = capacity, base_ms
        self.now = start
        self.rate = 0.0
        self.queue = 0.0
        self.rows: list[Second] = []
        self.cpu_s = 0.0
        self.rates_set: list[float] = []

    # the RateFile side
    def set(self, rate: float) -> None:
        self.rates_set.append(rate)
        self.rate = rate

    def clock(self) -> float:
        return self.now

    def sleep(self, dt: float) -> None:
        end = self.now + dt
        while int(self.now) < int(end):
            self._second(int(self.now))
            self.now = float(int(self.now) + 1)
        self.now = end

    def _second(self, ts: int) -> None:
        arrivals = self.rate
        served = min(self.capacity, self.queue + arrivals)
        self.queue = self.queue + arrivals - served
        if not self.capacity:      # a dead topology: no acks, no latency
            self.rows.append(Second(ts, int(arrivals), 0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0, int(self.queue), 0.0, 0,
                                    round(self.rate, 3), 1))
            return
        self.cpu_s += served / self.capacity * 0.9          # 0.9 cores at full load
        wait_ms = 1000.0 * self.queue / self.capacity
        lat = self.base_ms + wait_ms
        n = int(round(served))
        self.rows.append(Second(ts=ts, emitted=int(round(arrivals)), replayed=0, acked=n, failed=0, latency_n=n,
                                latency_mean_ms=lat, latency_p50_ms=lat, latency_p99_ms=lat * 1.2,
                                latency_max_ms=lat * 1.5, pending=int(self.queue), behind_ms=0.0, bad_lines=0,
                                target_rate=round(self.rate, 3), tasks=1))

    def read_rows(self) -> list[Second]:
        return list(self.rows)

    def usage(self) -> UsageSample:
        return UsageSample(self.now, self.cpu_s, {}, 300.0, 0.0)


def runner(topo: QueueTopology, **settings) -> TrialRunner:
    s = TrialSettings(**{"trial_secs": 15, "warmup_secs": 4, **settings})
    return TrialRunner(topo.read_rows, topo, s, usage=topo.usage, clock=topo.clock, sleep=topo.sleep)


def test_settle_measures_the_base_latency_at_a_low_rate():
    topo = QueueTopology(capacity=100.0, base_ms=40.0)
    assert runner(topo).settle(1.0) == pytest.approx(40.0)


def test_settle_gives_up_when_nothing_arrives():
    topo = QueueTopology(capacity=0.0)
    with pytest.raises(ProfilingError, match="did not settle"):
        runner(topo, settle_timeout_secs=30).settle(1.0)


def test_trials_must_wait_for_the_base_latency():
    with pytest.raises(ProfilingError, match="settle"):
        runner(QueueTopology(100.0)).run(10.0)


def test_a_rate_below_capacity_is_stable_and_its_cpu_is_measured():
    topo = QueueTopology(capacity=100.0)
    r = runner(topo)
    r.settle(1.0)
    t = r.run(80.0)
    assert t.stable, t.reason
    assert t.acked_rate == pytest.approx(80.0)
    assert t.cpu_cores == pytest.approx(0.72, abs=0.05)      # 80 % of the 0.9 cores at full load
    assert t.rss_mb == 300.0


def test_an_overload_is_unstable_cut_short_and_drained():
    topo = QueueTopology(capacity=100.0, base_ms=40.0)
    r = runner(topo, trial_secs=60, abort_after_ms=1000)
    r.settle(1.0)
    before = topo.now
    t = r.run(150.0)
    assert not t.stable
    assert t.reason.startswith("aborted: median latency above 1040 ms")
    assert topo.rates_set[-1] == 0.0 and topo.queue == 0      # drained before returning
    assert t.seconds < 60 and topo.now - before < 60


def test_a_slight_overload_is_caught_by_the_latency_slope():
    topo = QueueTopology(capacity=100.0, base_ms=40.0)
    r = runner(topo, trial_secs=20, max_slope_ms_per_s=10)
    r.settle(1.0)
    t = r.run(103.0)                     # the queue grows 3 tuples/s: +30 ms of latency per s
    assert not t.stable
    assert "latency grows" in t.reason


def test_trials_round_rates_like_the_spout_reports_them():
    topo = QueueTopology(capacity=100.0)
    r = runner(topo)
    r.settle(1.0)
    t = r.run(33.33333333)
    assert t.rate == 33.333 and t.stable, t.reason


def test_the_search_over_the_simulated_topology_finds_its_capacity():
    topo = QueueTopology(capacity=37.0)
    r = runner(topo)
    r.settle(1.0)
    result = find_peak_rate(r.run, 5.0, SearchSettings(precision=0.1))
    assert 0.9 * 37.0 <= result.peak.rate <= 37.0


def test_the_rate_file_is_what_the_feed_spout_reads(tmp_path):
    f = RateFile(tmp_path / "x.rate")
    f.set(12.5)
    assert (tmp_path / "x.rate").read_text() == "0 12.5\n"
    f.set(0.0)
    assert (tmp_path / "x.rate").read_text() == "0 0.0\n"


def test_one_slow_second_at_the_end_is_not_a_trend_but_a_steady_climb_is():
    from pycontrol.workloads.stability import judge

    def rows(p50s):
        return [Second(ts=100 + i, emitted=10, replayed=0, acked=10, failed=0, latency_n=10, latency_mean_ms=v,
                       latency_p50_ms=v, latency_p99_ms=v, latency_max_ms=v, pending=1, behind_ms=0.0, bad_lines=0,
                       target_rate=10.0, tasks=1) for i, v in enumerate(p50s)]
    spike = rows([20.0] * 11 + [420.0])
    climb = rows([20.0 + 15 * i for i in range(12)])
    kw = dict(warmup_s=0, min_seconds=5, max_slope_ms_per_s=10.0)
    assert not judge(spike, 10.0, **kw).sustainable                           # least squares: ~15 ms/s
    assert judge(spike, 10.0, slope_method="theil-sen", **kw).sustainable
    assert not judge(climb, 10.0, slope_method="theil-sen", **kw).sustainable


def test_settle_waits_until_a_start_up_backlog_has_drained():
    # A slow task (2 t/s, 500 ms) that found 40 tuples queued when its worker came up: at 1 t/s the
    # backlog drains by one tuple a second, the latency falls steadily from 20 s and hardly spreads
    # relative to itself; that is not the base latency.
    topo = QueueTopology(capacity=2.0, base_ms=500.0)
    topo.queue = 40.0
    base = runner(topo).settle(1.0)
    assert base == pytest.approx(500.0, abs=10.0)
    assert topo.queue < 1


def test_a_slow_task_at_its_capacity_is_not_failed_for_tuples_still_in_flight():
    # 2 t/s at 500 ms: a 10 s window sees ~19 of 20 tuples acked; that is not an overload
    topo = QueueTopology(capacity=2.0, base_ms=500.0)
    r = runner(topo, trial_secs=14, warmup_secs=4)
    r.settle(1.0)
    assert r._acked_ratio(2.0, 10) == pytest.approx(0.95 - 2 / 20)
    assert r._acked_ratio(500.0, 10) == pytest.approx(0.95 - 251 / 5000)


class LostTupleTopology(QueueTopology):
    """One tuple never comes back: pending stays 1, nothing is acked."""

    def _second(self, ts: int) -> None:
        self.rows.append(Second(ts, 0, 0, 0, 0, 0, 0.0, 0.0, 0.0, 0.0, 1, 0.0, 0, round(self.rate, 3), 1))


def test_a_tuple_lost_in_flight_does_not_hold_the_drain_until_its_timeout():
    topo = LostTupleTopology(capacity=100.0)
    r = runner(topo, drain_timeout_secs=120, stuck_secs=10)
    took = r.drain()
    assert 10 <= took <= 15
    assert topo.rates_set == [0.0]
