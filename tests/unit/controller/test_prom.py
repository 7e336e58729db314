import re
import urllib.request


from pycontrol.controller.decisions import KINDS
from pycontrol.controller.prom import ControllerMetrics, serve
from pycontrol.controller.realize import OUTCOMES
from pycontrol.controller.safety import REASON_KINDS, reason_kind
from pycontrol.paths import REPO_ROOT

DOC = REPO_ROOT / "pycontrol" / "metrics" / "PROMETHEUS.md"


def exposed(metrics: ControllerMetrics) -> set[str]:
    names = set()
    for fam in metrics.registry.collect():
        for s in fam.samples:
            if not s.name.endswith("_created"):
                names.add(re.sub(r"_(bucket|count|sum)$", "", s.name) if fam.type == "histogram" else s.name)
    return names


def test_every_exposed_controller_metric_is_documented_and_every_documented_one_exists():
    m = ControllerMetrics()
    for kind in ("applied",):     # labelled series appear once used
        m.decisions.labels("wc", kind).inc()
    m.dry_run.labels("wc").set(1)
    m.planned_moves.labels("wc", "otd").inc()
    m.applied_moves.labels("wc", "otd").inc()
    m.blocked_moves.labels("wc", "cap").inc()
    m.actions.labels("wc", "applied").inc()
    m.predicted_gain.labels("wc").set(1)
    m.measured_gain.labels("wc").set(1)
    documented = set(re.findall(r"`(nonstop_controller_[a-z_]+)`", DOC.read_text()))
    assert exposed(m) == documented


def test_phases_are_timed_into_the_histogram_and_served_on_loopback():
    m = ControllerMetrics()
    with m.time("plan"):
        pass
    assert m.registry.get_sample_value("nonstop_controller_phase_seconds_count", {"phase": "plan"}) == 1
    assert m.registry.get_sample_value("nonstop_controller_phase_seconds_count", {"phase": "verify"}) == 0
    server, thread = serve(m, "127.0.0.1", 0)
    try:
        port = server.server_address[1]
        body = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
        assert 'nonstop_controller_phase_seconds_count{phase="plan"} 1.0' in body
    finally:
        server.shutdown()


def test_gate_reasons_become_short_labels():
    assert [reason_kind(r) for r in ("paused", "cooldown (4 s left)", "hysteresis: moved 3 s ago",
                                     "cap of 1 move(s) per cycle", "dry-run", "executor already moves this cycle",
                                     "something new")] == [
        "paused", "cooldown", "hysteresis", "cap", "dry-run", "duplicate", "other"]


def test_track_exports_every_label_value_of_a_topology_at_zero():
    m = ControllerMetrics()
    m.track("wc", "otd")
    m.track("wc", "otd")     # idempotent: nothing is reset
    m.decisions.labels("wc", "held").inc()
    m.track("wc", "otd")

    def values(name, label):
        return {s.labels[label]: s.value for fam in m.registry.collect() for s in fam.samples
                if s.name == name and s.labels.get("topology") == "wc"}

    assert values("nonstop_controller_decisions_total", "kind") == {k: (1.0 if k == "held" else 0.0) for k in KINDS}
    assert values("nonstop_controller_blocked_moves_total", "reason") == dict.fromkeys(REASON_KINDS, 0.0)
    assert values("nonstop_controller_actions_total", "outcome") == dict.fromkeys(OUTCOMES, 0.0)
    assert values("nonstop_controller_applied_moves_total", "policy") == {"otd": 0.0}
    assert values("nonstop_controller_predicted_gain_tuples_per_second", "topology") == {}


def test_every_gate_reason_maps_into_the_reason_label_range():
    assert "other" in REASON_KINDS and len(set(REASON_KINDS)) == len(REASON_KINDS)
    for reason in ("paused", "cooldown (4 s left)", "hysteresis: moved 3 s ago", "cap of 2 move(s) per cycle",
                   "dry-run", "executor already moves this cycle", "new"):
        assert reason_kind(reason) in REASON_KINDS


def test_forgetting_a_topology_removes_its_series_and_only_its():
    m = ControllerMetrics()
    for t in ("wc", "other"):
        m.track(t, "otd")
        m.dry_run.labels(t).set(0)
        m.measured_gain.labels(t).set(2.5)
    assert m.topologies() == {"wc", "other"}
    assert m.forget("wc") > 0 and m.forget("wc") == 0
    assert m.topologies() == {"other"}
    samples = [s for f in m.registry.collect() for s in f.samples]
    assert not [s for s in samples if s.labels.get("topology") == "wc"]
    assert m.registry.get_sample_value("nonstop_controller_measured_gain_tuples_per_second", {"topology": "other"}) == 2.5
