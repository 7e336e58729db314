"""Thread and slot allocation for a DAG at input rate Ω (seed 002 §6): LSA (Alg. 2) and MBA (Alg. 3).

Both give, per task, the thread count τ_i and the CPU c_i and memory m_i (fractions of one slot)
those threads need, and for the DAG the slot count

    ρ = max(⌈Σ_i c_i⌉, ⌈Σ_i m_i⌉).

LSA assumes one thread's rate and resources scale linearly with threads: τ = ⌈ω/ω̄⌉,
c = C(1)·ω/ω̄, m = M(1)·ω/ω̄. MBA fills whole slots with bundles of τ̂ threads that reach the
slot's best rate ω̂, charges each bundle the whole slot (1.0 CPU, 1.0 memory), and sizes the
rest of the rate from the model: C(T(ω)), M(T(ω)), or 1 thread's values scaled down.

Tasks with a static model (source, sink) get their fixed allocation. By default they are NOT
summed into ρ: the paper's own totals leave them out (LSA's Linear DAG at 50 t/s is ⌈6.23⌉ with
Blob alone at 5.98 memory, which the source and sink's 0.35 would exceed; LSA's planned rate of
160 t/s on 20 slots also only holds without them). `count_static=True` sums them in.

A task whose input rate is 0 still gets 1 thread (Storm needs an executor per component), charged
nothing.

JSON form (`Allocation.to_json`, what `pycontrol allocate --json` prints; the slot-aware (SAM)
scheduler gets its own form, `nonstop.sam.allocation`, from `pycontrol.sizing.deploy.sam_settings`):

    {"version": 1, "allocator": "mba", "dag": "linear", "rate": 50.0,
     "threads": {"source": 1, "X": 1, "B": 80, ...},            # τ_i
     "cpu":     {"source": 0.1, "X": 0.1371, "B": 1.3, ...},     # c_i, fraction of a slot
     "memory":  {"source": 0.15, "X": 0.0371, "B": 1.28, ...},  # m_i, fraction of a slot
     "bundles": {"source": null, "X": 1, "B": 50, ...},          # τ̂_i; null: never a full bundle
     "bundle_rates": {"source": null, "X": 310.0, "B": 30.0},    # ω̂_i, tuples/s
     "input_rates": {"source": 50.0, "X": 50.0, ...},            # ω_i from GetRate
     "counted": ["X", "P", ...],                                 # tasks summed into ρ
     "totals": {"cpu": 3.2299, "memory": 2.4266},                # sums over `counted`
     "slots": 4}                                                 # ρ
(`pycontrol allocate --json` adds "vms": [{"name": "D3", "slots": 4}], see `vms`.)

Ready to use: `allocate(dag, models, omega, "mba")`; VM acquisition is `pycontrol.sizing.vms`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pycontrol.sizing.dag import Dag
from pycontrol.sizing.errors import SizingError
from pycontrol.sizing.models import ModelSet, StaticModel, TableModel, TaskModel, at_least
from pycontrol.sizing.rates import check_rate, get_rates

JSON_VERSION = 1


@dataclass(frozen=True)
class TaskSizing:
    """Threads and resources for one task's input rate (τ, c, m of the paper)."""

    threads: int
    cpu: float
    memory: float


@dataclass(frozen=True)
class TaskAllocation:
    task: str
    model: str
    input_rate: float
    threads: int
    cpu: float
    memory: float
    bundle_threads: int | None  # τ̂; None for static tasks (never a full bundle)
    bundle_rate: float | None   # ω̂
    static: bool


@dataclass(frozen=True)
class Allocation:
    allocator: str
    dag: str
    rate: float
    tasks: Mapping[str, TaskAllocation]  # in topological order
    count_static: bool

    @property
    def counted(self) -> tuple[str, ...]:
        """Tasks whose resources make up ρ."""
        return tuple(n for n, a in self.tasks.items() if self.count_static or not a.static)

    @property
    def cpu_total(self) -> float:
        return math.fsum(self.tasks[n].cpu for n in self.counted)

    @property
    def memory_total(self) -> float:
        return math.fsum(self.tasks[n].memory for n in self.counted)

    @property
    def slots(self) -> int:
        """ρ = max(⌈Σ c⌉, ⌈Σ m⌉)."""
        return slots_for(self.cpu_total, self.memory_total)

    @property
    def total_threads(self) -> int:
        return sum(a.threads for a in self.tasks.values())

    def to_json(self) -> dict[str, Any]:
        t = self.tasks
        return {
            "version": JSON_VERSION,
            "allocator": self.allocator,
            "dag": self.dag,
            "rate": self.rate,
            "threads": {n: a.threads for n, a in t.items()},
            "cpu": {n: round(a.cpu, 6) for n, a in t.items()},
            "memory": {n: round(a.memory, 6) for n, a in t.items()},
            "bundles": {n: a.bundle_threads for n, a in t.items()},
            "bundle_rates": {n: a.bundle_rate for n, a in t.items()},
            "input_rates": {n: a.input_rate for n, a in t.items()},
            "counted": list(self.counted),
            "totals": {"cpu": round(self.cpu_total, 6), "memory": round(self.memory_total, 6)},
            "slots": self.slots,
        }


