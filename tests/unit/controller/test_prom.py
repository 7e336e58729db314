import re
import urllib.request


from pycontrol.controller.prom import ControllerMetrics, serve
from pycontrol.controller.safety import reason_kind
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
