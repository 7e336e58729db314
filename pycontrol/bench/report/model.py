"""The report's small model: a row per measure, a table per result file, a section per headline."""

from __future__ import annotations

from dataclasses import dataclass, field

NOT_RECORDED = "not recorded"


@dataclass(frozen=True)
class Row:
    """One measure: n values (runs, rounds, instances, tuples: `unit_of_n` says which), their median
    (or the single value when n = 1), and their spread as text ("min–max", "p99 …", a 95 % interval)."""
    measure: str
    n: int
    median: float | None
    spread: str
    unit_of_n: str = "runs"
    note: str = ""


@dataclass(frozen=True)
class RunMeta:
    date: str = NOT_RECORDED
    load_start: str = NOT_RECORDED
    load_end: str = NOT_RECORDED
    command: str = NOT_RECORDED
    elapsed_s: float | None = None   # the machine time the file's runs took, where it records it


@dataclass(frozen=True)
class Table:
    source: str  # the result file, relative to results/
    meta: RunMeta
    rows: tuple[Row, ...]
    note: str = ""


@dataclass(frozen=True)
class Section:
    headline: str
    about: str
    tables: tuple[Table, ...]
    figures: tuple[str, ...] = field(default=())  # relative to results/
