"""An allocation as the topology settings that deploy it with each mapper of seed 002 (§8):

- SAM (our slot-aware scheduler, storm-plugins/scheduling `SlotAwareStormScheduler`): the topology
  conf names it (`nonstop.scheduler: slot-aware`) and carries the model-based allocation under
  `nonstop.sam.allocation` as {component: {cpu, memory, bundle}} (fractions of a slot; no bundle for
  tasks that never fill a slot, e.g. source and sink).
- DSM (Storm's default scheduler): parallelism and `topology.workers` = ρ (plus plain shuffle).
- RSM (Storm's ResourceAwareScheduler, configured per docs/seed-specs.md §1.10): the topology conf names
  `nonstop.scheduler: ras`, so the nonstop dispatcher hands it to Storm's RAS (a stock RAS cluster
  ignores the key); every thread requests the model's single-thread CPU and memory (R-Storm ignores
  the rate a thread gets), CPU in percent of a core, memory in MB of the slot quantum; workers are
  capped at one slot's memory. The supervisors offer `ras_node_capacity` (slots x 100 % CPU, slots x
  the slot memory), which only RAS reads.

All three set each component's parallelism to its thread count (`workload.par.<task>`), which the
suite's topologies read, and turn Storm's load-aware shuffle off (see EVEN_SHUFFLE). Pure functions;
values are plain dicts/strings for `--set key=value`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pycontrol.sizing.allocate import Allocation
from pycontrol.sizing.models import ModelSet, StaticModel
from pycontrol.workloads.submit import EVEN_SHUFFLE

SCHEDULER_KEY = "nonstop.scheduler"
SAM_KEY = "nonstop.sam.allocation"
ACKER = "__acker"
# Storm's ackers are not in the DAG; they get a small share where the mapper needs a figure.
ACKER_CPU, ACKER_MEMORY = 0.05, 0.05

# Storm's resource-request keys (per component, and topology-wide defaults).
RAS_CPU = "topology.component.cpu.pcore.percent"
RAS_MEMORY = "topology.component.resources.onheap.memory.mb"
RAS_ACKER_CPU = "topology.acker.cpu.pcore.percent"
RAS_ACKER_MEMORY = "topology.acker.resources.onheap.memory.mb"
RAS_WORKER_MAX_HEAP = "topology.worker.max.heap.size.mb"


# The models and the predictor give each thread of a task an equal share of its input, as the paper's
# shuffle grouping does: every mapper deploys with plain shuffle (sizing quick run with load-aware
# shuffle, MBA+SAM at 5 t/s: exactly one local B thread's 2 t/s).
def parallelism_settings(allocation: Allocation) -> list[str]:
    return [f"workload.par.{task}={a.threads}" for task, a in allocation.tasks.items()] + \
        [f"topology.workers={max(1, allocation.slots)}", EVEN_SHUFFLE]


def sam_allocation(allocation: Allocation) -> dict[str, dict[str, Any]]:
    """{component: {cpu, memory[, bundle]}} as SlotAwareStormScheduler reads it."""
    out: dict[str, dict[str, Any]] = {}
    for task, a in allocation.tasks.items():
        entry: dict[str, Any] = {"cpu": round(a.cpu, 6), "memory": round(a.memory, 6)}
        if a.bundle_threads is not None:
            entry["bundle"] = a.bundle_threads
        out[task] = entry
    out[ACKER] = {"cpu": ACKER_CPU, "memory": ACKER_MEMORY}
    return out


def sam_settings(allocation: Allocation) -> list[str]:
    return [*parallelism_settings(allocation), f"{SCHEDULER_KEY}=slot-aware",
            f"{SAM_KEY}={json.dumps(sam_allocation(allocation))}"]


def dsm_settings(allocation: Allocation) -> list[str]:
    return parallelism_settings(allocation)


def ras_requests(allocation: Allocation, models: ModelSet, dag_models: Mapping[str, str],
                 slot_memory_mb: float) -> dict[str, dict[str, float]]:
    """Per component, what one thread requests from RAS: C(1)·100 % CPU, M(1)·slot MB on-heap."""
    out = {}
    for task in allocation.tasks:
        m = models.require(dag_models[task], task=task)
        cpu, mem = (m.cpu / m.threads, m.memory / m.threads) if isinstance(m, StaticModel) else (m.cpu(1), m.memory(1))
        out[task] = {RAS_CPU: round(100 * cpu, 3), RAS_MEMORY: round(slot_memory_mb * mem, 1)}
    return out


def rsm_settings(allocation: Allocation, source_request: Mapping[str, float], slot_memory_mb: float) -> list[str]:
    """Topology-wide settings of an RSM run: placed by RAS; the topology default request is the
    source's (Java components take no per-component conf through the suite's multilang builder),
    ackers get their small share, a worker holds at most one slot's memory."""
    return [*parallelism_settings(allocation), f"{SCHEDULER_KEY}=ras",
            f"{RAS_CPU}={source_request[RAS_CPU]}", f"{RAS_MEMORY}={source_request[RAS_MEMORY]}",
            f"{RAS_ACKER_CPU}={100 * ACKER_CPU:g}", f"{RAS_ACKER_MEMORY}={slot_memory_mb * ACKER_MEMORY:g}",
            f"{RAS_WORKER_MAX_HEAP}={slot_memory_mb:g}"]


def ras_node_capacity(slots_per_node: int, slot_memory_mb: float) -> dict[str, Any]:
    """storm.yaml keys of the supervisors as docs/seed-specs.md §1.10 sizes them for RAS: per node
    slots x 100 % CPU and slots x the slot memory. Only RAS reads them, so other topologies of the
    cluster are unaffected."""
    return {"supervisor.cpu.capacity": 100.0 * slots_per_node,
            "supervisor.memory.capacity.mb": float(slot_memory_mb * slots_per_node)}
