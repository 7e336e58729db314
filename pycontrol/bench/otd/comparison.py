"""OTD against a control run without moves, window by window. Pure: each run's samples (one per
controller cycle), per-second spout rows and measured phase in; plain dicts and lines out.

Both runs' measured phases are cut into windows of the same length from their own start (a partial
last window is dropped), so window k of OTD and window k of the control are the same time after the
same warm-up. Per window: throughput (mean acked tuples/s over its seconds), latency p50 and p99 (means
of its seconds' percentiles, from each tuple's intended emit time to its ack; seconds without acks have
none), worker-CPU imbalance (coefficient of variation across the topology's workers, a worker emptied
by a move counting as 0), node-CPU imbalance (the same across nodes, of each node's busy share; only
when the nodes' CPUs are given) and the inter-node tuple share (means over its samples).

Over the windows each metric has a median and a spread, the interquartile range (the middle half of
the windows: one slow window does not decide). OTD is `better` when the two spreads do not overlap
and its median is on the metric's good side, `worse` when they do not overlap the other way, and
None ("no clear difference") when they overlap."""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from typing import Any

from pycontrol.bench.otd.summary import change_pct, cpu_cv, cpu_mean, node_cpu_cv

# metric -> True when higher is better
METRICS = {"throughput": True, "latency_p50_ms": False, "latency_p99_ms": False, "worker_cpu_cv": False,
           "node_cpu_cv": False, "inter_node_share": False}
LABELS = {"throughput": "throughput (acked/s)", "latency_p50_ms": "latency p50 (ms)",
          "latency_p99_ms": "latency p99 (ms)", "worker_cpu_cv": "worker-CPU imbalance (CV)",
          "node_cpu_cv": "node-CPU imbalance (CV)",
          "inter_node_share": "inter-node tuple share"}


def _mean(values) -> float | None:
    got = [v for v in values if v is not None]
    return round(statistics.fmean(got), 4) if got else None


def windows(samples: Sequence[Mapping], seconds: Sequence[Mapping], start: float, end: float,
            window_s: float, workers: int, node_cpus: Mapping[str, int] | None = None) -> list[dict[str, Any]]:
    """Every complete window of [start, end): its offset from start and each metric (None when the
    window holds no data for it). node_cpus: host -> CPUs of each node, for the node-CPU imbalance."""
    if window_s <= 0:
        raise ValueError(f"window_s must be positive, got {window_s}")
    out = []
    k = 0
    while start + (k + 1) * window_s <= end + 1e-9:
        w0, w1 = start + k * window_s, start + (k + 1) * window_s
        rows = [r for r in seconds if w0 <= r["ts"] < w1]
        acked = [r for r in rows if r["acked"]]
        ss = [s for s in samples if w0 <= s["at"] < w1]
        out.append({
            "offset_s": round(k * window_s, 3),
            "throughput": _mean(r["acked"] for r in rows),
            "latency_p50_ms": _mean(r["latency_p50_ms"] for r in acked),
            "latency_p99_ms": _mean(r.get("latency_p99_ms") for r in acked),
            "worker_cpu_mean": _mean(cpu_mean(s["worker_cpu"], workers) for s in ss),
            "worker_cpu_cv": _mean(cpu_cv(s["worker_cpu"], workers) for s in ss),
            "node_cpu_cv": _mean(node_cpu_cv(s["worker_cpu"], node_cpus) for s in ss) if node_cpus else None,
            "inter_node_share": _mean(s["inter_node_share"] for s in ss),
        })
        k += 1
    return out


def median_and_spread(values: Sequence[float | None]) -> tuple[float | None, tuple[float, float] | None]:
    """Median and interquartile range of the known values; (None, None) when there are none."""
    got = sorted(v for v in values if v is not None)
    if not got:
        return None, None
    if len(got) == 1:
        return got[0], (got[0], got[0])
    q1, _, q3 = statistics.quantiles(got, n=4, method="inclusive")
    return round(statistics.median(got), 4), (round(q1, 4), round(q3, 4))


def verdict(metric: str, otd: tuple[float, float] | None, control: tuple[float, float] | None,
            otd_median: float | None, control_median: float | None) -> bool | None:
    """True: OTD better, False: worse, None: the spreads overlap (no clear difference) or a side is unknown."""
    if otd is None or control is None or otd_median is None or control_median is None:
        return None
    if otd[0] <= control[1] and control[0] <= otd[1]:
        return None
    return (otd_median > control_median) == METRICS[metric]


