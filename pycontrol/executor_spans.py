"""The one rule for executor spans [start, end] in documents that come from outside (worker metrics
documents, plan znodes, node plan store lines). Pure.

A span is valid only if 1 <= start <= end (or, where a format allows it, Storm's system executor
[-1, -1]) and covers at most MAX_TASKS tasks; the spans of one document cover at most MAX_TASKS tasks in
all. Readers check before they expand a span into task ids, so a forged end of 2**31-1 is refused instead
of iterated; readers that know the topology's executors also refuse the others (UNKNOWN_EXECUTOR).

The Java readers carry the same rule (io.nonstopstorm.{migration.plan,scheduling.model,grouping.storm}
.ExecutorSpans); tests/vectors/documents keeps them equal. Reasons start with their code.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

MAX_TASKS = 100_000

BAD_SPAN = "bad_span"
SPAN_TOO_LARGE = "span_too_large"
TOO_MANY_TASKS = "too_many_tasks"
UNKNOWN_EXECUTOR = "unknown_executor"


def check(start: int, end: int, system_allowed: bool = False) -> str | None:
    """Why [start, end] is not a valid span, or None."""
    if system_allowed and start == -1 and end == -1:
        return None
    if start < 1 or end < start:
        return f"{BAD_SPAN}: executor [{start},{end}] is not a span 1 <= start <= end"
    if end - start + 1 > MAX_TASKS:
        return f"{SPAN_TOO_LARGE}: executor [{start},{end}] covers {end - start + 1} tasks, more than {MAX_TASKS}"
    return None


def tasks(start: int, end: int) -> int:
    """Tasks of a span already checked (the system executor counts as one)."""
    return end - start + 1


def check_total(n_tasks: int) -> str | None:
    """Why a document whose spans cover n_tasks tasks in all is refused, or None."""
    if n_tasks > MAX_TASKS:
        return f"{TOO_MANY_TASKS}: the executors cover {n_tasks} tasks, more than {MAX_TASKS}"
    return None


def unknown(start: int, end: int, topology: str) -> str:
    """The reason for a span that is valid but not one of the topology's executors."""
    return f"{UNKNOWN_EXECUTOR}: executor [{start},{end}] is not an executor of {topology}"


def task_range(start: int, end: int, system_allowed: bool = True) -> range:
    """The task ids of a span, or an empty range when the span breaks the rule (never a runaway range)."""
    if check(start, end, system_allowed) is not None:
        return range(0)
    return range(start, end + 1)


def check_known(spans: Iterable[tuple[int, int]], known: Collection[tuple[int, int]], topology: str) -> str | None:
    """Why spans name an executor the topology does not have (the first such), or None."""
    for start, end in spans:
        if (start, end) not in known:
            return unknown(start, end, topology)
    return None
