"""Whole cycles with small fakes: a cluster that applies plans, a planner that returns set moves, the
real state store over an in-memory ZooKeeper, and a manual clock."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pycontrol import zk
from pycontrol.controller import policy
from pycontrol.controller.actions import Move
from pycontrol.controller.clock import ManualClock
from pycontrol.controller.loop import ControlLoop
from pycontrol.controller.prom import ControllerMetrics
from pycontrol.controller.realize import Realizer
from pycontrol.controller.source import ModelSource
from pycontrol.controller.state_store import Deposed, FencedOut, StateStore
from pycontrol.model.live import STATUS_STALE
from tests.unit.controller.fakes import FakeCluster, FakeKazoo, FakePlanner, model

A, B = "h1:1", "h2:1"
TRAFFIC = {("[1,1]", "[2,2]"): 100.0, ("[1,1]", "[3,3]"): 100.0, ("[1,1]", "[4,4]"): 50.0}


class Sink:
    def __init__(self):
        self.records = []

    def publish(self, records):
        self.records += records


class Rig:
    """The loop over a fake cluster whose models follow the cluster's placement."""

    def __init__(self, cfg: dict, moves=None, planner: FakePlanner | None = None, **cluster_kw):
        self.cluster = FakeCluster({"wc": {"[1,1]": A, "[2,2]": A, "[3,3]": B, "[4,4]": B}}, **cluster_kw)
        self.clock = ManualClock(1000.0)
        self.store = StateStore(FakeKazoo(), "/ctl/state")
        self.planner = planner or FakePlanner(moves if moves is not None else [Move("wc", "[3,3]", B, A, "otd", 100.0)])
        self.metrics = ControllerMetrics()
        self.sink = Sink()
        self.model_kw: dict = {}
        self.collects = 0
        config = policy.parse(cfg)
        self.loop = ControlLoop(config, ModelSource(self.collect_all, self.clock, attempts=2), {"otd": self.planner},
                                Realizer(self.cluster, self.store, self.clock, verify_timeout_s=20), self.store,
                                self.clock, self.metrics, self.sink)

    def collect_all(self):
        self.collects += 1
        if "wc" not in self.cluster.placements:   # killed
            return []
        # Metrics documents of a 5 s window that ended 1 s ago.
        return [model(dict(self.cluster.placements["wc"]), TRAFFIC, now_s=self.clock.now(),
                      worker_load={A: 0.2, B: 0.2}, **self.model_kw)]

    def cycle(self, advance: float = 0.0):
        self.clock.advance(advance)
        return self.loop.cycle()

    def sample(self, name, **labels):
        return self.metrics.registry.get_sample_value(name, labels or None)


def cfg(**safety):
    return {"cycle_s": 5, "defaults": {"policy": "otd", "params": {"node_cpu_background": False},
                                       "safety": {"cooldown_s": 0, **safety}}}


def test_dry_run_explains_the_move_and_writes_nothing():
    rig = Rig(cfg(dry_run=True))
    (rec,) = rig.cycle()
    assert rec.kind == "dry-run" and rig.cluster.plans == []
    assert rec.planned[0]["executor"] == "[3,3]" and rec.suppressed[0]["reason"] == "dry-run"
    assert rec.predicted_gain == 100.0 and rec.applied == []
    assert rig.store.load()[0].log == () and rig.store.load()[0].pending is None
    assert rig.sample("nonstop_controller_decisions_total", topology="wc", kind="dry-run") == 1
    assert rig.sample("nonstop_controller_blocked_moves_total", topology="wc", reason="dry-run") == 1
    assert rig.sample("nonstop_controller_dry_run", topology="wc") == 1
    assert rig.sink.records == [rec]


