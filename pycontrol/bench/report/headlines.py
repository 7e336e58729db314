"""One extractor per kind of result file (document -> rows), and the headlines that group them.

Each extractor reads only what its benchmark writes and states n for what it is: runs, rounds,
instances, tuples. A file that holds one run gives n = 1 and says so; nothing is averaged that the
file did not average. SOURCES is the list of result files the report reads (a glob each)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from pycontrol.bench import hook_overhead, placement_latency, scheduler_quality, stats
from pycontrol.bench.migration import targets as migration_targets
from pycontrol.bench.report.model import Row

Extractor = Callable[[Mapping], list[Row]]


def fmt(v: float | None) -> str:
    """A number for a table: whole numbers and values from 100 on without decimals, else 3 significant digits."""
    if v is None:
        return "–"
    a = abs(v)
    if a >= 100 or v == int(v):
        return f"{v:.0f}"
    return f"{v:.3g}" if a >= 0.01 else f"{v:.2g}"


def _range(xs: Sequence[float]) -> str:
    return f"{fmt(min(xs))}–{fmt(max(xs))}"


def one(measure: str, value: float | None, note: str = "") -> Row:
    """A single measured value: n = 1, no spread."""
    return Row(measure, 1, value, "n = 1: no spread", "run", note)


def spread_of(values: Sequence[float], measure: str, unit_of_n: str, note: str = "") -> Row:
    """n, median and min–max, and from 5 values on the median's bootstrap 95 % interval (with fewer
    the resamples take too few distinct medians for an interval worth printing)."""
    s = stats.summarize(values)
    text = _range(values) if s.n > 1 else "n = 1: no spread"
    if s.median_ci is not None and s.n >= 5:
        text += f"; 95 % CI of median {fmt(s.median_ci.low)}–{fmt(s.median_ci.high)}"
    return Row(measure, s.n, s.median, text, unit_of_n, note)


# --- migration ------------------------------------------------------------------------------------

# Per configuration (scheme and M) over its repetitions: the bench's key and what its row says.
MIGRATION_MEASURES = (
    ("throughput_vs_baseline", "acked/s over the baseline's"),
    ("degradation_60_s", "seconds at >= 60 % below the baseline"),
    ("longest_ack_gap_ms", "longest gap between acks after a move (ms)"),
    ("after_p99_ms", "p99 in the 30 s after a move, worst move (ms)"),
    ("steady_p99_ms", "steady p99 before a move, worst move (ms)"),
    ("plan_to_effect_all_senders_p50_ms", "plan-to-effect at every sender, p50 of the segment (ms)"),
    ("failed", "failed tuples"),
    ("restarted_workers", "worker restarts"),
)


def _migration_repeated(doc: Mapping) -> list[Row]:
    """A file with repetitions: per configuration n, median and min-max of each measure over its runs
    (runs that started busy left out where others exist, as the bench's by_configuration says), the pooled
    plan-to-effect per scheme, and the nonstop+ targets judged over every run."""
    rows = []
    for c in doc["by_configuration"]:
        busy = f"{c['busy_start_left_out']} busy-start run(s) left out" if c.get("busy_start_left_out") else ""
        if c.get("only_busy_runs"):
            busy = "every run started on a busy machine"
        for key, what in MIGRATION_MEASURES:
            sp = c.get(key)
            if sp:
                rows.append(Row(f"{c['configuration']}: {what}", sp["n"], sp["median"], _spread_text(sp), "runs", busy))
    for scheme, p in (doc.get("plan_to_effect_by_scheme") or {}).items():
        if p and p.get("n"):
            rows.append(Row(f"plan-to-effect at source and target, {scheme}, pooled (ms)", p["n"], p["p50"],
                            f"p99 {fmt(p['p99'])}, max {fmt(p['max'])}", "moved executors"))
    for name, t in migration_targets.judge(doc.get("segments") or []).items():
        verdict = {True: "met", False: "not met", None: "not measured"}[t["met"]]
        if not t["enough"]:
            verdict += f" (over {t['n']} moved executors; the target asks for {migration_targets.MIN_MOVES})"
        rows.append(Row(f"target nonstop+ {name.replace('_', ' ')}", t["n"], t["value"], f"limit {fmt(t['limit'])}",
                        t["unit_of_n"], verdict))
    return rows


def migration_bench(doc: Mapping) -> list[Row]:
    if "by_configuration" in doc:
        return _migration_repeated(doc)
    rows = []
    for scheme, p in (doc.get("plan_to_effect_by_scheme") or {}).items():
        if p and p.get("n"):
            rows.append(Row(f"plan-to-effect, {scheme} (ms)", p["n"], p["p50"], f"p99 {fmt(p['p99'])}, "
                            f"max {fmt(p['max'])}", "moves"))
    for r in doc.get("table", []):
        deg = r.get("degradation_s") or {}
        levels = sorted(deg, key=float)
        worst = (f"seconds at >= {'/'.join(levels)} % degradation: {'/'.join(str(deg[k]) for k in levels)}"
                 if levels else "degradation not recorded")
        rows.append(one(f"{r['segment']}: acked/s (mean of the segment)", r.get("throughput_mean"),
                        f"{worst}; latency p50 {fmt(r.get('latency_p50_ms'))} ms, p99 "
                        f"{fmt(r.get('latency_p99_ms'))} ms; {r.get('failed', 0)} failed, "
                        f"{r.get('restarted_workers', 0)} worker restarts"))
    return rows


def migration_moves(doc: Mapping) -> list[Row]:
    n = len(doc.get("moves", []))
    rows = [Row(f"{k.removesuffix('_ms')} after the plan (ms)", n, v["median"], f"{fmt(v['min'])}–{fmt(v['max'])}",
                "moves") for k, v in (doc.get("summary_ms") or {}).items()]
    rows.append(one("tuples acked of emitted", doc.get("acked"), f"of {doc.get('total')}, {doc.get('failed')} failed, "
                    f"worker JVMs unchanged: {doc.get('worker_jvms_unchanged')}"))
    return rows


# --- OTD ------------------------------------------------------------------------------------------

OTD_MEASURES = ("throughput", "latency_p50_ms", "worker_cpu_mean", "worker_cpu_cv", "inter_node_share")


def otd_summary(doc: Mapping) -> list[Row]:
    rows = []
    control = bool((doc.get("options") or {}).get("control"))
    for part, p in (doc.get("parts") or {}).items():
        for m in OTD_MEASURES:
            if m not in (p.get("default") or {}):
                continue
            before, after = p["default"][m], p.get("otd", {}).get(m)
            rows.append(one(f"{part}: {m}, {'no-move control' if control else 'OTD'} phase", after,
                            f"default phase {fmt(before)} ({p['default'].get('samples')} samples); OTD phase "
                            f"{p.get('otd', {}).get('samples')} samples; change {fmt(p.get('change_pct', {}).get(m))} %"))
        rows.append(one(f"{part}: moves made", p.get("moves_made"), str(p.get("decisions") or "")))
    return rows


def _otd_ab_rows(part: Mapping, what: str) -> list[Row]:
    rows = []
    for key, label, unit in (("otd", f"{what}, OTD", "runs"), ("control", f"{what}, no-move control", "runs"),
                             ("ceiling", f"{what}, balanced ceiling", "runs"),
                             ("gain_pct", f"{what}: OTD over control (%)", "repetitions"),
                             ("realized_share", f"{what}: share of the achievable gain realised, "
                                                "(OTD - control) / (ceiling - control)", "repetitions")):
        sp = (part.get("summary") or {}).get(key)
        if sp:
            note = (f"undefined in {part['share_undefined_in']} repetition(s): the ceiling did not beat the control"
                    if key == "realized_share" and part.get("share_undefined_in") else "")
            rows.append(Row(label, sp["n"], sp["median"], _spread_text(sp), unit, note))
    return rows


def otd_ab(doc: Mapping) -> list[Row]:
    """`pycontrol bench otd-ab`: per repetition OTD, its no-move control (and for compute the balanced
    ceiling), rotated; the first measure's summary is the document's own, the others under their names.
    Files from before `--part` hold throughput and worker CPU."""
    measures = doc.get("measures") or ["throughput", "worker_cpu_mean"]
    labels = {"throughput": "acked sentences/s", "worker_cpu_mean": "mean worker CPU (cores)", **(doc.get("labels") or {})}
    part = f"{doc['part']}: " if doc.get("part") else ""
    rows = _otd_ab_rows(doc, part + labels[measures[0]])
    for m in measures[1:]:
        if doc.get(m):
            rows += _otd_ab_rows(doc[m], part + labels[m])
    return rows


def otd_scaling(doc: Mapping) -> list[Row]:
    return [Row(f"one OTD round, {r['executors']} executors x {r['workers']} workers: thread CPU (ms)",
                r.get("runs", doc.get("repeats", 0)), r.get("median_thread_cpu_ms"),
                f"wall median {fmt(r.get('median_ms'))}, min {fmt(r.get('min_ms'))}", "runs",
                "" if r.get("ok", True) else "failed")
            for r in doc.get("rows", []) if "skipped" not in r]


# --- Consistent Grouping --------------------------------------------------------------------------

def _spread_text(sp: Mapping) -> str:
    return f"{fmt(sp['min'])}–{fmt(sp['max'])}" if sp.get("n", 0) > 1 else "n = 1: no spread"


def _grouping_summary(doc: Mapping) -> list[Row]:
    """Repeated runs (benchmarks/grouping_storm.py --repeat): per scenario and grouping the medians over runs,
    then the issue's targets on those medians."""
    rows = []
    for scenario, by in doc["summary"].items():
        for grouping, s in by.items():
            tp, p99, mem = s["throughput_per_s"], s["latency_p99_ms"], s["memory"]
            rows.append(Row(f"{scenario}, {grouping}: acked words/s", s["runs"], tp["median"], _spread_text(tp), "runs",
                            "kept up with the offered rate in every run" if s["all_sustained"]
                            else "saturated (fell behind the offered rate) in at least one run"))
            rows.append(Row(f"{scenario}, {grouping}: latency p99, pooled over the window (ms)", s["runs"],
                            p99["median"], _spread_text(p99), "runs",
                            f"memory {fmt(mem['median'])} x keys (median)"))
    n = min((s["runs"] for by in doc["summary"].values() for s in by.values()), default=0)
    for name, t in (doc.get("targets") or {}).items():
        if t.get("value") is None:   # its scenario or groupings are not in this file
            continue
        verdict = {True: "met", False: "not met", None: "not judged"}[t.get("met")]
        limit = f"limit {fmt(t['limit'])}" if "limit" in t else "target above 1"
        extra = "" if t.get("below_saturation", True) else "; a run of CG or SG saturated, so not at equal load"
        rows.append(Row(f"target {name.replace('_', ' ')} (ratio of medians)", n, t.get("value"), limit, "runs each",
                        f"{verdict}{extra}"))
    return rows


def grouping_storm(doc: Mapping) -> list[Row]:
    if "summary" in doc:
        return _grouping_summary(doc)
    rows = []
    for r in doc.get("runs", []):
        m = r.get("measured") or {}
        rows.append(Row(f"{r['scenario']}, {r['grouping']}: latency p50 (ms)", int(m.get("acked") or 0),
                        m.get("latency_p50_ms"), f"p99 {fmt(m.get('latency_p99_ms'))}, max {fmt(m.get('latency_max_ms'))}",
                        "tuples", f"{fmt(m.get('throughput_per_s'))} acked/s, {m.get('failed', 0)} failed; one run"))
    target = doc.get("paper_target") or {}
    if target:
        rows.append(one("heterogeneous: KG / CG mean latency", target.get("measured"),
                        f"target at least {target.get('heterogeneous_latency_kg_over_cg_at_least')}: "
                        f"{'met' if target.get('met') else 'not met'}"))
    return rows


def _simulated(label: str, scheme: str, summary: Mapping) -> Row:
    return Row(f"{label}{scheme}: latency p50 (ticks)", int(summary.get("messages") or 0), summary.get("latency_p50"),
               f"p99 {fmt(summary.get('latency_p99'))}, max {fmt(summary.get('latency_max'))}", "messages",
               f"imbalance mean {fmt(summary.get('imbalance_mean'))}, memory {fmt(summary.get('memory_normalised'))} "
               "x keys; one simulated run")


def grouping_sweep(doc: Mapping) -> list[Row]:
    return [_simulated(f"{doc['parameter']} = {fmt(p['value'])}, ", scheme, summary)
            for p in doc.get("points", []) for scheme, summary in (p.get("summaries") or {}).items()]


def grouping_simulation(doc: Mapping) -> list[Row]:
    return [_simulated("", r["scheme"], r.get("summary") or {}) for r in doc.get("runs", [])]


# --- metrics hook ---------------------------------------------------------------------------------

def metrics_overhead(doc: Mapping) -> list[Row]:
    rows = []
    for h in doc.get("hook", []):
        a = hook_overhead.analyse(h["phases"])
        for key, label, verdict, median_verdict in (
                ("overhead", "throughput overhead", a["verdict"], a.get("median_verdict")),
                ("cpu_per_tuple_overhead", "CPU per tuple overhead", a["cpu_verdict"], a.get("cpu_median_verdict"))):
            s = a[f"{key}_summary"]
            ci, mci = s["mean_ci"], s.get("median_ci")

            def pct(x: float) -> str:
                return fmt(100 * x)
            spread = f"{pct(s['min'])}–{pct(s['max'])}" if s["n"] > 1 else "n = 1: no spread"
            if ci:
                spread += f"; mean {pct(s['mean'])}, 95 % t-interval {pct(ci['low'])}–{pct(ci['high'])}"
            if mci and s["n"] >= 5:
                spread += f"; 95 % bootstrap interval of the median {pct(mci['low'])}–{pct(mci['high'])}"
            note = f"target <= {100 * a['target_overhead']:.0f} % on the interval's upper end: {verdict} (mean)"
            if median_verdict and mci and s["n"] >= 5:
                note += f", {median_verdict} (median)"
            rows.append(Row(f"{label} at {h['work_us']} us/tuple, {h.get('mode', '?')} (%)", s["n"],
                            100 * s["median"], spread, "paired rounds", note))
    mr = doc.get("model_round")
    if mr:
        rows.append(Row(f"model round, {mr['executors']} executors (CPU s)", mr["repeats"], mr["median"]["total_cpu_s"],
                        f"max {fmt(mr['max_total_cpu_s'])}", "repeats", f"target < {mr['target_total_s']} s"))
    return rows


# --- schedulers -----------------------------------------------------------------------------------

def scheduler_quality_rows(doc: Mapping) -> list[Row]:
    summary = scheduler_quality.summarise(doc["raw"])
    rows = []
    for name, s in summary["overall"].items():
        d = s["ratio_to_optimum"]
        rows.append(Row(f"{name}: inter-node traffic / optimum", d["n"], d["median"],
                        "–" if not d["n"] else f"mean {fmt(d['mean'])}, max {fmt(d['max'])}", "instances",
                        f"placed {s['placed']}/{s['runs']}, violating {s['violating']}, missed {s['missed']} "
                        f"(penalised {s['penalised']})"))
    return rows


def scheduler_speed(doc: Mapping) -> list[Row]:
    rows = []
    done = [r for r in doc.get("results", []) if "skipped" not in r]
    for name in dict.fromkeys(r["scheduler"] for r in done):
        r = max((x for x in done if x["scheduler"] == name), key=lambda x: x["executors"])
        cpu_key = "median_cpu_ms" if name == "storm-ras" else "median_thread_cpu_ms"
        rows.append(Row(f"{name} at {r['executors']} executors: {'process' if name == 'storm-ras' else 'thread'} "
                        "CPU per round (ms)", r.get("runs", doc.get("repeats", 0)), r.get(cpu_key),
                        f"wall median {fmt(r.get('median_ms'))}, min {fmt(r.get('min_ms'))}", "runs",
                        "" if r.get("ok", True) else "failed"))
    return rows


def scheduler_latency(doc: Mapping) -> list[Row]:
    """benchmarks/scheduler_latency.py: with repetitions, per scheduler n, median and min-max over the runs
    and the paired reduction against default's; an older single-run file, one row per scheduler (n = 1)."""
    summary = doc.get("summary")
    if not summary:
        return [Row(f"{r['scheduler']}: latency p50 of seconds (ms)", int(r.get("seconds") or 0),
                    (r.get("latency_ms") or {}).get("p50_of_seconds"),
                    f"mean {fmt((r.get('latency_ms') or {}).get('mean'))}, max p99 "
                    f"{fmt((r.get('latency_ms') or {}).get('p99_of_seconds_max'))}", "seconds",
                    f"{fmt(r.get('acked_per_s'))} acked/s, inter-node share {fmt(r.get('inter_node_share'))}; one run")
                for r in doc.get("results", [])]
    rows = []
    for name, measures in summary["by_scheduler"].items():
        for key, what, _ in placement_latency.MEASURES:
            if sp := measures.get(key):
                rows.append(Row(f"{name}: {what}", sp["n"], sp["median"], _spread_text(sp), "runs"))
    for name, measures in summary["vs_default"].items():
        for key, sp in measures.items():
            if sp:
                rows.append(Row(f"{name}: {key.replace('_', ' ')} (fraction, paired per repetition)", sp["n"],
                                sp["median"], _spread_text(sp), "repetitions"))
    t = summary.get("target") or {}
    if t.get("n"):
        every = "in every repetition" if t["in_every_repetition"] else "not in every repetition"
        rows.append(Row(f"target: {t['target']}", t["n"], t["median"], f"limit {placement_latency.TARGET_REDUCTION}",
                        "repetitions", f"{t['verdict']} ({every})"))
    return rows


# --- state handoff --------------------------------------------------------------------------------

# (the summary's key, what its row says, unit of n)
STATE_SIZE_MEASURES = (
    ("longest_ack_gap_ms", "longest gap between acks after a move (ms)", "moves"),
    ("after_p99_ms", "p99 in the window after a move (ms)", "moves"),
    ("after_max_latency_ms", "longest latency of an acked tuple after a move (ms)", "moves"),
    ("above_2x_steady_p99_s", "seconds above 2x the steady p99 after a move", "moves"),
    ("move_ms", "plan written -> state installed at the target (ms)", "moves"),
    ("snapshot_and_send_ms", "snapshot, serialise and send the chunks (ms)", "moves"),
    ("sent_to_installed_ms", "chunks sent -> installed at the target (ms)", "moves"),
    ("failed", "failed tuples from the moves' first period on", "runs"),
    ("replayed", "replayed tuples from the moves' first period on", "runs"),
    ("warm_up_failed", "failed tuples in the warm-up, before the moves' first period", "runs"),
    ("extra_counts", "counts above the input's (counted twice)", "runs"),
)


def state_size(doc: Mapping) -> list[Row]:
    """`pycontrol bench state-size`: per way and state size, the spread over moves or runs, and how many runs
    kept every count exact."""
    rows = []
    for g in doc.get("summary", []):
        label = f"{g['way']}, {_bytes(g['state_bytes'])}"
        for key, what, unit in STATE_SIZE_MEASURES:
            if sp := g.get(key):
                rows.append(Row(f"{label}: {what}", sp["n"], sp["median"], _spread_text(sp), unit))
        rows.append(Row(f"{label}: runs with every count exact", g["checked_runs"], g["exact_runs"],
                        f"{g['exact_runs']} of {g['checked_runs']}", "runs"))
    return rows


def _bytes(n: int) -> str:
    return f"{n / 2 ** 20:g} MB" if n >= 2 ** 20 else f"{n / 2 ** 10:g} KB" if n >= 2 ** 10 else f"{n} B"


# --- the rest -------------------------------------------------------------------------------------

def fence_cost(doc: Mapping) -> list[Row]:
    return [spread_of(r["runs_ms_per_cycle"], f"{r['variant']}, {r.get('topologies_per_action', '?')} "
                      "topologies per action (ms per cycle)", "runs",
                      f"{doc.get('cycles_per_run')} cycles per run")
            for r in doc.get("results", [])]


def sizing(doc: Mapping) -> list[Row]:
    rows = []
    for pair, p in ((doc.get("summary") or {}).get("per_pair") or {}).items():
        shortfalls = [r["shortfall"] for r in doc.get("runs", []) if r.get("pair") == pair
                      and isinstance(r.get("shortfall"), (int, float))]
        if shortfalls:
            rows.append(spread_of(shortfalls, f"{pair}: rate shortfall (fraction of planned)", "runs",
                                  f"mean slots allocated {fmt(p.get('mean_allocated_slots'))}"))
    return rows


def workloads(doc: Mapping) -> list[Row]:
    return [one(f"{r['workload']}: highest sustainable rate (sentences/s)", r.get("sustainable_rate"),
                f"{r.get('sustainable_words_per_s')} words/s") for r in doc.get("results", [])]


def trace_prepare(doc: Mapping) -> list[Row]:
    groups: dict[tuple, list[float]] = {}
    for r in doc.get("runs", []):
        groups.setdefault((r["master"], r["format"]), []).append(r["events_per_s"])
    return [spread_of(v, f"{m}, {f}: events/s", "runs", "runs differ in input size") for (m, f), v in groups.items()]


def trace_demo(doc: Mapping) -> list[Row]:
    return [one(f"{name}: events replayed", (d.get("events") or {}).get("replayed"),
                f"{fmt(d.get('wall_s'))} s wall; trace rate mean {fmt((d.get('rate') or {}).get('mean'))}/s, "
                f"peak {(d.get('rate') or {}).get('peak')}/s")
            for name, d in (doc.get("datasets") or {}).items()]


def demo(doc: Mapping) -> list[Row]:
    rows = []
    for r in (doc.get("move") or {}).get("table", []):
        rows.append(one(f"move {r['m']} executor(s), {r['way']}: seconds below 40 % of offered", r.get("low_s"),
                        f"{r.get('worker_restarts')} worker restarts, longest gap {r.get('longest_gap_s')} s, "
                        f"p99 {fmt(r.get('latency_p99_ms'))} ms"))
    for c in (doc.get("controller") or {}).get("comparison", []):
        lo, hi = c["otd_spread"]
        rows.append(Row(f"controller: {c['metric']}, OTD run", 1, c["otd_median"], f"windows {fmt(lo)}–{fmt(hi)}",
                        "run", f"control median {fmt(c['control_median'])}; change {fmt(c['change_pct'])} %"))
    return rows


@dataclass(frozen=True)
class Source:
    pattern: str  # glob relative to results/
    extract: Extractor
    command: str  # the documented usage, for files that do not record their command


@dataclass(frozen=True)
class Headline:
    title: str
    about: str
    sources: tuple[Source, ...]
    figures: tuple[str, ...]  # globs relative to results/


PY = ".venv/bin/python"
HEADLINES: tuple[Headline, ...] = (
    Headline("Migration", "Live moves against Storm's rebalance and worker restarts, and the time from a plan "
                          "to its effect.",
             (Source("migration/migration.json", migration_bench, "pycontrol bench migration"),
              Source("migration/*/migration.json", migration_bench, "pycontrol bench migration --quick"),
              Source("migration_moves.json", migration_moves, f"{PY} benchmarks/migration_moves.py --home DIR --moves 6")),
             ("migration/*.png", "migration/*/*.png")),
    Headline("OTD", "The OTD controller against Storm's default placement (and no-move controls).",
             (Source("otd/ab-*.json", otd_ab, "pycontrol bench otd-ab --repeat 3"),
              Source("otd/*/summary.json", otd_summary, "pycontrol bench otd --quick [--control]"),
              Source("otd/*/scaling.json", otd_scaling, "pycontrol bench otd --quick --parts scaling")),
             ("otd/*/*.png",)),
    Headline("Consistent Grouping", "Consistent Grouping against key, partial-key and shuffle grouping on Storm, "
                                    "and in the simulator (latency in simulated ticks).",
             (Source("grouping/storm-*.json", grouping_storm,
                     f"{PY} benchmarks/grouping_storm.py --repeat 3 --quick --scenarios SCENARIO --groupings G1,G2,.. "
                     "--out results/grouping/storm-NAME.json"),
              Source("grouping/*/sweep.json", grouping_sweep, "pycontrol simulate grouping --sweep PARAM=v1,v2,..."),
              Source("grouping/*/simulation.json", grouping_simulation, "pycontrol simulate grouping")),
             ("grouping/*.png", "grouping/*/*.png")),
    Headline("Metrics hook overhead", "What the metrics plane's task hook costs a flat-out topology, and one "
                                      "collection round of the Python model.",
             (Source("metrics_overhead*.json", metrics_overhead, f"{PY} benchmarks/metrics_overhead.py --home DIR"),),
             ()),
    Headline("Schedulers", "Placement quality against the exact optimum, planning speed, and end-to-end "
                           "latency on a real cluster.",
             (Source("schedulers/quality.json", scheduler_quality_rows, f"{PY} benchmarks/schedulers.py quality"),
              Source("schedulers/speed.json", scheduler_speed, f"{PY} benchmarks/schedulers.py speed"),
              Source("schedulers/real_cluster_latency_*.json", scheduler_latency,
                     f"{PY} benchmarks/scheduler_latency.py --bandwidth RATE")),
             ("schedulers/*.png",)),
    Headline("Controller fence and ZooKeeper ACL cost", "The ZooKeeper path of one acting controller cycle.",
             (Source("controller/fence_cost.json", fence_cost, f"{PY} benchmarks/controller_fence.py --zk HOST:PORT --runs 7"),),
             ()),
    Headline("Sizing", "Allocators and mappers sizing micro-DAGs on the local cluster.",
             (Source("sizing/*.json", sizing, f"{PY} benchmarks/sizing_compare.py [--quick]"),),
             ("sizing/*.png",)),
    Headline("Workloads", "Highest sustainable rate of the word counts.",
             (Source("workloads.json", workloads, f"{PY} benchmarks/workloads.py"),), ()),
    Headline("Traces", "Preparing public traces for replay.",
             (Source("trace_prepare.json", trace_prepare, f"{PY} benchmarks/trace_prepare.py --sizes 25000,100000,400000"),
              Source("trace_demo.json", trace_demo, f"{PY} benchmarks/trace_demo.py")),
             ()),
    Headline("State handoff", "A bolt's state moved with its executor (the suite's handoff) against Storm's "
                              "restart from a checkpoint, by state size.",
             (Source("state_size/*.json", state_size, "pycontrol bench state-size"),),
             ()),
    Headline("Demo", "One move two ways, and the controller against a control run (one run each).",
             (Source("demo/*/demo.json", demo, "./nonstop demo"),),
             ("demo/*/*.png",)),
)
