"""Small builders shared by the dashboards: every panel queries the one provisioned Prometheus."""

from __future__ import annotations

from dataclasses import dataclass

from grafana_foundation_sdk.builders import dashboard, prometheus, stat, timeseries
from grafana_foundation_sdk.models import dashboard as model

# The datasource uid is fixed by grafana/provisioning/datasources/nonstop-prometheus.yml.
DATASOURCE_UID = "nonstop-prometheus"
DATASOURCE = model.DataSourceRef(type_val="prometheus", uid=DATASOURCE_UID)


@dataclass(frozen=True)
class Query:
    expr: str
    legend: str = ""


def _targets(queries: list[Query]) -> list[prometheus.Dataquery]:
    # refIds A, B, ... (the SDK leaves refId empty otherwise).
    return [prometheus.Dataquery().expr(q.expr).legend_format(q.legend or "__auto").ref_id(chr(ord("A") + i))
            .datasource(DATASOURCE) for i, q in enumerate(queries)]


def graph(title: str, queries: list[Query], unit: str, description: str = "", width: int = 12,
          height: int = 8, stacked: bool = False) -> timeseries.Panel:
    p = (timeseries.Panel().title(title).description(description).datasource(DATASOURCE)
         .targets(_targets(queries)).unit(unit).span(width).height(height).line_width(1).fill_opacity(10))
    if stacked:
        p = p.stacking(_stacking_normal())
    return p


def _stacking_normal():
    from grafana_foundation_sdk.builders import common as common_builders
    from grafana_foundation_sdk.models import common
    return common_builders.StackingConfig().mode(common.StackingMode.NORMAL)


def single(title: str, query: Query, unit: str = "none", description: str = "", width: int = 4,
           height: int = 4) -> stat.Panel:
    return (stat.Panel().title(title).description(description).datasource(DATASOURCE)
            .targets(_targets([query])).unit(unit).span(width).height(height))


def variable(name: str, label: str, query: str, multi: bool = False) -> dashboard.QueryVariable:
    v = (dashboard.QueryVariable(name).label(label).datasource(DATASOURCE).query(query)
         .refresh(model.VariableRefresh.ON_TIME_RANGE_CHANGED).sort(model.VariableSort.ALPHABETICAL_ASC))
    if multi:
        v = v.multi(True).include_all(True).all_value(".*")
    return v


def new_dashboard(uid: str, title: str, description: str) -> dashboard.Dashboard:
    return (dashboard.Dashboard(title).uid(uid).description(description).tags(["nonstop-storm"])
            .refresh("10s").time("now-30m", "now").timezone("browser").editable())