def test_live_mode_applies_at_most_k_moves_and_records_the_outcome():
    moves = [Move("wc", "[3,3]", B, A, "p", 100.0), Move("wc", "[2,2]", A, B, "p", 1.0),
             Move("wc", "[1,1]", A, B, "p", 0.5)]
    rig = Rig(cfg(max_moves_per_cycle=2), moves)
    (rec,) = rig.cycle()
    assert rec.kind == "applied" and [m["executor"] for m in rec.applied] == ["[3,3]", "[2,2]"]
    assert rig.cluster.plans == [("wc", {"[3,3]": A, "[2,2]": B})]
    assert rec.suppressed == [{"move": moves[2].to_dict(), "reason": "cap of 2 move(s) per cycle"}]
    assert rec.outcome.startswith("wc: applied")
    assert rig.cluster.placements["wc"] == {"[1,1]": A, "[2,2]": B, "[3,3]": A, "[4,4]": B}
    state = rig.store.load()[0]
    assert state.pending is None and state.log[-1]["cycle"] == 1 and len(state.log[-1]["moves"]) == 2
    assert rig.sample("nonstop_controller_applied_moves_total", topology="wc", policy="otd") == 2
    assert rig.sample("nonstop_controller_planned_moves_total", topology="wc", policy="otd") == 3
    assert rig.sample("nonstop_controller_actions_total", topology="wc", outcome="applied") == 1


def test_after_a_move_windows_that_began_before_it_are_refused():
    rig = Rig(cfg())
    first = rig.cycle()[0]
    assert first.kind == "applied"
    settled = rig.store.load()[0].safety_for("wc").last_action_at
    early = rig.cycle(advance=5)[0]      # its window (5 s, ended 1 s ago) began before the move settled
    assert early.kind == "refused" and "began before the last move settled" in early.reason
    assert len(rig.planner.calls) == 1
    assert rig.clock.now() - 6 < settled
    assert rig.cycle(advance=5)[0].kind != "refused"


def test_cooldown_and_hysteresis_hold_the_next_moves_and_pin_moved_executors():
    rig = Rig(cfg(cooldown_s=20, hysteresis_s=100))
    assert rig.cycle()[0].kind == "applied"
    rig.planner.moves = [Move("wc", "[3,3]", A, B, "back", 100.0)]
    held = rig.cycle(advance=10)[0]
    assert held.kind == "held" and held.suppressed[0]["reason"].startswith("cooldown")
    again = rig.cycle(advance=10)[0]
    assert again.kind == "held"
    assert again.suppressed[0]["reason"] == "hysteresis: moved 20 s ago back to where it came from"
    assert rig.planner.calls[-1] == ("wc", {"[3,3]"})      # the planner is told not to move it
    assert len(rig.cluster.plans) == 1
    assert rig.sample("nonstop_controller_blocked_moves_total", topology="wc", reason="cooldown") == 1
    assert rig.sample("nonstop_controller_blocked_moves_total", topology="wc", reason="hysteresis") == 1


def test_executors_nimbus_would_not_move_live_are_pinned_for_the_planner():
    rig = Rig(cfg())
    rig.model_kw = {"components": {"[1,1]": "spout", "[2,2]": "state", "[3,3]": "state", "[4,4]": "sink"},
                    "unmovable": {"state": "in_memory_state: ...", "spout": "pinned: ..."}}
    rig.cycle()
    assert rig.planner.calls[-1] == ("wc", {"[1,1]", "[2,2]", "[3,3]"})


def test_pause_holds_every_move_until_resumed():
    rig = Rig(cfg())
    rig.store.update(lambda s: replace(s, paused=True))
    rec = rig.cycle()[0]
    assert rec.kind == "held" and rec.suppressed[0]["reason"] == "paused" and rig.cluster.plans == []
    assert rig.sample("nonstop_controller_paused") == 1
    rig.store.update(lambda s: replace(s, paused=False))
    assert rig.cycle()[0].kind == "applied" and rig.sample("nonstop_controller_paused") == 0


def test_stale_data_is_refused_and_never_planned_on():
    rig = Rig(cfg())
    rig.model_kw = {"worker_status": {B: STATUS_STALE}}
    rec = rig.cycle()[0]
    assert rec.kind == "refused" and "worker h2:1 has stale metrics" in rec.reason
    assert rig.planner.calls == [] and rig.cluster.plans == []


def test_unreadable_zookeeper_is_retried_then_refused():
    rig = Rig(cfg())
    rig.model_kw = {"errors": ["not connected to ZooKeeper z:1"]}
    t0 = rig.clock.now()
    rec = rig.cycle()[0]
    assert rig.collects == 2 and rig.clock.now() > t0        # retried after a backoff on the clock
    assert rec.kind == "refused" and "metrics unreadable" in rec.reason and rig.cluster.plans == []
    assert rig.sample("nonstop_controller_collect_failures_total") == 1


