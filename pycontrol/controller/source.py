"""The collect phase: live models of every running topology, retried with exponential backoff while
the UI REST API or ZooKeeper cannot be read (tenacity, sleeping on the injected clock). What is still
unreadable after the last attempt comes back marked, and the loop acts on none of it."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from tenacity import RetryCallState, Retrying, retry_if_exception_type, stop_after_attempt, wait_exponential

from pycontrol.controller.clock import Clock
from pycontrol.model.live import LiveModel
from pycontrol.storm.rest import RestError

log = logging.getLogger(__name__)


@dataclass
class Collected:
    models: list[LiveModel] = field(default_factory=list)
    error: str | None = None      # set when the round could not be completed; models may be partial
    attempts: int = 1


class _Unavailable(Exception):
    def __init__(self, message: str, models: list[LiveModel] | None = None):
        super().__init__(message)
        self.models = models or []


class ModelSource:
    def __init__(self, collect_all: Callable[[], list[LiveModel]], clock: Clock, attempts: int = 4,
                 backoff_s: float = 1.0, max_backoff_s: float = 8.0):
        if attempts < 1:
            raise ValueError("attempts must be >= 1")
        self.collect_all = collect_all
        self.clock = clock
        self.attempts = attempts
        self.backoff_s = backoff_s
        self.max_backoff_s = max_backoff_s

    def _once(self) -> list[LiveModel]:
        try:
            models = self.collect_all()
        except RestError as e:
            raise _Unavailable(str(e)) from e
        broken = [f"{m.name}: {'; '.join(m.errors)}" for m in models if m.errors]
        if broken:
            raise _Unavailable("; ".join(broken), models)
        return models

    def collect(self) -> Collected:
        def give_up(rs: RetryCallState) -> Collected:
            e = rs.outcome.exception()
            return Collected(getattr(e, "models", []), str(e), rs.attempt_number)

        def before_sleep(rs: RetryCallState) -> None:
            log.warning("collect attempt %d failed (%s); retrying in %.1f s", rs.attempt_number,
                        rs.outcome.exception(), rs.next_action.sleep if rs.next_action else 0)

        retrying = Retrying(stop=stop_after_attempt(self.attempts),
                            wait=wait_exponential(multiplier=self.backoff_s, max=self.max_backoff_s),
                            retry=retry_if_exception_type(_Unavailable), sleep=self.clock.sleep,
                            before_sleep=before_sleep, retry_error_callback=give_up)
        attempts = 0

        def attempt() -> Collected:
            nonlocal attempts
            attempts += 1
            return Collected(self._once(), None, attempts)

        return retrying(attempt)
