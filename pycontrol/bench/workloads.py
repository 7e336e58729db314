"""The workloads' sustainable rates.

The logic of `benchmarks/workloads.py`, which parses the command line and calls `main`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from datetime import datetime, timezone
from pathlib import Path

import psutil

from pycontrol.paths import REPO_ROOT as REPO
from pycontrol.cluster import manager
from pycontrol.cluster.layout import Layout
from pycontrol.cluster.spec import make_spec
from pycontrol.storm.rest import StormRest
from pycontrol.workloads import corpus, locate, series, stability
from pycontrol.workloads.submit import submit_workload
from topologies.common.words import split_words

PAPER_SHAPE = ["topology.workers=8", "workload.par.split=12", "workload.par.count=24"]
# Default on a 2-core machine: one worker per node; the paper's 8 workers and 36 Python processes
# mostly add start-up and scheduling overhead there (use --paper-shape on bigger machines).
SMALL_SHAPE = ["topology.workers=2", "workload.par.split=4", "workload.par.count=8"]


def log(msg: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {msg}", flush=True)


class CpuMeter:
    """CPU seconds of a topology's worker JVMs and of their Python children, grouped by component class."""

    def __init__(self, home: Path, topo_id: str):
        self.marker_home = f"-Dworkers.artifacts={home}"
        self.marker_id = f"-Dstorm.id={topo_id}"

    def _procs(self):
        seen = set()
        for p in psutil.process_iter(["cmdline"]):
            cmd = p.info["cmdline"] or []
            if not (any(a.startswith(self.marker_home) for a in cmd) and self.marker_id in cmd):
                continue
            # The supervisor starts each worker JVM under a LogWriter JVM that matches the same markers.
            is_worker = "org.apache.storm.daemon.worker.Worker" in cmd
            yield ("worker JVMs" if is_worker else "log-writer JVMs"), p
            if not is_worker:
                continue
            try:
                for c in p.children(recursive=True):
                    ccmd = c.cmdline()
                    if "streamparse.run" in ccmd and c.pid not in seen:
                        seen.add(c.pid)
                        yield "python " + ccmd[-1].rsplit(".", 1)[-1], c
            except psutil.Error:
                continue

    def sample(self) -> dict[str, float]:
        out: dict[str, float] = {}
        for group, p in self._procs():
            try:
                t = p.cpu_times()
            except psutil.Error:
                continue
            out[group] = out.get(group, 0.0) + t.user + t.system
        return out

    @staticmethod
    def delta(before: dict[str, float], after: dict[str, float], seconds: float) -> dict[str, float]:
        """Average cores used per group over the interval."""
        return {g: round((after.get(g, 0.0) - before.get(g, 0.0)) / seconds, 3) for g in sorted(after)}


