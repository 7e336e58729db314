"""The Grafana dashboards (grafana/): generated JSON is current, structurally sound, and every panel
query parses as PromQL (promtool). Grafana itself is not needed (nor obtainable here)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from tests.ops.conftest import GRAFANA_DIR, ops_bin, run, system_tool

pytestmark = pytest.mark.ops

DASHBOARDS = sorted((GRAFANA_DIR / "dashboards").glob("*.json"))
GRID_COLUMNS = 24
# Grafana's built-in variables and the values a query gets for checking.
MACROS = {"__rate_interval": "1m", "__interval": "15s", "__range": "30m"}


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def provisioned_datasource_uid() -> str:
    prov = yaml.safe_load((GRAFANA_DIR / "provisioning" / "datasources" / "nonstop-prometheus.yml").read_text())
    (ds,) = prov["datasources"]
    assert ds["type"] == "prometheus"
    return ds["uid"]


def targets(dash: dict) -> list[tuple[str, dict]]:
    return [(p["title"], t) for p in dash["panels"] for t in p.get("targets", [])]


def substitute(expr: str, variables: dict[str, str]) -> str:
    """Grafana's $var / ${var} replaced by a value, as Grafana does before sending the query."""
    values = {**MACROS, **variables}
    return re.sub(r"\$\{?(\w+)\}?", lambda m: values[m.group(1)], expr)


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
    out = []
    for path in DASHBOARDS:
        dash = load(path)
        values = {v["name"]: ".*" for v in dash["templating"]["list"]}
        out += [(f"{path.stem}: {title}", substitute(t["expr"], values)) for title, t in targets(dash)]
    return out


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


def test_exporter_metric_names_are_those_pycontrol_documents():
    """A rename on the exporter side shows up here, not as empty panels."""
    import sys

    sys.path.insert(0, str(GRAFANA_DIR))
    try:
        from dashgen import metrics
    finally:
        sys.path.remove(str(GRAFANA_DIR))
    documented = set(re.findall(r"`(nonstop_\w+)`", (GRAFANA_DIR.parent / "pycontrol" / "metrics" / "PROMETHEUS.md").read_text()))
    assert set(metrics.EXPORTER) <= documented, set(metrics.EXPORTER) - documented
    assert not set(metrics.ASSUMED) & documented, "now exported: move them from ASSUMED to EXPORTER"
