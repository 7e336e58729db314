"""The controller's own Prometheus metrics (names documented in pycontrol/metrics/PROMETHEUS.md).
One registry per daemon; served on loopback unless told otherwise."""

from __future__ import annotations

import contextlib
import time

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, start_http_server

from pycontrol.controller.decisions import KINDS
from pycontrol.controller.realize import OUTCOMES
from pycontrol.controller.safety import REASON_KINDS
from pycontrol.errors import UserError

PHASES = ("collect", "evaluate", "plan", "gate", "realize", "verify")
DEFAULT_PORT = 9466   # next to the metrics plane's exporter (9465)


class ControllerMetrics:
    def __init__(self, registry: CollectorRegistry | None = None):
        self.registry = r = registry or CollectorRegistry()
        self.cycles = Counter("nonstop_controller_cycles", "Control cycles run as the leader", registry=r)
        self.is_leader = Gauge("nonstop_controller_is_leader", "1 while this controller holds the lead",
                               registry=r)
        self.paused = Gauge("nonstop_controller_paused", "1 while the controller is paused", registry=r)
        self.dry_run = Gauge("nonstop_controller_dry_run", "1 if the topology's moves are only suggested",
                             ["topology"], registry=r)
        self.decisions = Counter("nonstop_controller_decisions", "Decisions per topology and kind",
                                 ["topology", "kind"], registry=r)
        self.planned_moves = Counter("nonstop_controller_planned_moves", "Moves the planner proposed",
                                     ["topology", "policy"], registry=r)
        self.applied_moves = Counter("nonstop_controller_applied_moves",
                                     "Moves applied and seen in the placement", ["topology", "policy"], registry=r)
        self.blocked_moves = Counter("nonstop_controller_blocked_moves", "Planned moves the safety gate held",
                                     ["topology", "reason"], registry=r)
        self.actions = Counter("nonstop_controller_actions", "Actions sent to the cluster, by outcome",
                               ["topology", "outcome"], registry=r)
        self.predicted_gain = Gauge("nonstop_controller_predicted_gain_tuples_per_second",
                                    "Inter-node tuples/s the last applied action was predicted to save",
                                    ["topology"], registry=r)
        self.measured_gain = Gauge("nonstop_controller_measured_gain_tuples_per_second",
                                   "Inter-node tuples/s the last applied action saved, measured after it",
                                   ["topology"], registry=r)
        self.phase_seconds = Histogram("nonstop_controller_phase_seconds", "Seconds spent per loop phase",
                                       ["phase"], registry=r,
                                       buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120))
        self.collect_failures = Counter("nonstop_controller_collect_failures",
                                        "Cycles without data: the REST API or ZooKeeper stayed unreadable",
                                        registry=r)
        self.fenced_cycles = Counter("nonstop_controller_fenced_cycles",
                                     "Cycles cut short: another controller leads, or the state changed under "
                                     "the cycle (an operator's pause)", registry=r)
        self.last_cycle = Gauge("nonstop_controller_last_cycle_timestamp_seconds",
                                "When the last cycle finished", registry=r)
        for p in PHASES:
            self.phase_seconds.labels(p)

    def track(self, topology: str, policy: str) -> None:
        """Creates the topology's labelled counters at 0 the first time it is seen, so they are exported
        before their first event: rate()/increase() then count that first event, and a dashboard shows
        0 instead of nothing. Gauges whose value is not known yet (the gains) stay absent."""
        for kind in KINDS:
            self.decisions.labels(topology, kind)
        self.planned_moves.labels(topology, policy)
        self.applied_moves.labels(topology, policy)
        for reason in REASON_KINDS:
            self.blocked_moves.labels(topology, reason)
        for outcome in OUTCOMES:
            self.actions.labels(topology, outcome)

    def _per_topology(self):
        """Each metric labelled by topology, with its label names (topology first)."""
        return ((self.dry_run, ("topology",)), (self.decisions, ("topology", "kind")),
                (self.planned_moves, ("topology", "policy")), (self.applied_moves, ("topology", "policy")),
                (self.blocked_moves, ("topology", "reason")), (self.actions, ("topology", "outcome")),
                (self.predicted_gain, ("topology",)), (self.measured_gain, ("topology",)))

    @staticmethod
    def _children(metric, names: tuple[str, ...]) -> set[tuple[str, ...]]:
        """The label values of a labelled metric's children, in label order (as remove() takes them)."""
        return {tuple(s.labels[n] for n in names) for family in metric.collect() for s in family.samples}

    def topologies(self) -> set[str]:
        """Every topology with a series here."""
        return {values[0] for m, names in self._per_topology() for values in self._children(m, names)}

    def forget(self, topology: str) -> int:
        """Removes the topology's series (it is no longer running); returns how many."""
        removed = 0
        for m, names in self._per_topology():
            for values in self._children(m, names):
                if values[0] == topology:
                    m.remove(*values)
                    removed += 1
        return removed

    @contextlib.contextmanager
    def time(self, phase: str):
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.phase_seconds.labels(phase).observe(time.perf_counter() - t0)


def serve(metrics: ControllerMetrics, host: str = "127.0.0.1", port: int = DEFAULT_PORT):
    try:
        return start_http_server(port, addr=host, registry=metrics.registry)
    except OSError as e:
        raise UserError(f"cannot serve controller metrics on {host}:{port}: {e.strerror or e}") from e