def python_path_profile(lines: list[str], n: int = 3000) -> dict:
    """Where a Python bolt's time goes, without Storm: CPU per tuple of the bolt's own work versus the
    same bolt run as Storm runs it (streamparse.run reading multilang JSON on stdin, writing emits and
    acks on stdout), fed n recorded tuples from a file."""
    sentences = lines[:n]
    words = [w for s_ in sentences for w in split_words(s_)]
    t = time.process_time()
    for s_ in sentences:
        split_words(s_)
    pure_split = (time.process_time() - t) / len(sentences)
    t = time.process_time()
    counts: dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    pure_count = (time.process_time() - t) / len(words)

    def run(component: str, values: list[str]) -> float:
        with tempfile.TemporaryDirectory() as tmp:
            msgs = Path(tmp, "in.txt")
            with msgs.open("w") as f:
                f.write(json.dumps({"conf": {}, "pidDir": tmp, "context": {"taskid": 1, "componentid": "c",
                                                                             "task->component": {"1": "c"}}}) + "\nend\n")
                for i, v in enumerate(values):
                    f.write(json.dumps({"id": str(i), "comp": "up", "stream": "default", "task": 2, "tuple": [v]})
                            + "\nend\n")
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            with msgs.open() as stdin:
                subprocess.run([sys.executable, "-m", "streamparse.run", component], cwd=REPO, stdin=stdin,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime

    empty = run("topologies.microdag.bolts.SinkBolt", [])  # interpreter + streamparse start-up
    split = (run("topologies.wordcount.bolts.SplitSentenceBolt", sentences) - empty) / len(sentences)
    count = (run("topologies.wordcount.bolts.WordCountBolt", words) - empty) / len(words)
    us = 1e6
    return {
        "tuples": {"sentences": len(sentences), "words": len(words)},
        "startup_cpu_s": round(empty, 3),
        "split_us_per_sentence": {"own_work": round(pure_split * us, 1), "as_multilang_process": round(split * us, 1)},
        "count_us_per_word": {"own_work": round(pure_count * us, 2), "as_multilang_process": round(count * us, 1)},
        "python_cpu_us_per_sentence": round((split + count * len(words) / len(sentences)) * us, 1),
        "note": "as_multilang_process = CPU of the bolt process per tuple: JSON decode of the tuple, the work, "
                "JSON encode + write of each emit and the ack (pystorm). The JVM side (ShellBolt's JSON, "
                "transfer, acking) is on top; see cpu_cores per step.",
    }


def run_staircase(args, layout: Layout, rest: StormRest, workload: str, rates: list[float], tag: str) -> list[dict]:
    """One submission; the rate steps up by itself; each step is judged once it is over."""
    schedule = Path(args.home) / f"schedule-{workload}-{tag}.txt"
    # Start-up (workers joining, JIT, Python imports) first, at half the first rate and unjudged; the
    # staircase is appended to the schedule file (the spout re-reads it) once latency has settled.
    warm = rates[0] / 2
    schedule.write_text(f"0 {warm:g}\n")
    name = f"bench-{workload}-{tag}"
    submit_workload(workload, name, [f"workload.rate={warm:g}", f"workload.rate.schedule={schedule}",
                                     "topology.message.timeout.secs=120", *args.shape, *args.set], layout.control_conf_dir)
    deadline = time.monotonic() + 300
    while (topo_id := rest.topology_id(name)) is None:
        if time.monotonic() > deadline:
            raise SystemExit(f"{name} never listed")
        time.sleep(1)
    meter = CpuMeter(layout.logs, topo_id)
    deadline = time.monotonic() + args.start_timeout
    settled = False
    while time.monotonic() < deadline:
        rows = series.read_series(locate.artifact_dirs(layout.logs, topo_id))
        recent = [r for r in rows[-6:-1] if r.latency_n > 0]
        if len(recent) == 5 and all(r.latency_p50_ms < args.settle_ms for r in recent):
            settled = True
            break
        time.sleep(2)
    if not rows:
        raise SystemExit(f"{name}: no measurements {args.start_timeout} s after submission")
    t0 = rows[-1].ts - rows[0].ts + 3  # seconds since the spout started, plus a margin
    schedule.write_text(f"0 {warm:g}\n" + "".join(f"{t0 + i * args.step_secs} {r:g}\n" for i, r in enumerate(rates))
                        + f"{t0 + len(rates) * args.step_secs} 0\n")  # the final 0 closes the last judged step
    log(f"{name}: {'settled' if settled else 'NOT settled'} after {t0 - 3} s; staircase {rates}")
    steps: list[dict] = []
    cpu_by_rate: dict[float, dict[str, float]] = {}
    current, cpu_start, t_start = None, None, None
    try:
        deadline = time.monotonic() + 60 + args.step_secs * (len(rates) + 2)
        while len(steps) < len(rates) and time.monotonic() < deadline:
            time.sleep(2)
            rows = series.read_series(locate.artifact_dirs(layout.logs, topo_id))
            targets = [r.target_rate for r in rows if r.target_rate is not None]
            if not targets:
                continue
            if targets[-1] != current:  # a step ended: CPU is averaged over whole steps
                now = meter.sample()
                if current is not None:
                    cpu_by_rate[current] = CpuMeter.delta(cpu_start, now, time.monotonic() - t_start)
                current, cpu_start, t_start = targets[-1], now, time.monotonic()
            finished = [r for r in rates if r in set(targets) and r != targets[-1]]
            for rate in finished[len(steps):]:
                v = stability.judge([r for r in rows if r.target_rate == rate], rate, warmup_s=args.warmup_secs,
                                    max_slope_ms_per_s=args.max_slope, max_mean_latency_ms=args.max_latency,
                                    min_seconds=max(5, args.step_secs - args.warmup_secs - 5))
                steps.append({"rate": rate, **asdict(v), "cpu_cores": cpu_by_rate.get(rate)})
                log(f"{workload} {tag} {rate:g} sentences/s: {v.reason} (acked {v.acked_rate}/s, "
                    f"latency mean {v.latency_mean_ms} ms, p99 {v.latency_p99_ms} ms, "
                    f"slope {v.latency_slope_ms_per_s} ms/s; cores {cpu_by_rate.get(rate)})")
            if len(steps) >= 2 and not steps[-1]["sustainable"] and not steps[-2]["sustainable"]:
                break
    finally:
        topo = rest.topology_id(name)
        if topo:
            rest.kill(topo, 0)
            while rest.topology_id(name) is not None:
                time.sleep(1)
    return steps


def measure(args, layout: Layout, rest: StormRest, workload: str, start: float) -> dict:
    """x2 steps, then x1.25 steps from the last good rate; each run stops after two unsustainable
    steps in a row (one bad step on a shared machine can be a neighbour's burst)."""
    coarse = run_staircase(args, layout, rest, workload, [start * 2 ** i for i in range(args.max_steps)], "coarse")
    good = [s["rate"] for s in coarse if s["sustainable"]]
    if not good:
        return {"workload": workload, "sustainable_rate": None, "coarse": coarse, "fine": []}
    base = max(good)
    fine = run_staircase(args, layout, rest, workload, [round(base * 1.25 ** i) for i in range(1, args.max_steps)],
                         "fine")
    return {"workload": workload, "sustainable_rate": max(good + [s["rate"] for s in fine if s["sustainable"]]),
            "coarse": coarse, "fine": fine}


def main(args: argparse.Namespace) -> None:
    args.shape = PAPER_SHAPE if args.paper_shape else SMALL_SHAPE

    starts = dict(kv.split("=") for kv in args.start_rates.split(","))
    sentences = corpus.prepare()
    lines = sentences.read_text(encoding="ascii").splitlines()
    words_per_sentence = sum(len(split_words(s)) for s in lines) / len(lines)
    spec = make_spec(Path(args.home), nodes=2, slots=4, port_base=args.port_base)
    load_before = os.getloadavg()
    manager.up(spec, timeout_s=300, echo=log)
    layout, rest = Layout(spec.home), StormRest(spec.ui_url)
    log("profiling the Python bolts outside Storm")
    profile = python_path_profile(lines)
    log(f"python path: {profile}")
    results = []
    try:
        for w in args.workloads.split(","):
            log(f"measuring {w}")
            r = measure(args, layout, rest, w, float(starts.get(w, 50)))
            if r["sustainable_rate"]:
                r["sustainable_words_per_s"] = round(r["sustainable_rate"] * words_per_sentence)
            results.append(r)
            log(f"{w}: highest sustainable rate {r['sustainable_rate']} sentences/s")
    finally:
        if not args.keep_cluster:
            manager.down(spec.home)
    doc = {
        "benchmark": "word count, highest sustainable rate (sentences/s), local 2-node cluster",
        "when": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version(),
                    "loadavg_before": load_before, "loadavg_after": os.getloadavg()},
        "shape": args.shape + args.set,
        "input": {"file": str(sentences), "sentences": len(lines), "words_per_sentence": round(words_per_sentence, 2)},
        "criteria": {"step_secs": args.step_secs, "warmup_secs": args.warmup_secs,
                     "max_latency_slope_ms_per_s": args.max_slope, "max_mean_latency_ms": args.max_latency,
                     "min_rate_ratio": 0.95, "stop_after_consecutive_failures": 2},
        "results": results,
        "python_path_profile": profile,
    }
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1))
    log(f"wrote {out}")
