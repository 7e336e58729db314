"""One OTD round's time as executors x workers grow: the scheduling plugin's Java speed bench
(io.nonstopstorm.scheduling.bench.SchedulerBench, synthetic instances, OTD's worst case where every
worker is low so a round scans all executors x all workers) run for OTD alone."""

from __future__ import annotations

import json
import re
from pycontrol.errors import UserError
from pycontrol.jvm import classpath
from pycontrol.jvm.command import JavaCommand, JvmError, failure_message, run

BENCH_MAIN = "io.nonstopstorm.scheduling.bench.SchedulerBench"
QUICK_SIZES = "4x12,10x100,25x250,50x500,100x1000"
FULL_SIZES = "4x12,10x100,25x250,50x500,100x1000,250x2500,500x5000"


def parse_sizes(text: str) -> str:
    """NODESxEXECUTORS,... checked here so a typo is named before the JVM starts."""
    parts = [p.strip() for p in text.split(",") if p.strip()]
    if not parts or not all(re.fullmatch(r"[1-9]\d*x[1-9]\d*", p) for p in parts):
        raise UserError(f"--sizes must look like 4x12,10x100 (NODESxEXECUTORS), got '{text}'")
    return ",".join(parts)


def per_pair(rows: list[dict]) -> list[dict]:
    """Each measured row with E x N and the time per executor-worker pair (flat if the round is O(E.N))."""
    out = []
    for r in rows:
        if not r.get("ok"):
            continue
        en = r["executors"] * r["workers"]
        out.append({**r, "e_times_n": en, "thread_cpu_us_per_pair": round(r["median_thread_cpu_ms"] * 1000 / en, 4)})
    return out


def run_scaling(sizes: str, warmup: int, repeats: int, timeout_s: float = 900) -> dict:
    cmd = JavaCommand(BENCH_MAIN, ("speed", "--schedulers", "otd", "--sizes", parse_sizes(sizes), "--warmup",
                                   str(warmup), "--repeats", str(repeats), "--budget-seconds", "10"),
                      classpath.planner(), ("-Xmx1g",), what="the OTD speed bench")
    done = run(cmd, timeout_s)
    if done.returncode != 0:
        raise JvmError(failure_message(cmd, done))
    raw = json.loads(done.stdout)
    return {"machine": raw.get("machine"), "warmup": warmup, "repeats": repeats, "rows": per_pair(raw["results"]),
            "skipped": [r for r in raw["results"] if not r.get("ok")]}
