"""A workload submitted to the local cluster for a measurement: wait until Storm placed it, read its
placement and its FeedSpout series, kill it. Shared by `pycontrol model build` and the sizing
benchmark."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from pathlib import Path

from pycontrol.profiling.trials import ProfilingError
from pycontrol.storm import placement
from pycontrol.storm.rest import RestError, StormRest, executor_id
from pycontrol.workloads import locate, series
from pycontrol.workloads.submit import submit_workload

ACKER = "__acker"
log = logging.getLogger(__name__)


class RunningTopology:
    def __init__(self, rest: StormRest, logs: Path, name: str, topology_id: str,
                 sleep: Callable[[float], None] = time.sleep):
        self.rest, self.logs, self.name, self.id = rest, logs, name, topology_id
        self.sleep = sleep

    @classmethod
    def submit(cls, rest: StormRest, conf_dir: Path, logs: Path, workload: str, name: str, settings: list[str],
               component_conf: dict[str, dict] | None = None, timeout_s: float = 120) -> RunningTopology:
        if rest.topology_id(name) is not None:
            raise ProfilingError(f"a topology named '{name}' is already running; kill it first")
        submit_workload(workload, name, settings, conf_dir, component_conf)
        deadline = time.monotonic() + timeout_s
        while (topo_id := rest.topology_id(name)) is None:
            if time.monotonic() > deadline:
                raise ProfilingError(f"{name} was submitted but not listed after {timeout_s:g} s")
            time.sleep(1)
        return cls(rest, logs, name, topo_id)

    # Statuses with which Storm's ResourceAwareScheduler gives a topology up (it would stay unplaced).
    UNPLACEABLE = ("Unsuccessful in scheduling", "Not enough resources to schedule")

    def wait_placed(self, executors: int, timeout_s: float = 300) -> list[placement.ExecutorPlace]:
        """The user executors' places once all `executors` of them have a worker."""
        deadline = time.monotonic() + timeout_s
        while True:
            status = self.status()
            if any(s in status for s in self.UNPLACEABLE):
                raise ProfilingError(f"{self.name}: the scheduler cannot place it ({status})")
            try:
                places = placement.placement(self.rest, self.id)
            except RestError:
                places = []
            if len(places) >= executors and all(p.port > 0 for p in places):
                return places
            if time.monotonic() > deadline:
                raise ProfilingError(f"{self.name}: only {len(places)} of {executors} executors placed after "
                                     f"{timeout_s:g} s (status: {status})")
            self.sleep(2)

    def status(self) -> str:
        try:
            t = self.rest.topology(self.id)
        except RestError as e:
            return str(e)
        return f"{t.get('status')}; scheduler: {t.get('schedulerInfo') or '-'}"

    def acker_places(self) -> list[placement.ExecutorPlace]:
        try:
            stats = self.rest.component(self.id, ACKER, sys=True).get("executorStats", [])
        except RestError:
            return []
        return [placement.ExecutorPlace(ACKER, executor_id(e), e["host"], int(e["port"])) for e in stats]

    def rows(self) -> list[series.Second]:
        return series.read_series(locate.artifact_dirs(self.logs, self.id))

    def kill(self, timeout_s: float = 120, clock: Callable[[], float] = time.monotonic) -> bool:
        """Kills the topology and waits until Storm no longer lists it; True once it is gone. A REST call
        that fails (a busy machine's UI timing out) is tried again until the deadline, never taken for
        done: a measurement topology left running would load every measurement after it."""
        deadline = clock() + timeout_s
        asked = False
        while True:
            try:
                if self.rest.topology_id(self.name) is None:
                    return True
                if not asked:
                    self.rest.kill(self.id, 0)
                    asked = True
            except RestError as e:
                log.warning("killing %s: %s; trying again", self.name, e)
            if clock() >= deadline:
                log.error("%s is still listed %.0f s after it was killed: later measurements share the "
                          "machine with it", self.name, timeout_s)
                return False
            self.sleep(1)
