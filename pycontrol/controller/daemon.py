"""The daemon around the control loop: only the leader runs cycles, one every `cycle_s`; a cycle that
finds the state changed under it (fenced out) or fails is logged and the next one starts afresh."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Protocol

from kazoo.exceptions import KazooException

from pycontrol.controller.clock import Clock
from pycontrol.controller.loop import ControlLoop
from pycontrol.controller.state_store import FencedOut

log = logging.getLogger(__name__)


class Lead(Protocol):
    def acquire(self, timeout_s: float) -> bool: ...

    def is_leader(self) -> bool: ...

    def release(self) -> None: ...

    def contenders(self) -> list[str]: ...


class Daemon:
    def __init__(self, loop: ControlLoop, lead: Lead, clock: Clock, cycle_s: float,
                 stop: threading.Event | None = None, acquire_timeout_s: float = 5.0,
                 wait: Callable[[float], bool] | None = None):
        self.loop = loop
        self.lead = lead
        self.clock = clock
        self.cycle_s = cycle_s
        self.stop = stop or threading.Event()
        self.acquire_timeout_s = acquire_timeout_s
        # Waits up to s seconds; True if asked to stop. Tests use the manual clock instead.
        self.wait = wait or (lambda s: self.stop.wait(max(0.0, s)))
        self.fenced = 0
        self.failed = 0
        self._holders: list[str] | None = None
        # Read at each scrape, so a lead lost mid-cycle (a ZooKeeper blip) shows at once.
        self._running = False
        loop.metrics.is_leader.set_function(lambda: 1.0 if self._running and self.lead.is_leader() else 0.0)

    def _lead(self) -> bool:
        if self.lead.is_leader():
            return True
        try:
            got = self.lead.acquire(self.acquire_timeout_s)
        except KazooException as e:
            log.warning("cannot contend for the lead: %r", e)
            got = False
        if not got:
            try:
                holders = self.lead.contenders()
            except KazooException:
                holders = []
            if holders != self._holders:   # once per change of leader, not every cycle
                log.info("not the leader (contenders: %s); standing by", holders or "unknown")
            self._holders = holders
        else:
            self._holders = None
        return got

    def run(self, max_cycles: int | None = None) -> int:
        """Runs until stopped (or max_cycles cycles as leader); returns the cycles run."""
        done = 0
        self._running = True
        try:
            while not self.stop.is_set():
                if not self._lead():
                    if self.wait(self.cycle_s):
                        break
                    continue
                t0 = self.clock.now()
                try:
                    self.loop.cycle()
                except FencedOut as e:
                    self.fenced += 1
                    self.loop.metrics.fenced_cycles.inc()
                    log.warning("cycle aborted: %s; the next cycle re-reads the state", e)
                except Exception:  # noqa: BLE001 - one bad cycle must not end the daemon
                    self.failed += 1
                    log.exception("control cycle failed")
                done += 1
                if max_cycles is not None and done >= max_cycles:
                    break
                if self.wait(self.cycle_s - (self.clock.now() - t0)):
                    break
        finally:
            self._running = False
            self.lead.release()
        return done
