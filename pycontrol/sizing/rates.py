"""GetRate (seed 002 §6): the input rate each task sees when the DAG receives Ω tuples/s.

    ω_j = Ω                      if t_j has no in-edge
    ω_j = Σ_{e_ij} ω_i · σ_ij    otherwise

evaluated in topological order. Every source task gets the whole Ω; out-edges duplicate the
output and inputs interleave, so with σ = 1 a task with two in-edges sees twice the rate.
"""

from __future__ import annotations

import math

from pycontrol.sizing.dag import Dag
from pycontrol.sizing.errors import SizingError


def check_rate(omega: float, *, allow_zero: bool = True) -> float:
    """`omega` as a float, or a SizingError if it is not a usable DAG input rate."""
    if isinstance(omega, bool) or not isinstance(omega, (int, float)) or not math.isfinite(omega):
        raise SizingError(f"input rate must be a finite number of tuples/s, got {omega!r}")
    if omega < 0 or (omega == 0 and not allow_zero):
        bound = ">= 0" if allow_zero else "> 0"
        raise SizingError(f"input rate must be {bound} tuples/s, got {omega:g}")
    return float(omega)


def get_rates(dag: Dag, omega: float) -> dict[str, float]:
    """Input rate ω_i of every task (tuples/s), in topological order."""
    omega = check_rate(omega)
    rates: dict[str, float] = {}
    for name in dag.topological_order:
        incoming = dag.in_edges(name)
        rates[name] = omega if not incoming else math.fsum(
            rates[e.source] * e.selectivity for e in incoming)
    return rates


def get_rate(dag: Dag, task: str, omega: float) -> float:
    """GetRate(G, t, Ω) for one task."""
    dag.task(task)  # a clear error for an unknown name
    return get_rates(dag, omega)[task]


def rate_factors(dag: Dag) -> dict[str, float]:
    """ω_i / Ω per task: rates are linear in Ω, so this turns a task rate back into a DAG rate."""
    return get_rates(dag, 1.0)
