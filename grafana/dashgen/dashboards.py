"""The three dashboards: cluster overview, one topology, and the controller's decisions/migrations."""

from __future__ import annotations

from grafana_foundation_sdk.builders import dashboard

from dashgen import metrics as m
from dashgen.panels import Query, graph, new_dashboard, single, variable

RATE = "$__rate_interval"
TOPO = f'{m.TOPOLOGY}=~"$topology"'


def cluster_overview() -> dashboard.Dashboard:
    node_sel = f'{m.NODE}=~"$node"'
    return (
        new_dashboard("nonstop-cluster", "nonstop Storm / Cluster overview",
                      "Nodes, slots, workers, CPU and network of the whole cluster.")
        .with_variable(variable("node", "Node", f"label_values({m.NODE_CPU_SECONDS}, {m.NODE})", multi=True))
        .with_row(dashboard.Row("Cluster"))
        .with_panel(single("Nodes up", Query(f'count({m.UP}{{job="node"}} == 1)')))
        .with_panel(single("Supervisors", Query(f"max({m.CLUSTER_SUPERVISORS})")))
        .with_panel(single("Slots used", Query(f"max({m.CLUSTER_SLOTS_USED})")))
        .with_panel(single("Slots total", Query(f"max({m.CLUSTER_SLOTS_TOTAL})")))
        .with_panel(single("Workers up", Query(f"sum({m.WORKER_UP})")))
        .with_panel(single("Topologies", Query(f"count({m.TOPOLOGY_INFO})")))
        .with_row(dashboard.Row("CPU"))
        .with_panel(graph("CPU busy per node (node exporter)", [Query(
            f'1 - avg by ({m.NODE}) (rate({m.NODE_CPU_SECONDS}{{mode="idle", {node_sel}}}[{RATE}]))',
            f"{{{{{m.NODE}}}}}")], "percentunit"))
        .with_panel(graph("Topology load per node", [Query(
            f"sum by ({m.NODE}, {m.TOPOLOGY}) ({m.NODE_TOPOLOGY_LOAD})", f"{{{{{m.NODE}}}}} {{{{{m.TOPOLOGY}}}}}")],
            "none", "CPU cores used by each topology's workers (and their multilang children) on each node.",
            stacked=True))
        .with_row(dashboard.Row("Network and memory"))
        .with_panel(graph("Network per node (node exporter)", [
            Query(f'sum by ({m.NODE}) (rate({m.NODE_NET_RX_BYTES}{{device!="lo", {node_sel}}}[{RATE}]))',
                  f"{{{{{m.NODE}}}}} in"),
            Query(f'-sum by ({m.NODE}) (rate({m.NODE_NET_TX_BYTES}{{device!="lo", {node_sel}}}[{RATE}]))',
                  f"{{{{{m.NODE}}}}} out")], "Bps"))
        .with_panel(graph("Memory available per node", [Query(
            f"{m.NODE_MEM_AVAILABLE}{{{node_sel}}} / {m.NODE_MEM_TOTAL}{{{node_sel}}}", f"{{{{{m.NODE}}}}}")],
            "percentunit"))
        .with_row(dashboard.Row("Scrapes"))
        .with_panel(graph("Targets up", [Query(f"{m.UP}", "{{job}} {{instance}}")], "none"))
        .with_panel(graph("pycontrol collector", [
            Query(f"{m.COLLECTOR_UP}", f"up {{{{{m.SOURCE}}}}}"),
            Query(f"{m.COLLECTOR_ROUND}", "round seconds")], "none"))
    )


