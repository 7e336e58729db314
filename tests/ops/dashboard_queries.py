"""The dashboards' panel queries as Grafana sends them, and checking them against a live Prometheus:
every query must return series, and every series must carry the labels its legend shows. Shared by
the local-cluster test (test_grafana_live.py) and the Ansible-built cluster (test_ansible_cluster.py)."""

from __future__ import annotations

import json
import re
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from tests.ops.conftest import GRAFANA_DIR

# Grafana's built-in variables, as a 30-minute dashboard at 5 s scrapes would send them.
MACROS = {"__rate_interval": "1m", "__interval": "15s", "__range": "30m"}
METRIC_NAME = re.compile(r"\b((?:nonstop|node)_\w+|up)\b")


@dataclass(frozen=True)
class PanelQuery:
    panel: str                 # "<dashboard>: <panel title>"
    expr: str                  # variables substituted
    metrics: frozenset[str]    # metric names it reads (histograms without _bucket)
    legend: frozenset[str]     # labels its legend shows: every series must carry them


def dashgen_metrics():
    """grafana/dashgen/metrics.py (the one list of metric names), importable without the ops venv."""
    sys.path.insert(0, str(GRAFANA_DIR))
    try:
        from dashgen import metrics
    finally:
        sys.path.remove(str(GRAFANA_DIR))
    return metrics


def substitute(expr: str, values: dict[str, str]) -> str:
    values = {**MACROS, **values}
    return re.sub(r"\$\{?(\w+)\}?", lambda m: values[m.group(1)], expr)


def panel_queries(variables: dict[str, str]) -> list[PanelQuery]:
    """Every target of every committed dashboard; a dashboard variable not in `variables` matches all."""
    out = []
    for path in sorted((GRAFANA_DIR / "dashboards").glob("*.json")):
        dash = json.loads(path.read_text())
        values = {v["name"]: variables.get(v["name"], ".*") for v in dash["templating"]["list"]}
        for panel in dash["panels"]:
            for t in panel.get("targets", []):
                expr = substitute(t["expr"], values)
                names = frozenset(re.sub(r"_bucket$", "", n) for n in METRIC_NAME.findall(expr))
                legend = frozenset(re.findall(r"\{\{\s*(\w+)\s*\}\}", t.get("legendFormat", "")))
                out.append(PanelQuery(f"{path.stem}: {panel['title']}", expr, names, legend))
    return out


def wait_until_answered(query: Callable[[str], list], queries: list[PanelQuery], timeout_s: float,
                        poll_s: float = 5.0) -> dict[PanelQuery, list]:
    """Polls until every query returns series; then checks their labels. Fails naming the empty ones."""
    deadline = time.monotonic() + timeout_s
    while True:
        results = {q: query(q.expr) for q in queries}
        empty = [q for q in queries if not results[q]]
        if not empty:
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(empty)} of {len(queries)} panel queries return nothing after "
                                 f"{timeout_s:.0f} s: " + "; ".join(f"{q.panel}: {q.expr}" for q in empty))
        time.sleep(poll_s)
    for q in queries:
        for series in results[q]:
            missing = q.legend - set(series["metric"])
            assert not missing, f"{q.panel}: {q.expr} returns series without {sorted(missing)}: {series['metric']}"
    return results
