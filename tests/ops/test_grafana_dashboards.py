"""The Grafana dashboards (grafana/): generated JSON is current, structurally sound, and every panel
query parses as PromQL (promtool). Grafana itself is not needed (nor obtainable here)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from tests.ops.conftest import GRAFANA_DIR, ops_bin, run, system_tool
from tests.ops.dashboard_queries import MACROS, dashgen_metrics, panel_queries

pytestmark = pytest.mark.ops

DASHBOARDS = sorted((GRAFANA_DIR / "dashboards").glob("*.json"))
GRID_COLUMNS = 24


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def provisioned_datasource_uid() -> str:
    prov = yaml.safe_load((GRAFANA_DIR / "provisioning" / "datasources" / "nonstop-prometheus.yml").read_text())
    (ds,) = prov["datasources"]
    assert ds["type"] == "prometheus"
    return ds["uid"]


def targets(dash: dict) -> list[tuple[str, dict]]:
    return [(p["title"], t) for p in dash["panels"] for t in p.get("targets", [])]


def test_there_are_three_dashboards():
    assert [p.name for p in DASHBOARDS] == ["cluster-overview.json", "control.json", "topology.json"]


def test_committed_json_is_what_the_generator_writes(tmp_path):
    python = ops_bin("python")
    assert run([python, GRAFANA_DIR / "generate.py", "--check"]).returncode == 0, \
        "grafana/dashboards is stale: run .venv-ops/bin/python grafana/generate.py"
    # --check really compares: a changed file makes it fail.
    out = tmp_path / "dashboards"
    assert run([python, GRAFANA_DIR / "generate.py", "--out", out]).returncode == 0
    (out / "topology.json").write_text((out / "topology.json").read_text().replace("Topology", "Topologie", 1))
    assert run([python, GRAFANA_DIR / "generate.py", "--check", "--out", out]).returncode == 1


def test_dashboards_round_trip_through_the_sdk_models():
    script = ("import json,sys\nfrom grafana_foundation_sdk.models.dashboard import Dashboard\n"
              "for f in sys.argv[1:]:\n    d = Dashboard.from_json(json.load(open(f)))\n"
              "    assert d.uid and d.panels, f\n    print(d.uid, len(d.panels))")
    p = run([ops_bin("python"), "-c", script, *DASHBOARDS])
    assert p.returncode == 0, p.stderr
    assert sorted(line.split()[0] for line in p.stdout.splitlines()) == [
        "nonstop-cluster", "nonstop-control", "nonstop-topology"]


@pytest.mark.parametrize("path", DASHBOARDS, ids=lambda p: p.stem)
def test_panels_have_unique_ids_and_fit_the_grid_without_overlap(path):
    panels = load(path)["panels"]
    ids = [p["id"] for p in panels]
    assert len(ids) == len(set(ids)) and all(i > 0 for i in ids)
    cells: dict[tuple[int, int], str] = {}
    for p in panels:
        g = p["gridPos"]
        assert g["x"] >= 0 and g["w"] > 0 and g["x"] + g["w"] <= GRID_COLUMNS, (p["title"], g)
        for x in range(g["x"], g["x"] + g["w"]):
            for y in range(g["y"], g["y"] + g["h"]):
                assert (x, y) not in cells, f"{p['title']} overlaps {cells[(x, y)]}"
                cells[(x, y)] = p["title"]


@pytest.mark.parametrize("path", DASHBOARDS, ids=lambda p: p.stem)
def test_every_query_uses_the_provisioned_datasource_and_defined_variables(path):
    dash = load(path)
    uid = provisioned_datasource_uid()
    defined = {v["name"] for v in dash["templating"]["list"]}
    assert all(v["datasource"]["uid"] == uid for v in dash["templating"]["list"] if v["type"] == "query")
    panels_with_queries = [p for p in dash["panels"] if p["type"] != "row"]
    assert panels_with_queries and all(p["datasource"]["uid"] == uid and p.get("targets") for p in panels_with_queries)
    for p in panels_with_queries:
        ref_ids = [t["refId"] for t in p["targets"]]
        assert all(ref_ids) and len(ref_ids) == len(set(ref_ids)), (p["title"], ref_ids)
    for title, t in targets(dash):
        assert t["datasource"]["uid"] == uid, title
        used = set(re.findall(r"\$\{?(\w+)\}?", t["expr"])) - set(MACROS)
        assert used <= defined, f"{title}: {used - defined} not defined in templating"


def test_dashboard_uids_and_titles_are_unique():
    dashes = [load(p) for p in DASHBOARDS]
    assert len({d["uid"] for d in dashes}) == len({d["title"] for d in dashes}) == len(dashes)


def all_exprs() -> list[tuple[str, str]]:
    return [(q.panel, q.expr) for q in panel_queries({})]


def promtool_check(exprs: list[tuple[str, str]], tmp_path: Path) -> tuple[int, str]:
    # One recording rule per query: `promtool check rules` parses every expression, offline.
    rules = {"groups": [{"name": "dashboards", "rules": [
        {"record": f"dashboard:query_{i}", "expr": expr, "labels": {"panel": title}}
        for i, (title, expr) in enumerate(exprs)]}]}
    f = tmp_path / "rules.yml"
    f.write_text(yaml.safe_dump(rules, sort_keys=False))
    p = run([system_tool("promtool"), "check", "rules", f])
    return p.returncode, p.stdout + p.stderr


def test_every_panel_query_parses_as_promql(tmp_path):
    exprs = all_exprs()
    assert len(exprs) > 30
    rc, out = promtool_check(exprs, tmp_path)
    assert rc == 0, out
    assert f"SUCCESS: {len(exprs)} rules found" in out


def test_promtool_check_catches_a_broken_query(tmp_path):
    rc, out = promtool_check([("broken", "sum(rate(x[1m])")], tmp_path)
    assert rc != 0 and "unclosed left parenthesis" in out


def test_every_metric_a_panel_reads_is_exported_and_documented():
    """A rename on the exporter or controller side shows up here, not as empty panels."""
    metrics = dashgen_metrics()
    documented = set(re.findall(r"`(nonstop_\w+)`", (GRAFANA_DIR.parent / "pycontrol" / "metrics" / "PROMETHEUS.md").read_text()))
    assert set(metrics.EXPORTER) | set(metrics.CONTROLLER) <= documented, \
        (set(metrics.EXPORTER) | set(metrics.CONTROLLER)) - documented
    known = set(metrics.EXPORTER) | set(metrics.CONTROLLER) | set(metrics.NODE_EXPORTER)
    used = {n for q in panel_queries({}) for n in q.metrics}
    assert used <= known, f"panels read metrics nothing exports: {used - known}"
    assert set(metrics.CONTROLLER) <= used, "every controller metric has a panel"


def test_the_controller_dashboard_shows_moves_degradation_and_both_gains():
    metrics = dashgen_metrics()
    control = [q for q in panel_queries({}) if q.panel.startswith("control: ")]
    read = {n for q in control for n in q.metrics}
    assert {metrics.CONTROLLER_PLANNED_MOVES, metrics.CONTROLLER_APPLIED_MOVES, metrics.CONTROLLER_ACTIONS,
            metrics.CONTROLLER_PREDICTED_GAIN, metrics.CONTROLLER_MEASURED_GAIN, metrics.TOPOLOGY_TUPLES} <= read
    (gain,) = {q.panel for q in control if metrics.CONTROLLER_MEASURED_GAIN in q.metrics}
    assert {q.panel for q in control if metrics.CONTROLLER_PREDICTED_GAIN in q.metrics} == {gain}
    assert any("max_over_time" in q.expr and metrics.TOPOLOGY_TUPLES in q.metrics for q in control)
