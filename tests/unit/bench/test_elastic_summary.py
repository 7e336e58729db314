"""The Elastic Allocator experiment's pure parts: per-step figures (R_utl, R_dev), the summary across
repetitions, the placement order, node samples from metrics documents, and link rates."""

import math

import pytest

from pycontrol.bench.elastic import summary
from pycontrol.bench.elastic.link import bytes_per_second
from pycontrol.bench.elastic.sampler import node_samples
from pycontrol.bench.elastic.summary import NodeSample, Second
from pycontrol.errors import UserError
from pycontrol.wire.metrics_document import NetRate, WorkerDoc

CAP = {"a": 1.0, "b": 1.0, "c": 2.0}


def samples(at: float, cpu: dict, net: dict) -> list[NodeSample]:
    return [NodeSample(at, h, cpu[h], net[h]) for h in cpu]


def test_step_figures_are_the_mean_and_population_deviation_across_nodes():
    s = samples(10, {"a": 0.2, "b": 0.6, "c": 0.8}, {"a": 100, "b": 300, "c": 200}) + \
        samples(15, {"a": 0.4, "b": 0.6, "c": 0.8}, {"a": 100, "b": 100, "c": 200}) + \
        samples(30, {"a": 9, "b": 9, "c": 9}, {"a": 9e9, "b": 9e9, "c": 9e9})      # outside the stretch
    secs = [Second(t, 100, 5.0, 20.0 + t) for t in range(10, 20)] + [Second(25, 10_000, 1, 1)]
    f = summary.step_figures(s, secs, 10, 20, CAP, 1000.0)
    # u = (0.3, 0.6, 0.4), b = (0.1, 0.2, 0.2)
    assert f["nodes"]["a"] == {"cpu_util": 0.3, "bw_util": 0.1}
    assert f["cpu_r_utl"] == pytest.approx(1.3 / 3, abs=1e-4)
    mean = 1.3 / 3
    assert f["cpu_r_dev"] == pytest.approx(math.sqrt(((0.3 - mean) ** 2 + (0.6 - mean) ** 2 + (0.4 - mean) ** 2) / 3), abs=1e-4)
    assert f["bw_r_utl"] == pytest.approx(0.5 / 3, abs=1e-6)
    assert f["throughput"] == 100.0
    assert f["latency_mean_ms"] == 5.0 and f["latency_p99_ms"] == pytest.approx(34.5)


def test_loopback_nodes_have_no_bandwidth_figures():
    f = summary.step_figures(samples(1, {"a": 1, "b": 1, "c": 1}, {"a": 0, "b": 0, "c": 0}), [], 0, 5, CAP, None)
    assert f["bw_r_utl"] is None and f["bw_r_dev"] is None and f["nodes"]["c"]["bw_util"] is None
    assert f["cpu_r_dev"] > 0 and f["throughput"] == 0 and f["latency_p99_ms"] is None


def test_a_node_without_a_sample_or_an_empty_stretch_is_an_error_not_zero():
    with pytest.raises(UserError, match="node c has no metrics sample"):
        summary.step_figures(samples(1, {"a": 1, "b": 1}, {"a": 0, "b": 0}), [], 0, 5, CAP, 10.0)
    with pytest.raises(UserError, match="empty"):
        summary.step_figures([], [], 5, 5, CAP, 10.0)


def test_summary_gives_n_median_and_range_per_placement_and_rate():
    def fig(u):
        return {"cpu_r_utl": u, "cpu_r_dev": 0.1, "bw_r_utl": None, "bw_r_dev": None, "throughput": 200 * u,
                "latency_mean_ms": 3.0, "latency_p99_ms": 9.0}
    steps = [{"placement": "elastic", "rate": 200.0, "figures": fig(u)} for u in (0.5, 0.7, 0.6)]
    steps.append({"placement": "random", "rate": 1200.0, "figures": fig(0.9)})
    s = summary.summarize_steps(steps)
    assert s["elastic"]["200"]["cpu_r_utl"] == {"n": 3, "median": 0.6, "min": 0.5, "max": 0.7}
    assert s["elastic"]["200"]["bw_r_utl"] is None
    assert s["random"]["1200"]["throughput"]["n"] == 1
    assert any(line.startswith("elastic       200") for line in summary.summary_lines(s))
    with pytest.raises(UserError):
        summary.summarize_steps([])


def test_placements_rotate_between_repetitions():
    assert [summary.order(i) for i in range(4)] == [["elastic", "random", "even"], ["random", "even", "elastic"],
                                                    ["even", "elastic", "random"], ["elastic", "random", "even"]]


def doc(host: str, port: int, end_ms: int, cpu: float, rx: float, tx: float) -> WorkerDoc:
    return WorkerDoc(1, "t", host, port, 1, 0, cpu, end_ms, 5.0, 3, 5, 2, None, 1.0,
                     (NetRate("veth0", rx, tx),), (), (), ())


def test_a_node_sample_sums_its_fresh_workers_and_takes_the_larger_traffic_direction():
    got = node_samples([doc("h1", 1, 100_000, 0.25, 10, 30), doc("h1", 2, 98_000, 0.5, 50, 0),
                        doc("h1", 3, 50_000, 7.0, 0, 0),           # a killed worker's leftover
                        doc("h2", 1, 99_000, 0.1, 80, 20)])
    assert got == [NodeSample(100.0, "h1", 0.75, 30.0), NodeSample(99.0, "h2", 0.1, 80.0)]
    with_idle = node_samples([doc("h1", 1, 100_000, 0.25, 10, 30)], hosts=["h1", "h3"], now_s=101.0)
    assert with_idle == [NodeSample(100.0, "h1", 0.25, 30.0), NodeSample(101.0, "h3", 0.0, 0.0)]


def test_link_rates_follow_tc_units():
    assert bytes_per_second("10mbit") == 1.25e6
    assert bytes_per_second("500kbps") == 5e5
    for bad in ("fast", "0mbit", "10mb"):
        with pytest.raises(UserError):
            bytes_per_second(bad)


def test_ports_inside_the_ephemeral_range_are_warned_about():
    from pycontrol.bench.elastic.runner import ephemeral_clash
    assert ephemeral_clash(19_900, 32_768) is None
    assert ephemeral_clash(30_000, None) is None
    assert "--port-base below 32568" in ephemeral_clash(36_860, 32_768)
