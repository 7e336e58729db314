"""Leak probes for a local JVM (a worker after many migrations): its thread count, and its live heap
per class (instances and bytes of the objects still reachable).

The live heap comes from `jcmd <pid> GC.class_histogram`: the JVM runs a full collection and counts the
survivors in the same safepoint, so, unlike "used" read after a separate GC, nothing the program
allocates in between blurs the figure.
"""

from __future__ import annotations

import re
import subprocess

import psutil

from pycontrol.errors import UserError

# "   1:         12345        1234567  [B (java.base@17.0.15)"
_HISTOGRAM_LINE = re.compile(r"^\s*\d+:\s+(\d+)\s+(\d+)\s+(\S+)", re.MULTILINE)

Histogram = dict[str, tuple[int, int]]   # class name -> (live instances, live bytes)


def parse_class_histogram(text: str) -> Histogram:
    """From `jcmd <pid> GC.class_histogram` output. Pure."""
    out: Histogram = {}
    for m in _HISTOGRAM_LINE.finditer(text):
        n, size = out.get(m.group(3), (0, 0))   # a class name loaded by two loaders appears twice
        out[m.group(3)] = (n + int(m.group(1)), size + int(m.group(2)))
    if not out:
        raise UserError(f"no classes found in jcmd GC.class_histogram output: {text.strip()[:200]!r}")
    return out


def live_kb(histogram: Histogram) -> int:
    """KiB of live objects. Pure."""
    return sum(size for _, size in histogram.values()) // 1024


def histogram_growth(before: Histogram, after: Histogram, top: int = 10) -> list[tuple[str, int, int]]:
    """The classes whose live bytes grew most: (class, more instances, more bytes), largest first. Pure."""
    grown = []
    for cls, (n, size) in after.items():
        n0, size0 = before.get(cls, (0, 0))
        if size > size0:
            grown.append((cls, n - n0, size - size0))
    return sorted(grown, key=lambda g: (-g[2], g[0]))[:top]


def thread_count(pid: int) -> int:
    """Live threads of the process (the kernel's count, /proc/<pid>/status Threads)."""
    try:
        return psutil.Process(pid).num_threads()
    except psutil.NoSuchProcess:
        raise UserError(f"process {pid} is gone") from None


def class_histogram(pid: int, timeout_s: float = 60) -> Histogram:
    """The live objects per class, right after a full GC that this call triggers."""
    try:
        out = subprocess.run(["jcmd", str(pid), "GC.class_histogram"], capture_output=True, text=True,
                             timeout=timeout_s, check=False)
    except FileNotFoundError:
        raise UserError("jcmd not found: install a JDK (not only a JRE) to probe worker JVMs") from None
    except subprocess.TimeoutExpired:
        raise UserError(f"jcmd on process {pid} took longer than {timeout_s:.0f} s") from None
    if out.returncode != 0:
        raise UserError(f"jcmd on process {pid} failed ({out.returncode}): {(out.stderr or out.stdout).strip()[:200]}")
    return parse_class_histogram(out.stdout)
