"""Core frequency, to turn CPU shares (cores) into Hz as CPU-rate placement models (Aniello et al.) use."""

from __future__ import annotations

from pathlib import Path


def mhz_from_cpuinfo(text: str) -> float | None:
    """Mean of the "cpu MHz" lines of /proc/cpuinfo; None if there are none (e.g. many ARM kernels)."""
    values = []
    for line in text.splitlines():
        if line.startswith("cpu MHz"):
            try:
                values.append(float(line.split(":", 1)[1]))
            except (IndexError, ValueError):
                continue
    return sum(values) / len(values) if values else None


def local_cpu_mhz(path: Path = Path("/proc/cpuinfo")) -> float | None:
    try:
        return mhz_from_cpuinfo(path.read_text())
    except OSError:
        return None