def slots_for(cpu: float, memory: float) -> int:
    """max(⌈cpu⌉, ⌈memory⌉), not rounding float noise (3.0000000001) up to a whole extra slot."""
    return max(_ceil(cpu), _ceil(memory), 0)


def _ceil(x: float) -> int:
    return math.ceil(x - 1e-9 * max(1.0, abs(x)))


def _whole_times(rate: float, unit: float) -> int:
    """How many whole `unit`s fit in `rate` (the loop count of Alg. 2/3's while-loop)."""
    n = math.floor(rate / unit)
    return n + 1 if at_least(rate, (n + 1) * unit) else n


def lsa_task(model: TableModel, rate: float) -> TaskSizing:
    """Algorithm 2 for one task: whole threads at ω̄ = I(1), a last thread scaled down."""
    w_bar, c1, m1 = model.peak_rate(1), model.cpu(1), model.memory(1)
    full = _whole_times(rate, w_bar)
    residual = rate - full * w_bar
    threads, cpu, memory = full, full * c1, full * m1
    if residual > 0 and not at_least(0.0, residual):
        threads += 1
        cpu += c1 * residual / w_bar
        memory += m1 * residual / w_bar
    return TaskSizing(threads, cpu, memory)


def mba_task(model: TableModel, rate: float) -> TaskSizing:
    """Algorithm 3 for one task: full bundles of τ̂ threads at 1.0 slot each, the rest from the model."""
    w_hat, tau_hat = model.best_rate, model.bundle_threads
    bundles = _whole_times(rate, w_hat)
    residual = rate - bundles * w_hat
    threads, cpu, memory = bundles * tau_hat, float(bundles), float(bundles)
    if residual > 0 and not at_least(0.0, residual):
        extra = model.threads_for(residual)
        threads += extra
        if extra > 1:
            cpu += model.cpu(extra)
            memory += model.memory(extra)
        else:
            cpu += model.cpu(1) * residual / model.peak_rate(1)
            memory += model.memory(1) * residual / model.peak_rate(1)
    return TaskSizing(threads, cpu, memory)


TaskSizer = Callable[[TableModel, float], TaskSizing]
ALLOCATORS: Mapping[str, TaskSizer] = {"lsa": lsa_task, "mba": mba_task}


def allocate(dag: Dag, models: ModelSet, omega: float, allocator: str, *,
             count_static: bool = False) -> Allocation:
    """Run LSA or MBA (`allocator` = "lsa" | "mba") over every task of the DAG at rate Ω."""
    sizer = ALLOCATORS.get(allocator)
    if sizer is None:
        raise SizingError(f"unknown allocator {allocator!r} (known: {', '.join(ALLOCATORS)})")
    omega = check_rate(omega, allow_zero=False)
    rates = get_rates(dag, omega)
    out: dict[str, TaskAllocation] = {}
    for name in dag.topological_order:
        task_model = models.require(dag.task(name).model, task=name)
        out[name] = _allocate_task(name, task_model, rates[name], sizer)
    return Allocation(allocator, dag.name, omega, out, count_static)


def _allocate_task(name: str, model: TaskModel, rate: float, sizer: TaskSizer) -> TaskAllocation:
    if isinstance(model, StaticModel):
        return TaskAllocation(name, model.name, rate, model.threads, model.cpu, model.memory,
                              None, None, static=True)
    if rate > 0 and not at_least(0.0, rate):
        sizing = sizer(model, rate)
    else:
        sizing = TaskSizing(1, 0.0, 0.0)  # Storm still needs one executor
    return TaskAllocation(name, model.name, rate, sizing.threads, sizing.cpu, sizing.memory,
                          model.bundle_threads, model.best_rate, static=False)


def allocate_lsa(dag: Dag, models: ModelSet, omega: float, *,
                 count_static: bool = False) -> Allocation:
    return allocate(dag, models, omega, "lsa", count_static=count_static)


def allocate_mba(dag: Dag, models: ModelSet, omega: float, *,
                 count_static: bool = False) -> Allocation:
    return allocate(dag, models, omega, "mba", count_static=count_static)


def planned_rate(dag: Dag, models: ModelSet, allocator: str, slots: int, *, step: float = 10.0,
                 count_static: bool = False, max_steps: int = 100_000) -> float:
    """The paper's planned rate (§8.5): raise Ω in `step`s while the allocation fits in `slots`.

    Returns the last Ω that fitted (0.0 if even one step does not). Allocation only: a
    resource-aware mapper may need more slots than ρ, which this does not see.
    """
    if slots < 0:
        raise SizingError(f"slot count must be >= 0, got {slots}")
    step = check_rate(step, allow_zero=False)
    best = 0.0
    for k in range(1, max_steps + 1):
        if allocate(dag, models, k * step, allocator, count_static=count_static).slots > slots:
            return best
        best = k * step
    raise SizingError(f"DAG {dag.name!r} still fits {slots} slots at {best:g} t/s: its counted "
                      f"tasks use no resources that grow with the rate")