def compare(otd_windows: Sequence[Mapping], control_windows: Sequence[Mapping]) -> list[dict[str, Any]]:
    rows = []
    for metric in METRICS:
        om, os_ = median_and_spread([w[metric] for w in otd_windows])
        cm, cs = median_and_spread([w[metric] for w in control_windows])
        rows.append({"metric": metric, "otd_median": om, "otd_spread": list(os_) if os_ else None,
                     "control_median": cm, "control_spread": list(cs) if cs else None,
                     "change_pct": change_pct(cm, om), "better": verdict(metric, os_, cs, om, cm)})
    return rows


def offered_rate_line(table: Sequence[Mapping], offered: float, kept_up: float = 0.9) -> str:
    """Whether each run took the offered rate (its median throughput at least `kept_up` of it): a run
    that did not fell behind the offered schedule, and its latency from the intended emit time grew."""
    row = next(r for r in table if r["metric"] == "throughput")
    took = {name: (row[f"{key}_median"] or 0) >= kept_up * offered for name, key in (("OTD", "otd"), ("control", "control"))}
    if not any(took.values()):
        return (f"  offered {offered:g} sentences/s, above what either run took: throughput is the measure; both fell "
                f"behind the offered schedule, so latency from the intended emit time grew in both")
    if all(took.values()):
        return f"  offered {offered:g} sentences/s: both runs took it (the default placement was not overloaded)"
    kept = next(n for n, ok in took.items() if ok)
    behind = next(n for n, ok in took.items() if not ok)
    return (f"  offered {offered:g} sentences/s: the {kept} run took it, the {behind} run fell behind the offered "
            f"schedule (its latency from the intended emit time grew)")


def stall_warnings(runs: Mapping[str, Sequence[Mapping]]) -> list[str]:
    """A line per run with windows in which nothing was acked: the topology stalled (workers restarting,
    a starved machine), and its figures say more about that than about placement."""
    out = []
    for name, ws in runs.items():
        stalled = [w for w in ws if not w["throughput"]]
        if stalled:
            out.append(f"warning: the {name} run acked nothing in {len(stalled)} of its {len(ws)} windows "
                       f"(from {stalled[0]['offset_s']:g} s): it stalled, so the comparison is not a fair one")
    return out


def _fmt(v: float | None) -> str:
    return "-" if v is None else f"{v:.3f}" if abs(v) < 10 else f"{v:.0f}"


def _spread(s: Sequence[float] | None) -> str:
    return "" if not s else f"[{_fmt(s[0])}-{_fmt(s[1])}]"


def summary_lines(comparison: Sequence[Mapping], moves: Sequence[Mapping], windows_per_run: tuple[int, int],
                  window_s: float) -> list[str]:
    """The printed result: the moves, one line per metric, then in plain words where OTD did not win."""
    n_otd, n_control = windows_per_run
    lines = [f"OTD vs control (same topology and warm-up, no moves): medians over {window_s:g} s windows "
             f"({n_otd} OTD, {n_control} control), [interquartile range]",
             f"moves made by OTD: {len(moves)}"]
    lines += [f"  {m['executor']}: {m['from_slot']} -> {m['to_slot']}: {m['reason']}" for m in moves]
    for row in comparison:
        word = {True: "OTD better", False: "OTD worse", None: "no clear difference"}[row["better"]]
        change = "-" if row["change_pct"] is None else f"{row['change_pct']:+.1f} %"
        lines.append(f"{LABELS[row['metric']]:<27} OTD {_fmt(row['otd_median']):>7} {_spread(row['otd_spread']):<17} "
                     f"control {_fmt(row['control_median']):>7} {_spread(row['control_spread']):<17} "
                     f"{change:>9}  {word}")
    better = [LABELS[r["metric"]] for r in comparison if r["better"] is True]
    worse = [LABELS[r["metric"]] for r in comparison if r["better"] is False]
    unclear = [LABELS[r["metric"]] for r in comparison if r["better"] is None]
    if not better:
        lines.append("OTD did not beat the control on any metric.")
    else:
        lines.append(f"OTD beat the control on: {', '.join(better)}.")
    if worse:
        lines.append(f"OTD was worse than the control on: {', '.join(worse)}.")
    if unclear:
        lines.append(f"No clear difference (spreads overlap) on: {', '.join(unclear)}.")
    return lines