def topology() -> dashboard.Dashboard:
    by_component = f"{m.TOPOLOGY}, {m.COMPONENT}"
    return (
        new_dashboard("nonstop-topology", "nonstop Storm / Topology",
                      "Throughput, latency, inter-node traffic, capacity and queues of one topology.")
        .with_variable(variable("topology", "Topology", f"label_values({m.TOPOLOGY_INFO}, {m.TOPOLOGY})"))
        .with_row(dashboard.Row("Throughput and latency"))
        .with_panel(graph("Tuples per second", [Query(f"sum by ({m.TOPOLOGY}) ({m.TOPOLOGY_TUPLES}{{{TOPO}}})",
                                                      f"{{{{{m.TOPOLOGY}}}}}")], "ops"))
        .with_panel(graph("Executed per component", [Query(
            f"sum by ({by_component}) ({m.EXECUTOR_EXECUTED}{{{TOPO}}})", f"{{{{{m.COMPONENT}}}}}")], "ops"))
        .with_panel(graph("Complete latency (spouts)", [Query(
            f"max by ({by_component}) ({m.COMPONENT_COMPLETE_LATENCY}{{{TOPO}}})", f"{{{{{m.COMPONENT}}}}}")], "ms"))
        .with_panel(graph("Process latency (bolts)", [Query(
            f"max by ({by_component}) ({m.COMPONENT_PROCESS_LATENCY}{{{TOPO}}})", f"{{{{{m.COMPONENT}}}}}")], "ms"))
        .with_row(dashboard.Row("Placement"))
        .with_panel(graph("Inter-node and inter-worker tuple share", [
            Query(f"{m.TOPOLOGY_INTER_NODE_SHARE}{{{TOPO}}}", "inter-node"),
            Query(f"{m.TOPOLOGY_INTER_WORKER_SHARE}{{{TOPO}}}", "inter-worker")], "percentunit",
            "Fraction of the topology's tuples that cross nodes (resp. workers); what placement minimises."))
        .with_panel(graph("Node to node traffic", [Query(
            f"sum by ({m.SRC_NODE}, {m.DST_NODE}) ({m.EDGE_TUPLES}{{{TOPO}}})",
            f"{{{{{m.SRC_NODE}}}}} -> {{{{{m.DST_NODE}}}}}")], "ops"))
        .with_panel(graph("Workers up", [Query(f"sum by ({m.NODE}) ({m.WORKER_UP}{{{TOPO}}})",
                                               f"{{{{{m.NODE}}}}}")], "none", width=8))
        .with_panel(graph("Worker load", [Query(f"sum by ({m.WORKER}) ({m.WORKER_LOAD}{{{TOPO}}})",
                                                f"{{{{{m.WORKER}}}}}")], "none", width=8))
        .with_panel(graph("Lost workers", [Query(f"{m.TOPOLOGY_LOST_WORKERS}{{{TOPO}}}", "lost")], "none", width=8))
        .with_row(dashboard.Row("Components"))
        .with_panel(graph("Capacity per component (max over executors)", [Query(
            f"max by ({by_component}) ({m.EXECUTOR_CAPACITY}{{{TOPO}}})", f"{{{{{m.COMPONENT}}}}}")], "percentunit",
            "Storm's capacity: near 1 means the component's executors are saturated."))
        .with_panel(graph("Receive queue length per component", [Query(
            f"sum by ({by_component}) ({m.EXECUTOR_QUEUE}{{{TOPO}}})", f"{{{{{m.COMPONENT}}}}}")], "none"))
        .with_panel(graph("Queue fill (max over executors)", [Query(
            f"max by ({by_component}) ({m.EXECUTOR_QUEUE}{{{TOPO}}} / {m.EXECUTOR_QUEUE_CAPACITY}{{{TOPO}}})",
            f"{{{{{m.COMPONENT}}}}}")], "percentunit"))
        .with_panel(graph("CPU per component", [Query(
            f"sum by ({by_component}) ({m.EXECUTOR_CPU}{{{TOPO}}})", f"{{{{{m.COMPONENT}}}}}")], "none"))
    )


