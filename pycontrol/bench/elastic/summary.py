"""The Elastic Allocator experiment's figures (pure): per Top-K input rate, each node's CPU and link
utilisation, their mean and deviation across the nodes, and Top-K's acked throughput and latency; then,
across repetitions, n, median and min-max per placement and rate.

Per node i over one rate step's measured stretch:
* CPU utilisation u_i = mean over the stretch's samples of (CPU of every worker JVM on node i, in cores)
  / c_i, node i's CPU capacity in cores (its pinned CPUs, or the machine's CPUs shared equally);
* bandwidth utilisation b_i = mean over the samples of max(received, sent bytes/s on the node's
  interfaces) / B, the shaped link's capacity in bytes/s (a link is full when either direction is).
Across the N nodes (the paper's R_utl and R_dev), for u and likewise for b:
  R_utl = (1/N) * sum_i u_i,   R_dev = sqrt((1/N) * sum_i (u_i - R_utl)^2)   (population deviation).
Top-K: throughput = acked tuples / seconds of the stretch (the spout's per-second series), latency =
median over those seconds of the per-second mean and p99 (from each tuple's intended emit time)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pycontrol.bench import stats
from pycontrol.bench.order import rotated
from pycontrol.errors import UserError

PLACEMENTS = ("elastic", "random", "even")
MEASURES = ("cpu_r_utl", "cpu_r_dev", "bw_r_utl", "bw_r_dev", "throughput", "latency_mean_ms", "latency_p99_ms")


@dataclass(frozen=True)
class NodeSample:
    at: float                # seconds since the epoch (the metrics document's window end)
    host: str
    cpu_cores: float         # every worker JVM's CPU on the node
    net_bytes_per_s: float   # max(rx, tx) over the node's interfaces


@dataclass(frozen=True)
class Second:
    ts: float
    acked: int
    latency_mean_ms: float | None
    latency_p99_ms: float | None


def order(repetition: int) -> list[str]:
    """Repetition i runs the placements rotated by i, so none always runs first or last."""
    return rotated(PLACEMENTS, repetition)


def mean_and_deviation(values: Sequence[float]) -> tuple[float, float]:
    """R_utl and R_dev of per-node utilisations (population standard deviation)."""
    if not values:
        raise UserError("no node was measured")
    m = sum(values) / len(values)
    return m, math.sqrt(sum((v - m) ** 2 for v in values) / len(values))


def step_figures(samples: Sequence[NodeSample], seconds: Sequence[Second], start: float, end: float,
                 cpu_capacity: Mapping[str, float], link_bytes_per_s: float | None) -> dict:
    """One rate step's figures over [start, end). Every node of cpu_capacity counts; a node without a
    sample in the stretch is an error (its utilisation is unknown, not zero). Without a shaped link
    (link_bytes_per_s None: loopback nodes) the bandwidth figures are None."""
    if end <= start:
        raise UserError(f"empty measuring stretch [{start}, {end})")
    if (link_bytes_per_s is not None and link_bytes_per_s <= 0) or any(c <= 0 for c in cpu_capacity.values()):
        raise UserError("capacities must be > 0")
    inside = [s for s in samples if start <= s.at < end]
    cpu, bw = {}, {}
    for host, cap in sorted(cpu_capacity.items()):
        mine = [s for s in inside if s.host == host]
        if not mine:
            raise UserError(f"node {host} has no metrics sample between {start:.0f} and {end:.0f}")
        cpu[host] = statistics.fmean(s.cpu_cores for s in mine) / cap
        if link_bytes_per_s is not None:
            bw[host] = statistics.fmean(s.net_bytes_per_s for s in mine) / link_bytes_per_s
    secs = [s for s in seconds if start <= s.ts < end]
    cpu_utl, cpu_dev = mean_and_deviation(list(cpu.values()))
    bw_utl, bw_dev = mean_and_deviation(list(bw.values())) if bw else (None, None)

    def med(xs: list) -> float | None:
        xs = [x for x in xs if x is not None]
        return statistics.median(xs) if xs else None
    def r(x: float | None, digits: int) -> float | None:
        return None if x is None else round(x, digits)
    return {"nodes": {h: {"cpu_util": round(cpu[h], 4), "bw_util": r(bw.get(h), 6)} for h in cpu},
            "cpu_r_utl": round(cpu_utl, 4), "cpu_r_dev": round(cpu_dev, 4),
            "bw_r_utl": r(bw_utl, 6), "bw_r_dev": r(bw_dev, 6),
            "throughput": round(sum(s.acked for s in secs) / (end - start), 2),
            "latency_mean_ms": med([s.latency_mean_ms for s in secs]),
            "latency_p99_ms": med([s.latency_p99_ms for s in secs])}


def summarize_steps(steps: Sequence[Mapping]) -> dict:
    """steps: {"placement", "rate", "figures"} per repetition. Returns placement -> rate -> measure ->
    {n, median, min, max} (measures with no value anywhere are None)."""
    if not steps:
        raise UserError("no rate step to summarize")
    out: dict = {}
    groups: dict[tuple[str, float], list[Mapping]] = {}
    for s in steps:
        groups.setdefault((s["placement"], s["rate"]), []).append(s["figures"])
    for (placement, rate), figs in sorted(groups.items()):
        per = {}
        for m in MEASURES:
            vals = [f[m] for f in figs if f.get(m) is not None]
            if not vals:
                per[m] = None
                continue
            sm = stats.summarize(vals)
            per[m] = {"n": sm.n, "median": round(sm.median, 6), "min": round(sm.low, 6), "max": round(sm.high, 6)}
        out.setdefault(placement, {})[f"{rate:g}"] = per
    return out


def summary_lines(summary: Mapping) -> list[str]:
    lines = ["placement  rate/s  CPU R_utl [min-max]   CPU R_dev   BW R_utl   BW R_dev   acked/s   p99 ms   (medians, n)"]

    def f(x: Mapping | None, fmt: str = ".3f") -> str:
        return "-" if x is None else format(x["median"], fmt)
    for placement, rates in summary.items():
        for rate, m in sorted(rates.items(), key=lambda kv: float(kv[0])):
            u = m["cpu_r_utl"]
            span = "" if u is None else f" [{u['min']:.3f}-{u['max']:.3f}]"
            n = max((x["n"] for x in m.values() if x is not None), default=0)
            lines.append(f"{placement:<10} {rate:>6}  {f(u)}{span}  {f(m['cpu_r_dev'])}  {f(m['bw_r_utl'], '.4f')}  "
                         f"{f(m['bw_r_dev'], '.4f')}  {f(m['throughput'], '.1f')}  {f(m['latency_p99_ms'], '.0f')}  (n = {n})")
    return lines
