"""One control cycle: collect -> model -> evaluate -> plan -> safety gate -> realize -> verify, and the
measured gain of the last action once the metrics show only the new placement.

Every dependency is injected (model source, planners, realizer, state store, decision sink, clock,
metrics), so each part is tested alone with small fakes and the cycle replays deterministically.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace

from kazoo.exceptions import KazooException

from pycontrol.controller import snapshot
from pycontrol.controller.actions import Move
from pycontrol.controller.clock import Clock
from pycontrol.controller.decisions import (APPLIED, DRY_RUN, ERROR, HELD, NO_ACTION, REFUSED, ControllerDecisionRecord,
                                            moves_dicts)
from pycontrol.controller.evaluate import EvalSettings, Evaluation, evaluate
from pycontrol.controller.planner import MovePlanner, PlanningError
from pycontrol.controller.policy import ControllerConfig, TopologyPolicy
from pycontrol.controller.prom import ControllerMetrics
from pycontrol.controller.realize import Realizer, StateStoreLike
from pycontrol.controller.safety import gate, reason_kind
from pycontrol.controller.source import ModelSource
from pycontrol.controller.state_store import ControllerState, Deposed, FencedOut
from pycontrol.model.live import LiveModel
from pycontrol.storm.rest import RestError

log = logging.getLogger(__name__)


@dataclass
class Expectation:
    cycle: int
    converged_at: float
    share_before: float | None
    total_before: float
    predicted_gain: float | None
    cycles_waited: int = 0


class GainTracker:
    """Measures what an applied action saved, once every metrics window the model is built from began
    after the placement converged. Rates drift, so the gain is the drop in the inter-node *share*
    scaled to the traffic at decision time: (share_before - share_after) x tuples/s before."""

    def __init__(self, give_up_after_cycles: int = 20):
        self.give_up_after_cycles = give_up_after_cycles
        self.waiting: dict[str, Expectation] = {}

    def expect(self, topology: str, e: Expectation) -> None:
        self.waiting[topology] = e

    def measure(self, topology: str, ev: Evaluation) -> dict | None:
        e = self.waiting.get(topology)
        if e is None:
            return None
        if ev.refused or ev.oldest_window_start_s is None or ev.oldest_window_start_s < e.converged_at:
            e.cycles_waited += 1
            if e.cycles_waited > self.give_up_after_cycles:
                log.warning("%s: no clean metrics window after cycle %d's action; its gain is not measured",
                            topology, e.cycle)
                del self.waiting[topology]
            return None
        del self.waiting[topology]
        if e.share_before is None or ev.inter_node_share is None:
            return None
        return {"cycle": e.cycle, "predicted_gain": e.predicted_gain,
                "measured_gain": round((e.share_before - ev.inter_node_share) * e.total_before, 3),
                "inter_node_share_before": e.share_before, "inter_node_share_after": ev.inter_node_share}


class NullSink:
    def publish(self, records: list[ControllerDecisionRecord]) -> None:
        pass


class ControlLoop:
    def __init__(self, config: ControllerConfig, source: ModelSource, planners: Mapping[str, MovePlanner],
                 realizer: Realizer, store: StateStoreLike, clock: Clock, metrics: ControllerMetrics | None = None,
                 sink=None, force_dry_run: bool = False):
        self.config = config
        self.source = source
        self.planners = planners
        self.realizer = realizer
        self.store = store
        self.clock = clock
        self.metrics = metrics or ControllerMetrics()
        self.sink = sink or NullSink()
        self.force_dry_run = force_dry_run
        self.gains = GainTracker()
        self.cycle_no = 0
        self.last_collect_error: str | None = None
        self._unreadable_logged: dict[str, int] = {}   # topology -> the state version last reported

    # --- settings per topology ---------------------------------------------------------------------
    def limits(self, policy: TopologyPolicy):
        return replace(policy.safety, dry_run=True) if self.force_dry_run else policy.safety

    def eval_settings(self, policy: TopologyPolicy) -> EvalSettings:
        p = policy.params
        floor = p.get("threshold_asc", 10.0) if policy.policy == "otd" else p.get("min_inter_node_tuples_per_s", 10.0)
        return EvalSettings(stale_windows=self.config.stale_windows, min_inter_node_tuples_per_s=float(floor),
                            high_share=float(p.get("high_cpu", 0.8)),
                            count_background=bool(p.get("node_cpu_background", True)))

    def hysteresis(self, moves) -> dict[str, float]:
        return {m.topology: self.config.for_topology(m.topology).safety.hysteresis_s for m in moves}

    # --- the cycle ---------------------------------------------------------------------------------
    def cycle(self) -> list[ControllerDecisionRecord]:
        """One cycle. Raises FencedOut if the state changed under it (another controller, or an operator
        command such as pause): nothing it had not already written-ahead is applied."""
        state, version = self.store.load()
        self.cycle_no = n = max(self.cycle_no, state.cycle) + 1
        self.metrics.paused.set(1 if state.paused else 0)
        try:
            if state.pending is not None:
                if state.paused:
                    log.info("cycle %d: the action of cycle %d is pending; paused, so it waits", n,
                             state.pending.cycle)
                else:
                    self._recover(state, version)
                    return []
            with self.metrics.time("collect"):
                got = self.source.collect()
            self.last_collect_error = got.error
            if got.error:
                self.metrics.collect_failures.inc()
                log.warning("cycle %d: data incomplete after %d attempt(s): %s", n, got.attempts, got.error)
            records, allowed, evals = self._decide_all(n, got.models, state, version)
            if allowed:
                self._realize(n, state, version, records, allowed, evals)
            self._prune(n)
            return records
        finally:
            self.metrics.cycles.inc()
            self.metrics.last_cycle.set(self.clock.now())

    def _recover(self, state: ControllerState, version: int) -> None:
        pending = state.pending
        _, _, outcomes = self.realizer.recover(state, version, self.hysteresis(pending.moves))
        for o in outcomes:
            self.metrics.actions.labels(o.topology, o.status).inc()
            log.warning("recovered action of cycle %d: %s", pending.cycle, o.line())

    def _decide_all(self, n: int, models: list[LiveModel], state: ControllerState, version: int):
        records: list[ControllerDecisionRecord] = []
        allowed: list[Move] = []
        evals: dict[str, Evaluation] = {}
        now = self.clock.now()
        for model in sorted(models, key=lambda m: m.name):
            policy = self.config.for_topology(model.name)
            if policy.policy == "off":
                log.debug("cycle %d: %s: policy off", n, model.name)
                continue
            if model.name in state.broken:
                records.append(self._unreadable(n, now, model.name, policy, state, version))
                continue
            rec, ev, moves = self._decide(n, now, model, policy, state)
            records.append(rec)
            evals[model.name] = ev
            allowed.extend(moves)
        for r in records:
            if r.kind != APPLIED:
                self._publish(r)
        return records, allowed, evals

    def _unreadable(self, n: int, now: float, topo: str, policy: TopologyPolicy, state: ControllerState,
                    version: int) -> ControllerDecisionRecord:
        """A topology whose entry in the controller state does not parse: an error, no action on it (its
        cooldown and hysteresis memory is unknown), and the entry is kept as stored."""
        why = state.broken[topo][1]
        if self._unreadable_logged.get(topo) != version:   # once per state version, not every cycle
            self._unreadable_logged[topo] = version
            log.warning("cycle %d: %s: its entry in the controller state (v%d) is malformed: %s", n, topo, version, why)
        self.metrics.track(topo, policy.policy)
        return ControllerDecisionRecord(n, now, topo, policy.policy, ERROR, f"controller state entry unreadable: {why}")

    def _decide(self, n: int, now: float, model: LiveModel, policy: TopologyPolicy,
                state: ControllerState) -> tuple[ControllerDecisionRecord, Evaluation, list[Move]]:
        topo, limits = model.name, self.limits(policy)
        self.metrics.track(topo, policy.policy)
        self.metrics.dry_run.labels(topo).set(1 if limits.dry_run else 0)
        safety = state.safety_for(topo)
        with self.metrics.time("evaluate"):
            ev = evaluate(model, now, self.eval_settings(policy), settled_at_s=safety.last_action_at)
        rec = ControllerDecisionRecord(n, now, topo, policy.policy, NO_ACTION, ev.summary(), ev.to_dict())
        rec.measured = self.gains.measure(topo, ev)
        if rec.measured is not None:
            self.metrics.measured_gain.labels(topo).set(rec.measured["measured_gain"])
        if ev.refused:
            rec.kind = REFUSED
            return rec, ev, []
        if policy.policy == "plan-only":
            rec.reason = f"{ev.summary()}; policy plan-only: moves come from operator commands only"
            return rec, ev, []
        if not ev.worth_planning:
            return rec, ev, []
        # Recently moved executors (hysteresis), and those Nimbus would refuse to move live (the topology pins
        # them, or their state cannot survive a live move).
        pinned = {k.split("/", 1)[1] for k, mem in safety.recent.items() if now - mem.at < limits.hysteresis_s}
        pinned |= model.unmovable_executors()
        try:
            with self.metrics.time("plan"):
                plan = self.planners[policy.policy].plan(model, policy, pinned)
        except PlanningError as e:
            rec.kind, rec.reason = ERROR, f"{ev.summary()}; planning failed: {e}"
            return rec, ev, []
        self.metrics.planned_moves.labels(topo, policy.policy).inc(len(plan.moves))
        rec.planned = moves_dicts(plan.moves)
        rec.reason = f"{ev.summary()}; {plan.note}"
        if not plan.moves:
            return rec, ev, []
        with self.metrics.time("gate"):
            verdict = gate(plan.moves, safety, limits, now)
        rec.suppressed = [{"move": m.to_dict(), "reason": r} for m, r in verdict.suppressed]
        for _, r in verdict.suppressed:
            self.metrics.blocked_moves.labels(topo, reason_kind(r)).inc()
        would = verdict.allowed or [m for m, r in verdict.suppressed if r == "dry-run"]
        if would:
            rec.predicted_gain = round(snapshot.gain_of(model, {m.executor: m.to_slot for m in would}), 3)
        rec.applied = moves_dicts(verdict.allowed)
        rec.kind = APPLIED if verdict.allowed else DRY_RUN if would else HELD
        return rec, ev, list(verdict.allowed)

    def _realize(self, n: int, state: ControllerState, version: int, records: list[ControllerDecisionRecord],
                 allowed: list[Move], evals: dict[str, Evaluation]) -> None:
        acting = [r for r in records if r.kind == APPLIED]
        try:
            _, _, outcomes = self.realizer.realize(state, version, n, allowed, self.hysteresis(allowed))
        except Deposed as e:
            # Not an error of these topologies, and no record from us: the leader reports on them now.
            log.warning("cycle %d: deposed; the action on %s is left to the leader: %s", n,
                        ", ".join(r.topology for r in acting), e)
            raise
        except FencedOut as e:
            for r in acting:
                r.kind, r.outcome = ERROR, f"not applied: {e}"
                self._publish(r)
            raise
        by_topo = {o.topology: o for o in outcomes}
        for r in acting:
            o = by_topo[r.topology]
            r.outcome = o.line()
            self.metrics.actions.labels(r.topology, o.status).inc()
            if o.ok:
                self.metrics.applied_moves.labels(r.topology, r.policy).inc(len(r.applied))
                if r.predicted_gain is not None:
                    self.metrics.predicted_gain.labels(r.topology).set(r.predicted_gain)
                ev = evals[r.topology]
                self.gains.expect(r.topology, Expectation(n, o.converged_at or self.clock.now(), ev.inter_node_share,
                                                          ev.total_tuples_per_s, r.predicted_gain))
            self._publish(r)

    def _prune(self, n: int) -> None:
        """Forgets topologies that are no longer running: their entries in the controller state, their
        Prometheus series, their plan and decision znodes. Only on a list of running topologies that was
        read successfully, and never while an action is pending (its recovery needs the entries)."""
        if not self.realizer.leading():
            return
        try:
            running = {t["name"] for t in self.realizer.io.topologies()}
            recorded = set(self.realizer.io.recorded_topologies())
        except (RestError, KazooException) as e:
            log.info("cycle %d: not pruning: the running topologies are unknown (%s)", n, e)
            return
        state, version = self.store.load()
        if state.pending is not None:
            return
        gone = (state.known() | self.metrics.topologies() | set(self.gains.waiting) | recorded) - running
        if not gone:
            return
        if state.known() & gone:
            self.store.save(state.without(gone), version)   # FencedOut if another controller wrote meanwhile
        for topo in sorted(gone):
            series = self.metrics.forget(topo)
            self.gains.waiting.pop(topo, None)
            self._unreadable_logged.pop(topo, None)
            try:
                removed = self.realizer.io.remove_documents(topo)
            except KazooException as e:   # still recorded: the next cycle tries again
                log.warning("cycle %d: could not remove the znodes of %s: %r", n, topo, e)
                continue
            log.info("cycle %d: %s is no longer running: forgot its state, %d series and %s", n, topo, series,
                     ", ".join(removed) or "no znodes")

    def _publish(self, r: ControllerDecisionRecord) -> None:
        self.metrics.decisions.labels(r.topology, r.kind).inc()
        log.info("%s", r.line())
        self.sink.publish([r])