def control() -> dashboard.Dashboard:
    tuples = f"sum by ({m.TOPOLOGY}) ({m.TOPOLOGY_TUPLES}{{{TOPO}}})"
    return (
        new_dashboard("nonstop-control", "nonstop Storm / Migrations and controller",
                      "What the controller decided, planned, applied or held back, the migrations it ran, "
                      "their predicted and measured gain, and the throughput around them.")
        .with_variable(variable("topology", "Topology", f"label_values({m.TOPOLOGY_INFO}, {m.TOPOLOGY})",
                                multi=True))
        .with_row(dashboard.Row("Controller"))
        .with_panel(single("Leader", Query(f"max({m.CONTROLLER_IS_LEADER})")))
        .with_panel(single("Paused", Query(f"max({m.CONTROLLER_PAUSED})")))
        .with_panel(single("Dry run", Query(f"max({m.CONTROLLER_DRY_RUN}{{{TOPO}}})")))
        .with_panel(single("Control cycles / min", Query(f"sum(rate({m.CONTROLLER_CYCLES}[{RATE}])) * 60")))
        .with_panel(single("Migrations (1 h)", Query(
            f'sum(increase({m.CONTROLLER_ACTIONS}{{{TOPO}, {m.OUTCOME}="applied"}}[1h]))')))
        .with_panel(single("Collector up", Query(f'min({m.COLLECTOR_UP}{{{m.SOURCE}="rest"}})')))
        .with_row(dashboard.Row("Decisions"))
        .with_panel(graph("Decisions by kind", [Query(
            f"sum by ({m.KIND}) (increase({m.CONTROLLER_DECISIONS}{{{TOPO}}}[{RATE}]))", f"{{{{{m.KIND}}}}}")],
            "none", "applied, dry-run, held (the safety gate held every move), no-action, refused (stale data), "
                    "error.", stacked=True))
        .with_panel(graph("Moves planned and applied", [
            Query(f"sum by ({m.TOPOLOGY}, {m.POLICY}) (increase({m.CONTROLLER_PLANNED_MOVES}{{{TOPO}}}[{RATE}]))",
                  f"planned {{{{{m.TOPOLOGY}}}}} ({{{{{m.POLICY}}}}})"),
            Query(f"sum by ({m.TOPOLOGY}, {m.POLICY}) (increase({m.CONTROLLER_APPLIED_MOVES}{{{TOPO}}}[{RATE}]))",
                  f"applied {{{{{m.TOPOLOGY}}}}} ({{{{{m.POLICY}}}}})")], "none"))
        .with_panel(graph("Moves held back by the safety gate", [Query(
            f"sum by ({m.REASON}) (increase({m.CONTROLLER_BLOCKED_MOVES}{{{TOPO}}}[{RATE}]))",
            f"{{{{{m.REASON}}}}}")], "none",
            "dry-run, paused, cooldown, cap per cycle, hysteresis: why a planned move was not applied.", stacked=True))
        .with_panel(graph("Controller phase time (p95)", [Query(
            f"histogram_quantile(0.95, sum by (le, {m.PHASE}) (rate({m.CONTROLLER_PHASE_SECONDS}_bucket[{RATE}])))",
            f"{{{{{m.PHASE}}}}}")], "s",
            "collect, evaluate, plan, gate; realize and verify when a migration ran in the interval."))
        .with_row(dashboard.Row("Migrations"))
        .with_panel(graph("Migrations by outcome", [Query(
            f"sum by ({m.OUTCOME}) (increase({m.CONTROLLER_ACTIONS}{{{TOPO}}}[{RATE}]))", f"{{{{{m.OUTCOME}}}}}")],
            "none", "Actions sent to the cluster: applied, unchanged, rejected by the scheduler, not-converged, "
                    "gone, error.", stacked=True))
        .with_panel(graph("Predicted vs measured gain", [
            Query(f"{m.CONTROLLER_PREDICTED_GAIN}{{{TOPO}}}", f"predicted {{{{{m.TOPOLOGY}}}}}"),
            Query(f"{m.CONTROLLER_MEASURED_GAIN}{{{TOPO}}}", f"measured {{{{{m.TOPOLOGY}}}}}")], "ops",
            "Inter-node tuples/s the last applied migration was predicted to save, and what it saved once every "
            "metrics window postdated it."))
        .with_panel(graph("Degradation: throughput vs its 15-minute peak", [Query(
            f"{tuples} / max_over_time({tuples}[15m:])", f"{{{{{m.TOPOLOGY}}}}}")], "percentunit",
            "Below 100 % the topology moves fewer tuples than it did lately: the dip a migration causes "
            "(a nonstop migration should leave none)."))
        .with_panel(graph("Throughput around migrations", [Query(tuples, f"{{{{{m.TOPOLOGY}}}}}")], "ops",
                          "Tuples per second of the selected topologies."))
    )


ALL = {"cluster-overview": cluster_overview, "topology": topology, "control": control}
