"""Every metric and label name the dashboards use, in one place, so a rename is one edit here.

Sources (all documented in pycontrol/metrics/PROMETHEUS.md, except the node exporter's):
  EXPORTER    pycontrol's exporter (`pycontrol metrics serve`, pycontrol/metrics/prometheus.py),
              scraped as job "pycontrol": Storm's executors, workers, traffic, latencies and slots.
  NODE        Prometheus' node exporter (Debian prometheus-node-exporter 1.5), job "node"; every target
              carries the label node=<host address>, the value EXPORTER's node label has for the same
              host (ansible/roles/prometheus).
  CONTROLLER  the controller daemon's own endpoint (`pycontrol run --metrics-port`,
              pycontrol/controller/prom.py), job "controller".
tests/ops/test_grafana_live.py runs every panel's query against a real Prometheus scraping all three.
"""

from __future__ import annotations

# --- labels ------------------------------------------------------------------------------------
TOPOLOGY = "topology"
COMPONENT = "component"
NODE = "node"              # a host's cluster address, in both sources
WORKER = "worker"
SRC_NODE = "src_node"
DST_NODE = "dst_node"
SOURCE = "source"          # nonstop_collector_up

# --- pycontrol exporter (EXPORTER) --------------------------------------------------------------
TOPOLOGY_INFO = "nonstop_topology_info"
TOPOLOGY_TUPLES = "nonstop_topology_tuples_per_second"
TOPOLOGY_INTER_NODE_SHARE = "nonstop_topology_inter_node_tuple_share"
TOPOLOGY_INTER_WORKER_SHARE = "nonstop_topology_inter_worker_tuple_share"
TOPOLOGY_LOST_WORKERS = "nonstop_topology_lost_workers"
EXECUTOR_EXECUTED = "nonstop_executor_executed_tuples_per_second"
EXECUTOR_EMITTED = "nonstop_executor_emitted_tuples_per_second"
EXECUTOR_CAPACITY = "nonstop_executor_capacity"
EXECUTOR_QUEUE = "nonstop_executor_receive_queue_length"
EXECUTOR_QUEUE_CAPACITY = "nonstop_executor_receive_queue_capacity"
EXECUTOR_CPU = "nonstop_executor_cpu_cores"
EDGE_TUPLES = "nonstop_edge_tuples_per_second"
WORKER_UP = "nonstop_worker_up"
WORKER_LOAD = "nonstop_worker_load_cores"
NODE_CPU_COUNT = "nonstop_node_cpu_count"
NODE_CPU_UTILIZATION = "nonstop_node_cpu_utilization"
NODE_NET_RX = "nonstop_node_network_receive_bytes_per_second"
NODE_NET_TX = "nonstop_node_network_transmit_bytes_per_second"
NODE_TOPOLOGY_LOAD = "nonstop_node_topology_load_cores"
COLLECTOR_UP = "nonstop_collector_up"
COLLECTOR_ROUND = "nonstop_collector_round_seconds"

# --- node exporter (NODE) -----------------------------------------------------------------------
NODE_CPU_SECONDS = "node_cpu_seconds_total"
NODE_NET_RX_BYTES = "node_network_receive_bytes_total"
NODE_NET_TX_BYTES = "node_network_transmit_bytes_total"
NODE_MEM_AVAILABLE = "node_memory_MemAvailable_bytes"
NODE_MEM_TOTAL = "node_memory_MemTotal_bytes"
UP = "up"

# --- pycontrol exporter (EXPORTER), cluster and component figures from the UI REST API -----------
CLUSTER_SUPERVISORS = "nonstop_cluster_supervisors"
CLUSTER_SLOTS_TOTAL = "nonstop_cluster_slots_total"
CLUSTER_SLOTS_USED = "nonstop_cluster_slots_used"
COMPONENT_COMPLETE_LATENCY = "nonstop_component_complete_latency_ms"    # spouts
COMPONENT_PROCESS_LATENCY = "nonstop_component_process_latency_ms"      # bolts

# --- the controller daemon (CONTROLLER) ---------------------------------------------------------
CONTROLLER_CYCLES = "nonstop_controller_cycles_total"
CONTROLLER_IS_LEADER = "nonstop_controller_is_leader"
CONTROLLER_PAUSED = "nonstop_controller_paused"
CONTROLLER_DRY_RUN = "nonstop_controller_dry_run"                       # {topology}
CONTROLLER_DECISIONS = "nonstop_controller_decisions_total"             # {topology, kind}
CONTROLLER_PLANNED_MOVES = "nonstop_controller_planned_moves_total"     # {topology, policy}
CONTROLLER_APPLIED_MOVES = "nonstop_controller_applied_moves_total"     # {topology, policy}
CONTROLLER_BLOCKED_MOVES = "nonstop_controller_blocked_moves_total"     # {topology, reason}
CONTROLLER_ACTIONS = "nonstop_controller_actions_total"                 # {topology, outcome}: migrations
CONTROLLER_PREDICTED_GAIN = "nonstop_controller_predicted_gain_tuples_per_second"   # {topology}
CONTROLLER_MEASURED_GAIN = "nonstop_controller_measured_gain_tuples_per_second"     # {topology}
CONTROLLER_PHASE_SECONDS = "nonstop_controller_phase_seconds"           # histogram {phase}
KIND = "kind"
POLICY = "policy"
REASON = "reason"
OUTCOME = "outcome"
PHASE = "phase"

EXPORTER = [TOPOLOGY_INFO, TOPOLOGY_TUPLES, TOPOLOGY_INTER_NODE_SHARE, TOPOLOGY_INTER_WORKER_SHARE,
            TOPOLOGY_LOST_WORKERS, EXECUTOR_EXECUTED, EXECUTOR_EMITTED, EXECUTOR_CAPACITY, EXECUTOR_QUEUE,
            EXECUTOR_QUEUE_CAPACITY, EXECUTOR_CPU, EDGE_TUPLES, WORKER_UP, WORKER_LOAD, NODE_CPU_COUNT,
            NODE_CPU_UTILIZATION, NODE_NET_RX, NODE_NET_TX, NODE_TOPOLOGY_LOAD, COLLECTOR_UP, COLLECTOR_ROUND,
            CLUSTER_SUPERVISORS, CLUSTER_SLOTS_TOTAL, CLUSTER_SLOTS_USED, COMPONENT_COMPLETE_LATENCY,
            COMPONENT_PROCESS_LATENCY]
NODE_EXPORTER = [NODE_CPU_SECONDS, NODE_NET_RX_BYTES, NODE_NET_TX_BYTES, NODE_MEM_AVAILABLE, NODE_MEM_TOTAL, UP]
CONTROLLER = [CONTROLLER_CYCLES, CONTROLLER_IS_LEADER, CONTROLLER_PAUSED, CONTROLLER_DRY_RUN, CONTROLLER_DECISIONS,
              CONTROLLER_PLANNED_MOVES, CONTROLLER_APPLIED_MOVES, CONTROLLER_BLOCKED_MOVES, CONTROLLER_ACTIONS,
              CONTROLLER_PREDICTED_GAIN, CONTROLLER_MEASURED_GAIN, CONTROLLER_PHASE_SECONDS]
# Set only once the controller has applied an action (and, for the measured one, seen its effect):
# a deployment that never moves anything (dry-run) leaves them absent.
AFTER_AN_APPLIED_ACTION = [CONTROLLER_PREDICTED_GAIN, CONTROLLER_MEASURED_GAIN]
