"""Polling with a deadline, as the benchmarks wait for a cluster to get somewhere."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from pycontrol.errors import UserError


def wait_for(what: str, check: Callable[[], Any], timeout_s: float, poll_s: float = 1.0,
             clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep) -> Any:
    """Poll `check` until it returns a truthy value, which it returns; UserError after `timeout_s`."""
    deadline = clock() + timeout_s
    while not (value := check()):
        if clock() > deadline:
            raise UserError(f"timed out after {timeout_s:.0f} s waiting for {what}")
        sleep(poll_s)
    return value


def sleep_until(t: float, clock: Callable[[], float] = time.time, sleep: Callable[[float], None] = time.sleep) -> None:
    """Until wall-clock time t (epoch seconds), in steps of at most a second."""
    while (left := t - clock()) > 0:
        sleep(min(left, 1.0))
