"""`pycontrol model build TASK`: the model-driven paper's profiling harness on the local cluster.

For each thread count τ the harness topology (source -> task -> sink) is submitted with the task at
parallelism τ and the slot-aware scheduler (`nonstop.scheduler: slot-aware`): the task is one full
bundle of τ threads, so it gets a slot (worker) of its own, while source, sink and ackers share
another. The run starts at a low rate until latency is steady (the base latency), then
`pycontrol.profiling.sweep` searches the peak stable rate with `trials.TrialRunner`; CPU and RSS
of the task's worker and its Python processes are sampled over each trial (`usage`). Everything
goes into a run log (JSON, what `build_model` returns), which `pycontrol.profiling.table` turns into the model
table.

Start rate of a search: the previous thread count's peak scaled linearly in τ, times `start_factor`;
for the first thread count (without --start-rate) `start_factor` × τ / base latency, the rate the
task could sustain if all of the base latency were its service time.
"""

from __future__ import annotations

import json
import os
import platform
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import psutil

from pycontrol.profiling.running import RunningTopology
from pycontrol.profiling.sweep import RateSearch, SearchSettings, find_peak_rate, sweep_threads
from pycontrol.profiling.tasks import TASK_COMPONENT, ProfiledTask
from pycontrol.profiling.trials import ProfilingError, RateFile, TrialRunner, TrialSettings
from pycontrol.profiling.usage import WorkerUsage
from pycontrol.sizing import deploy
from pycontrol.storm.rest import StormRest
from pycontrol.workloads.submit import EVEN_SHUFFLE

RUN_LOG_KIND = "nonstop-profile-run"
RUN_LOG_VERSION = 1
# The paper's static allocations of source and sink; the ackers share their slot.
_SHARED_SLOT = {"source": {"cpu": 0.10, "memory": 0.15}, "sink": {"cpu": 0.10, "memory": 0.20},
                deploy.ACKER: {"cpu": deploy.ACKER_CPU, "memory": deploy.ACKER_MEMORY}}


@dataclass(frozen=True)
class BuildSettings:
    threads: tuple[int, ...] = (1, 2, 4)
    max_minutes: float = 6.0
    start_rate: float | None = None
    start_factor: float = 0.8
    warm_rate: float = 1.0
    min_slope: float = -0.001
    window: int = 3
    slot_memory_mb: float = 3584.0
    topology_settings: tuple[str, ...] = ()
    search: SearchSettings = field(default_factory=SearchSettings)
    trials: TrialSettings = field(default_factory=TrialSettings)


@dataclass(frozen=True)
class ClusterTarget:
    rest: StormRest
    conf_dir: Path
    logs: Path
    work_dir: Path               # where rate-schedule files go (read by the workers: same machine)
    nodes: int | None = None
    slots_per_node: int | None = None


def machine_facts() -> dict[str, Any]:
    cpu_model = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "cpu_model": cpu_model, "memory_mb": round(psutil.virtual_memory().total / 2**20),
            "platform": platform.platform(), "python": platform.python_version(),
            "loadavg": [round(x, 2) for x in os.getloadavg()]}


def harness_settings(tau: int, rate_file: Path, warm_rate: float, extra: tuple[str, ...]) -> list[str]:
    allocation = {**_SHARED_SLOT, TASK_COMPONENT: {"cpu": 1.0, "memory": 1.0, "bundle": tau}}
    return [f"workload.rate={warm_rate!r}", f"workload.rate.schedule={rate_file}",
            f"workload.par.{TASK_COMPONENT}={tau}", "topology.workers=2",
            # A trial's backlog must not time out and be replayed before it drains.
            "topology.message.timeout.secs=300",
            # Plain shuffle, as the sizing deployments have (deploy.py): the model must be measured the way
            # the allocations run. Storm's load-aware shuffle picks the task's threads at random, so some
            # queue while others idle, and the waiting stand-ins looked unstable at half their capacity.
            EVEN_SHUFFLE,
            f"{deploy.SCHEDULER_KEY}=slot-aware", f"{deploy.SAM_KEY}={json.dumps(allocation)}", *extra]


class _Deployment:
    """The harness topology of one thread count, submitted and running at the warm rate."""

    def __init__(self, task: ProfiledTask, target: ClusterTarget, settings: BuildSettings, tau: int,
                 log: Callable[[str], None]):
        self.tau = tau
        self.name = f"profile-{task.model.replace('_', '-')}-t{tau}"
        target.work_dir.mkdir(parents=True, exist_ok=True)
        self.rate_file = RateFile(target.work_dir / f"{self.name}.rate")
        self.rate_file.set(settings.warm_rate)
        log(f"τ={tau}: submitting {self.name}")
        self.topo = RunningTopology.submit(target.rest, target.conf_dir, target.logs, task.topology, self.name,
                                           harness_settings(tau, self.rate_file.path, settings.warm_rate,
                                                            settings.topology_settings))
        self.runner: TrialRunner | None = None
        self.error: str | None = None

    def ready(self, settings: BuildSettings, log: Callable[[str], None]) -> TrialRunner:
        """Waits until the topology is placed and its latency steady at the warm rate."""
        if self.error is not None:
            raise ProfilingError(self.error)
        if self.runner is None:
            try:
                self.topo.wait_placed(self.tau + 2, timeout_s=settings.trials.settle_timeout_secs)
                runner = TrialRunner(self.topo.rows, self.rate_file, settings.trials, log=log)
                runner.settle(settings.warm_rate)
            except ProfilingError as e:
                self.error = str(e)
                raise
            self.runner = runner
        return self.runner


