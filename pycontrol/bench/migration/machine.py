"""What the machine was doing around each benchmark run: load average, CPU frequency and CPU count,
and whether a run starts on a busy machine (1-min load above BUSY_FACTOR x CPUs: other work would share
the cores the clusters need). Parsing and judging are pure; `now` and `wait_quiet` read the machine."""

from __future__ import annotations

import glob
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

BUSY_FACTOR = 0.75
BUSY_WAIT_S = 300     # at most this long for the load to drop before a run starts anyway
CPUINFO = Path("/proc/cpuinfo")
SCALING_CUR_FREQ = "/sys/devices/system/cpu/cpu*/cpufreq/scaling_cur_freq"


def cpuinfo_mhz(text: str) -> list[float]:
    """Every "cpu MHz" value of /proc/cpuinfo (one per CPU; absent on some architectures)."""
    out = []
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key.strip() == "cpu MHz":
            try:
                out.append(float(value))
            except ValueError:
                continue
    return out


def cpu_mhz(scaling_khz: Sequence[int], cpuinfo_values: Sequence[float]) -> float | None:
    """Mean current frequency over the CPUs in MHz: cpufreq's scaling_cur_freq (kHz) when the kernel has
    it, else /proc/cpuinfo's "cpu MHz", else None."""
    if scaling_khz:
        return round(sum(scaling_khz) / len(scaling_khz) / 1000, 1)
    if cpuinfo_values:
        return round(sum(cpuinfo_values) / len(cpuinfo_values), 1)
    return None


def is_busy(load_1m: float, cpus: int, factor: float = BUSY_FACTOR) -> bool:
    return load_1m > factor * cpus


def record(loadavg: Sequence[float], mhz: float | None, cpus: int) -> dict:
    return {"loadavg": [round(x, 2) for x in loadavg], "cpu_mhz": mhz, "cpus": cpus,
            "busy": is_busy(loadavg[0], cpus)}


def _read_scaling_khz() -> list[int]:
    out = []
    for path in sorted(glob.glob(SCALING_CUR_FREQ)):
        try:
            out.append(int(Path(path).read_text().strip()))
        except (OSError, ValueError):
            continue
    return out


def _read_cpuinfo() -> str:
    try:
        return CPUINFO.read_text()
    except OSError:
        return ""


def now() -> dict:
    """This moment's load average, CPU frequency and CPU count."""
    return record(os.getloadavg(), cpu_mhz(_read_scaling_khz(), cpuinfo_mhz(_read_cpuinfo())), os.cpu_count() or 1)


def wait_quiet(timeout_s: float = BUSY_WAIT_S, read: Callable[[], dict] = now,
               clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep,
               poll_s: float = 5.0) -> tuple[dict, float]:
    """Polls until the machine is not busy or the time is up; the last record and the seconds waited."""
    start = clock()
    while True:
        rec = read()
        waited = clock() - start
        if not rec["busy"] or waited >= timeout_s:
            return rec, round(waited, 1)
        sleep(poll_s)