def test_balanced_topologies_and_plan_only_policies_are_not_planned():
    rig = Rig({"defaults": {"policy": "plan-only"}})
    rec = rig.cycle()[0]
    assert rec.kind == "no-action" and "plan-only" in rec.reason and rig.planner.calls == []
    rig = Rig(cfg())
    rig.cluster.placements["wc"] = {"[1,1]": A, "[2,2]": A, "[3,3]": A, "[4,4]": A}   # all traffic local
    rec = rig.cycle()[0]
    assert rec.kind == "no-action" and rec.reason.startswith("balanced") and rig.planner.calls == []
    rig = Rig({"defaults": {"policy": "off"}})
    assert rig.cycle() == []


def test_a_planner_failure_is_an_error_decision_and_the_loop_goes_on():
    rig = Rig(cfg(), planner=FakePlanner(error="the scheduling plugin's jars are missing"))
    rec = rig.cycle()[0]
    assert rec.kind == "error" and "planning failed: the scheduling plugin's jars are missing" in rec.reason
    assert rig.sample("nonstop_controller_decisions_total", topology="wc", kind="error") == 1


def test_a_pending_action_is_recovered_before_anything_new_is_planned():
    rig = Rig(cfg())
    state, version = rig.store.load()
    rig.store.save(state.begin(3, [Move("wc", "[2,2]", A, B)], 990.0), version)
    assert rig.cycle() == [] and rig.planner.calls == []
    assert rig.cluster.plans == [("wc", {"[2,2]": B})]
    state = rig.store.load()[0]
    assert state.pending is None and state.log[-1]["outcome"].startswith("recovered: wc: applied")
    assert rig.cycle()[0].cycle == 5      # numbering continues after the recorded cycle


def test_a_pending_action_waits_while_paused():
    rig = Rig(cfg())
    state, version = rig.store.load()
    rig.store.save(replace(state, paused=True).begin(3, [Move("wc", "[2,2]", A, B)], 990.0), version)
    rec = rig.cycle()[0]
    assert rec.kind == "held" and rig.cluster.plans == [] and rig.store.load()[0].pending is not None


def test_a_state_changed_mid_cycle_fences_the_cycle_out_before_any_plan():
    rig = Rig(cfg())
    real = rig.collect_all

    def collect_and_pause():
        rig.store.update(lambda s: replace(s, paused=True))   # an operator pauses while we collect
        return real()
    rig.loop.source.collect_all = collect_and_pause
    with pytest.raises(FencedOut):
        rig.cycle()
    assert rig.cluster.plans == [] and rig.sink.records[0].kind == "error"
    assert "not applied" in rig.sink.records[0].outcome


def test_the_gain_is_measured_once_the_windows_postdate_the_move():
    rig = Rig(cfg())
    rec = rig.cycle()[0]
    assert rec.kind == "applied" and rec.predicted_gain == 100.0
    # Moving [3,3] next to [1,1]: the inter-node share of 250 t/s drops from 0.6 to 0.2.
    assert rig.cycle(advance=2)[0].measured is None          # the window still began before the move
    later = rig.cycle(advance=10)[0]
    assert later.measured == {"cycle": 1, "predicted_gain": 100.0, "measured_gain": 100.0,
                              "inter_node_share_before": 0.6, "inter_node_share_after": 0.2}
    assert rig.sample("nonstop_controller_measured_gain_tuples_per_second", topology="wc") == 100.0
    assert rig.sample("nonstop_controller_predicted_gain_tuples_per_second", topology="wc") == 100.0
    assert rig.cycle(advance=10)[0].measured is None          # measured once


