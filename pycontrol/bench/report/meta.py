"""What a result file records about its run: date, machine load at start and end, command. Result
files of different benchmarks name these differently; each spelling in use is listed here once."""

from __future__ import annotations

from typing import Any, Mapping

from pycontrol.bench.report.model import NOT_RECORDED, RunMeta

DATE_KEYS = ("date", "when", "at", "started")
# (path of keys, ...) in the order tried
LOAD_START = (("machine", "load_avg_at_start"), ("machine", "loadavg_before"), ("machine", "load_avg_before"),
              ("machine", "load_average_at_start"), ("raw", "machine", "load_average_at_start"),
              ("load_average_start",), ("load_average_at_start",), ("load_avg_at_start",),
              ("load_average_1m",))
ELAPSED = (("elapsed_s",), ("wall_seconds",), ("wall_secs",), ("wall_s",))
LOAD_END = (("machine", "load_avg_at_end"), ("machine", "loadavg_after"), ("machine", "loadavg_now"),
            ("machine", "load_avg_after"), ("load_average_end",), ("load_average_at_end",), ("load_avg_at_end",))


def _dig(doc: Any, path: tuple[str, ...]) -> Any:
    for key in path:
        if not isinstance(doc, Mapping) or key not in doc:
            return None
        doc = doc[key]
    return doc


def load_text(value: Any) -> str | None:
    """A load average as text: one number, or Linux's 1/5/15-minute triple."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:.1f}"
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, (int, float)) for v in value):
        return " / ".join(f"{v:.1f}" for v in value) + (" (1/5/15 min)" if len(value) == 3 else "")
    return None


def _first(doc: Mapping, paths) -> str:
    for p in paths:
        if (text := load_text(_dig(doc, p))) is not None:
            return text
    return NOT_RECORDED


def elapsed(doc: Mapping) -> float | None:
    """Seconds the file's runs took: a recorded duration, else its finished minus started time."""
    for p in ELAPSED:
        v = _dig(doc, p)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and v >= 0:
            return float(v)
    start, end = doc.get("started"), doc.get("finished")
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (start, end)) and end >= start:
        return float(end - start)
    return None


def run_meta(doc: Mapping, documented_command: str) -> RunMeta:
    """The run's date, load and command; the benchmark's documented usage when the file has no command
    (marked as such), "not recorded" for what the file does not hold."""
    date = next((str(doc[k]) for k in DATE_KEYS if isinstance(doc.get(k), str) and doc[k]), NOT_RECORDED)
    command = doc.get("command")
    if isinstance(command, list):
        command = " ".join(map(str, command))
    if not isinstance(command, str) or not command:
        command = f"{documented_command} (documented usage; the file does not record its command)"
    return RunMeta(date=date, load_start=_first(doc, LOAD_START), load_end=_first(doc, LOAD_END), command=command,
                   elapsed_s=elapsed(doc))