def build_model(task: ProfiledTask, target: ClusterTarget, settings: BuildSettings,
                log: Callable[[str], None] = print, clock: Callable[[], float] = time.monotonic) -> dict[str, Any]:
    """Profile `task` for every thread count of the settings; returns the run log.

    Thread counts are deployed ahead, as many as the free slots allow (two each): their workers start
    together, which on a busy machine takes minutes, and each idles at the warm rate until its turn.
    The budget (`max_minutes`) starts once the first batch is up and steady: start-up time depends on
    the machine's load, not on the sweep. A later batch (more thread counts than slots) starts
    within the budget.
    """
    started_wall = datetime.now(timezone.utc)
    t0 = clock()
    machine = machine_facts()
    runs: list[dict[str, Any]] = []
    pending = list(settings.threads)
    deployed: dict[int, _Deployment] = {}
    at_once = max(1, int(target.rest.cluster_summary().get("slotsFree") or 2) // 2)

    def deploy_ahead() -> None:
        while pending and len(deployed) < at_once:
            tau = pending.pop(0)
            deployed[tau] = _Deployment(task, target, settings, tau, log)

    def profile(tau: int, hint: float | None, deadline: float | None) -> RateSearch:
        run: dict[str, Any] = {"threads": tau}
        runs.append(run)
        begun = clock()
        try:
            deploy_ahead()
            d = deployed[tau]
            search = _profile_threads(d, settings, hint, deadline, run, log, clock)
        except ProfilingError as e:
            log(f"τ={tau}: {e}")
            search = RateSearch(0.0, (), f"error: {e}")
        finally:
            if tau in deployed:
                deployed.pop(tau).topo.kill()
        run.update(search.to_dict())
        run["seconds"] = round(clock() - begun, 1)
        peak = search.peak
        log(f"τ={tau}: peak stable rate {peak.rate:.3f} t/s" if peak else f"τ={tau}: no stable rate")
        return search

    try:
        deploy_ahead()
        for tau, d in deployed.items():
            try:
                d.ready(settings, log)
            except ProfilingError as e:
                log(f"τ={tau}: {e}")
        startup = clock() - t0
        log(f"start-up took {startup:.0f} s; sweeping (budget {settings.max_minutes:g} min)")
        sweep = sweep_threads(settings.threads, profile, budget_s=settings.max_minutes * 60, clock=clock,
                              min_slope=settings.min_slope, window=settings.window)
    finally:
        for d in deployed.values():
            d.topo.kill()
    machine["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
    s = asdict(settings)
    s["threads"] = list(settings.threads)
    s["topology_settings"] = list(settings.topology_settings)
    return {
        "kind": RUN_LOG_KIND, "version": RUN_LOG_VERSION,
        "task": task.model, "description": task.description, "topology": task.topology,
        "started": started_wall.isoformat(timespec="seconds"),
        "wall_seconds": round(clock() - t0, 1),
        "startup_seconds": round(startup, 1),
        "stopped": sweep.stopped,
        "settings": s,
        "machine": machine,
        "cluster": {"nodes": target.nodes, "slots_per_node": target.slots_per_node},
        "runs": runs,
    }


def _profile_threads(d: _Deployment, settings: BuildSettings, hint: float | None, deadline: float | None,
                     run: dict[str, Any], log: Callable[[str], None], clock: Callable[[], float]) -> RateSearch:
    tau, topo = d.tau, d.topo
    runner = d.ready(settings, log)
    base = runner.settle(settings.warm_rate)   # again: the base latency of now, not of the start-up
    # The placement is read once the topology runs: on a slow machine Storm may restart workers that
    # took too long to start, and they can come back on other slots.
    host, port, sharing = _task_worker(topo, tau)
    run.update({"topology_id": topo.id, "worker": f"{host}:{port}", "shares_worker_with": sharing})
    if sharing:
        log(f"τ={tau}: warning: the task's worker also runs {', '.join(sharing)}")
    worker = WorkerUsage(topo.id, port)
    if worker.sample() is None:
        raise ProfilingError(f"no worker process for {topo.id} on port {port} on this machine")
    runner.usage = worker.sample
    if settings.start_rate is not None and hint is None:
        start = settings.start_rate
    elif hint is not None:
        start = settings.start_factor * hint
    else:
        start = settings.start_factor * tau * 1000.0 / max(base, 1.0)
    start = max(start, settings.search.min_rate)
    run.update({"base_latency_ms": round(base, 2)})
    log(f"τ={tau}: base latency {base:.1f} ms at {settings.warm_rate:g} t/s; searching from {start:.3f} t/s")
    return find_peak_rate(runner.run, start, settings.search, deadline=deadline, clock=clock)


def _task_worker(topo: RunningTopology, tau: int) -> tuple[str, int, list[str]]:
    """(host, port) of the task's worker and the other components it runs."""
    places = topo.wait_placed(tau + 2)
    mine = {(p.host, p.port) for p in places if p.component == TASK_COMPONENT}
    if len(mine) != 1:
        raise ProfilingError(f"the task's {tau} executors landed on {len(mine)} workers, not one (is the "
                             f"cluster's scheduler io.nonstopstorm.scheduling.storm.NonstopScheduler?)")
    host, port = next(iter(mine))
    sharing = sorted({p.component for p in places + topo.acker_places()
                      if (p.host, p.port) == (host, port) and p.component != TASK_COMPONENT})
    return host, port, sharing
