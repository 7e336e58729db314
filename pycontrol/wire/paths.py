"""Every ZooKeeper path of the suite, under /nonstop (docs/architecture.md has who writes and who reads
each). Pure: names only."""

from __future__ import annotations

ROOT = "/nonstop"
PLANS = f"{ROOT}/plans"            # /plans/<topology>: placement plans for the plan-following scheduler
DECISIONS = f"{ROOT}/decisions"    # /decisions/<topology>: what a scheduler did and why
CONTROLLER = f"{ROOT}/controller"  # the controller daemon's state and leader lock
METRICS = f"{ROOT}/metrics"        # /metrics/<topology id>/<host>-<port>: the workers' metrics documents
AGENTS = f"{ROOT}/agents"          # /agents/<host>: a supervisor agent's status record

CONTROLLER_LEADER = f"{CONTROLLER}/leader"        # the leader election's lock
CONTROLLER_EPOCH = f"{CONTROLLER}/epoch"          # the fencing epoch every leader bumps
CONTROLLER_STATE = f"{CONTROLLER}/state"          # the daemon's state (pending action, pause)
CONTROLLER_DECISIONS = f"{CONTROLLER}/decisions"  # /decisions/<topology>: the controller's decision records

# The placing schedulers' own record sits beside the plan-following scheduler's decision.
SCHEDULER_RECORD_SUFFIX = ".scheduler"


def plan(topology: str) -> str:
    return f"{PLANS}/{topology}"


def decision(topology: str) -> str:
    return f"{DECISIONS}/{topology}"


def scheduler_record(topology: str) -> str:
    return f"{DECISIONS}/{topology}{SCHEDULER_RECORD_SUFFIX}"


def agent(host: str) -> str:
    return f"{AGENTS}/{host}"


def worker_metrics(topology_id: str, host: str, port: int) -> str:
    """A worker's metrics document, as the metrics hook names it."""
    return f"{METRICS}/{topology_id}/{host}-{port}"


def under_metrics(path: str) -> bool:
    return path == METRICS or path.startswith(METRICS + "/")
