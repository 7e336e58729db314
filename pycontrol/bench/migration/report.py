"""The migration benchmark's outputs: one JSON document (options, per-scheme settings, every segment's
summary, moves and per-second timeline, a compact table) and PNG figures drawn headless."""

from __future__ import annotations

import json
from pathlib import Path

from pycontrol.bench.migration.measures import LEVELS, percentiles
from pycontrol.bench.migration.schemes import Options, Scheme
from pycontrol.bench.migration.spread import spread

JSON_NAME = "migration.json"


def timeline(rows) -> dict:
    """Per-second columns, seconds counted from the segment start."""
    return {"t": list(range(len(rows))), "acked": [r.acked for r in rows], "failed": [r.failed for r in rows],
            "emitted": [r.emitted for r in rows], "latency_n": [r.latency_n for r in rows],
            "latency_p50_ms": [r.latency_p50_ms for r in rows],
            "latency_p99_ms": [r.latency_p99_ms for r in rows], "latency_mean_ms": [r.latency_mean_ms for r in rows]}


def label(seg: dict) -> str:
    return seg["scheme"] + (f" M={seg['m']}" if seg.get("m") else "")


def table(segments: list[dict]) -> list[dict]:
    out = []
    for s in segments:
        sm = s["summary"]
        eff = (s.get("plan_to_effect") or {}).get("ms") or {}
        out.append({"segment": label(s), "repetition": s.get("repetition", 0),
                    "busy_start": s.get("busy_start", False), "degradation_s": sm.get("degradation_seconds"),
                    "acked": sm["acked"], "throughput_mean": sm["throughput_mean"],
                    "vs_baseline": sm.get("throughput_vs_baseline"),
                    "latency_p50_ms": sm["latency_ms"]["p50"], "latency_p99_ms": sm["latency_ms"]["p99"],
                    "failed": sm["failed"], "replayed": sm["replayed"],
                    "plan_to_effect_p50_ms": eff.get("p50"), "plan_to_effect_p99_ms": eff.get("p99"),
                    "restarted_workers": len(s.get("restarted_workers") or []),
                    **{k: (s.get("moves_summary") or {}).get(k) for k in
                       ("longest_ack_gap_ms", "above_2x_steady_p99_s", "after_p99_ms", "after_max_ms",
                        "steady_p99_ms")},
                    "plan_to_effect_all_senders_p50_ms":
                        CONFIGURATION_MEASURES["plan_to_effect_all_senders_p50_ms"](s)})
    return out


# What the per-configuration table aggregates over repetitions: name -> the value of one segment.
CONFIGURATION_MEASURES = {
    "degradation_60_s": lambda s: (s["summary"].get("degradation_seconds") or {}).get("60"),
    "degradation_100_s": lambda s: (s["summary"].get("degradation_seconds") or {}).get("100"),
    "throughput_vs_baseline": lambda s: s["summary"].get("throughput_vs_baseline"),
    "failed": lambda s: s["summary"]["failed"],
    "latency_p99_ms": lambda s: s["summary"]["latency_ms"]["p99"],
    "plan_to_effect_p50_ms": lambda s: ((s.get("plan_to_effect") or {}).get("ms") or {}).get("p50"),
    "plan_to_effect_p99_ms": lambda s: ((s.get("plan_to_effect") or {}).get("ms") or {}).get("p99"),
    "plan_to_effect_all_senders_p50_ms":
        lambda s: (((s.get("plan_to_effect") or {}).get("all_senders") or {}).get("ms") or {}).get("p50"),
    "plan_to_effect_all_senders_max_ms":
        lambda s: (((s.get("plan_to_effect") or {}).get("all_senders") or {}).get("ms") or {}).get("max"),
    "longest_ack_gap_ms": lambda s: (s.get("moves_summary") or {}).get("longest_ack_gap_ms"),
    "above_2x_steady_p99_s": lambda s: (s.get("moves_summary") or {}).get("above_2x_steady_p99_s"),
    "after_p99_ms": lambda s: (s.get("moves_summary") or {}).get("after_p99_ms"),
    "after_max_ms": lambda s: (s.get("moves_summary") or {}).get("after_max_ms"),
    "steady_p99_ms": lambda s: (s.get("moves_summary") or {}).get("steady_p99_ms"),
    "restarted_workers": lambda s: len(s.get("restarted_workers") or []),
}


def by_configuration(segments: list[dict]) -> list[dict]:
    """One row per configuration (scheme and M) in first-run order: n, median and min-max of each measure
    over its repetitions. Runs flagged busy_start are left out when the configuration has others."""
    groups: dict[str, list[dict]] = {}
    for s in segments:
        groups.setdefault(label(s), []).append(s)
    rows = []
    for name, group in groups.items():
        quiet = [s for s in group if not s.get("busy_start")]
        used = quiet or group
        rows.append({"configuration": name, "n": len(used), "busy_start_left_out": len(group) - len(used),
                     "only_busy_runs": not quiet,
                     **{k: spread(f(s) for s in used) for k, f in CONFIGURATION_MEASURES.items()}})
    return rows


