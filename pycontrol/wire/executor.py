"""Executor ids and the one rule for executor spans. Pure.

An executor is the span of task ids [start, end] it runs. On the wire (plan znodes, plan input, the
controller's records and state) it is spelled "[start,end]"; Storm's UI REST API spells it
"[start-end]", and only the code that reads the REST API converts (ExecutorId.from_ui).

The span rule for documents that come from outside (worker metrics documents, plan znodes, node plan
store lines): a span is valid only if 1 <= start <= end (or, where a format allows it, Storm's system
executor [-1, -1]) and covers at most MAX_TASKS tasks; the spans of one document cover at most MAX_TASKS
tasks in all. Readers check before they expand a span into task ids, so a forged end of 2**31-1 is
refused instead of iterated; readers that know the topology's executors also refuse the others
(UNKNOWN_EXECUTOR). The Java readers carry the same rule; tests/vectors/documents and
tests/vectors/wire/executor_ids.json keep the two sides equal. Reasons start with their code.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

MAX_TASKS = 100_000
# Storm's task ids are Java ints: an id past this is not one Storm could have written.
MAX_TASK_ID = 2**31 - 1

BAD_SPAN = "bad_span"
SPAN_TOO_LARGE = "span_too_large"
TOO_MANY_TASKS = "too_many_tasks"
UNKNOWN_EXECUTOR = "unknown_executor"

# Bounded digit runs without leading zeros (as the Java reader): longer numbers are refused by the
# pattern, before any int() of them.
_NUM = r"(-?(?:0|[1-9][0-9]{0,19}))"
_WIRE = re.compile(rf"\[{_NUM},{_NUM}\]")
_UI = re.compile(rf"\[{_NUM}-{_NUM}\]")
# A plan placement's key: the plan-following scheduler takes either spelling, no blanks.
_EITHER = re.compile(rf"\[{_NUM}[,-]{_NUM}\]")
# What an operator may type (pycontrol migrate --executor): either spelling, blanks, or one task id.
_TYPED = re.compile(r"\s*\[?\s*(-?[0-9]{1,20})\s*(?:[,-]\s*(-?[0-9]{1,20})\s*)?\]?\s*")


@dataclass(frozen=True, order=True)
class ExecutorId:
    """An executor's task span; ordered by (start, end) as Storm lists executors."""
    start: int
    end: int

    def __post_init__(self):
        for v in (self.start, self.end):
            if isinstance(v, bool) or not isinstance(v, int):
                raise ValueError(f"executor bound {v!r} is not an integer")
        if self.end > MAX_TASK_ID:
            raise ValueError(f"{BAD_SPAN}: executor [{self.start},{self.end}] ends past {MAX_TASK_ID}, "
                             f"the largest task id")
        if not self.system and not 1 <= self.start <= self.end:
            raise ValueError(f"{BAD_SPAN}: executor [{self.start},{self.end}] is not a span 1 <= start <= end "
                             f"(nor Storm's system executor [-1,-1])")

    def __str__(self) -> str:
        return f"[{self.start},{self.end}]"

    @property
    def ui(self) -> str:
        """Storm UI's spelling, for matching what its REST API shows."""
        return f"[{self.start}-{self.end}]"

    @property
    def system(self) -> bool:
        return self.start == -1 and self.end == -1

    @staticmethod
    def parse(text: str) -> ExecutorId:
        """The wire spelling "[start,end]", exactly (no blanks); ValueError otherwise."""
        return ExecutorId._match(_WIRE, text, "[start,end]")

    @staticmethod
    def from_ui(text: str) -> ExecutorId:
        """The Storm UI's spelling "[start-end]" (the system executor is "[-1--1]"); ValueError otherwise."""
        return ExecutorId._match(_UI, text, "[start-end]")

    @staticmethod
    def from_typed(text: str) -> ExecutorId:
        """What an operator types: "[3,3]", "[3-3]", "3-3" or "3" (a one-task executor), within the span
        rule (a plan naming it would be refused); ValueError otherwise."""
        m = _TYPED.fullmatch(text or "") if isinstance(text, str) else None
        if not m:
            raise ValueError(f"'{text}' is not an executor id: expected [3-3] or 3")
        start = int(m.group(1))
        end = int(m.group(2)) if m.group(2) is not None else start
        bad = check(start, end)
        if bad:
            raise ValueError(bad)
        return ExecutorId(start, end)

    @staticmethod
    def _match(pattern: re.Pattern, text: str, form: str) -> ExecutorId:
        m = pattern.fullmatch(text) if isinstance(text, str) else None
        if not m:
            raise ValueError(f"bad executor id {text!r}: expected {form}")
        return ExecutorId(int(m.group(1)), int(m.group(2)))

    @property
    def task_ids(self) -> range:
        """Its task ids, or an empty range when it breaks the span rule (never a runaway range)."""
        return task_range(self.start, self.end)


def placement_key_span(key: str) -> tuple[int, int] | None:
    """The raw (start, end) of a plan placement's key in either spelling, before the span rule, or None
    when it is not spelled as an executor id at all."""
    m = _EITHER.fullmatch(key) if isinstance(key, str) else None
    return (int(m.group(1)), int(m.group(2))) if m else None


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
