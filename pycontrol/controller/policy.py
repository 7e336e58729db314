"""Per-topology control policy, read from a YAML file; every mistake is named with its place.

    cycle_s: 5                      # one control cycle (OTD's adjustment cycle)
    stale_windows: 3                # metrics older than this many windows are refused (never acted on)
    verify_timeout_s: 120           # a written plan must be decided and visible in the placement by then
    planner_timeout_s: 60           # one run of a Java scheduler core
    defaults:                       # applies to every topology not listed, and under each listed one
      policy: otd
      safety: {dry_run: false, max_moves_per_cycle: 1, cooldown_s: 10, hysteresis_s: 120}
    topologies:
      wordcount:
        policy: otd
        params: {high_cpu: 0.8, low_cpu: 0.5, threshold_asc: 10}
        safety: {dry_run: true}

Policies: `otd` (one OTD round per cycle, the Java core), `aniello-online` (Aniello et al.'s online
scheduler, the Java core; its plan is applied a few moves per cycle, best first), `mba-sam` (the
Java SAM core with model-based allocations), `plan-only` (the controller observes and explains, moves
come from operator commands only), `off` (the topology is ignored). `params` are the policy's own
(PARAM_KEYS below); `node_cpu_background: false` makes the planners ignore CPU used by other processes
on a node (for local clusters whose "nodes" share one machine).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

import yaml

from pycontrol.controller.safety import SafetyLimits
from pycontrol.errors import UserError

POLICIES = ("otd", "aniello-online", "mba-sam", "plan-only", "off")

# Keys each policy reads from `params`; anything else is a mistake, named at load time rather than
# failing every cycle in the planner. `node_cpu_background` is the controller's own (see above).
_PLANNER_COMMON = {"node_cpu_background"}
# OTD's own parameters, passed to the Java planner as they are (PlanInputReader's "otd" object).
OTD_KEYS = ("high_cpu", "low_cpu", "high_queue", "low_queue", "threshold_asc", "max_executors_per_worker",
            "may_take_last_executor", "relieve_within_node")
PARAM_KEYS: dict[str, set[str]] = {
    "otd": set(OTD_KEYS) | _PLANNER_COMMON,
    "aniello-online": {"alpha", "beta", "min_inter_node_tuples_per_s"} | _PLANNER_COMMON,
    "mba-sam": {"allocation", "min_inter_node_tuples_per_s"} | _PLANNER_COMMON,
    "plan-only": set(),
    "off": set(),
}


@dataclass(frozen=True)
class TopologyPolicy:
    policy: str = "otd"
    params: dict[str, Any] = field(default_factory=dict)
    safety: SafetyLimits = field(default_factory=SafetyLimits)


@dataclass(frozen=True)
class ControllerConfig:
    cycle_s: float = 5.0
    defaults: TopologyPolicy = field(default_factory=TopologyPolicy)
    topologies: dict[str, TopologyPolicy] = field(default_factory=dict)
    stale_windows: float = 3.0
    verify_timeout_s: float = 120.0
    planner_timeout_s: float = 60.0

    def for_topology(self, name: str) -> TopologyPolicy:
        return self.topologies.get(name, self.defaults)


def _check_keys(d: dict, allowed: set[str], where: str) -> None:
    unknown = sorted(set(d) - allowed)
    if unknown:
        raise UserError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(allowed)}")


def _policy(d: Any, base: TopologyPolicy, where: str) -> TopologyPolicy:
    if d is None:
        return base
    if not isinstance(d, dict):
        raise UserError(f"{where}: expected a mapping, got {type(d).__name__}")
    _check_keys(d, {"policy", "params", "safety"}, where)
    name = d.get("policy", base.policy)
    if name not in POLICIES:
        raise UserError(f"{where}.policy: '{name}' is not one of {', '.join(POLICIES)}")
    params = d.get("params", {})
    if not isinstance(params, dict):
        raise UserError(f"{where}.params: expected a mapping")
    _check_keys(params, PARAM_KEYS[name], f"{where}.params (policy {name})")
    safety_d = d.get("safety", {}) or {}
    if not isinstance(safety_d, dict):
        raise UserError(f"{where}.safety: expected a mapping")
    _check_keys(safety_d, {f.name for f in fields(SafetyLimits)}, f"{where}.safety")
    merged = {f.name: getattr(base.safety, f.name) for f in fields(SafetyLimits)} | safety_d
    try:
        safety = SafetyLimits(**merged)
    except (TypeError, ValueError) as e:
        raise UserError(f"{where}.safety: {e}") from e
    return TopologyPolicy(name, {**base.params, **params} if name == base.policy else dict(params), safety)


def parse(data: Any, where: str = "config") -> ControllerConfig:
    if data is None:
        return ControllerConfig()
    if not isinstance(data, dict):
        raise UserError(f"{where}: expected a mapping at the top level")
    _check_keys(data, {"cycle_s", "defaults", "topologies", "stale_windows", "verify_timeout_s",
                       "planner_timeout_s"}, where)
    cycle, stale, verify, planner = (_positive(data, k, where, dflt) for k, dflt in (
        ("cycle_s", 5.0), ("stale_windows", 3.0), ("verify_timeout_s", 120.0), ("planner_timeout_s", 60.0)))
    defaults = _policy(data.get("defaults"), TopologyPolicy(), f"{where}.defaults")
    tops = data.get("topologies") or {}
    if not isinstance(tops, dict):
        raise UserError(f"{where}.topologies: expected a mapping of topology name to policy")
    return ControllerConfig(cycle, defaults,
                            {str(k): _policy(v, defaults, f"{where}.topologies.{k}") for k, v in tops.items()},
                            stale, verify, planner)


def _positive(data: dict, key: str, where: str, default: float) -> float:
    v = data.get(key, default)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v <= 0:
        raise UserError(f"{where}.{key}: must be a positive number, got {v!r}")
    return float(v)


def load(path: Path) -> ControllerConfig:
    try:
        data = yaml.safe_load(Path(path).read_text())
    except OSError as e:
        raise UserError(f"cannot read controller config {path}: {e.strerror}") from e
    except yaml.YAMLError as e:
        raise UserError(f"{path} is not valid YAML: {e}") from e
    return parse(data, where=str(path))