def pooled_plan_to_effect(segments: list[dict]) -> dict[str, dict]:
    """Per scheme, the plan-to-effect percentiles over every moved executor of all its segments (each
    segment's own percentiles weigh M = 1 and M = 16 alike). Segments written before per-move times
    were kept (no `each_ms`) are left out."""
    pooled: dict[str, list[float]] = {}
    for s in segments:
        each = (s.get("plan_to_effect") or {}).get("each_ms")
        if each:
            pooled.setdefault(s["scheme"], []).extend(each)
    return {scheme: percentiles(values) for scheme, values in pooled.items()}


def document(opts: Options, schemes: list[Scheme], segments: list[dict], baseline: dict | None, extra: dict,
             cluster_conf: dict | None = None) -> dict:
    return {
        "benchmark": "nonstop migration vs rebalance vs worker-restart (N-Storm §5.2), word count (Java), "
                     "local 2 nodes x 4 slots, 8 workers",
        "command": opts.command(),
        "options": {"duration_s": opts.duration_s, "period_s": opts.period_s, "moves": list(opts.moves),
                    "rate": opts.rate, "seed": opts.seed, "rebalance_wait_s": opts.rebalance_wait_s,
                    "quick": opts.quick, "repeat": opts.repeat, "move_spouts": opts.move_spouts, "sweep": [list(p) for p in opts.sweep],
                    "move_offsets_s": opts.move_offsets(), "degradation_levels_pct": list(LEVELS),
                    "every_cluster_storm_yaml": cluster_conf or {}},
        "schemes": {s.name: {"about": s.about, "migration_agent": s.migration, "storm_yaml": s.extra_conf,
                             "realized_by": s.realize} for s in schemes},
        "baseline": baseline,
        **extra,
        "repeat": opts.repeat,
        "by_configuration": by_configuration(segments),
        "table": table(segments),
        "plan_to_effect_by_scheme": pooled_plan_to_effect(segments),
        "segments": [{k: v for k, v in s.items() if k != "rows"} | {"timeline": timeline(s["rows"])} for s in segments],
    }


def write_json(out_dir: Path, doc: dict) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / JSON_NAME
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=1))
    tmp.replace(path)
    return path


def first_runs(segments: list[dict]) -> list[dict]:
    """Per configuration its first run that did not start busy (else its first): what the figures draw."""
    chosen: dict[str, dict] = {}
    for s in segments:
        old = chosen.get(label(s))
        if old is None or (old.get("busy_start") and not s.get("busy_start")):
            chosen[label(s)] = s
    return list(chosen.values())


def plots(out_dir: Path, segments: list[dict], opts: Options, baseline_throughput: float | None) -> list[Path]:
    """timeline-m<M>.png per M (throughput and p99 latency of every scheme at that M, plus the
    M-independent baseline and rebalance; moves marked) and degradation.png (seconds per level)."""
    import matplotlib
    matplotlib.use("Agg")  # headless; must precede pyplot
    import matplotlib.pyplot as plt

    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    segments = first_runs(segments)
    shared = [s for s in segments if not s.get("m")]
    for m in sorted({s["m"] for s in segments if s.get("m")}) or [None]:
        group = shared + [s for s in segments if s.get("m") == m]
        fig, (ax_t, ax_l) = plt.subplots(2, 1, figsize=(11, 7), sharex=True)
        for s in group:
            tl = timeline(s["rows"])
            style = {"color": "black", "linewidth": 1.5} if s["scheme"] == "baseline" else {"linewidth": 1}
            ax_t.plot(tl["t"], tl["acked"], label=label(s), **style)
            # Seconds without acks have no latency: gaps, not zeros.
            ax_l.plot(tl["t"], [v if n else float("nan") for v, n in zip(tl["latency_p99_ms"], tl["latency_n"])],
                      label=label(s), **style)
        for off in opts.move_offsets():
            for ax in (ax_t, ax_l):
                ax.axvline(off, color="grey", linestyle="--", linewidth=0.8)
        if baseline_throughput:
            ax_t.axhline(baseline_throughput, color="black", linestyle=":", linewidth=0.8)
        ax_t.set_ylabel("acked tuples/s")
        ax_t.set_title(f"word count at {opts.rate}/s; moves (dashed) every {opts.period_s} s"
                       + (f", M = {m}" if m else ""))
        ax_l.set_ylabel("p99 latency (ms, log)")
        ax_l.set_yscale("log")
        ax_l.set_xlabel("seconds since segment start")
        ax_t.legend(fontsize=8, ncol=3)
        fig.tight_layout()
        path = out_dir / (f"timeline-m{m}.png" if m else "timeline.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    moving = [s for s in segments if (s["summary"].get("degradation_seconds") is not None)]
    if moving:
        fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(moving) + 3), 4.5))
        width = 0.8 / len(LEVELS)
        for i, lv in enumerate(LEVELS):
            ax.bar([x + i * width for x in range(len(moving))],
                   [s["summary"]["degradation_seconds"][str(lv)] for s in moving], width, label=f">= {lv} %")
        ax.set_xticks([x + 0.4 - width / 2 for x in range(len(moving))])
        ax.set_xticklabels([label(s) for s in moving], rotation=30, ha="right", fontsize=8)
        ax.set_ylabel(f"seconds (of {opts.duration_s})")
        ax.set_title("time at each level of throughput degradation vs the no-migration baseline")
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = out_dir / "degradation.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written