def test_a_topology_s_counters_are_exported_at_zero_from_its_first_cycle():
    rig = Rig(cfg())
    rig.cluster.placements["wc"] = {"[1,1]": A, "[2,2]": A, "[3,3]": A, "[4,4]": A}   # balanced: no move
    assert rig.sample("nonstop_controller_decisions_total", topology="wc", kind="applied") is None
    (rec,) = rig.cycle()
    assert rec.kind == "no-action"
    assert rig.sample("nonstop_controller_decisions_total", topology="wc", kind="no-action") == 1
    # Not happened yet, but exported, so increase() sees the first event and panels show 0.
    assert rig.sample("nonstop_controller_decisions_total", topology="wc", kind="applied") == 0
    assert rig.sample("nonstop_controller_applied_moves_total", topology="wc", policy="otd") == 0
    assert rig.sample("nonstop_controller_blocked_moves_total", topology="wc", reason="cooldown") == 0
    assert rig.sample("nonstop_controller_actions_total", topology="wc", outcome="rejected") == 0
    # An unknown gain is absent, never 0.
    assert rig.sample("nonstop_controller_predicted_gain_tuples_per_second", topology="wc") is None


def test_a_malformed_state_entry_is_an_error_of_its_topology_reported_once_and_kept(caplog):
    rig = Rig(cfg())
    state, version = rig.store.load()
    doc = state.to_doc()
    doc["topologies"]["wc"] = {"last_action_at": "soon"}
    zk.write_json(rig.store.client, rig.store.path, doc, expected_version=version)
    for _ in range(2):
        (rec,) = rig.cycle(5)
        assert rec.kind == "error" and "controller state entry unreadable: last_action_at" in rec.reason
    assert rig.cluster.plans == [] and rig.planner.calls == []
    assert sum("is malformed" in r.getMessage() for r in caplog.records) == 1
    assert rig.store.load()[0].to_doc()["topologies"]["wc"] == {"last_action_at": "soon"}


def wc_series(rig):
    return [s for f in rig.metrics.registry.collect() for s in f.samples if s.labels.get("topology") == "wc"]


def test_a_killed_topology_leaves_no_state_no_series_and_no_documents_after_the_next_cycle():
    rig = Rig(cfg())
    (rec,) = rig.cycle()
    assert rec.kind == "applied" and "wc" in rig.store.load()[0].topologies and wc_series(rig)
    assert "wc" in rig.loop.gains.waiting
    rig.cycle(5)
    assert rig.cluster.removed == [], "a running topology is kept"
    del rig.cluster.placements["wc"]
    assert rig.cycle(5) == []
    assert rig.store.load()[0].known() == set() and wc_series(rig) == [] and "wc" not in rig.loop.gains.waiting
    assert rig.cluster.removed == ["wc"]
    assert rig.store.load()[0].log, "the action log is history, not per-topology state"


def test_nothing_is_pruned_while_the_running_list_is_unreadable():
    rig = Rig(cfg())
    rig.cycle()
    del rig.cluster.placements["wc"]
    rig.cluster.list_error = "UI REST API down"
    rig.cycle(5)
    assert "wc" in rig.store.load()[0].topologies and wc_series(rig) and rig.cluster.removed == []
    rig.cluster.list_error = None
    rig.cycle(5)
    assert rig.store.load()[0].known() == set() and rig.cluster.removed == ["wc"]


def test_a_topology_known_only_from_its_decision_record_is_pruned_too():
    rig = Rig(cfg(dry_run=True))
    rig.cluster.recorded = {"old", "wc"}     # records left by a controller before a restart
    rig.cycle()
    assert rig.cluster.removed == ["old"] and rig.cluster.recorded == {"wc"}


def test_a_controller_that_lost_the_lead_prunes_nothing():
    rig = Rig(cfg())
    rig.cycle()
    del rig.cluster.placements["wc"]
    rig.loop.realizer.leading = lambda: False
    rig.cycle(5)
    assert "wc" in rig.store.load()[0].topologies and rig.cluster.removed == []


def test_a_deposed_controller_publishes_nothing_about_the_topology_and_leaves_the_action_to_the_leader():
    rig = Rig(cfg())
    rig.loop.realizer.leading = lambda: False   # lost the lead after deciding, before the plan
    with pytest.raises(Deposed):
        rig.cycle()
    assert rig.sink.records == [] and rig.cluster.plans == []
    assert rig.sample("nonstop_controller_decisions_total", topology="wc", kind="error") == 0
    assert rig.store.load()[0].pending is not None, "the write-ahead record, for the leader to recover"
